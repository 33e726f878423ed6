package adjlist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.39.0"
	"go.opentelemetry.io/otel/trace"
)

// tracerName is the instrumentation scope of the spans a [Table] opens:
// the module's path, as OpenTelemetry asks of instrumentation libraries.
const tracerName = "github.com/adjlist/adjlist"

// The attributes adjlist adds to its spans beside the semantic
// conventions' (see [Options].TracerProvider).
const (
	// requestsKey counts the DynamoDB requests a call made (an operation
	// the SDK retried counts once), as [Usage.Requests] does.
	requestsKey = attribute.Key("adjlist.requests")
	// itemsKey counts the items DynamoDB returned to a call's reads.
	itemsKey = attribute.Key("adjlist.items")
)

// span is one library call's span and what its requests add up to. A nil
// *span is the span of a table without a TracerProvider (or of a call made
// inside another call's span): every method is a no-op on it, so an
// untraced call pays one nil check and allocates nothing.
type span struct {
	s trace.Span
	// usage is the Usage of the context the call was made with, which
	// the span's context value hides from callOpts.
	usage *Usage
	// quiet marks a span that records nothing (not sampled, or a no-op
	// provider's): its requests get no middleware for it.
	quiet bool

	mu       sync.Mutex
	requests int
	items    int
	index    string // the first secondary index a request read
	// capacity sums the consumed capacity DynamoDB reported, per table,
	// in the order the tables were first seen.
	capacity []consumed
	// err is an error an iterator yielded ([Query.All]), recorded by
	// failed.
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

// tracing builds the table's tracer and the attributes every span starts
// with, when its options name a TracerProvider.
func (t *Table) tracing() {
	tp := t.opts.TracerProvider
	if tp == nil {
		return
	}
	t.tracer = tp.Tracer(tracerName, trace.WithSchemaURL(semconv.SchemaURL))
	t.spanStart = []trace.SpanStartOption{
		trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(semconv.DBSystemNameAWSDynamoDB, semconv.AWSDynamoDBTableNames(t.name)),
	}
}

// startSpan opens the span of the library call op ("Edge.Put"), the
// same name its errors carry as [OpError].Op, and returns the context
// that carries it: pass that context to every request of the call, so
// the SDK's own spans nest under it and callOpts adds the requests'
// figures to it. End it with sp.end or sp.done. On a table without a
// TracerProvider, or within another call's span (a call made by another
// one, e.g. the Query.Page of a DeleteNode), it returns ctx and a nil
// span, allocating nothing.
func (t *Table) startSpan(ctx context.Context, op string) (context.Context, *span) {
	if t == nil || t.tracer == nil {
		return ctx, nil
	}
	return t.beginSpan(ctx, op, "")
}

// beginSpan is startSpan on a traced table; index, if known, is the
// secondary index the call reads.
func (t *Table) beginSpan(ctx context.Context, op, index string) (context.Context, *span) {
	prev := ctx.Value(callKey{})
	if _, nested := prev.(*span); nested {
		return ctx, nil
	}
	sp := &span{index: index}
	sp.usage, _ = prev.(*Usage)
	opts := t.spanStart
	if index != "" {
		opts = append(opts[:len(opts):len(opts)], trace.WithAttributes(semconv.AWSDynamoDBIndexName(index)))
	}
	ctx, sp.s = t.tracer.Start(ctx, op, opts...)
	sp.quiet = !sp.s.IsRecording()
	return context.WithValue(ctx, callKey{}, sp), sp
}

// end ends the span with the error *errp (errp may be nil), or else the
// one failed recorded: with an error the span's status is Error and it
// records the error as an event. It sets the figures the call's requests
// added up to.
func (s *span) end(errp *error) {
	if s == nil {
		return
	}
	var err error
	if errp != nil {
		err = *errp
	}
	s.finish(err)
}

// done ends the span with err, as end does, and returns err.
func (s *span) done(err error) error {
	if s != nil {
		s.finish(err)
	}
	return err
}

// failed records err as the call's error, for end, and returns it: the
// error an iterator yields ([Query.All]).
func (s *span) failed(err error) error {
	if s != nil && err != nil {
		s.mu.Lock()
		s.err = err
		s.mu.Unlock()
	}
	return err
}

func (s *span) finish(err error) {
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
		text := spanText(err)
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

// spanText is err's text as a span records it, holding no item data
// (Options.TracerProvider promises it): errors are rendered as their own
// Error methods do only where the text is known to be free of item data:
// this package's errors (an [*OpError]'s and a [*KeyError]'s name keys,
// which spans may show), the SDK's request and response errors around
// them, DynamoDB's refusals (its code and message), context and network
// errors. Of any other error, such as attributevalue's, which quote the
// value that failed to decode, or a marshaller's of the caller's, only
// the Go type shows ("*errors.errorString (text not traced)";
// attributevalue's with the Go type it decoded into), and the text
// fmt.Errorf adds around a %w is left out. The error a call returns keeps
// its full text.
func spanText(err error) string {
	switch e := err.(type) {
	case nil:
		return ""
	case *OpError:
		return e.format(spanText(e.Err))
	case *ThrottlingError:
		return e.format(spanText(e.Err))
	case *KeyError, *NodeNotFoundError, *kindOf, *net.OpError, *net.DNSError, syscall.Errno:
		return err.Error()
	case *smithy.OperationError:
		return fmt.Sprintf("operation error %s: %s, %s", e.ServiceID, e.OperationName, spanText(e.Err))
	case *awshttp.ResponseError:
		return fmt.Sprintf("https response error StatusCode: %d, RequestID: %s, %s", e.HTTPStatusCode(), e.RequestID, spanText(e.Err))
	case *smithyhttp.ResponseError:
		return fmt.Sprintf("http response error StatusCode: %d, %s", e.HTTPStatusCode(), spanText(e.Err))
	case *smithyhttp.RequestSendError:
		return "request send failed, " + spanText(e.Err)
	case *smithy.CanceledError:
		return "canceled, " + spanText(e.Err)
	case *retry.MaxAttemptsError:
		return fmt.Sprintf("exceeded maximum number of attempts, %d, %s", e.Attempt, spanText(e.Err))
	case *url.Error:
		return fmt.Sprintf("%s %q: %s", e.Op, e.URL, spanText(e.Err))
	case *attributevalue.UnmarshalError:
		return fmt.Sprintf("unmarshal failed, cannot unmarshal into %s (%T)", e.Type, err)
	case *attributevalue.UnmarshalTypeError:
		return fmt.Sprintf("unmarshal failed, cannot unmarshal into Go value type %s (%T)", e.Type, err)
	case smithy.APIError:
		if _, wraps := err.(interface{ Unwrap() error }); !wraps {
			return err.Error() // DynamoDB's code and message
		}
	}
	if slices.Contains(sentinels, err) || err == context.Canceled || err == context.DeadlineExceeded {
		return err.Error()
	}
	t := reflect.TypeOf(err)
	fromFmt := t.Kind() == reflect.Pointer && t.Elem().PkgPath() == "fmt" // fmt.Errorf's wrappers
	switch u := err.(type) {
	case interface{ Unwrap() []error }: // fmt.Errorf("%w: %w"), errors.Join
		sep := "\n"
		if fromFmt {
			sep = ": "
		}
		texts := make([]string, 0, 2)
		for _, e := range u.Unwrap() {
			texts = append(texts, spanText(e))
		}
		return strings.Join(texts, sep)
	case interface{ Unwrap() error }:
		if fromFmt {
			return spanText(u.Unwrap())
		}
		return t.String() + ": " + spanText(u.Unwrap())
	}
	return t.String() + " (text not traced)"
}

// sentinels are this package's sentinel errors, whose texts are fixed.
var sentinels = []error{
	ErrInvalidKey, ErrKeyAttribute, ErrItemTooLarge, ErrNotFound, ErrExists,
	ErrEdgeExists, ErrConditionFailed, ErrVersionConflict, ErrInvalidCursor,
	ErrIndexConsistentRead, ErrUnprocessed, ErrNotVisible, ErrNodeNotFound,
	ErrTxConflict, ErrTxLimit, ErrDuplicateKey, ErrInvalidOption,
}

// typeName is err's Go type as a span's exception.type names it
// (RecordError's form): "*adjlist.OpError".
func typeName(err error) string {
	t := reflect.TypeOf(err)
	if t.PkgPath() == "" && t.Name() == "" {
		return t.String()
	}
	return t.PkgPath() + "." + t.Name()
}

// errorType is a failed call's error.type: the error code of DynamoDB's
// refusal ("ConditionalCheckFailedException",
// "ProvisionedThroughputExceededException") when DynamoDB refused a
// request, else "_OTHER".
func errorType(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return semconv.ErrorTypeOther.Value.AsString()
}

// addCall adds one request's figures: the items it returned, the index it
// read, if any, and the capacity DynamoDB reported.
func (s *span) addCall(items int, index string, ccs []*types.ConsumedCapacity) {
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
