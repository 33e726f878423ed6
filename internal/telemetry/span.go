package telemetry

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.39.0"
	"go.opentelemetry.io/otel/trace"
)

// tracerName is the module's path, as OpenTelemetry asks of libraries.
const tracerName = "github.com/adjlist/adjlist"

// Span attributes beside the semantic conventions'.
const (
	// requestsKey counts as adjlist.UsageTotals.Requests (a retried
	// operation once).
	requestsKey = attribute.Key("adjlist.requests")
	itemsKey    = attribute.Key("adjlist.items") // items returned to reads
)

// Span is one library call's span and its requests' totals. A nil *Span
// (no TracerProvider, or a call inside another's span) is a no-op: an
// untraced call pays one nil check and allocates nothing.
type Span struct {
	s     trace.Span
	usage *Usage // the call context's, which the span's value hides
	quiet bool   // records nothing (not sampled, no-op provider)
	own   OwnText

	mu       sync.Mutex
	requests int
	items    int
	index    string     // the first secondary index a request read
	capacity []consumed // per table, in the order first seen
	err      error      // recorded by Failed
}

// consumed is one table's capacity, serialised as DynamoDB's
// ConsumedCapacity (aws.dynamodb.consumed_capacity).
type consumed struct {
	CapacityUnits      *float64 `json:"CapacityUnits,omitempty"`
	ReadCapacityUnits  *float64 `json:"ReadCapacityUnits,omitempty"`
	WriteCapacityUnits *float64 `json:"WriteCapacityUnits,omitempty"`
	TableName          string   `json:"TableName"`
}

// Tracer returns table's tracer and its spans' start options; nil for a
// nil tp.
func Tracer(tp trace.TracerProvider, table string) (trace.Tracer, []trace.SpanStartOption) {
	if tp == nil {
		return nil, nil
	}
	return tp.Tracer(tracerName, trace.WithSchemaURL(semconv.SchemaURL)), []trace.SpanStartOption{
		trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(semconv.DBSystemNameAWSDynamoDB, semconv.AWSDynamoDBTableNames(table)),
	}
}

// Begin opens the span of call op ("Edge.Put") and returns the context
// carrying it, for every request of the call (the SDK's spans nest under
// it; CallOpts adds to it). index is the secondary index read, if known;
// own renders the caller's errors (Text). Within another call's span it
// returns ctx and a nil span.
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

// End ends the span with *errp (errp may be nil), else Failed's error,
// recorded as status Error and an event, and sets the requests' totals.
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

// Failed records an iterator's err for End, and returns it.
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
		name := aws.ToString(cc.TableName)
		i := slices.IndexFunc(s.capacity, func(c consumed) bool { return c.TableName == name })
		if i < 0 {
			i = len(s.capacity)
			s.capacity = append(s.capacity, consumed{TableName: name})
		}
		c := &s.capacity[i]
		c.CapacityUnits = addUnits(c.CapacityUnits, cc.CapacityUnits)
		c.ReadCapacityUnits = addUnits(c.ReadCapacityUnits, cc.ReadCapacityUnits)
		c.WriteCapacityUnits = addUnits(c.WriteCapacityUnits, cc.WriteCapacityUnits)
	}
}

// addUnits adds v to sum; nil when neither was reported.
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
