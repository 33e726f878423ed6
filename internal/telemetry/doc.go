// Package telemetry is what adjlist's calls report, and how: one
// OpenTelemetry span per library call (Begin), the text a span records
// of a failure (Text), and the middleware that asks DynamoDB for each
// request's consumed capacity and adds it up, with the request count,
// for the call's span and for the Usage of the context it was made with
// (CallOpts). The root package's Usage, WithUsage and
// Options.TracerProvider are its public face.
package telemetry
