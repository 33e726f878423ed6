package telemetry

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.39.0"
	"go.opentelemetry.io/otel/trace"
)

// tracerName is the instrumentation scope of the spans a table opens:
// the module's path, as OpenTelemetry asks of instrumentation libraries.
const tracerName = "github.com/adjlist/adjlist"

// The attributes adjlist adds to its spans beside the semantic
// conventions'.
const (
	// requestsKey counts the DynamoDB requests a call made (an operation
	// the SDK retried counts once), as adjlist.UsageTotals.Requests does.
	requestsKey = attribute.Key("adjlist.requests")
	// itemsKey counts the items DynamoDB returned to a call's reads.
	itemsKey = attribute.Key("adjlist.items")
)

// Span is one library call's span and what its requests add up to. A nil
// *Span is the span of a table without a TracerProvider (or of a call made
// inside another call's span): every method is a no-op on it, so an
// untraced call pays one nil check and allocates nothing.
type Span struct {
	s trace.Span
	// usage is the Usage of the context the call was made with, which
	// the span's context value hides from CallOpts.
	usage *Usage
	// quiet marks a span that records nothing (not sampled, or a no-op
	// provider's): its requests get no middleware for it.
	quiet bool
	// own renders the errors of the package that opened the span (Text).
	own OwnText

	mu       sync.Mutex
	requests int
	items    int
	index    string // the first secondary index a request read
	// capacity sums the consumed capacity DynamoDB reported, per table,
	// in the order the tables were first seen.
	capacity []consumed
	// err is an error an iterator yielded, recorded by Failed.
	err error
}

// consumed is the capacity one call consumed on one table, serialised as
// DynamoDB's ConsumedCapacity is (aws.dynamodb.consumed_capacity).
type consumed struct {
	CapacityUnits      *float64 `json:"CapacityUnits,omitempty"`
	ReadCapacityUnits  *float64 `json:"ReadCapacityUnits,omitempty"`
	WriteCapacityUnits *float64 `json:"WriteCapacityUnits,omitempty"`
	TableName          string   `json:"TableName"`
}

// Tracer returns the tracer of the table named table and the options
// every span of its calls starts with; both nil when tp is nil (no
// tracing).
func Tracer(tp trace.TracerProvider, table string) (trace.Tracer, []trace.SpanStartOption) {
	if tp == nil {
		return nil, nil
	}
	return tp.Tracer(tracerName, trace.WithSchemaURL(semconv.SchemaURL)), []trace.SpanStartOption{
		trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(semconv.DBSystemNameAWSDynamoDB, semconv.AWSDynamoDBTableNames(table)),
	}
}

// Begin opens, with tracer and its options start (Tracer's), the span of
// the library call op ("Edge.Put") and returns the context that carries
// it: pass that context to every request of the call, so the SDK's own
// spans nest under it and CallOpts adds the requests' figures to it.
// index, if known, is the secondary index the call reads; own renders
// the caller's own errors when the span ends with one (Text). Within
// another call's span (a call made by another one) it returns ctx and a
// nil span.
func Begin(ctx context.Context, tracer trace.Tracer, start []trace.SpanStartOption, op, index string, own OwnText) (context.Context, *Span) {
	prev := ctx.Value(callKey{})
	if _, nested := prev.(*Span); nested {
		return ctx, nil
	}
	sp := &Span{index: index, own: own}
	sp.usage, _ = prev.(*Usage)
	opts := start
	if index != "" {
		opts = append(opts[:len(opts):len(opts)], trace.WithAttributes(semconv.AWSDynamoDBIndexName(index)))
	}
	ctx, sp.s = tracer.Start(ctx, op, opts...)
	sp.quiet = !sp.s.IsRecording()
	return context.WithValue(ctx, callKey{}, sp), sp
}

// End ends the span with the error *errp (errp may be nil), or else the
// one Failed recorded: with an error the span's status is Error and it
// records the error as an event. It sets the figures the call's requests
// added up to.
func (s *Span) End(errp *error) {
	if s == nil {
		return
	}
	var err error
	if errp != nil {
		err = *errp
	}
	s.finish(err)
}

// Done ends the span with err, as End does, and returns err.
func (s *Span) Done(err error) error {
	if s != nil {
		s.finish(err)
	}
	return err
}

// Failed records err as the call's error, for End, and returns it: the
// error an iterator yields.
func (s *Span) Failed(err error) error {
	if s != nil && err != nil {
		s.mu.Lock()
		s.err = err
		s.mu.Unlock()
	}
	return err
}

func (s *Span) finish(err error) {
	if s.quiet {
		s.s.End()
		return
	}
	s.mu.Lock()
	if err == nil {
		err = s.err
	}
	attrs := []attribute.KeyValue{requestsKey.Int(s.requests), itemsKey.Int(s.items)}
	if s.index != "" {
		attrs = append(attrs, semconv.AWSDynamoDBIndexName(s.index))
	}
	if len(s.capacity) > 0 {
		cc := make([]string, 0, len(s.capacity))
		for _, c := range s.capacity {
			b, _ := json.Marshal(c) // numbers and a string: cannot fail
			cc = append(cc, string(b))
		}
		attrs = append(attrs, semconv.AWSDynamoDBConsumedCapacity(cc...))
	}
	s.mu.Unlock()
	if err != nil {
		// As RecordError, but with the error's text for spans.
		text := Text(err, s.own)
		attrs = append(attrs, semconv.ErrorTypeKey.String(errorType(err)))
		s.s.AddEvent(semconv.ExceptionEventName, trace.WithAttributes(
			semconv.ExceptionType(typeName(err)),
			semconv.ExceptionMessage(text),
		))
		s.s.SetStatus(codes.Error, text)
	}
	s.s.SetAttributes(attrs...)
	s.s.End()
}

// addCall adds one request's figures: the items it returned, the index it
// read, if any, and the capacity DynamoDB reported.
func (s *Span) addCall(items int, index string, ccs []*types.ConsumedCapacity) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	s.items += items
	if s.index == "" {
		s.index = index
	}
	for _, cc := range ccs {
		if cc == nil {
			continue
		}
		name := ""
		if cc.TableName != nil {
			name = *cc.TableName
		}
		i := 0
		for i < len(s.capacity) && s.capacity[i].TableName != name {
			i++
		}
		if i == len(s.capacity) {
			s.capacity = append(s.capacity, consumed{TableName: name})
		}
		c := &s.capacity[i]
		c.CapacityUnits = addUnits(c.CapacityUnits, cc.CapacityUnits)
		c.ReadCapacityUnits = addUnits(c.ReadCapacityUnits, cc.ReadCapacityUnits)
		c.WriteCapacityUnits = addUnits(c.WriteCapacityUnits, cc.WriteCapacityUnits)
	}
}

// addUnits adds v to sum; both nil is nil (DynamoDB did not report it).
func addUnits(sum, v *float64) *float64 {
	if v == nil {
		return sum
	}
	total := *v
	if sum != nil {
		total += *sum
	}
	return &total
}
