package adjlist_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// recordingClient keeps the Query inputs sent, to check the exact request.
type recordingClient struct {
	adjlist.Client
	mu      sync.Mutex
	queries []*dynamodb.QueryInput
}

func (c *recordingClient) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.mu.Lock()
	c.queries = append(c.queries, in)
	c.mu.Unlock()
	return c.Client.Query(ctx, in, o...)
}

func (c *recordingClient) last(t *testing.T) (keyCond string, values map[string]string) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	require.NotEmpty(t, c.queries)
	in := c.queries[len(c.queries)-1]
	return aws.ToString(in.KeyConditionExpression), stringsOf(t, in.ExpressionAttributeValues)
}

// childIDs runs q every way (Collect, pages of one, Count) and checks they
// agree; it returns the ids Collect yields.
func childIDs(t *testing.T, q adjlist.Query[adjlist.Child[Project]]) []string {
	t.Helper()
	ctx := context.Background()
	items, err := q.Collect(ctx)
	require.NoError(t, err)
	ids := []string{}
	for _, c := range items {
		ids = append(ids, c.ID)
	}
	paged := []string{}
	cursor := ""
	for range 20 {
		page, err := q.Limit(1).Page(ctx, cursor)
		require.NoError(t, err)
		for _, c := range page.Items {
			paged = append(paged, c.ID)
		}
		if cursor = page.Cursor; cursor == "" {
			break
		}
	}
	assert.Equal(t, ids, paged, "pages of one")
	n, err := q.Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, len(ids), n, "Count")
	return ids
}

// TestSortKeyConditionsStayInsidePrefix: every sort key condition on
// "PROJ#" children reads only children, though the partition holds items
// on both sides of the prefix (the parent's META and NOTE# items below,
// PROJECT# and TASK# above), in both directions, paged and counted.
func TestSortKeyConditionsStayInsidePrefix(t *testing.T) {
	t.Parallel()
	s := newTenancy(t)
	ctx := context.Background()
	require.NoError(t, s.workspaces.Put(ctx, "acme", Workspace{DisplayName: "Acme"}))
	for _, id := range []string{"a", "b", "b ", "ba", "c"} {
		require.NoError(t, s.projects.Put(ctx, "acme", id, Project{Title: "P " + id, Status: "ACTIVE"}))
	}
	for _, typ := range []string{"NOTE", "PROJECT", "TASK"} {
		other := adjlist.NewCollection[Project](s.workspaces, typ)
		for _, id := range []string{"a", "z", "~"} {
			require.NoError(t, other.Put(ctx, "acme", id, Project{Title: typ}))
		}
	}
	list := s.projects.List("acme")
	tests := []struct {
		name string
		q    adjlist.Query[adjlist.Child[Project]]
		want []string
	}{
		{"LessThan", list.LessThan("b"), []string{"a"}},
		{"LessThan the first", list.LessThan("a"), []string{}},
		{"LessThanEqual", list.LessThanEqual("b"), []string{"a", "b"}},
		{"GreaterThan", list.GreaterThan("b"), []string{"b ", "ba", "c"}},
		{"GreaterThan the last", list.GreaterThan("c"), []string{}},
		{"GreaterThanEqual", list.GreaterThanEqual("b"), []string{"b", "b ", "ba", "c"}},
		{"Between", list.Between("a", "b"), []string{"a", "b"}},
		{"Between to the prefix's end", list.Between("a", "b\U0010FFFF"), []string{"a", "b", "b ", "ba"}},
		{"Between one", list.Between("c", "c"), []string{"c"}},
		{"BeginsWith", list.BeginsWith("b"), []string{"b", "b ", "ba"}},
		{"LessThan beyond the prefix", list.LessThan("~"), []string{"a", "b", "b ", "ba", "c"}},
		{"GreaterThan a space", list.GreaterThan(" "), []string{"a", "b", "b ", "ba", "c"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, childIDs(t, tc.q))
			desc := slices.Clone(tc.want)
			slices.Reverse(desc)
			assert.Equal(t, desc, childIDs(t, tc.q.Desc()), "Desc")
		})
	}
}

// TestSortKeyConditionRequest: the documented request, with ids escaped
// as keys are.
func TestSortKeyConditionRequest(t *testing.T) {
	t.Parallel()
	s := newTenancy(t)
	rec := &recordingClient{Client: s.db}
	table := adjlist.NewTable(rec, s.table.Name(), func(o *adjlist.Options) { o.PartitionKey, o.SortKey = "EntityRef", "Detail" })
	users := adjlist.NewNode[Workspace](table, "USER", "PROFILE")
	orders := adjlist.NewCollection[Project](users, "ORDER")
	ctx := context.Background()

	_, err := orders.List("123").Between("2023-01-01", "2023-01-31~").Collect(ctx)
	require.NoError(t, err)
	kc, vals := rec.last(t)
	assert.Equal(t, "(#0 = :0) AND (#1 BETWEEN :1 AND :2)", kc)
	assert.Equal(t, map[string]string{":0": "USER#123", ":1": "ORDER#2023-01-01", ":2": "ORDER#2023-01-31~"}, vals)

	_, err = orders.List("123").BeginsWith("a#b%").Collect(ctx)
	require.NoError(t, err)
	kc, vals = rec.last(t)
	assert.Equal(t, "(#0 = :0) AND (begins_with (#1, :1))", kc)
	assert.Equal(t, map[string]string{":0": "USER#123", ":1": "ORDER#a%23b%25"}, vals)

	_, err = orders.List("123").GreaterThanEqual("x").Collect(ctx)
	require.NoError(t, err)
	_, vals = rec.last(t)
	assert.Equal(t, map[string]string{":0": "USER#123", ":1": "ORDER#x", ":2": "ORDER$"}, vals)
}

// TestSortKeyConditionBadInput: refused before any request.
func TestSortKeyConditionBadInput(t *testing.T) {
	t.Parallel()
	s := newTenancy(t)
	ctx := context.Background()
	list := s.projects.List("acme")
	tests := []struct {
		name string
		q    adjlist.Query[adjlist.Child[Project]]
		want error
	}{
		{"lo > hi", list.Between("b", "a"), adjlist.ErrInvalidOption},
		{"two conditions", list.GreaterThan("a").LessThan("c"), adjlist.ErrInvalidOption},
		{"Between then BeginsWith", list.Between("a", "c").BeginsWith("b"), adjlist.ErrInvalidOption},
		{"empty prefix", list.BeginsWith(""), adjlist.ErrInvalidKey},
		{"empty bound", list.LessThan(""), adjlist.ErrInvalidKey},
		{"control character", list.GreaterThan("a\x00"), adjlist.ErrInvalidKey},
		{"too long", list.LessThan(string(make([]byte, 1100))), adjlist.ErrInvalidKey},
		{"filter on the sort key", list.Filter(expression.Name("Detail").BeginsWith("PROJ#a")), adjlist.ErrInvalidOption},
		{"filter on the partition key", list.Filter(expression.Name("EntityRef").Equal(expression.Value("x"))), adjlist.ErrInvalidOption},
		{"invalid filter", list.Filter(expression.ConditionBuilder{}), adjlist.ErrInvalidOption},
		{"empty projection", list.Project(), adjlist.ErrInvalidOption},
		{"empty name", list.Project("title", ""), adjlist.ErrInvalidOption},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := s.calls.total()
			_, err := tc.q.Collect(ctx)
			require.ErrorIs(t, err, tc.want)
			_, err = tc.q.Count(ctx)
			require.ErrorIs(t, err, tc.want)
			_, err = tc.q.Page(ctx, "")
			require.ErrorIs(t, err, tc.want)
			assert.Equal(t, before, s.calls.total(), "no request")
		})
	}
}

// TestSortKeyConditionBindsCursor: a cursor from one range is refused by
// another range, a filtered query and a projected one, before any request.
func TestSortKeyConditionBindsCursor(t *testing.T) {
	t.Parallel()
	s := newTenancy(t)
	ctx := context.Background()
	for _, id := range []string{"a", "b", "c", "d"} {
		require.NoError(t, s.projects.Put(ctx, "acme", id, Project{Status: "ACTIVE"}))
	}
	list := s.projects.List("acme")
	page, err := list.Between("a", "c").Limit(1).Page(ctx, "")
	require.NoError(t, err)
	require.NotEmpty(t, page.Cursor)
	before := s.calls.total()
	for name, q := range map[string]adjlist.Query[adjlist.Child[Project]]{
		"no range":      list.Limit(1),
		"another range": list.Between("a", "d").Limit(1),
		"filtered":      list.Between("a", "c").Filter(expression.Name("status").Equal(expression.Value("ACTIVE"))).Limit(1),
		"projected":     list.Between("a", "c").Project("title").Limit(1),
	} {
		_, err := q.Page(ctx, page.Cursor)
		assert.ErrorIs(t, err, adjlist.ErrInvalidCursor, name)
	}
	assert.Equal(t, before, s.calls.total(), "no request")
	next, err := list.Between("a", "c").Page(ctx, page.Cursor)
	require.NoError(t, err)
	assert.Len(t, next.Items, 2)
}

// TestEdgeSortKeyConditions: ranges on forward and reverse edge reads,
// sharded too (each shard gets the condition, the merge keeps order), with
// the reverse read's label filter still applied.
func TestEdgeSortKeyConditions(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	sharded := adjlist.NewEdge[Enrollment](s.students, "AUDIT", s.courses, func(o *adjlist.EdgeOptions) { o.Shards = 4 })
	waitlist := adjlist.NewEdge[Enrollment](s.students, "WAITLIST", s.courses)
	for _, stu := range []string{"s1", "s2", "s3", "s4", "s5"} {
		for _, crs := range []string{"c1", "c2", "c3"} {
			require.NoError(t, s.enrolled.Put(ctx, stu, crs, Enrollment{Grade: "A"}))
			require.NoError(t, sharded.Put(ctx, stu, crs, Enrollment{Grade: "B"}))
			require.NoError(t, waitlist.Put(ctx, stu, crs, Enrollment{}))
		}
	}
	sources := func(q adjlist.Query[adjlist.EdgeItem[Enrollment]]) []string {
		items, err := q.Collect(ctx)
		require.NoError(t, err)
		n, err := q.Count(ctx)
		require.NoError(t, err)
		var out []string
		for _, e := range items {
			out = append(out, e.From+">"+e.To)
		}
		assert.Len(t, out, n, "Count agrees")
		return out
	}
	assert.Equal(t, []string{"s1>c2", "s1>c3"}, sources(s.enrolled.From("s1").GreaterThan("c1")))
	assert.Equal(t, []string{"s2>c1", "s3>c1", "s4>c1"}, sources(s.enrolled.To("c1").Between("s2", "s4")))
	assert.Equal(t, []string{"s4>c1", "s3>c1", "s2>c1"}, sources(s.enrolled.To("c1").Between("s2", "s4").Desc()))
	assert.Equal(t, []string{"s2>c1", "s3>c1", "s4>c1"}, sources(sharded.To("c1").Between("s2", "s4")))
	assert.Equal(t, []string{"s5>c1", "s4>c1"}, sources(sharded.To("c1").GreaterThanEqual("s4").Desc()))

	// Paged through the merge: the same items, in order.
	var paged []string
	cursor := ""
	for range 10 {
		page, err := sharded.To("c1").LessThan("s5").Limit(1).Page(ctx, cursor)
		require.NoError(t, err)
		for _, e := range page.Items {
			paged = append(paged, e.From)
		}
		if cursor = page.Cursor; cursor == "" {
			break
		}
	}
	assert.Equal(t, []string{"s1", "s2", "s3", "s4"}, paged)
}

// TestFilterAndProject: a filter on data ANDed with the label filter,
// counted as All yields; Limit applies before the filter; a projection
// returns only the named attributes with the keys.
func TestFilterAndProject(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	waitlist := adjlist.NewEdge[Enrollment](s.students, "WAITLIST", s.courses)
	grades := []string{"A", "B", "A", "C", "A"}
	for i, g := range grades {
		stu := []string{"s1", "s2", "s3", "s4", "s5"}[i]
		require.NoError(t, s.enrolled.Put(ctx, stu, "c1", Enrollment{Grade: g, EnrolledOn: "2026-09-0" + stu[1:]}))
		require.NoError(t, waitlist.Put(ctx, stu, "c1", Enrollment{Grade: "A"}))
	}
	gradeA := expression.Name("grade").Equal(expression.Value("A"))
	q := s.enrolled.To("c1").Filter(gradeA)
	items, err := q.Collect(ctx)
	require.NoError(t, err)
	var from []string
	for _, e := range items {
		from = append(from, e.From)
		assert.Equal(t, "A", e.Data.Grade)
	}
	assert.Equal(t, []string{"s1", "s3", "s5"}, from, "the label filter still applies")
	n, err := q.Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 3, n)

	// Two filters AND; a range and a filter combine.
	both, err := q.Filter(expression.Name("enrolledOn").GreaterThan(expression.Value("2026-09-02"))).Between("s1", "s4").Collect(ctx)
	require.NoError(t, err)
	require.Len(t, both, 1)
	assert.Equal(t, "s3", both[0].From)

	// Limit counts items before the filter: the first page of one item
	// evaluated may hold nothing, with a cursor.
	page, err := s.enrolled.From("s2").Filter(gradeA).Limit(1).Page(ctx, "")
	require.NoError(t, err)
	assert.Empty(t, page.Items)

	// Projection: the named attribute and the keys, nothing else.
	rec := &recordingClient{Client: s.db}
	table := adjlist.NewTable(rec, s.table.Name())
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	projected, err := enrolled.From("s1").Project("grade").Collect(ctx)
	require.NoError(t, err)
	assert.Equal(t, []adjlist.EdgeItem[Enrollment]{{From: "s1", To: "c1", Data: Enrollment{Grade: "A"}}}, projected)
	rev, err := enrolled.To("c1").Project("enrolledOn").Between("s1", "s2").Collect(ctx)
	require.NoError(t, err)
	assert.Equal(t, []adjlist.EdgeItem[Enrollment]{
		{From: "s1", To: "c1", Data: Enrollment{EnrolledOn: "2026-09-01"}},
		{From: "s2", To: "c1", Data: Enrollment{EnrolledOn: "2026-09-02"}},
	}, rev)
	rec.mu.Lock()
	last := rec.queries[len(rec.queries)-1]
	rec.mu.Unlock()
	var names []string
	for _, ph := range strings.Split(aws.ToString(last.ProjectionExpression), ", ") {
		names = append(names, last.ExpressionAttributeNames[ph])
	}
	assert.ElementsMatch(t, []string{"GSI1PK", "GSI1SK", "PK", "SK", "enrolledOn"}, names)
}

// TestFilterUsage: a filtered Count reads every item of its range; Usage
// reports the items scanned and those the filter kept.
func TestFilterUsage(t *testing.T) {
	t.Parallel()
	s := newTenancy(t)
	ctx := context.Background()
	for i, status := range []string{"ACTIVE", "DONE", "ACTIVE", "DONE", "DONE"} {
		require.NoError(t, s.projects.Put(ctx, "acme", string(rune('a'+i)), Project{Status: status}))
	}
	var u adjlist.Usage
	n, err := s.projects.List("acme").Filter(expression.Name("status").Equal(expression.Value("ACTIVE"))).Count(adjlist.WithUsage(ctx, &u))
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, 5, u.Totals().Scanned)
	assert.Equal(t, 2, u.Totals().Matched)
	assert.Equal(t, 1, u.Totals().Requests)
}

// TestRangeValuesSameItems: a range value reaches the same items through
// an entity's List and through AllTypes of it: with sort key
// "{state}#{date}", BeginsWith("WARNING1#") is state WARNING1, any date
// (not WARNING10), and an id holding '%' is written as the keys hold it on
// both paths.
func TestRangeValuesSameItems(t *testing.T) {
	t.Parallel()
	db := ddbtest.Client(t)
	ctx := context.Background()
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) { o.NoIndex = true })
	ddbtest.CreateTable(t, table)
	logs := adjlist.NewEntity[anyData](table, "log", "LOG#{deviceID}", "{state}#{date}")
	for _, ids := range []adjlist.IDs{
		{"12345", "WARNING1", "2026-01-01"}, {"12345", "WARNING1", "2026-01-02"}, {"12345", "WARNING1", "2026-02-01#b"},
		{"12345", "WARNING10", "2026-01-01"}, {"12345", "INFO", "2026-01-01"},
		{"12345", "W%", "2026-01-01"}, {"12345", "W", "2026-01-01"},
		{"67890", "WARNING1", "2026-01-01"},
	} {
		require.NoError(t, logs.Put(ctx, ids, anyData{Name: strings.Join(ids, "/")}))
	}
	for _, tc := range []struct {
		name string
		list adjlist.Query[adjlist.EntityItem[anyData]]
		all  adjlist.Query[adjlist.Item]
		want []string
	}{
		{"the state's items, whatever their date", logs.List("12345").BeginsWith("WARNING1#"), adjlist.AllTypes(logs.List("12345")).BeginsWith("WARNING1#"),
			[]string{"12345/WARNING1/2026-01-01", "12345/WARNING1/2026-01-02", "12345/WARNING1/2026-02-01#b"}},
		{"an id holding '%'", logs.List("12345").BeginsWith("W%#"), adjlist.AllTypes(logs.List("12345")).BeginsWith("W%#"),
			[]string{"12345/W%/2026-01-01"}},
		{"a range across the states", logs.List("12345").Between("W#", "WARNING1#2026-01-01"), adjlist.AllTypes(logs.List("12345")).Between("W#", "WARNING1#2026-01-01"),
			[]string{"12345/W/2026-01-01", "12345/W%/2026-01-01", "12345/WARNING1/2026-01-01"}},
		{"one item", logs.List("12345").Equal("WARNING1#2026-01-02"), adjlist.AllTypes(logs.List("12345")).Equal("WARNING1#2026-01-02"),
			[]string{"12345/WARNING1/2026-01-02"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			listed, err := tc.list.Collect(ctx)
			require.NoError(t, err)
			var got []string
			for _, it := range listed {
				got = append(got, strings.Join(it.IDs, "/"))
			}
			assert.Equal(t, tc.want, got, "List")
			var all []adjlist.EntityItem[anyData]
			other, err := adjlist.Load(ctx, tc.all, logs.Into(&all))
			require.NoError(t, err)
			assert.Zero(t, other)
			got = nil
			for _, it := range all {
				got = append(got, it.Data.Name)
			}
			assert.Equal(t, tc.want, got, "AllTypes")
		})
	}
}

// TestConditionsAfterAnyPrefixOnDynamoDB: an entity whose sort key prefix
// is "v" (not closed with '#') takes Equal, BeginsWith and GreaterThan
// after it, as List's doc says.
func TestConditionsAfterAnyPrefixOnDynamoDB(t *testing.T) {
	t.Parallel()
	db := ddbtest.Client(t)
	ctx := context.Background()
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) { o.NoIndex = true })
	ddbtest.CreateTable(t, table)
	vers := adjlist.NewEntity[anyData](table, "ver", "doc#{docID}", "v{ver}")
	meta := adjlist.NewEntity[anyData](table, "meta", "doc#{docID}", "w")
	require.NoError(t, table.Check())
	for _, v := range []string{"1", "10", "2", "3"} {
		require.NoError(t, vers.Put(ctx, adjlist.IDs{"d", v}, anyData{}))
	}
	require.NoError(t, meta.Put(ctx, adjlist.IDs{"d"}, anyData{}), "an item right after the prefix's end")
	list := vers.List("d")
	for name, tc := range map[string]struct {
		q    adjlist.Query[adjlist.EntityItem[anyData]]
		want []string
	}{
		"List":        {list, []string{"1", "10", "2", "3"}},
		"Equal":       {list.Equal("2"), []string{"2"}},
		"BeginsWith":  {list.BeginsWith("1"), []string{"1", "10"}},
		"GreaterThan": {list.GreaterThan("2"), []string{"3"}},
		"LessThan":    {list.LessThan("2"), []string{"1", "10"}},
		"Between":     {list.Between("10", "2"), []string{"10", "2"}},
	} {
		t.Run(name, func(t *testing.T) {
			items, err := tc.q.Collect(ctx)
			require.NoError(t, err)
			var got []string
			for _, it := range items {
				got = append(got, it.IDs[1])
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
