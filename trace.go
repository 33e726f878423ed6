package adjlist

import (
	"context"
	"slices"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/adjlist/adjlist/internal/telemetry"
)

// startSpan opens the span of the library call op, named as its errors'
// [OpError].Op; pass the context it returns to every request of the call,
// so the SDK's spans nest under it. On a table without a TracerProvider,
// or within another call's span (the Query.Page of a DeleteNode), it
// returns ctx and a nil span, allocating nothing.
func (t *Table) startSpan(ctx context.Context, op string) (context.Context, *telemetry.Span) {
	if t == nil || t.tracer == nil {
		return ctx, nil
	}
	return t.beginSpan(ctx, op, "")
}

// beginSpan is startSpan on a traced table; index, if known, is the
// secondary index the call reads.
func (t *Table) beginSpan(ctx context.Context, op, index string) (context.Context, *telemetry.Span) {
	return telemetry.Begin(ctx, t.tracer, t.spanStart, op, index, spanText)
}

// spanText is the text a span records of this package's own errors, which
// name at most keys (spans may show them); ok is false for any other error.
func spanText(err error) (text string, ok bool) {
	switch e := err.(type) {
	case *OpError:
		return e.format(telemetry.Text(e.Err, spanText)), true
	case *ThrottlingError:
		return e.format(telemetry.Text(e.Err, spanText)), true
	case *KeyError, *NodeNotFoundError:
		return err.Error(), true
	}
	if slices.Contains(errs.Sentinels, err) {
		return err.Error(), true
	}
	return "", false
}
