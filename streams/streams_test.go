package streams_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/internal/testsize"
	"github.com/adjlist/adjlist/streams"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

type (
	Student struct {
		Name string `dynamodbav:"name"`
	}
	Course struct {
		Title string `dynamodbav:"title"`
	}
	Enrollment struct {
		EnrolledOn string `dynamodbav:"enrolledOn"`
		Grade      string `dynamodbav:"grade"`
	}
)

type school struct {
	table    *adjlist.Table
	students *adjlist.Node[Student]
	courses  *adjlist.Node[Course]
	enrolled *adjlist.Edge[Enrollment]
	counter  *adjlist.ItemCounter
	arn      string
	streams  *dynamodbstreams.Client
}

// newSchool creates a table with its stream enabled (NEW_AND_OLD_IMAGES)
// on the shared DynamoDB Local, its counter kept from the stream, and a
// Streams API client for it.
func newSchool(t *testing.T) *school {
	t.Helper()
	db := ddbtest.Client(t)
	s := &school{table: adjlist.NewTable(db, ddbtest.TableName(t))}
	ddbtest.CreateTable(t, s.table, func(o *adjlist.CreateTableOptions) { o.Stream = true })
	s.students = adjlist.NewNode[Student](s.table, "STU", "PROFILE")
	s.courses = adjlist.NewNode[Course](s.table, "CRS", "METADATA")
	s.enrolled = adjlist.NewEdge[Enrollment](s.students, "ENROLL", s.courses)
	s.counter = adjlist.NewItemCounter(s.enrolled, "ENROLLED", func(o *adjlist.CounterOptions) { o.Per, o.Stream = "to", true })
	var err error
	s.arn, err = streams.LatestARN(context.Background(), db, s.table.Name())
	require.NoError(t, err)
	s.streams = dynamodbstreams.New(dynamodbstreams.Options{
		BaseEndpoint: db.Options().BaseEndpoint,
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider("local", "local", ""),
	})
	return s
}

// router applies enrolment records to the counter and passes over the
// counter's own items; any other item fails the batch.
func (s *school) router() *streams.Router {
	r := new(streams.Router)
	streams.On(r, s.enrolled, func(ctx context.Context, ev streams.Event[adjlist.EdgeItem[Enrollment]]) error {
		e := ev.Item()
		return s.counter.Apply(ctx, ev.SequenceNumber, e.From, e.To, ev.Kind != streams.Remove)
	})
	r.OnUnknown(func(_ context.Context, rec streams.Record) error {
		// The counter's own count and marker items: SK "ENROLLED", "ENROLLED##STU#a91".
		if sk, ok := rec.Keys["SK"].(*types.AttributeValueMemberS); ok && (sk.Value == "ENROLLED" || strings.HasPrefix(sk.Value, "ENROLLED##")) {
			return nil
		}
		return streams.ErrUnknownItem
	})
	return r
}

// churn makes n random enrolment puts and deletes (a put where the edge is
// missing, a delete where it exists) with write, and returns how many
// edges each course has at the end.
func churn(t *testing.T, n int, write func(from, to string, exists bool) error) map[string]int {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	exists := map[[2]string]bool{}
	for range n {
		k := [2]string{fmt.Sprintf("s%02d", rng.IntN(40)), fmt.Sprintf("c%d", rng.IntN(8))}
		require.NoError(t, write(k[0], k[1], exists[k]))
		exists[k] = !exists[k]
	}
	want := map[string]int{}
	for k, ok := range exists {
		if ok {
			want[k[1]]++
		}
	}
	return want
}

// checkCounts compares every course's count with a fresh Count of its
// edges (bounded poll: the reverse read is on a GSI).
func (s *school) checkCounts(t *testing.T, want map[string]int) {
	t.Helper()
	ctx := context.Background()
	for i := range 8 {
		course := fmt.Sprintf("c%d", i)
		got, err := s.counter.Get(ctx, adjlist.IDs{course}, "")
		require.NoError(t, err)
		assert.Equal(t, int64(want[course]), got, "counter of %s", course)
		require.Eventually(t, func() bool {
			n, err := s.enrolled.To(course).Count(ctx)
			require.NoError(t, err)
			return n == int(got)
		}, 5*time.Second, 20*time.Millisecond, "edges into %s", course)
	}
}

// 300 random edge puts and deletes (1,000 in the stress tier); the stream delivered with injected
// duplicates (every third batch handled twice, one batch replayed later)
// and a crash in the middle (a handler that fails half-way through a
// batch, after applying part of it), then a new reader resuming from the
// checkpoint. Every aggregate equals a fresh Count of the edges.
func TestAggregatesFromStream(t *testing.T) {
	ctx := context.Background()
	s := newSchool(t)
	n := testsize.Pick(300, 1000)
	want := churn(t, n, func(from, to string, exists bool) error {
		if exists {
			return s.enrolled.Delete(ctx, from, to)
		}
		return s.enrolled.Put(ctx, from, to, Enrollment{EnrolledOn: "2026-09-01"})
	})
	r := s.router()
	cp := new(streams.MemoryCheckpoint)
	var (
		batches, handled int
		replay           []streams.Record
		crashed          bool
		errCrash         = errors.New("crash")
	)
	handle := func(ctx context.Context, recs []streams.Record) error {
		batches++
		if batches == 2 {
			replay = recs // delivered again at the end
		}
		if !crashed && handled > 500 {
			crashed = true
			require.NoError(t, r.Handle(ctx, recs[:len(recs)/2]...))
			return errCrash // half applied, not checkpointed
		}
		if err := r.Handle(ctx, recs...); err != nil {
			return err
		}
		handled += len(recs)
		if batches%3 == 0 {
			return r.Handle(ctx, recs...) // a duplicate delivery
		}
		return nil
	}
	// Batches of about a tenth of the records (97 of 1,000).
	small := func(o *streams.ReaderOptions) { o.Limit = int32(n/10 - 3) }
	err := streams.NewReader(s.streams, s.arn, cp, small).CatchUp(ctx, handle)
	require.ErrorIs(t, err, errCrash)
	// A new reader, as after a restart: it resumes from the checkpoint and
	// delivers the crashed batch again.
	require.NoError(t, streams.NewReader(s.streams, s.arn, cp, small).CatchUp(ctx, handle))
	require.NotEmpty(t, replay)
	require.NoError(t, r.Handle(ctx, replay...))
	require.True(t, crashed)
	require.GreaterOrEqual(t, handled, n)
	require.Greater(t, batches, 10, "small batches, so that duplicates and the crash fall mid-stream")
	s.checkCounts(t, want)

	// Caught up: another pass delivers only the counter's own writes made
	// since, and changes nothing.
	require.NoError(t, streams.NewReader(s.streams, s.arn, cp).CatchUp(ctx, func(ctx context.Context, recs []streams.Record) error {
		return r.Handle(ctx, recs...)
	}))
	s.checkCounts(t, want)
}

// The synchronous alternative, on the same churn: the edge write and the
// count in one TransactWriteItems, by a counter kept at write time.
func TestAggregatesAtWriteTime(t *testing.T) {
	ctx := context.Background()
	s := newSchool(t)
	s.counter = adjlist.NewItemCounter(s.enrolled, "ENROLLED", func(o *adjlist.CounterOptions) { o.Per = "to" })
	want := churn(t, testsize.Pick(300, 1000), func(from, to string, exists bool) error {
		if exists {
			return s.enrolled.Delete(ctx, from, to)
		}
		return s.enrolled.Put(ctx, from, to, Enrollment{EnrolledOn: "2026-09-01"})
	})
	s.checkCounts(t, want)
}

// A Lambda function's batch, as the event source mapping delivers it.
const lambdaBatch = `{"Records": [
 {"eventID": "1", "eventName": "INSERT", "eventSource": "aws:dynamodb", "dynamodb": {
   "Keys": {"PK": {"S": "STU#a91"}, "SK": {"S": "ENROLL#CRS#math204"}},
   "NewImage": {"PK": {"S": "STU#a91"}, "SK": {"S": "ENROLL#CRS#math204"}, "GSI1PK": {"S": "CRS#math204"}, "GSI1SK": {"S": "STU#a91"},
     "enrolledOn": {"S": "2026-09-01"}, "grade": {"S": "B"}, "tags": {"SS": ["x"]}, "n": {"N": "1"}, "m": {"M": {"b": {"BOOL": true}, "z": {"NULL": true}}}, "l": {"L": [{"N": "2"}]}},
   "SequenceNumber": "100", "StreamViewType": "NEW_AND_OLD_IMAGES"}},
 {"eventID": "2", "eventName": "MODIFY", "eventSource": "aws:dynamodb", "dynamodb": {
   "Keys": {"PK": {"S": "STU#a91"}, "SK": {"S": "ENROLL#CRS#math204"}},
   "OldImage": {"PK": {"S": "STU#a91"}, "SK": {"S": "ENROLL#CRS#math204"}, "enrolledOn": {"S": "2026-09-01"}, "grade": {"S": "B"}},
   "NewImage": {"PK": {"S": "STU#a91"}, "SK": {"S": "ENROLL#CRS#math204"}, "enrolledOn": {"S": "2026-09-01"}, "grade": {"S": "A"}},
   "SequenceNumber": "200"}},
 {"eventID": "3", "eventName": "REMOVE", "eventSource": "aws:dynamodb", "dynamodb": {
   "Keys": {"PK": {"S": "STU#a91"}, "SK": {"S": "PROFILE"}},
   "OldImage": {"PK": {"S": "STU#a91"}, "SK": {"S": "PROFILE"}, "name": {"S": "Ada"}},
   "SequenceNumber": "300"}},
 {"eventID": "4", "eventName": "INSERT", "eventSource": "aws:dynamodb", "dynamodb": {
   "Keys": {"PK": {"S": "ORDER#1"}, "SK": {"S": "X"}}, "SequenceNumber": "400"}}
]}`

func TestRouterLambda(t *testing.T) {
	ctx := context.Background()
	var ev events.DynamoDBEvent
	require.NoError(t, json.Unmarshal([]byte(lambdaBatch), &ev))
	table := adjlist.NewTable(nil, "school")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)

	var edges []streams.Event[adjlist.EdgeItem[Enrollment]]
	var nodes []streams.Event[adjlist.NodeItem[Student]]
	r := new(streams.Router)
	streams.On(r, enrolled, func(_ context.Context, ev streams.Event[adjlist.EdgeItem[Enrollment]]) error {
		edges = append(edges, ev)
		return nil
	})
	streams.On(r, students, func(_ context.Context, ev streams.Event[adjlist.NodeItem[Student]]) error {
		nodes = append(nodes, ev)
		return nil
	})
	// Without an unknown handler, the foreign item fails the batch, after
	// the records before it.
	err := r.HandleLambda(ctx, ev)
	require.ErrorIs(t, err, streams.ErrUnknownItem)
	assert.Contains(t, err.Error(), "ORDER#1")

	require.Len(t, edges, 2)
	ins, mod := edges[0], edges[1]
	assert.Equal(t, streams.Insert, ins.Kind)
	assert.Equal(t, "100", ins.SequenceNumber)
	assert.Nil(t, ins.Old)
	require.NotNil(t, ins.New)
	assert.Equal(t, adjlist.EdgeItem[Enrollment]{From: "a91", To: "math204", Data: Enrollment{EnrolledOn: "2026-09-01", Grade: "B"}}, *ins.New)
	assert.Equal(t, adjlist.EdgeItem[Enrollment]{From: "a91", To: "math204"}, ins.Key)
	assert.Len(t, ins.NewImage, 10, "every attribute type converted")
	assert.Equal(t, streams.Modify, mod.Kind)
	assert.Equal(t, "B", mod.Old.Data.Grade)
	assert.Equal(t, "A", mod.Item().Data.Grade)
	require.Len(t, nodes, 1)
	assert.Equal(t, streams.Remove, nodes[0].Kind)
	assert.Nil(t, nodes[0].New)
	assert.Equal(t, adjlist.NodeItem[Student]{ID: "a91", Data: Student{Name: "Ada"}}, nodes[0].Item())

	var unknown []streams.Record
	r.OnUnknown(func(_ context.Context, rec streams.Record) error {
		unknown = append(unknown, rec)
		return nil
	})
	edges, nodes = nil, nil
	require.NoError(t, r.HandleLambda(ctx, ev))
	assert.Len(t, edges, 2)
	assert.Len(t, nodes, 1)
	require.Len(t, unknown, 1)
	assert.Equal(t, "4", unknown[0].EventID)

	// A handler's error stops the batch.
	boom := errors.New("boom")
	r2 := new(streams.Router)
	streams.On(r2, enrolled, func(context.Context, streams.Event[adjlist.EdgeItem[Enrollment]]) error { return boom })
	require.ErrorIs(t, r2.HandleLambda(ctx, ev), boom)
	// An image whose data does not fit the type fails the record.
	type Strict struct {
		Grade int `dynamodbav:"grade"`
	}
	r3 := new(streams.Router)
	streams.On(r3, adjlist.NewEdge[Strict](students, "ENROLL", courses), func(context.Context, streams.Event[adjlist.EdgeItem[Strict]]) error { return nil })
	require.Error(t, r3.HandleLambda(ctx, ev))
	// A record of an unknown kind is malformed.
	ev.Records[0].EventName = "TRUNCATE"
	require.ErrorIs(t, r.HandleLambda(ctx, ev), streams.ErrMalformedRecord)
}

// TestRouterWholeModel: the table is a decoder of every item type it
// records, so one On routes the records of all of them, each named by its
// type, and the foreign one still goes to OnUnknown.
func TestRouterWholeModel(t *testing.T) {
	ctx := context.Background()
	var ev events.DynamoDBEvent
	require.NoError(t, json.Unmarshal([]byte(lambdaBatch), &ev))
	table := adjlist.NewTable(nil, "school")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	adjlist.NewEdge[Enrollment](students, "ENROLL", courses)

	var types []string
	var unknown int
	r := new(streams.Router)
	streams.On(r, table, func(_ context.Context, ev streams.Event[adjlist.TypedItem]) error {
		types = append(types, ev.Item().Type)
		return nil
	})
	r.OnUnknown(func(context.Context, streams.Record) error { unknown++; return nil })
	require.NoError(t, r.HandleLambda(ctx, ev))
	assert.Equal(t, []string{"edge ENROLL (STU → CRS)", "edge ENROLL (STU → CRS)", "node STU"}, types)
	assert.Equal(t, 1, unknown)
}
