package adjlist_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// projectedNames is the attribute names a request's ProjectionExpression
// names, sorted.
func projectedNames(in *dynamodb.QueryInput) []string {
	var names []string
	for _, ph := range strings.Split(aws.ToString(in.ProjectionExpression), ",") {
		names = append(names, in.ExpressionAttributeNames[strings.TrimSpace(ph)])
	}
	slices.Sort(names)
	return names
}

// TestCountJudgesByKeys: Query.Count "returns how many items the query
// matches without decoding their data: Query requests that project only
// the key attributes, one per ... [Query.Limit] items ... It counts
// exactly the items [Query.All] would yield, judged by their keys: ...
// foreign items whose keys this package cannot have built ... are not
// counted ... An item whose keys are sound but whose data does not fit T
// is counted; All fails on it."
func TestCountJudgesByKeys(t *testing.T) {
	t.Parallel()
	s := newTenancy(t)
	ctx := context.Background()
	for _, id := range []string{"a", "b", "d"} {
		require.NoError(t, s.projects.Put(ctx, "acme", id, Project{Title: id}))
	}
	raw := func(sk string, data types.AttributeValue) {
		_, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table.Name()), Item: map[string]types.AttributeValue{
			"EntityRef": &types.AttributeValueMemberS{Value: "WS#acme"},
			"Detail":    &types.AttributeValueMemberS{Value: sk},
			"title":     data,
		}})
		require.NoError(t, err)
	}
	raw("PROJ#c", &types.AttributeValueMemberBOOL{Value: true})         // sound keys, data not a Project
	raw("PROJ#x#y", &types.AttributeValueMemberS{Value: "not a child"}) // no escaped id holds '#'

	rec := &recordingClient{Client: s.db}
	table := adjlist.NewTable(rec, s.table.Name(), func(o *adjlist.Options) { o.PartitionKey, o.SortKey = "EntityRef", "Detail" })
	projects := adjlist.NewCollection[Project](adjlist.NewNode[Workspace](table, "WS", "META"), "PROJ")

	n, err := projects.List("acme").Limit(2).Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 4, n, "a, b, c and d; not the foreign PROJ#x#y")
	rec.mu.Lock()
	sent := slices.Clone(rec.queries)
	rec.mu.Unlock()
	assert.Len(t, sent, 3, "five items evaluated, two per request")
	for _, in := range sent {
		// The table's keys, and on this layout the inverted index's: no data.
		assert.Equal(t, []string{"Detail", "EntityRef", "GSI1PK", "GSI1SK"}, projectedNames(in), "only the key attributes")
		assert.Equal(t, int32(2), aws.ToInt32(in.Limit))
		assert.Empty(t, in.Select, "not Select=COUNT")
	}

	_, err = projects.List("acme").Collect(ctx)
	require.Error(t, err, "All fails on the item Count counted")
	var oe *adjlist.OpError
	require.ErrorAs(t, err, &oe)
	assert.Equal(t, "Collection.List", oe.Op)

	// Without the undecodable item, Count is what All yields.
	_, err = s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table.Name()), Key: map[string]types.AttributeValue{
		"EntityRef": &types.AttributeValueMemberS{Value: "WS#acme"},
		"Detail":    &types.AttributeValueMemberS{Value: "PROJ#c"},
	}})
	require.NoError(t, err)
	items, err := projects.List("acme").Collect(ctx)
	require.NoError(t, err)
	n, err = projects.List("acme").Count(ctx)
	require.NoError(t, err)
	assert.Len(t, items, 3)
	assert.Equal(t, len(items), n)
}

// TestLimitCountsDroppedItems: Query.Limit is "how many items DynamoDB
// evaluates per request ... Items dropped by a filter (reverse reads of
// tables shared by several edge labels) count toward it", and LessThan's
// bound "still counts toward [Query.Limit] and is still read": a page can
// come back short or empty with a cursor, and the next page goes on.
func TestLimitCountsDroppedItems(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("LessThan's bound", func(t *testing.T) {
		t.Parallel()
		s := newTenancy(t)
		for _, id := range []string{"a", "b", "c"} {
			require.NoError(t, s.projects.Put(ctx, "acme", id, Project{Title: id}))
		}
		q := s.projects.List("acme").LessThan("b").Limit(2)
		var u adjlist.Usage
		page, err := q.Page(adjlist.WithUsage(ctx, &u), "")
		require.NoError(t, err)
		require.Len(t, page.Items, 1, "b was read and dropped")
		assert.Equal(t, "a", page.Items[0].ID)
		tot := u.Totals()
		assert.Equal(t, 1, tot.Requests, "one Query")
		assert.Equal(t, 2, tot.Scanned, "b read, and counted toward the limit of 2")
		assert.Equal(t, 2, tot.Matched, "DynamoDB returned b; the library dropped it")
	})
	t.Run("reverse read's label filter", func(t *testing.T) {
		t.Parallel()
		s := newSchool(t)
		waitlist := adjlist.NewEdge[Enrollment](s.students, "WAITLIST", s.courses)
		require.NoError(t, waitlist.Put(ctx, "s0", "c1", Enrollment{Grade: "W"}))
		require.NoError(t, s.enrolled.Put(ctx, "s1", "c1", Enrollment{Grade: "A"}))
		q := s.enrolled.To("c1").Limit(1)
		var page adjlist.Page[adjlist.EdgeItem[Enrollment]]
		require.Eventually(t, func() bool { // the index is updated asynchronously
			n, err := s.enrolled.To("c1").Count(ctx)
			require.NoError(t, err)
			return n == 1
		}, waitIndex, 20*time.Millisecond)
		page, err := q.Page(ctx, "")
		require.NoError(t, err)
		assert.Empty(t, page.Items, "the one item evaluated was s0's WAITLIST edge, filtered out")
		require.NotEmpty(t, page.Cursor)
		next, err := q.Page(ctx, page.Cursor)
		require.NoError(t, err)
		require.Len(t, next.Items, 1)
		assert.Equal(t, "s1", next.Items[0].From)
	})
}

// updPost is node data with a string set, a counter and a nullable note,
// for the four kinds of Update action.
type updPost struct {
	Tags  []string `dynamodbav:"tags,stringset,omitempty"`
	Likes int      `dynamodbav:"likes"`
	Views int      `dynamodbav:"views"`
	Note  *string  `dynamodbav:"note"`
	Draft string   `dynamodbav:"draft,omitempty"`
}

// stringSet marshals as a string set (SS): a bare []string is a list.
type stringSet []string

func (s stringSet) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberSS{Value: s}, nil
}

// updateRecorder keeps the UpdateItem inputs sent.
type updateRecorder struct {
	adjlist.Client
	mu  sync.Mutex
	ins []*dynamodb.UpdateItemInput
}

func (c *updateRecorder) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, o ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.mu.Lock()
	c.ins = append(c.ins, in)
	c.mu.Unlock()
	return c.Client.UpdateItem(ctx, in, o...)
}

// TestUpdateActions: an Update is "one UpdateItem ... (one clause per
// kind, in its order ADD, DELETE, REMOVE, SET)"; Set with "a nil value
// sets NULL"; Add adds "a number added to a number attribute (created as
// value when missing)"; Delete removes "the elements of set value ... from
// a set attribute"; Remove makes the attributes go.
func TestUpdateActions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	rec := &updateRecorder{Client: db}
	table := adjlist.NewTable(rec, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	posts := adjlist.NewNode[updPost](table, "POST", "META")
	note := "first"
	require.NoError(t, posts.Put(ctx, "p1", updPost{Tags: []string{"go", "aws"}, Likes: 1, Note: &note, Draft: "yes"}))

	// Written SET first, as a caller would; the request orders the kinds.
	u := adjlist.Set("note", nil).Remove("draft").Add("likes", 2).Add("views", 5).Delete("tags", stringSet{"aws"})
	got, err := posts.Update(ctx, "p1", u)
	require.NoError(t, err)
	assert.Equal(t, updPost{Tags: []string{"go"}, Likes: 3, Views: 5}, got)

	rec.mu.Lock()
	require.Len(t, rec.ins, 1, "one UpdateItem")
	expr := aws.ToString(rec.ins[0].UpdateExpression)
	rec.mu.Unlock()
	clauses := regexp.MustCompile(`(?m)^(ADD|DELETE|REMOVE|SET) `).FindAllStringSubmatch(expr, -1)
	var kinds []string
	for _, c := range clauses {
		kinds = append(kinds, c[1])
	}
	assert.Equal(t, []string{"ADD", "DELETE", "REMOVE", "SET"}, kinds, "one clause per kind, in this order: %q", expr)

	out, err := db.GetItem(ctx, getInput(table.Name(), "POST#p1", "META"))
	require.NoError(t, err)
	assert.Equal(t, &types.AttributeValueMemberNULL{Value: true}, out.Item["note"], "Set(name, nil) sets NULL")
	assert.NotContains(t, out.Item, "draft")
	assert.Equal(t, &types.AttributeValueMemberN{Value: "5"}, out.Item["views"], "created as the value added")

	// Update.Delete's doc: a []string marshals as a list and an
	// AttributeValue as a map, which DynamoDB refuses; the set stays.
	for _, v := range []any{[]string{"go"}, &types.AttributeValueMemberSS{Value: []string{"go"}}} {
		_, err = posts.Update(ctx, "p1", adjlist.Update{}.Delete("tags", v))
		require.Error(t, err, "%T", v)
		var api smithy.APIError
		require.ErrorAs(t, err, &api, "%T", v)
		assert.Equal(t, "ValidationException", api.ErrorCode(), "%T", v)
	}
	got, err = posts.Get(ctx, "p1")
	require.NoError(t, err)
	assert.Equal(t, []string{"go"}, got.Tags, "the set unchanged")
}

// TestNativeBetweenComparesNumbers: Between's "lo sorting after hi (as key
// text; as numbers on a native index's number attribute) is
// [ErrInvalidOption]", and on a native index "values are the attribute's
// own, typed ..., and one of the other kind is [ErrInvalidOption] before
// any request": Between(9, 10) on a number attribute reads 9 and 10 (as
// text "9" sorts after "10"), Between(10, 9) and a string bound are
// refused without a Query.
func TestNativeBetweenComparesNumbers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	calls := &countingClient{Client: db}
	table := adjlist.NewTable(calls, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "ByScore", PartitionAttributes: []adjlist.KeyAttribute{{Name: "tour"}},
			SortAttributes: []adjlist.KeyAttribute{{Name: "score", Type: "N"}}}}
	})
	ddbtest.CreateTable(t, table)
	entries := adjlist.NewNode[Entry](table, "ENTRY", "")
	for i, score := range []int{8, 9, 10, 11} {
		require.NoError(t, entries.Put(ctx, fmt.Sprintf("e%d", i), Entry{Tour: "W", Score: score}))
	}
	require.Eventually(t, func() bool {
		n, err := entries.ByIndex("ByScore", "W").Count(ctx)
		require.NoError(t, err)
		return n == 4
	}, waitIndex, 20*time.Millisecond)

	got, err := entries.ByIndex("ByScore", "W").Between(9, 10).Collect(ctx)
	require.NoError(t, err)
	var scores []int
	for _, e := range got {
		scores = append(scores, e.Data.Score)
	}
	assert.Equal(t, []int{9, 10}, scores)

	for name, q := range map[string]adjlist.Query[adjlist.NodeItem[Entry]]{
		"lo after hi as numbers": entries.ByIndex("ByScore", "W").Between(10, 9),
		"a string bound":         entries.ByIndex("ByScore", "W").GreaterThan("x"),
		"a string Between bound": entries.ByIndex("ByScore", "W").Between(9, "10"),
	} {
		t.Run(name, func(t *testing.T) {
			before := calls.total()
			_, err := q.Collect(ctx)
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
			_, err = q.Page(ctx, "")
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
			assert.Equal(t, before, calls.total(), "no request")
		})
	}
}

// TestCursorBoundToLabelAndItemType: a Page.Cursor "is valid only for the
// query that issued it ...: the same operation (item type), index,
// partition, sort key prefix or range, label filter and direction". Two
// labels' reverse reads share the index partition and its "STU#" prefix,
// and differ only in the label filter; two item types share a partition.
// Each refuses the other's cursor with ErrInvalidCursor before any
// request, and takes its own.
func TestCursorBoundToLabelAndItemType(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newSchool(t)
	waitlist := adjlist.NewEdge[Enrollment](s.students, "WAITLIST", s.courses)
	for _, stu := range []string{"s1", "s2", "s3"} {
		require.NoError(t, s.enrolled.Put(ctx, stu, "c1", Enrollment{Grade: "A"}))
		require.NoError(t, waitlist.Put(ctx, stu, "c1", Enrollment{Grade: "W"}))
		require.NoError(t, s.enrolled.Put(ctx, "s1", "c"+stu[1:]+"x", Enrollment{Grade: "A"}))
		require.NoError(t, waitlist.Put(ctx, "s1", "c"+stu[1:]+"x", Enrollment{Grade: "W"}))
	}
	require.NoError(t, s.enrolled.WaitIndexed(ctx, "s3", "c1", waitIndex))
	require.NoError(t, waitlist.WaitIndexed(ctx, "s3", "c1", waitIndex))

	tn := newTenancy(t)
	notes := adjlist.NewCollection[Project](tn.workspaces, "NOTE")
	for _, id := range []string{"a", "b", "c"} {
		require.NoError(t, tn.projects.Put(ctx, "acme", id, Project{Title: id}))
		require.NoError(t, notes.Put(ctx, "acme", id, Project{Title: id}))
	}

	// The first page of one item evaluated: on the index it may be the
	// other label's, filtered out, so the page may be empty.
	edgeCursor := func(t *testing.T, q adjlist.Query[adjlist.EdgeItem[Enrollment]]) string {
		page, err := q.Limit(1).Page(ctx, "")
		require.NoError(t, err)
		require.NotEmpty(t, page.Cursor)
		return page.Cursor
	}
	edgeCases := map[string]struct {
		issued, other adjlist.Query[adjlist.EdgeItem[Enrollment]]
	}{
		"reverse reads of two labels": {s.enrolled.To("c1"), waitlist.To("c1")},
		"forward reads of two labels": {s.enrolled.From("s1"), waitlist.From("s1")},
	}
	for name, tc := range edgeCases {
		t.Run(name, func(t *testing.T) {
			cursor := edgeCursor(t, tc.issued)
			before := s.calls.total()
			_, err := tc.other.Limit(1).Page(ctx, cursor)
			require.ErrorIs(t, err, adjlist.ErrInvalidCursor)
			assert.Equal(t, before, s.calls.total(), "no request")
			_, err = tc.issued.Limit(1).Page(ctx, cursor)
			require.NoError(t, err, "its own query resumes")
		})
	}
	t.Run("two item types of one partition", func(t *testing.T) {
		page, err := tn.projects.List("acme").Limit(1).Page(ctx, "")
		require.NoError(t, err)
		require.NotEmpty(t, page.Cursor)
		before := tn.calls.total()
		_, err = notes.List("acme").Limit(1).Page(ctx, page.Cursor)
		require.ErrorIs(t, err, adjlist.ErrInvalidCursor)
		assert.Equal(t, before, tn.calls.total(), "no request")
	})
}

// TestUpdateOfIndexFeedRefused: "An attribute feeding an index key
// changed any other way ([Update.Add], [Update.Delete], [Update.SetTo], a
// nested path) ... is [ErrInvalidOption] before any request", and the
// item's index keys stay as they were; the same changes to an attribute
// no key reads are sent.
func TestUpdateOfIndexFeedRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	calls := &countingClient{Client: db}
	table := adjlist.NewTable(calls, ddbtest.TableName(t), indexedTableOptions)
	ddbtest.CreateTable(t, table)
	ws := adjlist.NewNode[Space](table, "WS", "META")
	projects := adjlist.NewCollection[Proj](ws, "PROJ", func(o *adjlist.CollectionOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("S#{status}"), SortKey: adjlist.Template("{createdAt}")}}
	})
	require.NoError(t, projects.Put(ctx, "acme", "p1", Proj{Status: ptr("ACTIVE"), CreatedAt: "2026-01-01"}))
	for name, u := range map[string]adjlist.Update{
		"Add":             adjlist.Update{}.Add("createdAt", 1),
		"Delete":          adjlist.Update{}.Delete("status", stringSet{"ACTIVE"}),
		"SetTo":           adjlist.Update{}.SetTo("status", expression.Value("DONE")),
		"a nested Set":    adjlist.Set("createdAt.day", "02"),
		"a nested Remove": adjlist.Remove("status.x"),
	} {
		t.Run(name, func(t *testing.T) {
			before := calls.total()
			_, err := projects.Update(ctx, "acme", "p1", u)
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
			assert.Equal(t, before, calls.total(), "no request")
		})
	}
	out, err := db.GetItem(ctx, getInput(table.Name(), "WS#acme", "PROJ#p1"))
	require.NoError(t, err)
	assert.Equal(t, &types.AttributeValueMemberS{Value: "S#ACTIVE"}, out.Item["GSI2PK"])
	assert.Equal(t, &types.AttributeValueMemberS{Value: "2026-01-01"}, out.Item["GSI2SK"])

	got, err := projects.Update(ctx, "acme", "p1", adjlist.Update{}.Add("stars", 2).SetTo("title", expression.Value("T")))
	require.NoError(t, err, "an attribute no key reads")
	assert.Equal(t, 2, got.Stars)
	assert.Equal(t, "T", got.Title)
}

// TestUsageCountsARetriedRequestOnce: UsageTotals.Requests "is the number
// of DynamoDB operations called (an operation the SDK retries counts
// once)": a Query page throttled, then failed with a 500, then answered is
// three attempts on the wire and one request in Usage, with the answer's
// items and capacity.
func TestUsageCountsARetriedRequestOnce(t *testing.T) {
	t.Parallel()
	s, ft := faultySchool(t, func(op string, n int, _ []byte) fault {
		switch {
		case op == "Query" && n == 1:
			return fault{status: 400, body: ddbError("ProvisionedThroughputExceededException", "injected")}
		case op == "Query" && n == 2:
			return fault{status: 500, body: ddbError("InternalServerError", "injected")}
		}
		return fault{forward: true}
	}, 0)
	ctx := context.Background()
	for _, c := range []string{"c1", "c2", "c3"} {
		require.NoError(t, s.enrolled.Put(ctx, "a91", c, math204))
	}
	var u adjlist.Usage
	items, err := s.enrolled.From("a91").Collect(adjlist.WithUsage(ctx, &u))
	require.NoError(t, err)
	assert.Len(t, items, 3)
	assert.Equal(t, 3, ft.requests("Query"), "three attempts sent")
	tot := u.Totals()
	assert.Equal(t, 1, tot.Requests, "one operation")
	assert.Equal(t, 3, tot.Scanned)
	assert.Equal(t, 3, tot.Matched)
	assert.Positive(t, tot.ReadUnits)
}

// TestCheckJoinsEveryMistake: Table.Check "returns every mistake in the
// model declared on t so far, joined ..., or nil ... bad names are
// [ErrInvalidKey], bad templates, indexes or options [ErrInvalidOption]
// ... a later declaration of the same item type replaces the earlier.
// Check makes no request."
func TestCheckJoinsEveryMistake(t *testing.T) {
	t.Parallel()
	calls := &countingClient{Client: noScanClient{}}
	table := adjlist.NewTable(calls, "t")
	require.NoError(t, table.Check(), "no declaration, no mistake")
	ws := adjlist.NewNode[Workspace](table, "WS", "META")
	adjlist.NewNode[Student](table, "bad type!", "PROFILE")
	adjlist.NewCollection[Project](ws, "PROJ", func(o *adjlist.CollectionOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI9", PartitionKey: adjlist.Template("{status}"), SortKey: adjlist.Template("{@self}")}}
	})
	err := table.Check()
	require.ErrorIs(t, err, adjlist.ErrInvalidKey, "the bad name")
	require.ErrorIs(t, err, adjlist.ErrInvalidOption, "the unknown index")
	joined, ok := err.(interface{ Unwrap() []error })
	require.True(t, ok, "errors.Join: %T", err)
	assert.Len(t, joined.Unwrap(), 2, "one error per mistake")

	// The collection declared again, right: only the bad name is left.
	adjlist.NewCollection[Project](ws, "PROJ")
	err = table.Check()
	require.ErrorIs(t, err, adjlist.ErrInvalidKey)
	assert.NotErrorIs(t, err, adjlist.ErrInvalidOption, "the later declaration replaced the earlier")
	assert.Zero(t, calls.total()+calls.batchGets.Load(), "no request")
}

// TestEdgesOfOneLabelFromTwoSourceTypes: the table records "a later
// declaration of the same item type ... (an edge's label and ends)" in
// place of the earlier; two edges that share a label and target type but
// not the source type are two item types: Table.TypeOf names each, and
// Table.Check reports neither.
func TestEdgesOfOneLabelFromTwoSourceTypes(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "t")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	teachers := adjlist.NewNode[Student](table, "TCH", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	adjlist.NewEdge[Enrollment](teachers, "ENROLL", courses)
	require.NoError(t, table.Check())
	for pk, want := range map[string]string{
		"STU#a91": "edge ENROLL (STU → CRS)",
		"TCH#t01": "edge ENROLL (TCH → CRS)",
	} {
		name, ok := table.TypeOf(adjlist.Item{
			"PK": &types.AttributeValueMemberS{Value: pk},
			"SK": &types.AttributeValueMemberS{Value: "ENROLL#CRS#math204"},
		})
		assert.True(t, ok, pk)
		assert.Equal(t, want, name, pk)
	}
}

// TestCounterOfOneEdgeKindOnly: a counter counts the item type it is
// declared on: students' ENROLL edges into courses, not teachers' ENROLL
// edges into the same courses, which share the label and target type.
func TestCounterOfOneEdgeKindOnly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newSchool(t)
	teachers := adjlist.NewNode[Student](s.table, "TCH", "PROFILE")
	teaches := adjlist.NewEdge[Enrollment](teachers, "ENROLL", s.courses)
	counter := newEdgeCounter(s.enrolled, "ENROLLED")
	require.NoError(t, s.table.Check())
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", Enrollment{Grade: "A"}))
	require.NoError(t, teaches.Put(ctx, "t01", "math204", Enrollment{}))
	n, err := counter.Get(ctx, "math204")
	require.NoError(t, err)
	assert.Equal(t, int64(1), n, "the student's edge only")
}

// TestIndexCountLimits: Options.Indexes holds "at most 20 global (the
// inverted index included) and 5 local: else every call fails with
// [ErrInvalidOption]", at the boundaries: 19 beside the inverted index
// and 20 without it are allowed, 20 beside it and 21 without it are not;
// 5 local are allowed.
func TestIndexCountLimits(t *testing.T) {
	t.Parallel()
	globals := func(n int) []adjlist.Index {
		var ixs []adjlist.Index
		for i := range n {
			ixs = append(ixs, adjlist.Index{Name: fmt.Sprintf("G%02d", i), PartitionKey: fmt.Sprintf("K%02d", i)})
		}
		return ixs
	}
	var locals []adjlist.Index
	for i := range 5 {
		locals = append(locals, adjlist.Index{Name: fmt.Sprintf("L%02d", i), Local: true, SortKey: fmt.Sprintf("S%02d", i)})
	}
	for _, tc := range []struct {
		name    string
		indexes []adjlist.Index
		noIndex bool
		ok      bool
	}{
		{"19 and the inverted index", globals(19), false, true},
		{"20 and the inverted index", globals(20), false, false},
		{"20 without an inverted index", globals(20), true, true},
		{"21 without an inverted index", globals(21), true, false},
		{"5 local", locals, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := adjlist.NewTable(nil, "t", func(o *adjlist.Options) { o.Indexes, o.NoIndex = tc.indexes, tc.noIndex })
			if tc.ok {
				assert.NoError(t, table.Check())
				return
			}
			assert.ErrorIs(t, table.Check(), adjlist.ErrInvalidOption)
		})
	}
}
