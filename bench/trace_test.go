package bench

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/adjlist/adjlist"
)

// BenchmarkTracing measures what adjlist.Options.TracerProvider costs per
// call on the client-side operations of BenchmarkClient (canned
// responses, no server): tracing=off is the default (no provider, the
// impl=adjlist rows), noop OpenTelemetry's no-op provider, and sdk the
// OpenTelemetry SDK's provider sampling every span into an exporter that
// drops them, which prices the spans themselves and the per-request
// middleware that fills their attributes.
func BenchmarkTracing(b *testing.B) {
	ctx := context.Background()
	sdk := trace.NewTracerProvider(trace.WithSyncer(tracetest.NewNoopExporter()))
	b.Cleanup(func() { _ = sdk.Shutdown(ctx) })
	providers := []struct {
		name string
		opt  func(*adjlist.Options)
	}{
		{"off", func(*adjlist.Options) {}},
		{"noop", func(o *adjlist.Options) { o.TracerProvider = noop.NewTracerProvider() }},
		{"sdk", func(o *adjlist.Options) { o.TracerProvider = sdk }},
	}
	for _, op := range clientOps {
		switch op.name {
		case "put", "get", "from1", "from100":
		default:
			continue
		}
		b.Run("op="+op.name, func(b *testing.B) {
			for _, pr := range providers {
				b.Run("tracing="+pr.name, func(b *testing.B) {
					p := NewAdjList(NewCannedClient(NewCanned(op.bodies)), Table, pr.opt)
					measure(b, func() (any, error) { return op.run(ctx, p) })
				})
			}
		})
	}
}
