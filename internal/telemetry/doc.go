// Package telemetry is what adjlist's calls report: a span per library
// call (Begin) with a failure's text (Text), and the middleware adding up
// each request's consumed capacity for the span and the context's Usage
// (CallOpts). adjlist's Usage, WithUsage and Options.TracerProvider are
// its public face.
package telemetry
