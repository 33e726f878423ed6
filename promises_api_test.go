package adjlist_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// TestScanOptionsRefusedBeforeAnyRequest: each option Scan, Migrate and
// Verify refuse is refused alone, on a live client, with the sentinel the
// doc comments name ("An invalid position is ErrInvalidCursor; invalid
// options ... ErrInvalidOption"), in an *OpError naming the walk, and no
// Scan is sent.
func TestScanOptionsRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := newSchool(t)
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", Enrollment{Grade: "A"}))
	var pos string
	_, err := adjlist.Scan(ctx, s.calls, s.enrolled, func(context.Context, adjlist.EdgeItem[Enrollment]) error { return nil },
		func(o *adjlist.ScanOptions) {
			o.Segments = 2
			o.Progress = func(p adjlist.ScanProgress) { pos = p.Position }
		})
	require.NoError(t, err)
	require.NotEmpty(t, pos)

	noop := func(context.Context, adjlist.EdgeItem[Enrollment]) error { return nil }
	walks := map[string]func(opt func(*adjlist.ScanOptions)) error{
		"Scan": func(opt func(*adjlist.ScanOptions)) error {
			_, err := adjlist.Scan(ctx, s.calls, s.enrolled, noop, opt)
			return err
		},
		"Migrate": func(opt func(*adjlist.ScanOptions)) error {
			_, err := adjlist.Migrate(ctx, s.calls, s.enrolled, opt)
			return err
		},
		"Verify": func(opt func(*adjlist.ScanOptions)) error {
			_, err := adjlist.Verify(ctx, s.calls, s.table, opt)
			return err
		},
	}
	tests := []struct {
		name  string
		opt   func(*adjlist.ScanOptions)
		want  error
		walks []string // nil: every walk
	}{
		{"not a position", func(o *adjlist.ScanOptions) { o.From = "x" }, adjlist.ErrInvalidCursor, nil},
		{"a position of other segments", func(o *adjlist.ScanOptions) { o.From, o.Segments = pos, 3 }, adjlist.ErrInvalidCursor, nil},
		{"negative segments", func(o *adjlist.ScanOptions) { o.Segments = -1 }, adjlist.ErrInvalidOption, nil},
		{"over 1,000,000 segments", func(o *adjlist.ScanOptions) { o.Segments = 1_000_001 }, adjlist.ErrInvalidOption, nil},
		{"negative limit", func(o *adjlist.ScanOptions) { o.Limit = -1 }, adjlist.ErrInvalidOption, nil},
		{"negative request rate", func(o *adjlist.ScanOptions) { o.RequestRate = -1 }, adjlist.ErrInvalidOption, nil},
		{"negative read unit rate", func(o *adjlist.ScanOptions) { o.ReadUnitRate = -0.5 }, adjlist.ErrInvalidOption, nil},
		{"an undeclared index", func(o *adjlist.ScanOptions) { o.Index = "GSI9" }, adjlist.ErrInvalidOption, []string{"Scan"}},
		{"an index", func(o *adjlist.ScanOptions) { o.Index = "GSI1" }, adjlist.ErrInvalidOption, []string{"Migrate", "Verify"}},
		{"a filter", func(o *adjlist.ScanOptions) { o.Filter = expression.Name("grade").Equal(expression.Value("A")) }, adjlist.ErrInvalidOption, []string{"Migrate", "Verify"}},
		{"a filter that does not build", func(o *adjlist.ScanOptions) { o.Filter = expression.Name("").Equal(expression.Value("A")) }, adjlist.ErrInvalidOption, []string{"Scan"}},
		{"a nil option function", nil, adjlist.ErrInvalidOption, nil},
	}
	for _, tt := range tests {
		names := tt.walks
		if names == nil {
			names = []string{"Scan", "Migrate", "Verify"}
		}
		for _, name := range names {
			t.Run(tt.name+"/"+name, func(t *testing.T) {
				before := s.calls.scans.Load()
				err := walks[name](tt.opt)
				require.ErrorIs(t, err, tt.want)
				var oe *adjlist.OpError
				require.ErrorAs(t, err, &oe)
				assert.Equal(t, name, oe.Op)
				assert.Equal(t, before, s.calls.scans.Load(), "no Scan sent")
			})
		}
	}
}

// TestTxSecondIdenticalCheckDropped: "a second identical check of an item
// is dropped" (Tx): the Tx keeps one action and commits; a second check
// of the item with another condition, or a write after a check, is two
// actions on one item, ErrTxLimit, with nothing sent.
func TestTxSecondIdenticalCheckDropped(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s, tc := txSchool(t, 0)
	require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ada"}))

	tx := adjlist.NewTx(s.table)
	s.students.TxCheck(tx, "a91")
	s.students.TxCheck(tx, "a91")
	assert.Equal(t, 1, tx.Len(), "the second identical check dropped")
	before := tc.calls.Load()
	require.NoError(t, tx.Commit(ctx))
	assert.Equal(t, before+1, tc.calls.Load(), "one TransactWriteItems")

	for name, second := range map[string]func(tx *adjlist.Tx){
		"another condition": func(tx *adjlist.Tx) {
			s.students.TxCheck(tx, "a91", adjlist.If(expression.Name("name").Equal(expression.Value("Ada"))))
		},
		"a write": func(tx *adjlist.Tx) { s.students.Put(ctx, "a91", Student{Name: "Bob"}, adjlist.InTx(tx)) },
	} {
		t.Run(name, func(t *testing.T) {
			tx := adjlist.NewTx(s.table)
			s.students.TxCheck(tx, "a91")
			second(tx)
			before := tc.calls.Load()
			require.ErrorIs(t, tx.Commit(ctx), adjlist.ErrTxLimit)
			assert.Equal(t, before, tc.calls.Load(), "nothing sent")
		})
	}
}

// segmentsClient records the TotalSegments of every Scan (0: not set).
type segmentsClient struct {
	adjlist.Client
	mu       sync.Mutex
	segments []int32
	segment  map[int32]bool
	limits   []int32
}

func (c *segmentsClient) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	c.mu.Lock()
	c.segments = append(c.segments, aws.ToInt32(in.TotalSegments))
	if c.segment == nil {
		c.segment = map[int32]bool{}
	}
	c.segment[aws.ToInt32(in.Segment)] = true
	c.limits = append(c.limits, aws.ToInt32(in.Limit))
	c.mu.Unlock()
	return c.Client.Scan(ctx, in, o...)
}

// TestWalkSegmentsDefault: ScanOptions.Segments "Default 0: From's segments
// when From is set, else 1 for Scan and Migrate and 4 for Verify", each
// segment scanned (Scan's TotalSegments); Limit is each request's.
func TestWalkSegmentsDefault(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := newSchool(t)
	require.NoError(t, s.table.Check())
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", Enrollment{Grade: "A"}))
	noop := func(context.Context, adjlist.EdgeItem[Enrollment]) error { return nil }
	var pos string // after the first page: the other segments still to read
	progress := func(o *adjlist.ScanOptions) {
		o.Progress = func(p adjlist.ScanProgress) {
			if pos == "" {
				pos = p.Position
			}
		}
	}
	tests := []struct {
		name string
		run  func(api *segmentsClient) error
		want int32
	}{
		{"Scan", func(api *segmentsClient) error { _, err := adjlist.Scan(ctx, api, s.enrolled, noop); return err }, 1},
		{"Migrate", func(api *segmentsClient) error { _, err := adjlist.Migrate(ctx, api, s.enrolled); return err }, 1},
		{"Verify", func(api *segmentsClient) error { _, err := adjlist.Verify(ctx, api, s.table); return err }, 4},
		{"Scan given 3", func(api *segmentsClient) error {
			_, err := adjlist.Scan(ctx, api, s.enrolled, noop, progress, func(o *adjlist.ScanOptions) { o.Segments, o.Limit = 3, 7 })
			return err
		}, 3},
		{"Verify from a position of 3", func(api *segmentsClient) error {
			_, err := adjlist.Verify(ctx, api, s.table, func(o *adjlist.ScanOptions) { o.From = pos })
			return err
		}, 3},
	}
	for _, tt := range tests { // in order: the last reads the position of the one before
		api := &segmentsClient{Client: s.db}
		require.NoError(t, tt.run(api), tt.name)
		require.NotEmpty(t, api.segments, tt.name)
		for _, n := range api.segments {
			if tt.want == 1 {
				assert.LessOrEqual(t, n, int32(1), "%s: one segment", tt.name)
			} else {
				assert.Equal(t, tt.want, n, tt.name)
			}
		}
		if tt.name == "Scan given 3" || tt.name == "Verify" {
			assert.Len(t, api.segment, int(tt.want), "%s: every segment scanned", tt.name)
			assert.Equal(t, tt.name == "Scan given 3", slices.Contains(api.limits, 7), "%s: Limit", tt.name)
		}
	}
}

// TestRepairInvalidModelIsChecksError: Repair refuses an invalid model
// with Table.Check's error, ErrInvalidKey (a bad type name) or
// ErrInvalidOption (a counter named as its target's node marker), in an
// *OpError with Op "Repair", before any request.
func TestRepairInvalidModelIsChecksError(t *testing.T) {
	t.Parallel()
	calls := &countingClient{Client: noScanClient{}}
	badName := adjlist.NewTable(calls, "t")
	adjlist.NewNode[Student](badName, "bad type!", "PROFILE")
	badCounter := adjlist.NewTable(calls, "t")
	students := adjlist.NewNode[Student](badCounter, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](badCounter, "CRS", "METADATA")
	newEdgeCounter(adjlist.NewEdge[Enrollment](students, "ENROLL", courses), "METADATA")
	for _, tt := range []struct {
		name      string
		table     *adjlist.Table
		want, not error
	}{
		{"a bad type name", badName, adjlist.ErrInvalidKey, adjlist.ErrInvalidOption},
		{"a counter named as the node marker", badCounter, adjlist.ErrInvalidOption, adjlist.ErrInvalidKey},
	} {
		t.Run(tt.name, func(t *testing.T) {
			check := tt.table.Check()
			require.ErrorIs(t, check, tt.want)
			_, err := adjlist.Repair(t.Context(), calls, tt.table, nil)
			require.ErrorIs(t, err, tt.want)
			assert.NotErrorIs(t, err, tt.not)
			var oe *adjlist.OpError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, "Repair", oe.Op)
			assert.ErrorContains(t, err, check.Error())
		})
	}
	assert.Zero(t, calls.total()+calls.batchGets.Load(), "no request")
}

// TestCounterNameRule: a counter's name is "1-64 ASCII letters, digits,
// '_', '-' or '.'" (NewItemCounter); any other is a bad name,
// ErrInvalidKey, in Table.Check and in the counter's calls, before any
// request.
func TestCounterNameRule(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		ok   bool
	}{
		{"N", true},
		{"Open_count-2.v1", true},
		{strings.Repeat("C", 64), true},
		{strings.Repeat("C", 65), false},
		{"", false},
		{"OPEN COUNT", false},
		{"OPEN#X", false},
		{"zählung", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			calls := &countingClient{Client: noScanClient{}}
			table := adjlist.NewTable(calls, "t")
			projects := adjlist.NewNode[struct{}](table, "PROJ", "META")
			issues := adjlist.NewCollection[struct{}](projects, "ISSUE")
			c := adjlist.NewItemCounter(issues, tt.name)
			if tt.ok {
				require.NoError(t, table.Check())
				return
			}
			require.ErrorIs(t, table.Check(), adjlist.ErrInvalidKey)
			_, err := c.Get(t.Context(), adjlist.IDs{"p1"}, "")
			require.ErrorIs(t, err, adjlist.ErrInvalidKey)
			assert.Zero(t, calls.total(), "no request")
		})
	}
}

// TestErrorTexts: OpError.Error "formats the operation, table, index and
// keys, then the cause" (the cause's own "adjlist: " dropped), and
// NodeNotFoundError's names the missing node and its side; both match
// their sentinels.
func TestErrorTexts(t *testing.T) {
	t.Parallel()
	cause := &adjlist.NodeNotFoundError{Side: "from", Type: "STU", ID: "a91"}
	assert.Equal(t, `adjlist: from node STU "a91" not found`, cause.Error())
	assert.Equal(t, `adjlist: node CRS "math204" not found`, (&adjlist.NodeNotFoundError{Type: "CRS", ID: "math204"}).Error())
	require.ErrorIs(t, cause, adjlist.ErrNodeNotFound)
	require.ErrorIs(t, cause, adjlist.ErrNotFound)

	for _, tt := range []struct {
		err  adjlist.OpError
		want string
	}{
		{adjlist.OpError{Op: "Edge.Put", Table: "school", PK: "STU#a91", SK: "ENROLL#CRS#math204", Err: cause},
			`adjlist: Edge.Put school "STU#a91" "ENROLL#CRS#math204": from node STU "a91" not found`},
		{adjlist.OpError{Op: "Edge.To", Table: "school", Index: "GSI1", PK: "CRS#math204", Err: errors.New("boom")},
			`adjlist: Edge.To school index GSI1 "CRS#math204": boom`},
		{adjlist.OpError{Op: "Tx.Commit", Table: "school", Err: errors.New("adjlist: x")},
			`adjlist: Tx.Commit school: x`},
	} {
		assert.Equal(t, tt.want, tt.err.Error())
		assert.Equal(t, tt.err.Err, errors.Unwrap(&tt.err))
	}
}

// batchGetRecorder records the keys and ConsistentRead of each BatchGetItem.
type batchGetRecorder struct {
	adjlist.Client
	mu         sync.Mutex
	keys       []int
	consistent []bool
}

func (c *batchGetRecorder) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	c.mu.Lock()
	for _, ka := range in.RequestItems {
		c.keys = append(c.keys, len(ka.Keys))
		c.consistent = append(c.consistent, aws.ToBool(ka.ConsistentRead))
	}
	c.mu.Unlock()
	return c.Client.BatchGetItem(ctx, in, o...)
}

// TestGetManyBatchesOfDistinctKeys: GetMany and Hydrate make "one
// BatchGetItem per 100 distinct" keys (an id given twice is read once and
// returned twice), eventually consistent unless given Consistent.
func TestGetManyBatchesOfDistinctKeys(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := newSchool(t)
	rec := &batchGetRecorder{Client: s.db}
	table := adjlist.NewTable(rec, s.table.Name())
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", adjlist.NewNode[Course](table, "CRS", "METADATA"))
	ids := make([]string, 101)
	for i := range ids {
		ids[i] = fmt.Sprintf("s%03d", i)
	}
	_, err := s.students.PutMany(ctx, []adjlist.NodeItem[Student]{{ID: "s000", Data: Student{Name: "Ada"}}, {ID: "s099", Data: Student{Name: "Bob"}}})
	require.NoError(t, err)
	require.NoError(t, s.enrolled.Put(ctx, "s000", "math204", Enrollment{Grade: "A"}))

	twice := append(slices.Clone(ids[:100]), ids[:100]...)
	got, err := students.GetMany(ctx, twice)
	require.NoError(t, err)
	assert.Equal(t, []adjlist.NodeItem[Student]{
		{ID: "s000", Data: Student{Name: "Ada"}}, {ID: "s099", Data: Student{Name: "Bob"}},
		{ID: "s000", Data: Student{Name: "Ada"}}, {ID: "s099", Data: Student{Name: "Bob"}},
	}, got, "in order, ids with no item left out, each id given twice returned twice")
	assert.Equal(t, []int{100}, rec.keys, "200 ids, 100 distinct: one request")
	assert.Equal(t, []bool{false}, rec.consistent, "eventually consistent by default")

	rec.keys, rec.consistent = nil, nil
	_, err = students.GetMany(ctx, ids, adjlist.Consistent)
	require.NoError(t, err)
	slices.Sort(rec.keys)
	assert.Equal(t, []int{1, 100}, rec.keys, "101 distinct ids: two requests")
	assert.Equal(t, []bool{true, true}, rec.consistent)

	rec.keys, rec.consistent = nil, nil
	edges, err := enrolled.Hydrate(ctx, []adjlist.EdgeItem[Enrollment]{{From: "s000", To: "math204"}, {From: "s001", To: "math204"}}, adjlist.Consistent)
	require.NoError(t, err)
	assert.Equal(t, []adjlist.EdgeItem[Enrollment]{{From: "s000", To: "math204", Data: Enrollment{Grade: "A"}}}, edges)
	assert.Equal(t, []int{2}, rec.keys)
	assert.Equal(t, []bool{true}, rec.consistent)
}

// inFlightWriter records the most BatchWriteItem requests in flight at
// once; each is held until `want` are in flight (at most 2 s), then 20 ms.
type inFlightWriter struct {
	adjlist.Client
	want     int64
	inFlight atomic.Int64
	max      atomic.Int64
	once     sync.Once
	full     chan struct{}
}

func (c *inFlightWriter) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	n := c.inFlight.Add(1)
	defer c.inFlight.Add(-1)
	for m := c.max.Load(); n > m && !c.max.CompareAndSwap(m, n); m = c.max.Load() {
	}
	if n >= c.want {
		c.once.Do(func() { close(c.full) })
	}
	select {
	case <-c.full:
	case <-time.After(2 * time.Second):
	}
	time.Sleep(20 * time.Millisecond) // overlap the requests that follow
	return c.Client.BatchWriteItem(ctx, in, o...)
}

// TestBulkWorkersBound: BulkOptions.Workers "is how many BatchWriteItem
// requests may be in flight at once. Default 4": 200 items (8 requests of
// 25) never have more in flight, and reach that many.
func TestBulkWorkersBound(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := newSchool(t)
	for _, tt := range []struct {
		name    string
		workers int // 0: the default
		want    int64
	}{{"default", 0, 4}, {"2", 2, 2}, {"6", 6, 6}} {
		t.Run(tt.name, func(t *testing.T) {
			w := &inFlightWriter{Client: s.db, want: tt.want, full: make(chan struct{})}
			table := adjlist.NewTable(w, s.table.Name())
			edges := adjlist.NewEdge[Enrollment](adjlist.NewNode[Student](table, "STU", "PROFILE"), "ENROLL", adjlist.NewNode[Course](table, "CRS", "METADATA"))
			res, err := edges.PutMany(ctx, roster(200, tt.name), func(o *adjlist.BulkOptions) {
				if tt.workers != 0 {
					o.Workers = tt.workers
				}
			})
			require.NoError(t, err)
			assert.Equal(t, adjlist.BulkResult{Written: 200, Requests: 8}, res)
			assert.Equal(t, tt.want, w.max.Load())
		})
	}
}

// TestDeleteNodeBatchesUpToFourAtOnce: a cascade deletes each page's items
// with "BatchWriteItem, 25 per request, up to 4 at once", and the node item
// last: 200 edges out of a student are 8 requests, never more than 4 in
// flight, then one for the node item.
func TestDeleteNodeBatchesUpToFourAtOnce(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := newSchool(t)
	out := make([]adjlist.EdgeItem[Enrollment], 200)
	for i := range out {
		out[i] = adjlist.EdgeItem[Enrollment]{From: "a91", To: fmt.Sprintf("c%03d", i)}
	}
	_, err := s.enrolled.PutMany(ctx, out)
	require.NoError(t, err)
	require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ada"}))

	w := &inFlightWriter{Client: s.db, want: 4, full: make(chan struct{})}
	table := adjlist.NewTable(w, s.table.Name())
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	res, err := adjlist.DeleteNode(ctx, students, "a91")
	require.NoError(t, err)
	assert.Equal(t, adjlist.CascadeResult{Partition: 200, Node: true, Queries: 1, Batches: 8 + 1}, res)
	assert.Equal(t, int64(4), w.max.Load())
	_, err = s.students.Get(ctx, "a91")
	require.ErrorIs(t, err, adjlist.ErrNotFound)
}

// flipper changes the status of every item a GetItem reads just after
// reading it, as a concurrent writer would, and counts the transactions.
type flipper struct {
	adjlist.Client
	db  *dynamodb.Client
	txs atomic.Int64
}

func (c *flipper) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	out, err := c.Client.GetItem(ctx, in, o...)
	if err != nil || out.Item == nil {
		return out, err
	}
	other := "closed"
	if s, ok := out.Item["status"].(*types.AttributeValueMemberS); ok && s.Value == "closed" {
		other = "open"
	}
	_, err = c.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: in.TableName, Key: in.Key,
		UpdateExpression:          aws.String("SET #s = :s"),
		ExpressionAttributeNames:  map[string]string{"#s": "status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":s": &types.AttributeValueMemberS{Value: other}}})
	return out, err
}

func (c *flipper) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	c.txs.Add(1)
	return c.Client.TransactWriteItems(ctx, in, o...)
}

// TestCountedWriteThatReadsTriesThreeTimes: a counted write that must
// learn the stored item reads it and is conditioned on what the counts
// read of it, "tried up to 3 times, then ErrConditionFailed", counting
// nothing.
func TestCountedWriteThatReadsTriesThreeTimes(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := ddbtest.Client(t)
	tr := newTracker(t)
	require.NoError(t, tr.issues.Put(ctx, "p1", "i1", trackerIssue{Title: "one", Status: "open"}))
	f := &flipper{Client: db, db: db}
	table := adjlist.NewTable(f, tr.table.Name())
	raced := declareTracker(t, db, table)

	err := raced.issues.Replace(ctx, "p1", "i1", trackerIssue{Title: "one", Status: "closed"})
	require.ErrorIs(t, err, adjlist.ErrConditionFailed)
	assert.Equal(t, int64(3), f.txs.Load(), "three attempts")
	assert.Equal(t, map[string]int64{"open": 1, "closed": 0, "all": 1}, tr.counts(t, "p1"), "nothing counted")

	// Given InTx, the read happens at the call: a change of what the
	// counts depend on (the status) before Commit fails Commit with
	// ErrConditionFailed, counting nothing; a change of another attribute
	// does not.
	setRaw := func(id, attr, value string) {
		_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(tr.table.Name()),
			Key:                       adjlist.Item{"PK": &types.AttributeValueMemberS{Value: "PROJ#p2"}, "SK": &types.AttributeValueMemberS{Value: "ISSUE#" + id}},
			UpdateExpression:          aws.String("SET #a = :v"),
			ExpressionAttributeNames:  map[string]string{"#a": attr},
			ExpressionAttributeValues: map[string]types.AttributeValue{":v": &types.AttributeValueMemberS{Value: value}}})
		require.NoError(t, err)
	}
	require.NoError(t, tr.issues.Put(ctx, "p2", "i2", trackerIssue{Title: "two", Status: "open"}))
	require.NoError(t, tr.issues.Put(ctx, "p2", "i3", trackerIssue{Title: "three", Status: "open"}))
	tx := adjlist.NewTx(tr.table)
	require.NoError(t, tr.issues.Replace(ctx, "p2", "i2", trackerIssue{Title: "two", Status: "closed"}, adjlist.InTx(tx)))
	setRaw("i2", "status", "closed")
	require.ErrorIs(t, tx.Commit(ctx), adjlist.ErrConditionFailed)
	assert.Equal(t, map[string]int64{"open": 2, "closed": 0, "all": 2}, tr.counts(t, "p2"), "nothing counted")

	tx = adjlist.NewTx(tr.table)
	require.NoError(t, tr.issues.Replace(ctx, "p2", "i3", trackerIssue{Title: "three", Status: "closed"}, adjlist.InTx(tx)))
	setRaw("i3", "title", "changed")
	require.NoError(t, tx.Commit(ctx))
	assert.Equal(t, map[string]int64{"open": 1, "closed": 1, "all": 2}, tr.counts(t, "p2"))
}

// TestCursorOfAnotherQuery: ErrInvalidCursor "reports a page cursor that
// is malformed or belongs to another query (another partition, index or
// direction)", before any request.
func TestCursorOfAnotherQuery(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := newSchool(t)
	for _, e := range []struct{ from, to string }{{"a91", "math204"}, {"a91", "cs101"}, {"a91", "bio110"}, {"b30", "math204"}, {"c07", "math204"}} {
		require.NoError(t, s.enrolled.Put(ctx, e.from, e.to, Enrollment{Grade: "A"}))
	}
	require.NoError(t, s.enrolled.WaitIndexed(ctx, "c07", "math204", waitIndex))
	asc := s.enrolled.From("a91").Limit(1)
	page, err := asc.Page(ctx, "")
	require.NoError(t, err)
	require.NotEmpty(t, page.Cursor)
	reverse, err := s.enrolled.To("math204").Limit(1).Page(ctx, "")
	require.NoError(t, err)
	require.NotEmpty(t, reverse.Cursor)

	before := s.calls.total()
	for name, tt := range map[string]struct {
		q      adjlist.Query[adjlist.EdgeItem[Enrollment]]
		cursor string
	}{
		"malformed":                {asc, "!!!"},
		"another partition":        {s.enrolled.From("b30").Limit(1), page.Cursor},
		"another direction":        {asc.Desc(), page.Cursor},
		"the table's on the index": {s.enrolled.To("math204").Limit(1), page.Cursor},
		"the index's on the table": {asc, reverse.Cursor},
	} {
		_, err := tt.q.Page(ctx, tt.cursor)
		require.ErrorIs(t, err, adjlist.ErrInvalidCursor, name)
	}
	assert.Equal(t, before, s.calls.total(), "no request")
	next, err := asc.Page(ctx, page.Cursor)
	require.NoError(t, err)
	assert.Len(t, next.Items, 1, "the cursor works on its own query")
}

// createCounter counts the CreateTable requests sent.
type createCounter struct {
	adjlist.Client
	creates atomic.Int64
}

func (c *createCounter) CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, o ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	c.creates.Add(1)
	return c.Client.CreateTable(ctx, in, o...)
}

// TestCreateTableOptionsZeroValue: "The zero value creates an on-demand
// table whose inverted index projects ALL ... and waits up to five
// minutes": CreateTableOptions{} set whole by an option function creates
// the table its defaults describe; a projection or stream view type that
// cannot work is ErrInvalidOption before any request.
func TestCreateTableOptionsZeroValue(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := ddbtest.Client(t)
	api := &createCounter{Client: db}
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	require.NoError(t, adjlist.CreateTable(ctx, api, table, func(o *adjlist.CreateTableOptions) { *o = adjlist.CreateTableOptions{} }))
	dropOnCleanup(t, db, table.Name())
	out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table.Name())})
	require.NoError(t, err)
	assert.Equal(t, types.TableStatusActive, out.Table.TableStatus)
	require.Len(t, out.Table.GlobalSecondaryIndexes, 1)
	assert.Equal(t, types.ProjectionTypeAll, out.Table.GlobalSecondaryIndexes[0].Projection.ProjectionType)
	assert.Equal(t, types.BillingModePayPerRequest, out.Table.BillingModeSummary.BillingMode)

	for name, opt := range map[string]func(*adjlist.CreateTableOptions){
		"negative MaxWait":      func(o *adjlist.CreateTableOptions) { o.MaxWait = -time.Second },
		"unknown projection":    func(o *adjlist.CreateTableOptions) { o.Projection = "EVERYTHING" },
		"INCLUDE without names": func(o *adjlist.CreateTableOptions) { o.Projection = types.ProjectionTypeInclude },
		"unknown stream view":   func(o *adjlist.CreateTableOptions) { o.Stream, o.StreamViewType = true, "NEW" },
	} {
		before := api.creates.Load()
		other := adjlist.NewTable(db, ddbtest.TableName(t))
		err := adjlist.CreateTable(ctx, api, other, opt)
		require.ErrorIs(t, err, adjlist.ErrInvalidOption, name)
		var oe *adjlist.OpError
		require.ErrorAs(t, err, &oe, name)
		assert.Equal(t, "CreateTable", oe.Op, name)
		assert.Equal(t, before, api.creates.Load(), "%s: no request", name)
	}
}

// TestRepairDeletesDanglingCountedEdgeUncounted: Repair's round 3 deletes
// a dangling edge "in one TransactWriteItems with a ConditionCheck that
// its missing item is still missing"; "a counted edge deleted here leaves
// a write-time count one too high, for the next Verify to find".
func TestRepairDeletesDanglingCountedEdgeUncounted(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	counter := newCountedEdge(table, "CRS", enrolled, "ENROLLED")
	require.NoError(t, table.Check())
	require.NoError(t, students.Put(ctx, "b30", Student{Name: "Bo"}))
	require.NoError(t, courses.Put(ctx, "math204", Course{Title: "Linear Algebra"}))
	require.NoError(t, counter.Put(ctx, "a91", "math204", Enrollment{Grade: "A"})) // no student a91
	require.NoError(t, counter.Put(ctx, "b30", "math204", Enrollment{Grade: "B"}))

	res, err := adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	require.Len(t, res.Findings, 1)
	dangling := res.Findings[0]
	assert.Equal(t, adjlist.FindingDanglingEdge, dangling.Kind)
	assert.Equal(t, adjlist.Key{PK: "STU#a91", SK: "PROFILE"}, dangling.Missing)

	rep, err := adjlist.Repair(ctx, db, table, res.Findings)
	require.NoError(t, err)
	assert.Equal(t, []adjlist.Finding{dangling}, rep.Left, "not asked to delete: left")
	rep, err = adjlist.Repair(ctx, db, table, res.Findings, func(o *adjlist.RepairOptions) { o.DeleteDangling = true })
	require.NoError(t, err)
	assert.Equal(t, []adjlist.Finding{dangling}, rep.Repaired)
	_, err = enrolled.Get(ctx, "a91", "math204", adjlist.Consistent)
	require.ErrorIs(t, err, adjlist.ErrNotFound)
	n, err := counter.Get(ctx, "math204")
	require.NoError(t, err)
	assert.Equal(t, int64(2), n, "the count is left one too high")
	require.EventuallyWithT(t, func(c *assert.CollectT) { // the index catches up
		n, err := enrolled.To("math204").Count(ctx)
		require.NoError(c, err)
		require.Equal(c, 1, n)
	}, waitIndex, 20*time.Millisecond)

	again, err := adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	require.Len(t, again.Findings, 1)
	assert.Equal(t, adjlist.FindingCounterMismatch, again.Findings[0].Kind)
	assert.Equal(t, "2", again.Findings[0].Have)
	assert.Equal(t, "1", again.Findings[0].Want)
}

// TestCounterOnNumberSortKeyTable: NewItemCounter on "a table with a
// number sort key" (whose count items could not be keyed) makes every
// call fail before any request, and Table.Check reports it.
func TestCounterOnNumberSortKeyTable(t *testing.T) {
	t.Parallel()
	type doc struct {
		Title string `dynamodbav:"title"`
	}
	calls := &countingClient{Client: noScanClient{}}
	table := adjlist.NewTable(calls, "docs", func(o *adjlist.Options) {
		o.PartitionKey, o.SortKey, o.SortKeyType = "pk", "version", types.ScalarAttributeTypeN
	})
	docs := adjlist.NewEntity[doc](table, "doc", "DOC#{docID}", "{version}")
	require.NoError(t, table.Check(), "the entity alone is a valid model")
	c := adjlist.NewItemCounter(docs, "VERSIONS")
	err := table.Check()
	require.Error(t, err)
	assert.True(t, errors.Is(err, adjlist.ErrInvalidOption) || errors.Is(err, adjlist.ErrInvalidKey), err)
	_, err = c.Get(t.Context(), adjlist.IDs{"d1"}, "")
	require.Error(t, err)
	assert.True(t, errors.Is(err, adjlist.ErrInvalidOption) || errors.Is(err, adjlist.ErrInvalidKey), err)
	assert.Zero(t, calls.total(), "no request")
}

// TestApplySequenceOf40Digits: Apply takes a sequence of "1 to 40 decimal
// digits": 40 digits count, and a shorter number after it is older.
func TestApplySequenceOf40Digits(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	_, _, counter := newCounterSchool(t, stream)
	require.NoError(t, counter.Apply(ctx, strings.Repeat("9", 40), "a91", "math204", true))
	require.NoError(t, counter.Apply(ctx, "1"+strings.Repeat("0", 38), "a91", "math204", false)) // 39 digits: older
	n, err := counter.Get(ctx, "math204")
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)
	require.ErrorIs(t, counter.Apply(ctx, strings.Repeat("9", 41), "a91", "math204", false), adjlist.ErrInvalidOption)
}

// deleteItemRecorder records the condition and names of each DeleteItem.
type deleteItemRecorder struct {
	adjlist.Client
	mu    sync.Mutex
	conds []string
	keys  []adjlist.Item
	names []map[string]string
}

func (c *deleteItemRecorder) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, o ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	c.mu.Lock()
	c.conds = append(c.conds, aws.ToString(in.ConditionExpression))
	c.keys = append(c.keys, in.Key)
	c.names = append(c.names, in.ExpressionAttributeNames)
	c.mu.Unlock()
	return c.Client.DeleteItem(ctx, in, o...)
}

// TestDeleteChildItemLast: DeleteChild's phase 3 is one "DeleteItem PK =
// parent's, SK = the child's (condition attribute_exists)"; a second run
// finds the child gone (CascadeResult.Node false) and succeeds.
func TestDeleteChildItemLast(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := newSchool(t)
	rec := &deleteItemRecorder{Client: s.db}
	table := adjlist.NewTable(rec, s.table.Name())
	notes := adjlist.NewCollection[note](adjlist.NewNode[Student](table, "STU", "PROFILE"), "NOTE")
	require.NoError(t, notes.Put(ctx, "a91", "n1", note{Note: "x"}))

	res, err := adjlist.DeleteChild(ctx, notes, "a91", "n1")
	require.NoError(t, err)
	assert.True(t, res.Node)
	require.Len(t, rec.conds, 1)
	assert.Equal(t, adjlist.Item{"PK": &types.AttributeValueMemberS{Value: "STU#a91"}, "SK": &types.AttributeValueMemberS{Value: "NOTE#n1"}}, rec.keys[0])
	assert.Regexp(t, `^attribute_exists \(#\w+\)$`, rec.conds[0])
	assert.Contains(t, rec.names[0], strings.TrimSuffix(strings.TrimPrefix(rec.conds[0], "attribute_exists ("), ")"))
	for _, name := range rec.names[0] {
		assert.Equal(t, "PK", name)
	}
	_, err = notes.Get(ctx, "a91", "n1")
	require.ErrorIs(t, err, adjlist.ErrNotFound)

	again, err := adjlist.DeleteChild(ctx, notes, "a91", "n1")
	require.NoError(t, err)
	assert.False(t, again.Node)
}

// TestScanOfAFailedHandle: Scan of a handle whose declaration failed
// returns that handle's own error (here ErrInvalidKey: a marker that is no
// name) in an *OpError with Op "Scan", before any request.
func TestScanOfAFailedHandle(t *testing.T) {
	t.Parallel()
	calls := &countingClient{}
	table := adjlist.NewTable(calls, "t")
	bad := adjlist.NewNode[Student](table, "STU", "PRO FILE")
	_, err := adjlist.Scan(t.Context(), calls, bad, func(context.Context, adjlist.NodeItem[Student]) error { return nil })
	require.ErrorIs(t, err, adjlist.ErrInvalidKey)
	var oe *adjlist.OpError
	require.ErrorAs(t, err, &oe)
	assert.Equal(t, "Scan", oe.Op)
	assert.Zero(t, calls.total(), "no request")
}

// failingReadBack fails every GetItem sent after a TransactWriteItems.
type failingReadBack struct {
	*dynamodb.Client
	wrote atomic.Bool
}

func (c *failingReadBack) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	out, err := c.Client.TransactWriteItems(ctx, in, o...)
	c.wrote.Store(err == nil)
	return out, err
}

func (c *failingReadBack) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	if c.wrote.Load() {
		return nil, errors.New("the read back failed")
	}
	return c.Client.GetItem(ctx, in, o...)
}

// TestCountedUpdateReadBackFailsAfterTheWrite: ErrOutcomeUnknown's doc,
// "When it does not hold, nothing was written, but for the read that
// follows a counted Update's transaction": that read's error is returned
// without ErrOutcomeUnknown, and the update and its counts stand.
func TestCountedUpdateReadBackFailsAfterTheWrite(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := ddbtest.Client(t)
	api := &failingReadBack{Client: db}
	table := adjlist.NewTable(api, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	tr := declareTracker(t, db, table)
	require.NoError(t, tr.issues.Put(ctx, "p1", "i1", trackerIssue{Title: "one", Status: "open"}))
	api.wrote.Store(false) // the Put's transaction: the Update's first read goes through

	_, err := tr.issues.Update(ctx, "p1", "i1", adjlist.Set("status", "closed"))
	require.ErrorContains(t, err, "the read back failed")
	assert.NotErrorIs(t, err, adjlist.ErrOutcomeUnknown)
	api.wrote.Store(false)
	got, err := tr.issues.Get(ctx, "p1", "i1")
	require.NoError(t, err)
	assert.Equal(t, "closed", got.Status, "the update was applied")
	assert.Equal(t, map[string]int64{"open": 0, "closed": 1, "all": 1}, tr.counts(t, "p1"))
}
