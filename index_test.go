package adjlist_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
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

// The workspaces model of seed 004 with two more indexes: GSI2 lists
// items by status across workspaces (workspaces and projects overload one
// index partition, STATUS#ACTIVE), LSI1 lists a workspace's projects by
// title.
type (
	Space struct {
		Name      string `dynamodbav:"name"`
		Status    string `dynamodbav:"status,omitempty"`
		CreatedAt string `dynamodbav:"createdAt,omitempty"`
	}
	Proj struct {
		Title     string  `dynamodbav:"title,omitempty"`
		Status    *string `dynamodbav:"status"`
		CreatedAt string  `dynamodbav:"createdAt,omitempty"`
		Stars     int     `dynamodbav:"stars"`
	}
)

type indexedModel struct {
	db         *dynamodb.Client
	calls      *countingClient
	table      *adjlist.Table
	workspaces *adjlist.Node[Space]
	projects   *adjlist.Collection[Proj, Space]
}

var indexedTableOptions = func(o *adjlist.Options) {
	o.Indexes = []adjlist.Index{
		{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"},
		{Name: "LSI1", Local: true, SortKey: "LSI1SK"},
	}
}

var byStatus = adjlist.IndexKeys{Index: "GSI2",
	PartitionKey: adjlist.Template("STATUS#{status}"),
	SortKey:      adjlist.Template("{createdAt}")}

func newIndexedModel(t *testing.T) *indexedModel {
	t.Helper()
	db := ddbtest.Client(t)
	m := &indexedModel{db: db, calls: &countingClient{Client: db}}
	m.table = adjlist.NewTable(m.calls, ddbtest.TableName(t), indexedTableOptions)
	ddbtest.CreateTable(t, m.table)
	m.workspaces = adjlist.NewNode[Space](m.table, "WS", "META", func(o *adjlist.NodeOptions) {
		o.Indexes = []adjlist.IndexKeys{byStatus}
	})
	m.projects = adjlist.NewCollection[Proj](m.workspaces, "PROJ", func(o *adjlist.CollectionOptions) {
		o.Indexes = []adjlist.IndexKeys{byStatus,
			{Index: "LSI1", SortKey: adjlist.Template("TITLE#{title}")}}
	})
	return m
}

func ptr[T any](v T) *T { return &v }

// raw reads one item's attributes as strings, bypassing the library.
func (m *indexedModel) raw(t *testing.T, pk, sk string) map[string]string {
	t.Helper()
	out, err := m.db.GetItem(context.Background(), getInput(m.table.Name(), pk, sk))
	require.NoError(t, err)
	return rawText(out.Item)
}

// rawText shows an item's strings and numbers as text, NULL as "NULL".
func rawText(item map[string]types.AttributeValue) map[string]string {
	m := map[string]string{}
	for k, v := range item {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			m[k] = v.Value
		case *types.AttributeValueMemberN:
			m[k] = v.Value
		default:
			m[k] = fmt.Sprintf("%T", v)
		}
	}
	return m
}

// eventually runs q until it lists exactly want ("parent/id" of each
// child, in order), polling for at most 5 seconds: the index is eventually
// consistent.
func (m *indexedModel) eventually(t *testing.T, q adjlist.Query[adjlist.Child[Proj]], want []string) {
	t.Helper()
	var got []string
	ok := assert.Eventually(t, func() bool {
		items, err := q.Collect(context.Background())
		require.NoError(t, err)
		got = got[:0]
		for _, c := range items {
			got = append(got, c.Parent+"/"+c.ID)
		}
		return fmt.Sprint(got) == fmt.Sprint(want)
	}, waitIndex, 20*time.Millisecond)
	if !ok {
		t.Fatalf("index shows %v, want %v", got, want)
	}
}

func TestIndexItemsCarryDerivedKeys(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := newIndexedModel(t)
	require.NoError(t, m.projects.Put(ctx, "acme", "2026-0007", Proj{Title: "Roadmap #1", Status: ptr("ACTIVE"), CreatedAt: "2026-01-07"}))
	require.NoError(t, m.workspaces.Put(ctx, "acme", Space{Name: "Acme", Status: "ACTIVE", CreatedAt: "2025-12-01"}))

	assert.Equal(t, map[string]string{
		"PK": "WS#acme", "SK": "PROJ#2026-0007", "title": "Roadmap #1", "status": "ACTIVE", "createdAt": "2026-01-07", "stars": "0",
		"GSI2PK": "STATUS#ACTIVE", "GSI2SK": "2026-01-07", "LSI1SK": "TITLE#Roadmap %231",
	}, m.raw(t, "WS#acme", "PROJ#2026-0007"))
	assert.Equal(t, map[string]string{
		"PK": "WS#acme", "SK": "META", "name": "Acme", "status": "ACTIVE", "createdAt": "2025-12-01",
		"GSI2PK": "STATUS#ACTIVE", "GSI2SK": "2025-12-01",
	}, m.raw(t, "WS#acme", "META"))
}

func TestIndexSparse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := newIndexedModel(t)
	// No status (nil pointer, NULL): in LSI1 only. No title (omitempty): in GSI2 only.
	require.NoError(t, m.projects.Put(ctx, "acme", "p1", Proj{Title: "Draft", CreatedAt: "2026-01-01"}))
	require.NoError(t, m.projects.Put(ctx, "acme", "p2", Proj{Status: ptr("ACTIVE"), CreatedAt: "2026-01-02"}))
	require.NoError(t, m.projects.Put(ctx, "acme", "p3", Proj{Title: "Empty", Status: ptr(""), CreatedAt: "2026-01-03"}))

	p1 := m.raw(t, "WS#acme", "PROJ#p1")
	assert.NotContains(t, p1, "GSI2PK", "not in GSI2")
	assert.Equal(t, "2026-01-01", p1["GSI2SK"], "kept in step for a later status")
	assert.Equal(t, "TITLE#Draft", p1["LSI1SK"])
	assert.NotContains(t, m.raw(t, "WS#acme", "PROJ#p2"), "LSI1SK")
	assert.NotContains(t, m.raw(t, "WS#acme", "PROJ#p3"), "GSI2PK")

	m.eventually(t, m.projects.ByIndex("GSI2", "ACTIVE"), []string{"acme/p2"})
	titles, err := m.projects.ByIndex("LSI1", "acme").Collect(ctx, adjlist.Consistent)
	require.NoError(t, err)
	require.Len(t, titles, 2)
	assert.Equal(t, []string{"p1", "p3"}, []string{titles[0].ID, titles[1].ID}) // Draft < Empty
}

func TestIndexOverloading(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := newIndexedModel(t)
	require.NoError(t, m.workspaces.Put(ctx, "acme", Space{Name: "Acme", Status: "ACTIVE", CreatedAt: "2026-01-05"}))
	require.NoError(t, m.projects.Put(ctx, "acme", "p1", Proj{Status: ptr("ACTIVE"), CreatedAt: "2026-01-01"}))
	require.NoError(t, m.projects.Put(ctx, "globex", "p9", Proj{Status: ptr("ACTIVE"), CreatedAt: "2026-01-09"}))

	// One index partition, STATUS#ACTIVE, holds both item types; each
	// handle reads its own.
	m.eventually(t, m.projects.ByIndex("GSI2", "ACTIVE").Desc(), []string{"globex/p9", "acme/p1"})
	ws, err := m.workspaces.ByIndex("GSI2", "ACTIVE").Collect(ctx)
	require.NoError(t, err)
	require.Equal(t, []adjlist.NodeItem[Space]{{ID: "acme", Data: Space{Name: "Acme", Status: "ACTIVE", CreatedAt: "2026-01-05"}}}, ws)
	n, err := m.projects.ByIndex("GSI2", "ACTIVE").Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	// Sort key conditions compare the whole index sort key (no prefix).
	since, err := m.projects.ByIndex("GSI2", "ACTIVE").GreaterThan("2026-01-01").Collect(ctx)
	require.NoError(t, err)
	require.Len(t, since, 1)
	assert.Equal(t, "p9", since[0].ID)
	before, err := m.projects.ByIndex("GSI2", "ACTIVE").LessThan("2026-01-09").Collect(ctx)
	require.NoError(t, err)
	require.Len(t, before, 1)
	assert.Equal(t, "p1", before[0].ID)
}

// Every write path keeps the index true: after each, the index shows
// exactly what the item's data says.
func TestIndexKeptTrueOnEveryWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := newIndexedModel(t)
	active := m.projects.ByIndex("GSI2", "ACTIVE")
	archived := m.projects.ByIndex("GSI2", "ARCHIVED")

	require.NoError(t, m.projects.Put(ctx, "acme", "p1", Proj{Status: ptr("ACTIVE"), CreatedAt: "2026-01-01"}))
	m.eventually(t, active, []string{"acme/p1"})

	_, err := m.projects.PutMany(ctx, []adjlist.Child[Proj]{
		{Parent: "acme", ID: "p2", Data: Proj{Status: ptr("ACTIVE"), CreatedAt: "2026-01-02"}},
		{Parent: "acme", ID: "p3", Data: Proj{Status: ptr("ARCHIVED"), CreatedAt: "2026-01-03"}},
	})
	require.NoError(t, err)
	m.eventually(t, active, []string{"acme/p1", "acme/p2"})

	tx := adjlist.NewTx(m.table)
	m.projects.Put(ctx, "acme", "p4", Proj{Status: ptr("ARCHIVED"), CreatedAt: "2026-01-04"}, adjlist.InTx(tx))
	require.NoError(t, tx.Commit(ctx))
	m.eventually(t, archived, []string{"acme/p3", "acme/p4"})

	// Update moves an item between index partitions in one UpdateItem...
	before := m.calls.updates.Load()
	got, err := m.projects.Update(ctx, "acme", "p1", adjlist.Set("status", "ARCHIVED").
		Set("createdAt", "2026-01-05"))
	require.NoError(t, err)
	assert.Equal(t, "ARCHIVED", *got.Status)
	assert.Equal(t, int64(1), m.calls.updates.Load()-before)
	m.eventually(t, active, []string{"acme/p2"})
	m.eventually(t, archived, []string{"acme/p3", "acme/p4", "acme/p1"})

	// ... changes its sort key when only that changes ...
	_, err = m.projects.Update(ctx, "acme", "p3", adjlist.Set("createdAt", "2026-01-09"))
	require.NoError(t, err)
	m.eventually(t, archived, []string{"acme/p4", "acme/p1", "acme/p3"})

	// ... and takes it out when an attribute its keys need is removed.
	_, err = m.projects.Update(ctx, "acme", "p4", adjlist.Remove("status"))
	require.NoError(t, err)
	m.eventually(t, archived, []string{"acme/p1", "acme/p3"})
	assert.NotContains(t, m.raw(t, "WS#acme", "PROJ#p4"), "GSI2PK")

	// Giving the status back (its sort key was kept) puts it in again.
	_, err = m.projects.Update(ctx, "acme", "p4", adjlist.Set("status", "ACTIVE"))
	require.NoError(t, err)
	m.eventually(t, active, []string{"acme/p2", "acme/p4"})
	_, err = m.projects.Update(ctx, "acme", "p4", adjlist.Set("status", ""))
	require.NoError(t, err)

	// An update of other attributes leaves the keys alone.
	_, err = m.projects.Update(ctx, "acme", "p2", adjlist.Set("stars", 5))
	require.NoError(t, err)
	m.eventually(t, active, []string{"acme/p2"})

	require.NoError(t, m.projects.Delete(ctx, "acme", "p2"))
	m.eventually(t, active, nil)
}

func TestIndexUpdateRefusedWhenKeysCannotBeComputed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	calls := &countingClient{Client: db}
	table := adjlist.NewTable(calls, ddbtest.TableName(t), indexedTableOptions)
	ddbtest.CreateTable(t, table)
	ws := adjlist.NewNode[Space](table, "WS", "META")
	// A composite partition key: status and name.
	projects := adjlist.NewCollection[Proj](ws, "PROJ", func(o *adjlist.CollectionOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2",
			PartitionKey: adjlist.Template("{status}#{title}"),
			SortKey:      adjlist.Template("{createdAt}")}}
	})
	require.NoError(t, projects.Put(ctx, "acme", "p1", Proj{Title: "T", Status: ptr("ACTIVE"), CreatedAt: "2026-01-01"}))
	before := calls.total()
	for name, update := range map[string]adjlist.Update{
		"one part of a composite key": adjlist.Set("status", "ARCHIVED"),
		"arithmetic":                  adjlist.Update{}.SetTo("createdAt", expression.Name("createdAt").Plus(expression.Value(1))),
		"if_not_exists":               adjlist.Update{}.SetTo("createdAt", expression.IfNotExists(expression.Name("createdAt"), expression.Value("x"))),
		"a map value":                 adjlist.Set("createdAt", map[string]int{"a": 1}).Set("status", "A").Set("title", "T"),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := projects.Update(ctx, "acme", "p1", update)
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
		})
	}
	assert.Equal(t, before, calls.total(), "refused before any request")
	// Giving every part computes the key.
	_, err := projects.Update(ctx, "acme", "p1", adjlist.Set("status", "ARCHIVED").
		Set("title", "T#2"))
	require.NoError(t, err)
	out, err := db.GetItem(ctx, getInput(table.Name(), "WS#acme", "PROJ#p1"))
	require.NoError(t, err)
	assert.Equal(t, "ARCHIVED#T%232", rawText(out.Item)["GSI2PK"])
}

// A course's roster in enrolment-date order: edges in an index whose
// sort key is an edge attribute, beside the inverted GSI1.
func TestIndexEdgesByAttribute(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK", Projection: types.ProjectionTypeKeysOnly}}
	})
	ddbtest.CreateTable(t, table)
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses, func(o *adjlist.EdgeOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2",
			PartitionKey: adjlist.Template("{@target}"),
			SortKey:      adjlist.Template("ENROLL#{enrolledOn}")}}
	})
	for _, e := range []struct{ from, on string }{{"a91", "2026-09-03"}, {"b22", "2026-09-01"}, {"c07", "2026-09-02"}} {
		require.NoError(t, enrolled.Put(ctx, e.from, "math204", Enrollment{EnrolledOn: e.on, Grade: "A"}))
	}
	out, err := db.GetItem(ctx, getInput(table.Name(), "STU#a91", "ENROLL#CRS#math204"))
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"PK": "STU#a91", "SK": "ENROLL#CRS#math204", "GSI1PK": "CRS#math204", "GSI1SK": "STU#a91",
		"GSI2PK": "CRS#math204", "GSI2SK": "ENROLL#2026-09-03", "enrolledOn": "2026-09-03", "grade": "A"}, stringsOf(t, out.Item))

	var roster []adjlist.EdgeItem[Enrollment]
	require.Eventually(t, func() bool {
		roster, err = enrolled.ByIndex("GSI2", "math204").Collect(ctx)
		require.NoError(t, err)
		return len(roster) == 3
	}, waitIndex, 20*time.Millisecond)
	// KEYS_ONLY: ids from the table keys, no data; hydrate for the rest.
	assert.Equal(t, []adjlist.EdgeItem[Enrollment]{{From: "b22", To: "math204"}, {From: "c07", To: "math204"}, {From: "a91", To: "math204"}}, roster)
	full, err := enrolled.Hydrate(ctx, roster)
	require.NoError(t, err)
	assert.Equal(t, "2026-09-01", full[0].Data.EnrolledOn)

	late, err := enrolled.ByIndex("GSI2", "math204").GreaterThanEqual("2026-09-02").Desc().Collect(ctx)
	require.NoError(t, err)
	assert.Equal(t, []adjlist.EdgeItem[Enrollment]{{From: "a91", To: "math204"}, {From: "c07", To: "math204"}}, late)

	// Paging with cursors through the index.
	page, err := enrolled.ByIndex("GSI2", "math204").Limit(2).Page(ctx, "")
	require.NoError(t, err)
	require.Len(t, page.Items, 2)
	require.NotEmpty(t, page.Cursor)
	next, err := enrolled.ByIndex("GSI2", "math204").Limit(2).Page(ctx, page.Cursor)
	require.NoError(t, err)
	assert.Equal(t, []adjlist.EdgeItem[Enrollment]{{From: "a91", To: "math204"}}, next.Items)
	_, err = enrolled.ByIndex("GSI2", "cs101").Page(ctx, page.Cursor)
	require.ErrorIs(t, err, adjlist.ErrInvalidCursor)

	// The inverted index is untouched.
	to, err := enrolled.To("math204").Collect(ctx)
	require.NoError(t, err)
	assert.Len(t, to, 3)
}

func TestIndexSharded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), indexedTableOptions)
	ddbtest.CreateTable(t, table)
	students := adjlist.NewNode[Student](table, "STU", "PROFILE", func(o *adjlist.NodeOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", Shards: 4,
			PartitionKey: adjlist.Template("MAJOR#{major}"),
			SortKey:      adjlist.Template("{@self}")}}
	})
	var want []string
	for i := range 40 {
		id := fmt.Sprintf("s%02d", i)
		require.NoError(t, students.Put(ctx, id, Student{Name: id, Major: "physics"}))
		want = append(want, id)
	}
	require.NoError(t, students.Put(ctx, "x", Student{Name: "x", Major: "math"}))
	shards := map[string]bool{}
	for _, id := range want {
		out, err := db.GetItem(ctx, getInput(table.Name(), "STU#"+id, "PROFILE"))
		require.NoError(t, err)
		pk := rawText(out.Item)["GSI2PK"]
		assert.Regexp(t, `^MAJOR#physics#0[0-3]$`, pk)
		shards[pk] = true
	}
	assert.Len(t, shards, 4, "spread over MAJOR#physics#00..03")

	q := students.ByIndex("GSI2", "physics")
	var got []string
	require.Eventually(t, func() bool {
		items, err := q.Collect(ctx)
		require.NoError(t, err)
		got = got[:0]
		for _, it := range items {
			got = append(got, it.ID)
		}
		return len(got) == len(want)
	}, waitIndex, 20*time.Millisecond)
	assert.Equal(t, want, got, "merged in sort key order")

	// Pages with one cursor resuming every shard.
	var paged []string
	cursor := ""
	for {
		p, err := q.Limit(7).Page(ctx, cursor)
		require.NoError(t, err)
		for _, it := range p.Items {
			paged = append(paged, it.ID)
		}
		if cursor = p.Cursor; cursor == "" {
			break
		}
	}
	assert.Equal(t, want, paged)
	n, err := students.ByIndex("GSI2", "physics").BeginsWith("s1").Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 10, n)
}

func TestIndexRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := newIndexedModel(t)
	before := m.calls.total()
	cases := map[string]adjlist.Query[adjlist.Child[Proj]]{
		"unknown index":            m.projects.ByIndex("GSI9", "ACTIVE"),
		"too few values":           m.projects.ByIndex("GSI2"),
		"too many values":          m.projects.ByIndex("GSI2", "ACTIVE", "x"),
		"bad value type":           m.projects.ByIndex("GSI2", []int{1}),
		"control character":        m.projects.ByIndex("GSI2", "A\x00"),
		"inverted index":           m.projects.ByIndex("GSI1", "x"),
		"filter on the index key":  m.projects.ByIndex("GSI2", "ACTIVE").Filter(expression.Name("GSI2SK").Equal(expression.Value("x"))),
		"LSI takes the parent id":  m.projects.ByIndex("LSI1"),
		"between lo > hi":          m.projects.ByIndex("GSI2", "ACTIVE").Between("b", "a"),
		"two sort key conditions":  m.projects.ByIndex("GSI2", "ACTIVE").GreaterThan("a").LessThan("b"),
		"a number on a string key": m.projects.ByIndex("GSI2", "ACTIVE").GreaterThan(5),
		"a number for an id":       m.projects.List("acme").Between(1, 2),
	}
	for name, q := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := q.Collect(ctx)
			require.Error(t, err)
			_, err = q.Page(ctx, "")
			require.Error(t, err)
		})
	}
	// A consistent read on a GSI, however it is run.
	gsi := m.projects.ByIndex("GSI2", "ACTIVE")
	_, err := gsi.Collect(ctx, adjlist.Consistent)
	require.ErrorIs(t, err, adjlist.ErrIndexConsistentRead)
	_, err = gsi.Page(ctx, "", adjlist.Consistent)
	require.ErrorIs(t, err, adjlist.ErrIndexConsistentRead)
	// A workspace node declares no keys in LSI1.
	_, err = m.workspaces.ByIndex("LSI1", "acme").Collect(ctx)
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	// Writes whose index keys are invalid.
	err = m.projects.Put(ctx, "acme", "p1", Proj{Status: ptr("BAD\x01"), CreatedAt: "x"})
	require.ErrorIs(t, err, adjlist.ErrInvalidKey)
	long := string(make([]byte, 0))
	for len(long) < maxSortKeyLen {
		long += "xxxxxxxxxx"
	}
	err = m.projects.Put(ctx, "acme", "p1", Proj{Status: ptr("ACTIVE"), CreatedAt: long})
	require.ErrorIs(t, err, adjlist.ErrInvalidKey)
	err = m.projects.Put(ctx, "acme", "p1", Proj{Status: ptr(long + long), CreatedAt: "x"})
	require.ErrorIs(t, err, adjlist.ErrInvalidKey, "index partition key over 2048 bytes")
	// A query value that makes the same over-long key is refused the same way.
	_, err = m.projects.ByIndex("GSI2", long+long).Collect(ctx)
	require.ErrorIs(t, err, adjlist.ErrInvalidKey, "query of an index partition key over 2048 bytes")
	assert.Equal(t, before, m.calls.total(), "refused before any request")
}

// TestIndexQueryValueLimits: a ByIndex value that makes an index key over
// DynamoDB's limits (2,048 bytes for a partition value, 1,024 for a sort
// value, a shard's suffix included) is ErrInvalidKey before any request, on
// derived, sharded and native keys alike; one byte less is sent.
func TestIndexQueryValueLimits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	calls := &countingClient{Client: noNetwork{}}
	table := adjlist.NewTable(calls, "limits", func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{
			{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"},
			{Name: "Native", PartitionAttributes: []adjlist.KeyAttribute{{Name: "tour"}},
				SortAttributes: []adjlist.KeyAttribute{{Name: "region"}}},
		}
	})
	byStatus := adjlist.NewNode[Proj](table, "P", "", func(o *adjlist.NodeOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("{status}"), SortKey: adjlist.Template("{@self}")}}
	})
	sharded := adjlist.NewNode[Proj](table, "S", "", func(o *adjlist.NodeOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("{status}"), SortKey: adjlist.Template("{@self}"), Shards: 4}}
	})
	entries := adjlist.NewNode[Entry](table, "ENTRY", "")
	x := func(n int) string { return strings.Repeat("x", n) }
	for name, tc := range map[string]struct {
		q       func() error
		tooLong bool
	}{
		"derived, 2048 bytes":       {func() error { _, err := byStatus.ByIndex("GSI2", x(2048)).Page(ctx, ""); return err }, false},
		"derived, 2049 bytes":       {func() error { _, err := byStatus.ByIndex("GSI2", x(2049)).Page(ctx, ""); return err }, true},
		"sharded, 2045 bytes + #03": {func() error { _, err := sharded.ByIndex("GSI2", x(2045)).Page(ctx, ""); return err }, false},
		"sharded, 2046 bytes + #03": {func() error { _, err := sharded.ByIndex("GSI2", x(2046)).Page(ctx, ""); return err }, true},
		"native partition, 2049":    {func() error { _, err := entries.ByIndex("Native", x(2049)).Page(ctx, ""); return err }, true},
		"native sort value, 1025":   {func() error { _, err := entries.ByIndex("Native", "W", x(1025)).Page(ctx, ""); return err }, true},
		"native sort value, 1024":   {func() error { _, err := entries.ByIndex("Native", "W", x(1024)).Page(ctx, ""); return err }, false},
	} {
		t.Run(name, func(t *testing.T) {
			before := calls.total()
			err := tc.q()
			if tc.tooLong {
				require.ErrorIs(t, err, adjlist.ErrInvalidKey)
				assert.Equal(t, before, calls.total(), "refused before any request")
			} else {
				require.ErrorIs(t, err, errNoNetwork, "sent")
			}
		})
	}
}

func TestIndexDeclarationsRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tables := map[string][]adjlist.Index{
		"duplicate name":           {{Name: "GSI2", PartitionKey: "A"}, {Name: "GSI2", PartitionKey: "B"}},
		"inverted index name":      {{Name: "GSI1", PartitionKey: "A"}},
		"table key attribute":      {{Name: "GSI2", PartitionKey: "PK"}},
		"shared key attribute":     {{Name: "GSI2", PartitionKey: "A"}, {Name: "GSI3", PartitionKey: "A"}},
		"local with partition key": {{Name: "LSI1", Local: true, PartitionKey: "A", SortKey: "B"}},
		"local without sort key":   {{Name: "LSI1", Local: true}},
		"no partition key":         {{Name: "GSI2", SortKey: "B"}},
		"derived and native":       {{Name: "GSI2", PartitionKey: "A", PartitionAttributes: []adjlist.KeyAttribute{{Name: "b"}}}},
		"five native attributes":   {{Name: "GSI2", PartitionAttributes: []adjlist.KeyAttribute{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}, {Name: "e"}}}},
		"bool native attribute":    {{Name: "GSI2", PartitionAttributes: []adjlist.KeyAttribute{{Name: "a", Type: "BOOL"}}}},
		"include without names":    {{Name: "GSI2", PartitionKey: "A", Projection: types.ProjectionTypeInclude}},
		"short name":               {{Name: "G2", PartitionKey: "A"}},
		"keys together, local":     {{Name: "LSI1", Local: true, SortKey: "B", KeysTogether: true}},
		"keys together, no sort":   {{Name: "GSI2", PartitionKey: "A", KeysTogether: true}},
		"keys together, native":    {{Name: "GSI2", PartitionAttributes: []adjlist.KeyAttribute{{Name: "a"}}, KeysTogether: true}},
		"six local indexes": {{Name: "L01", Local: true, SortKey: "a"}, {Name: "L02", Local: true, SortKey: "b"}, {Name: "L03", Local: true, SortKey: "c"},
			{Name: "L04", Local: true, SortKey: "d"}, {Name: "L05", Local: true, SortKey: "e"}, {Name: "L06", Local: true, SortKey: "f"}},
	}
	var twenty []adjlist.Index
	for i := range 20 {
		twenty = append(twenty, adjlist.Index{Name: fmt.Sprintf("G%02d", i), PartitionKey: fmt.Sprintf("K%02d", i)})
	}
	tables["21 global indexes"] = twenty
	for name, indexes := range tables {
		t.Run(name, func(t *testing.T) {
			table := adjlist.NewTable(nil, "t", func(o *adjlist.Options) { o.Indexes = indexes })
			require.ErrorIs(t, adjlist.CreateTable(ctx, nil, table), adjlist.ErrInvalidOption)
		})
	}
	// Item type declarations.
	table := adjlist.NewTable(nil, "t", func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}, {Name: "LSI1", Local: true, SortKey: "L"},
			{Name: "NAT", PartitionAttributes: []adjlist.KeyAttribute{{Name: "status"}}}}
	})
	ok := adjlist.Template("{a}")
	for name, keys := range map[string]adjlist.IndexKeys{
		"unknown index":         {Index: "GSI9", PartitionKey: ok, SortKey: ok},
		"inverted index":        {Index: "GSI1", PartitionKey: ok, SortKey: ok},
		"native index":          {Index: "NAT", PartitionKey: ok},
		"no partition key":      {Index: "GSI2", SortKey: ok},
		"no sort key":           {Index: "GSI2", PartitionKey: ok},
		"local partition key":   {Index: "LSI1", PartitionKey: ok, SortKey: ok},
		"local shards":          {Index: "LSI1", SortKey: ok, Shards: 4},
		"too many shards":       {Index: "GSI2", PartitionKey: ok, SortKey: ok, Shards: 101},
		"unknown placeholder":   {Index: "GSI2", PartitionKey: adjlist.Template("{@me}"), SortKey: ok},
		"key attribute":         {Index: "GSI2", PartitionKey: adjlist.Template("{GSI1PK}"), SortKey: ok},
		"target key on a child": {Index: "GSI2", PartitionKey: adjlist.Template("{@target}"), SortKey: ok},
		"source key on a child": {Index: "GSI2", PartitionKey: adjlist.Template("{@source}"), SortKey: ok},
	} {
		t.Run(name, func(t *testing.T) {
			ws := adjlist.NewNode[Space](table, "WS", "META")
			c := adjlist.NewCollection[Proj](ws, "PROJ", func(o *adjlist.CollectionOptions) { o.Indexes = []adjlist.IndexKeys{keys} })
			err := c.Put(ctx, "a", "b", Proj{})
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
		})
	}
}

func TestCreateTableIndexes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{
			{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK", Projection: types.ProjectionTypeKeysOnly},
			{Name: "LSI1", Local: true, SortKey: "LSI1SK"},
			{Name: "ByScore", PartitionAttributes: []adjlist.KeyAttribute{{Name: "tournament"}, {Name: "region"}},
				SortAttributes: []adjlist.KeyAttribute{{Name: "round", Type: "N"}, {Name: "score", Type: "N"}},
				Projection:     types.ProjectionTypeInclude, NonKeyAttributes: []string{"player"}},
		}
	})
	ddbtest.CreateTable(t, table)
	out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table.Name())})
	require.NoError(t, err)
	got := map[string]string{}
	for _, g := range out.Table.GlobalSecondaryIndexes {
		got[aws.ToString(g.IndexName)] = fmt.Sprint(len(g.KeySchema), g.Projection.ProjectionType)
	}
	for _, l := range out.Table.LocalSecondaryIndexes {
		got[aws.ToString(l.IndexName)] = fmt.Sprint("local ", len(l.KeySchema), l.Projection.ProjectionType)
	}
	assert.Equal(t, map[string]string{"GSI1": "2ALL", "GSI2": "2KEYS_ONLY", "LSI1": "local 2ALL", "ByScore": "4INCLUDE"}, got)
	assert.Len(t, indexesOf(t, table), 4)
	// A deep copy: changing it changes no table.
	ixs := indexesOf(t, table)
	ixs[3].PartitionAttributes[0].Name = "changed"
	assert.Equal(t, "tournament", indexesOf(t, table)[3].PartitionAttributes[0].Name)
}

func TestPageIndexMixedRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := newIndexedModel(t)
	require.NoError(t, m.workspaces.Put(ctx, "acme", Space{Name: "Acme", Status: "ACTIVE", CreatedAt: "2026-01-05"}))
	require.NoError(t, m.projects.Put(ctx, "acme", "p1", Proj{Status: ptr("ACTIVE"), CreatedAt: "2026-01-01"}))
	require.NoError(t, m.projects.Put(ctx, "globex", "p9", Proj{Status: ptr("ACTIVE"), CreatedAt: "2026-01-09"}))
	require.NoError(t, m.projects.Put(ctx, "globex", "p8", Proj{Status: ptr("ARCHIVED"), CreatedAt: "2026-01-08"}))
	m.eventually(t, m.projects.ByIndex("GSI2", "ACTIVE"), []string{"acme/p1", "globex/p9"})

	before := m.calls.queries.Load()
	var spaces []adjlist.NodeItem[Space]
	var projs []adjlist.Child[Proj]
	var cursor string
	pages := 0
	for {
		p, err := adjlist.PageIndex(ctx, m.projects.ByIndex("GSI2", "ACTIVE").Limit(2), cursor, m.workspaces.Into(&spaces), m.projects.Into(&projs))
		require.NoError(t, err)
		pages++
		assert.Zero(t, p.Other)
		if cursor = p.Cursor; cursor == "" {
			break
		}
	}
	assert.Equal(t, int64(pages), m.calls.queries.Load()-before, "one Query per page")
	assert.Equal(t, []adjlist.NodeItem[Space]{{ID: "acme", Data: Space{Name: "Acme", Status: "ACTIVE", CreatedAt: "2026-01-05"}}}, spaces)
	require.Len(t, projs, 2)
	assert.Equal(t, []string{"p1", "p9"}, []string{projs[0].ID, projs[1].ID})

	// Items no target takes are counted, not decoded.
	projs = nil
	p, err := adjlist.PageIndex(ctx, m.projects.ByIndex("GSI2", "ACTIVE"), "", m.projects.Into(&projs))
	require.NoError(t, err)
	assert.Equal(t, 1, p.Other)
	assert.Len(t, projs, 2)

	// Refusals before any request leave every slice nil.
	before = m.calls.total()
	other := adjlist.NewTable(nil, "other")
	_, err = adjlist.PageIndex(ctx, m.projects.ByIndex("GSI2", "ACTIVE"), "", m.projects.Into(&projs), adjlist.NewNode[Space](other, "WS", "META").Into(&spaces))
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	assert.Nil(t, projs)
	assert.Nil(t, spaces)
	_, err = adjlist.PageIndex(ctx, m.projects.ByIndex("GSI2", "ACTIVE"), "bogus", m.projects.Into(&projs))
	require.ErrorIs(t, err, adjlist.ErrInvalidCursor)
	_, err = adjlist.PageIndex(ctx, m.projects.ByIndex("GSI2"), "", m.projects.Into(&projs))
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	assert.Equal(t, before, m.calls.total())
}

// lastQuery is the last Query request c sent.
func (c *recordingClient) lastQuery(t *testing.T) *dynamodb.QueryInput {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	require.NotEmpty(t, c.queries)
	return c.queries[len(c.queries)-1]
}

// The requests the README's "Modelling more access patterns" shows.
func TestIndexRequestsAsDocumented(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	rec := &recordingClient{Client: db}
	table := adjlist.NewTable(rec, ddbtest.TableName(t), func(o *adjlist.Options) {
		indexedTableOptions(o)
		o.Indexes = append(o.Indexes, adjlist.Index{Name: "ByScore",
			PartitionAttributes: []adjlist.KeyAttribute{{Name: "tour"}, {Name: "region"}},
			SortAttributes:      []adjlist.KeyAttribute{{Name: "round", Type: "N"}, {Name: "score", Type: "N"}}})
	})
	ddbtest.CreateTable(t, table)
	ws := adjlist.NewNode[Space](table, "WS", "META")
	projects := adjlist.NewCollection[Proj](ws, "PROJ", func(o *adjlist.CollectionOptions) {
		o.Indexes = []adjlist.IndexKeys{byStatus,
			{Index: "LSI1", SortKey: adjlist.Template("TITLE#{title}")}}
	})
	entries := adjlist.NewNode[Entry](table, "ENTRY", "")
	for name, c := range map[string]struct {
		run  func() error
		want string
		fwd  bool
	}{
		"status, newest first": {func() error { _, err := projects.ByIndex("GSI2", "ACTIVE").Desc().Collect(ctx); return err },
			`#0 = "STATUS#ACTIVE"`, false},
		"since a date": {func() error {
			_, err := projects.ByIndex("GSI2", "ACTIVE").GreaterThan("2026-01-01").Collect(ctx)
			return err
		}, `(#0 = "STATUS#ACTIVE") AND (#1 > "2026-01-01")`, true},
		"by title": {func() error { _, err := projects.ByIndex("LSI1", "acme").Collect(ctx, adjlist.Consistent); return err },
			`(#0 = "WS#acme") AND (begins_with (#1, "TITLE#"))`, true},
		"native": {func() error {
			_, err := entries.ByIndex("ByScore", "W", "EU", 1).GreaterThan(9).Collect(ctx)
			return err
		},
			`(#0 = "W") AND (#1 = "EU") AND (#2 = 1) AND (#3 > 9)`, true},
	} {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, c.run())
			last := rec.lastQuery(t)
			got := aws.ToString(last.KeyConditionExpression)
			for ph, v := range last.ExpressionAttributeValues {
				text := rawText(map[string]types.AttributeValue{"v": v})["v"]
				if _, ok := v.(*types.AttributeValueMemberS); ok {
					text = fmt.Sprintf("%q", text)
				}
				got = regexp.MustCompile(regexp.QuoteMeta(ph)+`\b`).ReplaceAllLiteralString(got, text)
			}
			assert.Equal(t, c.want, got)
			assert.Equal(t, c.fwd, aws.ToBool(last.ScanIndexForward))
		})
	}
	assert.Equal(t, map[string]string{"#0": "GSI2PK", "#1": "GSI2SK"}, func() map[string]string {
		_, err := projects.ByIndex("GSI2", "ACTIVE").GreaterThan("x").Collect(ctx)
		require.NoError(t, err)
		return rec.lastQuery(t).ExpressionAttributeNames
	}())
}

func TestIndexKeyAttributesRefusedInData(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	table := adjlist.NewTable(nil, "t", indexedTableOptions)
	type sneaky struct {
		Title string `dynamodbav:"title"`
		Key   string `dynamodbav:"GSI2PK"`
	}
	n := adjlist.NewNode[sneaky](table, "WS", "META")
	require.ErrorIs(t, n.Put(ctx, "acme", sneaky{Title: "x", Key: "STATUS#FORGED"}), adjlist.ErrKeyAttribute)
	c := adjlist.NewCollection[Proj](adjlist.NewNode[Space](table, "WS", "META"), "PROJ")
	_, err := c.Update(ctx, "acme", "p1", adjlist.Set("LSI1SK", "x"))
	require.ErrorIs(t, err, adjlist.ErrKeyAttribute)
}

// Edges and nodes keep their derived index keys true on every write path
// too: the roster of a course in enrolment order (GSI2) and students by
// major (GSI3) follow Put, PutMany, Put InTx, Put with CheckEnds, Move, Update,
// Delete and DeleteNode.
func TestIndexKeptTrueForEdgesAndNodes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{
			{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"},
			{Name: "GSI3", PartitionKey: "GSI3PK", SortKey: "GSI3SK"},
		}
	})
	ddbtest.CreateTable(t, table)
	students := adjlist.NewNode[Student](table, "STU", "PROFILE", func(o *adjlist.NodeOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI3",
			PartitionKey: adjlist.Template("MAJOR#{major}"),
			SortKey:      adjlist.Template("{name}")}}
	})
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses, func(o *adjlist.EdgeOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2",
			PartitionKey: adjlist.Template("{@target}"),
			SortKey:      adjlist.Template("ON#{enrolledOn}#{@source}")}}
	})
	roster := func(course string, want ...string) {
		t.Helper()
		var got []string
		ok := assert.Eventually(t, func() bool {
			items, err := enrolled.ByIndex("GSI2", course).Collect(ctx)
			require.NoError(t, err)
			got = got[:0]
			for _, e := range items {
				got = append(got, e.Data.EnrolledOn+" "+e.From)
			}
			return fmt.Sprint(got) == fmt.Sprint(want)
		}, waitIndex, 20*time.Millisecond)
		if !ok {
			t.Fatalf("roster of %s is %v, want %v", course, got, want)
		}
	}
	majors := func(major string, want ...string) {
		t.Helper()
		var got []string
		ok := assert.Eventually(t, func() bool {
			items, err := students.ByIndex("GSI3", major).Collect(ctx)
			require.NoError(t, err)
			got = got[:0]
			for _, s := range items {
				got = append(got, s.ID)
			}
			return fmt.Sprint(got) == fmt.Sprint(want)
		}, waitIndex, 20*time.Millisecond)
		if !ok {
			t.Fatalf("%s majors are %v, want %v", major, got, want)
		}
	}

	require.NoError(t, students.Put(ctx, "a91", Student{Name: "Ada", Major: "math"}))
	tx := adjlist.NewTx(table)
	students.Put(ctx, "b30", Student{Name: "Blaise", Major: "math"}, adjlist.InTx(tx))
	courses.Put(ctx, "math204", Course{Title: "Linear Algebra"}, adjlist.InTx(tx))
	require.NoError(t, tx.Commit(ctx))
	majors("math", "a91", "b30")
	require.NoError(t, students.Replace(ctx, "b30", Student{Name: "Blaise", Major: "physics"}))
	majors("math", "a91")
	majors("physics", "b30")

	require.NoError(t, enrolled.Put(ctx, "a91", "math204", Enrollment{EnrolledOn: "2026-09-03"}))
	_, err := enrolled.PutMany(ctx, []adjlist.EdgeItem[Enrollment]{{From: "c07", To: "math204", Data: Enrollment{EnrolledOn: "2026-09-01"}}})
	require.NoError(t, err)
	require.NoError(t, enrolled.Put(ctx, "b30", "math204", Enrollment{EnrolledOn: "2026-09-02"}, checkEnds))
	roster("math204", "2026-09-01 c07", "2026-09-02 b30", "2026-09-03 a91")

	_, err = enrolled.Update(ctx, "a91", "math204", adjlist.Set("enrolledOn", "2026-08-31"))
	require.NoError(t, err)
	roster("math204", "2026-08-31 a91", "2026-09-01 c07", "2026-09-02 b30")

	require.NoError(t, enrolled.Move(ctx, "c07", "math204", "c07", "cs101", Enrollment{EnrolledOn: "2026-09-05"}))
	roster("math204", "2026-08-31 a91", "2026-09-02 b30")
	roster("cs101", "2026-09-05 c07")

	tx = adjlist.NewTx(table)
	enrolled.Delete(ctx, "b30", "math204", adjlist.InTx(tx))
	enrolled.Put(ctx, "d11", "math204", Enrollment{EnrolledOn: "2026-09-09"}, adjlist.InTx(tx))
	require.NoError(t, tx.Commit(ctx))
	roster("math204", "2026-08-31 a91", "2026-09-09 d11")

	require.NoError(t, enrolled.Delete(ctx, "d11", "math204"))
	roster("math204", "2026-08-31 a91")

	_, err = adjlist.DeleteNode(ctx, courses, "math204", enrolled)
	require.NoError(t, err)
	roster("math204")
	_, err = adjlist.DeleteNode(ctx, students, "a91")
	require.NoError(t, err)
	majors("math")
}

// errNoNetwork is what noNetwork answers every Query with: proof that a
// request was built and sent.
var errNoNetwork = errors.New("no network in this test")

// noNetwork is a client whose Query fails at once (other calls panic).
type noNetwork struct{ adjlist.Client }

func (noNetwork) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return nil, errNoNetwork
}

// TestIndexCursorAtRangeBound: in an index partition shared with another
// item type, an item whose index sort key is exactly the upper bound of a
// range ("ENROLL$", the end of the "ENROLL#" prefix) can end a page; the
// cursor that page returns must resume the query that issued it, for every
// range and in both directions, to the last page.
func TestIndexCursorAtRangeBound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	ddbtest.CreateTable(t, table)
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses, func(o *adjlist.EdgeOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2",
			PartitionKey: adjlist.Template("{@target}"),
			SortKey:      adjlist.Template("ENROLL#{enrolledOn}")}}
	})
	for _, e := range []struct{ from, on string }{{"a91", "2026-09-03"}, {"b22", "2026-09-01"}, {"c07", "2026-09-02"}} {
		require.NoError(t, enrolled.Put(ctx, e.from, "math204", Enrollment{EnrolledOn: e.on, Grade: "A"}))
	}
	// Another program's item in the same index partition, at the bound.
	_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table.Name()), Item: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "OTHER#1"}, "SK": &types.AttributeValueMemberS{Value: "OTHER"},
		"GSI2PK": &types.AttributeValueMemberS{Value: "CRS#math204"}, "GSI2SK": &types.AttributeValueMemberS{Value: "ENROLL$"},
	}})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		n, err := enrolled.ByIndex("GSI2", "math204").Count(ctx)
		require.NoError(t, err)
		return n == 3
	}, waitIndex, 20*time.Millisecond)

	from := func(items []adjlist.EdgeItem[Enrollment]) []string {
		var out []string
		for _, it := range items {
			out = append(out, it.From)
		}
		return out
	}
	q := func() adjlist.Query[adjlist.EdgeItem[Enrollment]] {
		return enrolled.ByIndex("GSI2", "math204").Limit(1)
	}
	for name, tc := range map[string]struct {
		q    adjlist.Query[adjlist.EdgeItem[Enrollment]]
		want []string
	}{
		"GreaterThan":           {q().GreaterThan("2026-09-01"), []string{"c07", "a91"}},
		"GreaterThanEqual":      {q().GreaterThanEqual("2026-09-02"), []string{"c07", "a91"}},
		"GreaterThanEqual desc": {q().GreaterThanEqual("2026-09-01").Desc(), []string{"a91", "c07", "b22"}},
		"LessThanEqual":         {q().LessThanEqual("2026-09-02"), []string{"b22", "c07"}},
		"Between":               {q().Between("2026-09-01", "2026-09-03"), []string{"b22", "c07", "a91"}},
		"whole partition":       {q(), []string{"b22", "c07", "a91"}},
	} {
		t.Run(name, func(t *testing.T) {
			var got []adjlist.EdgeItem[Enrollment]
			cursor := ""
			for pages := 0; ; pages++ {
				require.Less(t, pages, 10, "paging does not end")
				page, err := tc.q.Page(ctx, cursor)
				require.NoError(t, err, "page %d, cursor %q", pages, cursor)
				got = append(got, page.Items...)
				if page.Cursor == "" {
					break
				}
				cursor = page.Cursor
			}
			assert.Equal(t, tc.want, from(got))
		})
	}
}
