package adjlist_test

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// lossSchool has an item type of every kind Verify types (a node, an
// edge, a counter's aggregates, a collection's children, an entity), each
// but the aggregates tracking a version, both timestamps and an expiry,
// with derived keys
// in a sparse index (GSI2) beside the inverted one, and an entity whose
// data is a map.
type lossSchool struct {
	db       *dynamodb.Client
	table    *adjlist.Table
	students *adjlist.Node[Student]
	courses  *adjlist.Node[Course]
	enrolled *adjlist.Edge[Enrollment]
	counter  *edgeCounter[Enrollment]
	tickets  *adjlist.Collection[Ticket, Student]
	players  *adjlist.Entity[playerMeta]
	docs     *adjlist.Entity[map[string]any]
}

func newLossSchool(t *testing.T) *lossSchool {
	t.Helper()
	db := ddbtest.Client(t)
	s := &lossSchool{db: db}
	s.table = adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	ddbtest.CreateTable(t, s.table)
	tr := adjlist.Tracking{Version: "ver", CreatedAt: "created", UpdatedAt: "updated", Expiry: "ttl", Lifetime: time.Hour}
	s.students = adjlist.NewNode[Student](s.table, "STU", "PROFILE", func(o *adjlist.NodeOptions) { o.Tracking = tr })
	s.courses = adjlist.NewNode[Course](s.table, "CRS", "METADATA", func(o *adjlist.NodeOptions) { o.Tracking = tr })
	s.enrolled = adjlist.NewEdge[Enrollment](s.students, "ENROLL", s.courses, func(o *adjlist.EdgeOptions) { o.Tracking = tr })
	s.counter = newEdgeCounter(s.enrolled, "ENROLLED")
	s.tickets = adjlist.NewCollection[Ticket](s.students, "TCK", func(o *adjlist.CollectionOptions) {
		o.Tracking = tr
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2",
			PartitionKey: adjlist.Template("STATUS#{status}"),
			SortKey:      adjlist.Template("{createdAt}")}}
	})
	s.players = adjlist.NewEntity[playerMeta](s.table, "player", "p#{playerID}", "#METADATA#{playerID}", func(o *adjlist.EntityOptions) {
		o.Tracking = tr
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("NICK#{Nickname}"), SortKey: adjlist.Template("{playerID}")}}
	})
	s.docs = adjlist.NewEntity[map[string]any](s.table, "doc", "d#{docID}", "doc")
	require.NoError(t, s.table.Check())
	return s
}

// fill writes through the handles, for each item type, a clean item and
// one that addUndeclared then gives attributes no type declares, and
// returns the keys of the latter.
func (s *lossSchool) fill(t *testing.T) (lossy []adjlist.Key) {
	t.Helper()
	ctx := t.Context()
	open := "OPEN"
	require.NoError(t, s.courses.Put(ctx, "math204", Course{Title: "Algebra"}))
	for _, stu := range []string{"a91", "b22"} {
		require.NoError(t, s.students.Put(ctx, stu, Student{Name: stu}))
		require.NoError(t, s.counter.Put(ctx, stu, "math204", Enrollment{Grade: "A"}))
		require.NoError(t, s.tickets.Put(ctx, stu, "t1", Ticket{Status: &open, CreatedAt: "2026-01-02"}))
	}
	require.NoError(t, s.players.Put(ctx, adjlist.IDs{"p1"}, playerMeta{Nickname: "John"}))
	require.NoError(t, s.players.Put(ctx, adjlist.IDs{"p2"}, playerMeta{Nickname: "Jane"}))
	require.NoError(t, s.docs.Put(ctx, adjlist.IDs{"d1"}, map[string]any{"title": "a map holds everything"}))
	return []adjlist.Key{
		{PK: "CRS#math204", SK: "ENROLLED"},       // the counter's aggregate
		{PK: "STU#a91", SK: "ENROLL#CRS#math204"}, // an edge
		{PK: "STU#a91", SK: "PROFILE"},            // a node
		{PK: "STU#a91", SK: "TCK#t1"},             // a child
		{PK: "p#p1", SK: "#METADATA#p1"},          // an entity
		{PK: "d#d1", SK: "doc"},                   // an entity of map data
	}
}

// rawGet reads an item with a strongly consistent GetItem, bypassing the
// library.
func (s *lossSchool) rawGet(t *testing.T, k adjlist.Key) adjlist.Item {
	t.Helper()
	in := getInput(s.table.Name(), k.PK, k.SK)
	in.ConsistentRead = aws.Bool(true)
	out, err := s.db.GetItem(t.Context(), in)
	require.NoError(t, err)
	require.NotNil(t, out.Item, "%v", k)
	return out.Item
}

// addUndeclared writes each item at keys again with a plain PutItem,
// with "nickname" added, and "Alias" too on node items: attributes as
// another program would have written them, which no Go type declares.
func (s *lossSchool) addUndeclared(t *testing.T, keys []adjlist.Key) {
	t.Helper()
	for _, k := range keys {
		item := s.rawGet(t, k)
		item["nickname"] = &types.AttributeValueMemberS{Value: "x"}
		if k.SK == "PROFILE" {
			item["Alias"] = &types.AttributeValueMemberN{Value: "7"}
		}
		_, err := s.db.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String(s.table.Name()), Item: item})
		require.NoError(t, err)
	}
}

// wantUndeclared are the findings of lossSchool's lossy items, in
// Verify's order: by key, then attribute; none on the map-typed entity.
var wantUndeclared = []string{
	`undeclared attribute|CRS#math204|ENROLLED|nickname|S "x"|`,
	`undeclared attribute|STU#a91|ENROLL#CRS#math204|nickname|S "x"|`,
	`undeclared attribute|STU#a91|PROFILE|Alias|N 7|`,
	`undeclared attribute|STU#a91|PROFILE|nickname|S "x"|`,
	`undeclared attribute|STU#a91|TCK#t1|nickname|S "x"|`,
	`undeclared attribute|p#p1|#METADATA#p1|nickname|S "x"|`,
}

// Verify reports each attribute an item holds that its type cannot hold,
// by name, for every kind of item type: not the keys, the derived index
// keys, the tracked version, timestamps and expiry, nor anything on an
// item whose data is a map. TypeOf types such an item all the same.
func TestVerifyUndeclaredAttributes(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := newLossSchool(t)
	lossy := s.fill(t)
	res, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	require.Empty(t, res.Findings, "items the handles wrote: their tracking and index keys are the type's")
	for _, k := range lossy[1:5] { // the aggregate is the counter's: untracked
		item := s.rawGet(t, k)
		assert.Contains(t, item, "ver", k)
		assert.Contains(t, item, "ttl", k)
	}
	assert.Contains(t, s.rawGet(t, lossy[1]), "GSI1PK", "an edge carries the inverted index's keys")
	assert.Contains(t, s.rawGet(t, lossy[3]), "GSI2PK", "a child carries the sparse index's keys")
	assert.Contains(t, s.rawGet(t, lossy[4]), "GSI2PK", "an entity carries its index's keys")

	s.addUndeclared(t, lossy)
	res, err = adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	assert.Equal(t, wantUndeclared, findingKeysInOrder(res.Findings))
	types := map[adjlist.Key]string{}
	for _, f := range res.Findings {
		types[f.Key] = f.Type
	}
	assert.Equal(t, map[adjlist.Key]string{
		lossy[0]: "counter ENROLLED", // the counter's aggregate
		lossy[1]: "edge ENROLL (STU → CRS)",
		lossy[2]: "node STU",
		lossy[3]: "child TCK of STU",
		lossy[4]: "entity player",
	}, types)
	assert.Equal(t, `undeclared attribute: "STU#a91" "PROFILE" (node STU): Alias is N 7`, res.Findings[2].String())

	for k, typ := range types {
		name, ok := s.table.TypeOf(s.rawGet(t, k))
		assert.True(t, ok, "TypeOf reads the keys alone")
		assert.Equal(t, typ, name, "Finding.Type is TypeOf's name")
	}
}

// Repair reports undeclared attributes as left and writes nothing, even
// with every delete asked for.
func TestRepairLeavesUndeclaredAttributes(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := newLossSchool(t)
	lossy := s.fill(t)
	s.addUndeclared(t, lossy)
	before := map[adjlist.Key]adjlist.Item{}
	for _, k := range lossy {
		before[k] = s.rawGet(t, k)
	}
	res, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	require.Equal(t, wantUndeclared, findingKeysInOrder(res.Findings))

	rep, err := adjlist.Repair(ctx, s.db, s.table, res.Findings, func(o *adjlist.RepairOptions) {
		o.DeleteDangling, o.DeleteUnknown, o.DeleteUndecodable = true, true, true
	})
	require.NoError(t, err)
	assert.Empty(t, rep.Repaired)
	assert.Empty(t, rep.Gone)
	assert.Equal(t, wantUndeclared, findingKeysInOrder(rep.Left))
	for _, k := range lossy {
		assert.Equal(t, before[k], s.rawGet(t, k), "%v unchanged", k)
	}
}

// A write writes exactly what the Go type declares, as PutItem does: Get
// then Replace of an item holding an attribute its type does not declare
// drops the attribute, which Verify reported before; Update keeps it.
func TestReplaceDropsUndeclaredAttributes(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := newLossSchool(t)
	lossy := s.fill(t)
	s.addUndeclared(t, lossy)
	res, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	require.Contains(t, findingKeys(res.Findings), `undeclared attribute|STU#a91|PROFILE|nickname|S "x"|`)

	stu, err := s.students.Get(ctx, "a91", adjlist.Consistent)
	require.NoError(t, err)
	require.NoError(t, s.students.Replace(ctx, "a91", stu, adjlist.IfVersion(1)))
	item := s.rawGet(t, lossy[2])
	assert.NotContains(t, item, "nickname", "Replace writes what Student declares")
	assert.NotContains(t, item, "Alias")
	assert.Contains(t, item, "name")

	_, err = s.tickets.Update(ctx, "a91", "t1", adjlist.Update{}.Set("stars", 5), adjlist.IfVersion(1))
	require.NoError(t, err)
	assert.Contains(t, s.rawGet(t, lossy[3]), "nickname", "Update changes only what it names")

	res, err = adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	assert.Equal(t, []string{
		`undeclared attribute|CRS#math204|ENROLLED|nickname|S "x"|`,
		`undeclared attribute|STU#a91|ENROLL#CRS#math204|nickname|S "x"|`,
		`undeclared attribute|STU#a91|TCK#t1|nickname|S "x"|`,
		`undeclared attribute|p#p1|#METADATA#p1|nickname|S "x"|`,
	}, findingKeysInOrder(res.Findings), "the node item no longer holds them")
}
