package exampleutil

import (
	"context"
	"flag"
	"io"

	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// tracerKey is the context key of the TracerProvider -trace installs.
type tracerKey struct{}

// TracerProvider returns the OpenTelemetry TracerProvider that -trace
// installed for the run ctx belongs to, nil without -trace: what the
// example passes to adjlist.Options.TracerProvider.
func TracerProvider(ctx context.Context) trace.TracerProvider {
	tp, _ := ctx.Value(tracerKey{}).(trace.TracerProvider)
	return tp
}

// traceFlag defines -trace on fs for an example with Traced set, and
// returns its value: false, and no flag, for the others.
func (ex Example) traceFlag(fs *flag.FlagSet) *bool {
	if !ex.Traced {
		return new(bool)
	}
	return fs.Bool("trace", false, "print every adjlist call's OpenTelemetry span as it ends, one JSON object a line (stdouttrace)")
}

// traceUsage is -trace in the usage line of an example with Traced set.
func (ex Example) traceUsage() string {
	if !ex.Traced {
		return ""
	}
	return " [-trace]"
}

// startTracing returns ctx carrying an OpenTelemetry SDK TracerProvider
// that writes each span to w as it ends, one JSON object a line
// (stdouttrace, every span sampled), and the function that shuts it
// down.
func startTracing(ctx context.Context, w io.Writer) (context.Context, func(context.Context) error, error) {
	exp, err := stdouttrace.New(stdouttrace.WithWriter(w))
	if err != nil {
		return ctx, nil, err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	return context.WithValue(ctx, tracerKey{}, trace.TracerProvider(tp)), tp.Shutdown, nil
}
