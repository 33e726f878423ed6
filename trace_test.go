package adjlist_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// tracedSchool is the seed's model on a table traced into an in-memory
// recorder, reached through a client whose SDK stack opens a span of its
// own per request ("DynamoDB.GetItem", ...), as a service that
// instruments the SDK does: the library's span must be their parent.
type tracedSchool struct {
	*school
	rec    *tracetest.SpanRecorder
	tracer trace.Tracer // the test's own, for the outer spans
}

func newTracedSchool(t *testing.T) *tracedSchool {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { require.NoError(t, tp.Shutdown(context.Background())) })
	sdk := tp.Tracer("sdk")
	plain := ddbtest.Client(t)
	db := dynamodb.New(plain.Options(), func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
			return st.Initialize.Add(middleware.InitializeMiddlewareFunc("testSDKSpan", func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				ctx, sp := sdk.Start(ctx, "DynamoDB."+awsmiddleware.GetOperationName(ctx))
				defer sp.End()
				return next.HandleInitialize(ctx, in)
			}), middleware.Before)
		})
	})
	s := &school{db: db, calls: &countingClient{Client: db}}
	s.table = adjlist.NewTable(s.calls, ddbtest.TableName(t), func(o *adjlist.Options) { o.TracerProvider = tp })
	require.NoError(t, adjlist.CreateTable(context.Background(), db, s.table))
	dropOnCleanup(t, db, s.table.Name())
	s.students = adjlist.NewNode[Student](s.table, "STU", "PROFILE")
	s.courses = adjlist.NewNode[Course](s.table, "CRS", "METADATA")
	s.enrolled = adjlist.NewEdge[Enrollment](s.students, "ENROLL", s.courses)
	return &tracedSchool{school: s, rec: rec, tracer: tp.Tracer("test")}
}

// traced runs call under an outer span of the test's and returns the
// spans that ended under it: the library's spans (children of outer) and
// the SDK's (children of those, or of outer for an untraced table).
func (s *tracedSchool) traced(t *testing.T, call func(ctx context.Context) error) (outer trace.SpanContext, spans []sdktrace.ReadOnlySpan, err error) {
	t.Helper()
	ctx, sp := s.tracer.Start(context.Background(), "test")
	err = call(ctx)
	sp.End()
	outer = sp.SpanContext()
	for _, r := range s.rec.Ended() {
		if r.SpanContext().TraceID() == outer.TraceID() && r.SpanContext().SpanID() != outer.SpanID() {
			spans = append(spans, r)
		}
	}
	return outer, spans, err
}

// children are the spans whose parent is parent.
func children(spans []sdktrace.ReadOnlySpan, parent trace.SpanContext) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, r := range spans {
		if r.Parent().SpanID() == parent.SpanID() {
			out = append(out, r)
		}
	}
	return out
}

func attrs(r sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range r.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

// capacityOf decodes aws.dynamodb.consumed_capacity.
func capacityOf(t *testing.T, r sdktrace.ReadOnlySpan) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, s := range attrs(r)["aws.dynamodb.consumed_capacity"].AsStringSlice() {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(s), &m), s)
		out = append(out, m)
	}
	return out
}

func seedTraced(t *testing.T, s *tracedSchool) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ada", Year: 2, Major: "Math"}))
	require.NoError(t, s.students.Put(ctx, "b30", Student{Name: "Bo", Year: 1, Major: "CS"}))
	require.NoError(t, s.courses.Put(ctx, "math204", Course{Title: "Linear Algebra", Credits: 4}))
	require.NoError(t, s.courses.Put(ctx, "cs101", Course{Title: "Intro to CS", Credits: 3}))
	for _, e := range [][2]string{{"a91", "math204"}, {"b30", "math204"}, {"a91", "cs101"}} {
		require.NoError(t, s.enrolled.Put(ctx, e[0], e[1], math204))
	}
	require.NoError(t, s.enrolled.WaitIndexed(ctx, "b30", "math204", waitIndex))
	require.NoError(t, s.enrolled.WaitIndexed(ctx, "a91", "math204", waitIndex))
}

// One span per library call, named for it, a child of the caller's span
// and the parent of the SDK's: with the semantic conventions' attributes,
// the requests made, the items returned, and the error's status.
func TestTraceSpans(t *testing.T) {
	t.Parallel()
	s := newTracedSchool(t)
	seedTraced(t, s)

	tests := []struct {
		name     string
		call     func(ctx context.Context) error
		span     string
		requests int64
		items    int64
		index    string
		capacity bool   // DynamoDB reported capacity (a refused request has none)
		wantErr  error  // errors.Is the call's error; nil: success
		errType  string // error.type, with wantErr
		min      bool   // requests is a lower bound (a cascade)
	}{
		{"Node.Put", func(ctx context.Context) error {
			return s.students.Put(ctx, "c77", Student{Name: "Cy"})
		}, "Node.Put", 1, 0, "", true, nil, "", false},
		{"Node.Get", func(ctx context.Context) error {
			_, err := s.students.Get(ctx, "a91")
			return err
		}, "Node.Get", 1, 1, "", true, nil, "", false},
		{"Node.Get of a missing node", func(ctx context.Context) error {
			_, err := s.students.Get(ctx, "nobody")
			return err
		}, "Node.Get", 1, 0, "", true, adjlist.ErrNotFound, "_OTHER", false},
		{"Node.Update of a missing node", func(ctx context.Context) error {
			_, err := s.students.Update(ctx, "nobody", adjlist.Set("year", 3))
			return err
		}, "Node.Update", 1, 0, "", false, adjlist.ErrNotFound, "ConditionalCheckFailedException", false},
		{"Edge.Put of an existing edge", func(ctx context.Context) error {
			return s.enrolled.Put(ctx, "a91", "math204", math204)
		}, "Edge.Put", 1, 0, "", false, adjlist.ErrExists, "ConditionalCheckFailedException", false},
		{"a bad id, refused before any request", func(ctx context.Context) error {
			_, err := s.students.Get(ctx, "")
			return err
		}, "Node.Get", 0, 0, "", false, adjlist.ErrInvalidKey, "_OTHER", false},
		{"Edge.To Collect: the inverted index", func(ctx context.Context) error {
			got, err := s.enrolled.To("math204").Collect(ctx)
			if err == nil && len(got) != 2 {
				err = errors.New("want 2 students")
			}
			return err
		}, "Edge.To", 1, 2, "GSI1", true, nil, "", false},
		{"Edge.From Collect, a page per edge", func(ctx context.Context) error {
			_, err := s.enrolled.From("a91").Limit(1).Collect(ctx)
			return err
		}, "Edge.From", 3, 2, "", true, nil, "", false},
		{"Edge.From Page", func(ctx context.Context) error {
			_, err := s.enrolled.From("a91").Page(ctx, "")
			return err
		}, "Edge.From", 1, 2, "", true, nil, "", false},
		{"Edge.To Count", func(ctx context.Context) error {
			_, err := s.enrolled.To("math204").Count(ctx)
			return err
		}, "Edge.To", 1, 2, "GSI1", true, nil, "", false},
		{"Edge.From All", func(ctx context.Context) error {
			for _, err := range s.enrolled.From("a91").All(ctx) {
				if err != nil {
					return err
				}
			}
			return nil
		}, "Edge.From", 1, 2, "", true, nil, "", false},
		{"Edge.From All of a bad id", func(ctx context.Context) error {
			for _, err := range s.enrolled.From("").All(ctx) {
				if err != nil {
					return err
				}
			}
			return nil
		}, "Edge.From", 0, 0, "", false, adjlist.ErrInvalidKey, "_OTHER", false},
		{"LoadNode", func(ctx context.Context) error {
			_, err := adjlist.LoadNode(ctx, s.students, s.enrolled, "a91")
			return err
		}, "LoadNode", 1, 3, "", true, nil, "", false},
		{"Node.GetMany: BatchGetItem", func(ctx context.Context) error {
			_, err := s.students.GetMany(ctx, []string{"a91", "b30", "nobody"})
			return err
		}, "Node.GetMany", 1, 2, "", true, nil, "", false},
		{"ReadTx.Run: TransactGetItems", func(ctx context.Context) error {
			rt := adjlist.NewReadTx(s.table)
			s.students.TxGet(rt, "a91")
			s.courses.TxGet(rt, "nowhere")
			return rt.Run(ctx)
		}, "ReadTx.Run", 1, 1, "", true, nil, "", false},
		{"checked Edge.Put: its Tx.Commit opens no span", func(ctx context.Context) error {
			return s.enrolled.Put(ctx, "b30", "cs101", math204, checkEnds)
		}, "Edge.Put", 1, 0, "", true, nil, "", false},
		{"Tx.Commit", func(ctx context.Context) error {
			tx := adjlist.NewTx(s.table)
			s.students.Put(ctx, "t1", Student{Name: "Tx"}, adjlist.InTx(tx))
			s.courses.TxCheck(tx, "math204")
			return tx.Commit(ctx)
		}, "Tx.Commit", 1, 0, "", true, nil, "", false},
		{"Edge.PutMany: BatchWriteItem", func(ctx context.Context) error {
			_, err := s.enrolled.PutMany(ctx, []adjlist.EdgeItem[Enrollment]{{From: "c77", To: "math204"}, {From: "c77", To: "cs101"}})
			return err
		}, "Edge.PutMany", 1, 0, "", true, nil, "", false},
		{"DeleteNode: its Queries and batches in one span", func(ctx context.Context) error {
			require.NoError(t, s.enrolled.WaitIndexed(context.Background(), "c77", "cs101", waitIndex))
			_, err := adjlist.DeleteNode(ctx, s.courses, "cs101", s.enrolled)
			return err
		}, "DeleteNode", 4, 0, "GSI1", true, nil, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			outer, spans, err := s.traced(t, tt.call)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
			} else {
				require.NoError(t, err)
			}

			lib := children(spans, outer)
			require.Len(t, lib, 1, "one span per call, a child of the caller's")
			sp := lib[0]
			assert.Equal(t, tt.span, sp.Name())
			assert.Equal(t, trace.SpanKindClient, sp.SpanKind())
			assert.Equal(t, "github.com/adjlist/adjlist", sp.InstrumentationScope().Name)

			// Every request's SDK span is the library span's child, and
			// nothing else is.
			sdk := children(spans, sp.SpanContext())
			assert.Len(t, spans, 1+len(sdk), "every other span is a request's, under the library's")
			for _, r := range sdk {
				assert.True(t, strings.HasPrefix(r.Name(), "DynamoDB."), r.Name())
			}

			a := attrs(sp)
			assert.Equal(t, "aws.dynamodb", a["db.system.name"].AsString())
			assert.Equal(t, []string{s.table.Name()}, a["aws.dynamodb.table_names"].AsStringSlice())
			requests := a["adjlist.requests"].AsInt64()
			if tt.min {
				assert.GreaterOrEqual(t, requests, tt.requests)
			} else {
				assert.Equal(t, tt.requests, requests)
				assert.Equal(t, tt.items, a["adjlist.items"].AsInt64())
			}
			assert.Len(t, sdk, int(requests), "one SDK span per request")
			assert.Equal(t, tt.index, a["aws.dynamodb.index_name"].AsString())

			cc := capacityOf(t, sp)
			if !tt.capacity {
				assert.Empty(t, cc)
			} else {
				require.Len(t, cc, 1, "one entry for the one table")
				assert.Equal(t, s.table.Name(), cc[0]["TableName"])
				assert.Greater(t, cc[0]["CapacityUnits"], 0.0)
			}

			if tt.wantErr == nil {
				assert.Equal(t, codes.Unset, sp.Status().Code)
				assert.Empty(t, sp.Events())
				assert.NotContains(t, a, attribute.Key("error.type"))
				return
			}
			assert.Equal(t, codes.Error, sp.Status().Code)
			assert.Equal(t, err.Error(), sp.Status().Description)
			assert.Equal(t, tt.errType, a["error.type"].AsString())
			require.Len(t, sp.Events(), 1)
			assert.Equal(t, "exception", sp.Events()[0].Name)
		})
	}
}

// A successful call's span carries no key or data: the ids and names
// written and read appear in none of its attributes.
func TestTraceSpansHoldNoData(t *testing.T) {
	t.Parallel()
	s := newTracedSchool(t)
	_, spans, err := s.traced(t, func(ctx context.Context) error {
		if err := s.students.Put(ctx, "secret-id", Student{Name: "Secret Name"}); err != nil {
			return err
		}
		_, err := s.students.Get(ctx, "secret-id")
		return err
	})
	require.NoError(t, err)
	require.NotEmpty(t, spans)
	for _, sp := range spans {
		for _, kv := range sp.Attributes() {
			assert.NotContains(t, kv.Value.Emit(), "secret", "%s of %s", kv.Key, sp.Name())
		}
	}
}

// Query.All's span opens when the loop starts and ends when it stops,
// broken off or not.
func TestTraceAllSpansTheLoop(t *testing.T) {
	t.Parallel()
	s := newTracedSchool(t)
	seedTraced(t, s)
	_, spans, err := s.traced(t, func(ctx context.Context) error {
		before := len(s.rec.Started())
		seq := s.enrolled.From("a91").Limit(1).All(ctx)
		if len(s.rec.Started()) != before {
			return errors.New("a span opened before the loop")
		}
		for range seq {
			break
		}
		return nil
	})
	require.NoError(t, err)
	var lib []sdktrace.ReadOnlySpan
	for _, sp := range spans {
		if sp.InstrumentationScope().Name == "github.com/adjlist/adjlist" {
			lib = append(lib, sp)
		}
	}
	require.Len(t, lib, 1)
	assert.Equal(t, int64(1), attrs(lib[0])["adjlist.requests"].AsInt64(), "the loop stopped after one page")
	assert.Equal(t, codes.Unset, lib[0].Status().Code)
}

// A Usage in the call's context still counts the requests of a traced
// call.
func TestTraceKeepsUsage(t *testing.T) {
	t.Parallel()
	s := newTracedSchool(t)
	seedTraced(t, s)
	var u adjlist.Usage
	_, spans, err := s.traced(t, func(ctx context.Context) error {
		_, err := s.enrolled.From("a91").Limit(1).Collect(adjlist.WithUsage(ctx, &u))
		return err
	})
	require.NoError(t, err)
	assert.Equal(t, 3, u.Totals().Requests)
	assert.Positive(t, u.Totals().ReadUnits)
	assert.NotEmpty(t, spans)
}

// A table without a TracerProvider opens no span: the SDK's spans are
// the caller's children.
func TestTraceOffOpensNoSpan(t *testing.T) {
	t.Parallel()
	s := newTracedSchool(t)
	plain := adjlist.NewTable(s.calls, s.table.Name())
	students := adjlist.NewNode[Student](plain, "STU", "PROFILE")
	outer, spans, err := s.traced(t, func(ctx context.Context) error {
		return students.Put(ctx, "d1", Student{Name: "Di"})
	})
	require.NoError(t, err)
	require.Len(t, spans, 1)
	assert.Equal(t, "DynamoDB.PutItem", spans[0].Name())
	assert.Equal(t, outer.SpanID(), spans[0].Parent().SpanID())
}

// stubClient answers every GetItem with an empty result without running
// the per-call options it is given.
type stubClient struct{ adjlist.Client }

func (stubClient) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return &dynamodb.GetItemOutput{}, nil
}

// A Client that does not apply the per-call options reports no figures.
func TestTraceClientWithoutOptions(t *testing.T) {
	t.Parallel()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	table := adjlist.NewTable(stubClient{}, "stub", func(o *adjlist.Options) { o.TracerProvider = tp })
	_, err := adjlist.NewNode[Student](table, "STU", "PROFILE").Get(context.Background(), "a91")
	require.ErrorIs(t, err, adjlist.ErrNotFound)
	require.Len(t, rec.Ended(), 1)
	a := attrs(rec.Ended()[0])
	assert.Equal(t, int64(0), a["adjlist.requests"].AsInt64())
	assert.NotContains(t, a, attribute.Key("aws.dynamodb.consumed_capacity"))
}

// cannedClient answers every GetItem with a student's item, at once and
// without the SDK: what remains of a call's time is adjlist's own.
type cannedClient struct{ adjlist.Client }

var cannedStudent = map[string]types.AttributeValue{
	"PK":    &types.AttributeValueMemberS{Value: "STU#a91"},
	"SK":    &types.AttributeValueMemberS{Value: "PROFILE"},
	"name":  &types.AttributeValueMemberS{Value: "Ada"},
	"year":  &types.AttributeValueMemberN{Value: "2"},
	"major": &types.AttributeValueMemberS{Value: "Math"},
}

func (cannedClient) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return &dynamodb.GetItemOutput{Item: cannedStudent}, nil
}

// BenchmarkTracing prices a call's span apart from the SDK: Node.Get on a
// client that answers at once, without a TracerProvider (off) and with
// the OpenTelemetry SDK's, sampling every span into an exporter that
// drops it (sdk). The client runs no per-call option, so sdk leaves out
// the middleware that fills the span's figures (bench/'s
// BenchmarkTracing has it).
func BenchmarkTracing(b *testing.B) {
	ctx := context.Background()
	sdk := sdktrace.NewTracerProvider(sdktrace.WithSyncer(tracetest.NewNoopExporter()))
	b.Cleanup(func() { _ = sdk.Shutdown(ctx) })
	for _, tc := range []struct {
		name string
		tp   trace.TracerProvider
	}{{"off", nil}, {"sdk", sdk}} {
		b.Run("tracing="+tc.name, func(b *testing.B) {
			table := adjlist.NewTable(cannedClient{}, "bench", func(o *adjlist.Options) { o.TracerProvider = tc.tp })
			students := adjlist.NewNode[Student](table, "STU", "PROFILE")
			b.ReportAllocs()
			for b.Loop() {
				if _, err := students.Get(ctx, "a91"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A span the sampler drops gets no figures: the call's requests go as
// they would untraced, without ReturnConsumedCapacity.
func TestTraceUnsampled(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		sampler sdktrace.Sampler
		want    types.ReturnConsumedCapacity
	}{{"sampled", sdktrace.AlwaysSample(), types.ReturnConsumedCapacityTotal}, {"dropped", sdktrace.NeverSample(), ""}} {
		t.Run(tc.name, func(t *testing.T) { testTraceSampled(t, tc.sampler, tc.want) })
	}
}

// testTraceSampled runs one Node.Get on a table traced with sampler and
// checks the request sent asked for want.
func testTraceSampled(t *testing.T, sampler sdktrace.Sampler, want types.ReturnConsumedCapacity) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sampler), sdktrace.WithSpanProcessor(rec))
	var sent []types.ReturnConsumedCapacity
	db := dynamodb.New(ddbtest.Client(t).Options(), func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
			return st.Serialize.Add(middleware.SerializeMiddlewareFunc("testSent", func(ctx context.Context, in middleware.SerializeInput, next middleware.SerializeHandler) (middleware.SerializeOutput, middleware.Metadata, error) {
				if p, ok := in.Parameters.(*dynamodb.GetItemInput); ok {
					sent = append(sent, p.ReturnConsumedCapacity)
				}
				return next.HandleSerialize(ctx, in)
			}), middleware.Before)
		})
	})
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) { o.TracerProvider = tp })
	ddbtest.CreateTable(t, table)
	_, err := adjlist.NewNode[Student](table, "STU", "PROFILE").Get(context.Background(), "a91")
	require.ErrorIs(t, err, adjlist.ErrNotFound)
	assert.Equal(t, []types.ReturnConsumedCapacity{want}, sent)
	if want == "" {
		assert.Empty(t, rec.Ended(), "nothing recorded")
	} else {
		require.Len(t, rec.Ended(), 1)
		assert.Equal(t, int64(1), attrs(rec.Ended()[0])["adjlist.requests"].AsInt64())
	}
}

// An operation the SDK retried counts once in adjlist.requests.
func TestTraceRetriedCountsOnce(t *testing.T) {
	t.Parallel()
	s, ft := faultySchool(t, func(op string, n int, _ []byte) fault {
		if op == "GetItem" && n == 1 {
			return fault{status: 500, body: ddbError("InternalServerError", "try again")}
		}
		return fault{forward: true}
	}, 0)
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	table := adjlist.NewTable(s.calls, s.table.Name(), func(o *adjlist.Options) { o.TracerProvider = tp })
	_, err := adjlist.NewNode[Student](table, "STU", "PROFILE").Get(context.Background(), "a91")
	require.ErrorIs(t, err, adjlist.ErrNotFound)
	assert.Equal(t, 2, ft.requests("GetItem"), "the SDK sent it twice")
	require.Len(t, rec.Ended(), 1)
	assert.Equal(t, int64(1), attrs(rec.Ended()[0])["adjlist.requests"].AsInt64())
}

// stamped holds a time and a small number: stored attributes of another
// shape fail to decode, and the decoder's error quotes them.
type stamped struct {
	At    time.Time `dynamodbav:"at"`
	Small int8      `dynamodbav:"small"`
}

// leaky is data whose marshaller fails with an error quoting the data.
type leaky struct{ Secret string }

func (l leaky) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return nil, fmt.Errorf("cannot marshal %s", l.Secret)
}

// A failed call's span keeps item data out of its status, its events and
// its attributes, whatever the error quotes: a stored string in a
// time.Time field, a stored number too large for an int8, a marshaller's
// error. The error returned keeps the detail.
func TestTraceFailuresHoldNoData(t *testing.T) {
	t.Parallel()
	s := newTracedSchool(t)
	ctx := context.Background()
	events := adjlist.NewCollection[stamped](s.students, "EVT")
	require.NoError(t, events.Put(ctx, "a91", "e1", stamped{At: time.Now(), Small: 1}))
	require.NoError(t, events.Put(ctx, "a91", "e2", stamped{At: time.Now(), Small: 1}))
	key := func(child string) map[string]types.AttributeValue {
		pk, sk, err := events.Key("a91", child)
		require.NoError(t, err)
		return map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}}
	}
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table.Name()), Key: key("e1"),
		UpdateExpression:          aws.String("SET #at = :v"),
		ExpressionAttributeNames:  map[string]string{"#at": "at"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": &types.AttributeValueMemberS{Value: "stored-secret-text"}},
	})
	require.NoError(t, err)
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table.Name()), Key: key("e2"),
		UpdateExpression:          aws.String("SET #small = :v"),
		ExpressionAttributeNames:  map[string]string{"#small": "small"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": &types.AttributeValueMemberN{Value: "987654321"}},
	})
	require.NoError(t, err)
	leaks := adjlist.NewNode[leaky](s.table, "LEAK", "META")

	for _, tc := range []struct {
		name, op, secret string
		call             func(ctx context.Context) error
	}{
		{"Get: a string in a time.Time", "Collection.Get", "stored-secret-text", func(ctx context.Context) error {
			_, err := events.Get(ctx, "a91", "e1")
			return err
		}},
		{"Get: a number over an int8", "Collection.Get", "987654321", func(ctx context.Context) error {
			_, err := events.Get(ctx, "a91", "e2")
			return err
		}},
		{"GetMany", "Collection.GetMany", "stored-secret-text", func(ctx context.Context) error {
			_, err := events.GetMany(ctx, []adjlist.Child[stamped]{{Parent: "a91", ID: "e1"}})
			return err
		}},
		{"List Collect", "Collection.List", "stored-secret-text", func(ctx context.Context) error {
			_, err := events.List("a91").Collect(ctx)
			return err
		}},
		{"List All", "Collection.List", "stored-secret-text", func(ctx context.Context) error {
			for _, err := range events.List("a91").All(ctx) {
				if err != nil {
					return err
				}
			}
			return nil
		}},
		{"Put: the data's marshaller fails", "Node.Put", "written-secret-text", func(ctx context.Context) error {
			return leaks.Put(ctx, "l1", leaky{Secret: "written-secret-text"})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			outer, spans, err := s.traced(t, tc.call)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.secret, "the caller's error keeps the detail")
			lib := children(spans, outer)
			require.Len(t, lib, 1)
			assert.Equal(t, tc.op, lib[0].Name())
			assert.Equal(t, codes.Error, lib[0].Status().Code)
			assert.Contains(t, lib[0].Status().Description, tc.op, "the status still names the call")
			for _, sp := range spans {
				assert.NotContains(t, sp.Status().Description, tc.secret, "status of %s", sp.Name())
				for _, kv := range sp.Attributes() {
					assert.NotContains(t, kv.Value.Emit(), tc.secret, "%s of %s", kv.Key, sp.Name())
				}
				for _, ev := range sp.Events() {
					assert.NotContains(t, ev.Name, tc.secret)
					for _, kv := range ev.Attributes {
						assert.NotContains(t, kv.Value.Emit(), tc.secret, "event %s's %s of %s", ev.Name, kv.Key, sp.Name())
					}
				}
			}
		})
	}
}
