package adjlist_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
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

// hostileIDs are ids whose escaped spelling differs from their own: each
// is found by ByIndex under the id it was written with, and no other.
var hostileIDs = []string{"a#b", "u%1", "%23", "#", "%"}

// follow is a follower's data; since feeds an index sort key.
type follow struct {
	Since string `dynamodbav:"since"`
}

// followers is the follower entity with index keys built from its key
// fields (and a data attribute) on a fresh table.
type followers struct {
	db    *dynamodb.Client
	calls *countingClient
	table *adjlist.Table
	e     *adjlist.Entity[follow]
}

func newFollowers(t *testing.T) *followers {
	t.Helper()
	db := ddbtest.Client(t)
	f := &followers{db: db, calls: &countingClient{Client: db}}
	f.table = adjlist.NewTable(f.calls, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	ddbtest.CreateTable(t, f.table)
	f.e = adjlist.NewEntity[follow](f.table, "follower", "u#{userID}#follower", "u#{followerID}", func(o *adjlist.EntityOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("F#{followerID}"), SortKey: adjlist.Template("U#{userID}#{since}")}}
	})
	require.NoError(t, f.table.Check())
	return f
}

// esc is an id as Node.Key escapes it.
func esc(t *testing.T, id string) string {
	t.Helper()
	k, _, err := adjlist.NewNode[struct{}](adjlist.NewTable(nil, "t"), "X", "M").Key(id)
	require.NoError(t, err)
	return strings.TrimPrefix(k, "X#")
}

// eventuallyFound runs q until it yields exactly want (each item shown
// by show), polling for at most waitIndex: global indexes are eventually
// consistent.
// consistentlyFound asserts that q, run once with adjlist.Consistent (a
// table or local index read), shows want.
func consistentlyFound[T any](t *testing.T, q adjlist.Query[T], show func(T) string, want ...string) {
	t.Helper()
	items, err := q.Collect(context.Background(), adjlist.Consistent)
	require.NoError(t, err)
	got := []string{}
	for _, v := range items {
		got = append(got, show(v))
	}
	assert.Equal(t, want, got)
}

func eventuallyFound[T any](t *testing.T, q adjlist.Query[T], show func(T) string, want ...string) {
	t.Helper()
	var got []string
	var err error
	ok := assert.Eventually(t, func() bool {
		var items []T
		items, err = q.Collect(context.Background())
		got = got[:0]
		for _, v := range items {
			got = append(got, show(v))
		}
		return err == nil && slices.Equal(got, want)
	}, waitIndex, 20*time.Millisecond)
	if !ok {
		t.Fatalf("ByIndex found %q (err %v), want %q", got, err, want)
	}
}

func showIDs[T any](v adjlist.EntityItem[T]) string { return strings.Join(v.IDs, ",") }

// TestIndexKeysEscapeKeyFields: a key field in an index key template is
// escaped as in the table keys, on a put, an update's re-derivation and
// Verify's, so ByIndex finds every item under the id it was written with,
// hostile ids included.
func TestIndexKeysEscapeKeyFields(t *testing.T) {
	t.Parallel()
	f := newFollowers(t)
	ctx := context.Background()
	for i, follower := range hostileIDs {
		user := hostileIDs[(i+1)%len(hostileIDs)]
		require.NoError(t, f.e.Put(ctx, adjlist.IDs{user, follower}, follow{Since: "2026"}))
		pk, sk, err := f.e.Key(user, follower)
		require.NoError(t, err)
		out, err := f.db.GetItem(ctx, getInput(f.table.Name(), pk, sk))
		require.NoError(t, err)
		assert.Equal(t, "F#"+esc(t, follower), rawText(out.Item)["GSI2PK"], "the put escapes the key field")
		assert.Equal(t, "U#"+esc(t, user)+"#2026", rawText(out.Item)["GSI2SK"])

		_, err = f.e.Update(ctx, adjlist.IDs{user, follower}, adjlist.Set("since", "2027"))
		require.NoError(t, err)
		out, err = f.db.GetItem(ctx, getInput(f.table.Name(), pk, sk))
		require.NoError(t, err)
		assert.Equal(t, "U#"+esc(t, user)+"#2027", rawText(out.Item)["GSI2SK"], "the update re-derives it escaped")
	}
	for i, follower := range hostileIDs {
		user := hostileIDs[(i+1)%len(hostileIDs)]
		eventuallyFound(t, f.e.ByIndex("GSI2", follower), showIDs[follow], user+","+follower)
	}
	res, err := adjlist.Verify(ctx, f.db, f.table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings, "Verify derives the keys the writes wrote")
}

// TestMigrateEscapesOldIndexKeys: items whose index keys hold key fields
// unescaped (as written before key fields were escaped there) are stale
// to Verify, and Migrate re-keys them so that ByIndex finds them; ids
// without '#' or '%' were written the same way, and are left alone.
func TestMigrateEscapesOldIndexKeys(t *testing.T) {
	t.Parallel()
	f := newFollowers(t)
	ctx := context.Background()
	ids := append([]string{"plain"}, hostileIDs...)
	for _, id := range ids {
		pk, sk, err := f.e.Key("u1", id)
		require.NoError(t, err)
		// The item as the old code wrote it: table keys escaped, the
		// key field in GSI2PK raw.
		_, err = f.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(f.table.Name()), Item: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk},
			"GSI2PK": &types.AttributeValueMemberS{Value: "F#" + id}, "GSI2SK": &types.AttributeValueMemberS{Value: "U#u1#2026"},
			"since": &types.AttributeValueMemberS{Value: "2026"},
		}})
		require.NoError(t, err)
	}

	res, err := adjlist.Verify(ctx, f.db, f.table)
	require.NoError(t, err)
	var stale []string
	for _, fd := range res.Findings {
		require.Equal(t, adjlist.FindingIndexKeyStale, fd.Kind, "%s", fd)
		stale = append(stale, fd.Have+" → "+fd.Want)
	}
	var want []string
	for _, id := range hostileIDs {
		want = append(want, "F#"+id+" → F#"+esc(t, id))
	}
	assert.ElementsMatch(t, want, stale, "Verify sees the old spelling")

	m, err := adjlist.Migrate(ctx, f.calls, f.e)
	require.NoError(t, err)
	assert.Equal(t, len(hostileIDs), m.Rewritten, "only the ids with '#' or '%' change")
	for _, id := range ids {
		eventuallyFound(t, f.e.ByIndex("GSI2", id), showIDs[follow], "u1,"+id)
	}
	res, err = adjlist.Verify(ctx, f.db, f.table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
	again, err := adjlist.Migrate(ctx, f.calls, f.e)
	require.NoError(t, err)
	assert.Zero(t, again.Rewritten, "a second run rewrites nothing")
}

// TestIndexKeyAttrNamesIndexKey: a template naming the index's own key
// attribute as data says so, and how to key the index on the data
// attribute itself (Table.Check's message).
func TestIndexKeyAttrNamesIndexKey(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "own-key", func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{{Name: "LSI1", Local: true, SortKey: "NextReminderDate"}}
	})
	adjlist.NewEntity[anyData](table, "reminder", "u#{userID}", "r#{reminderID}", func(o *adjlist.EntityOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "LSI1", SortKey: adjlist.Template("{NextReminderDate}")}}
	})
	err := table.Check()
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	assert.NotContains(t, err.Error(), "names no data attribute")
	assert.Contains(t, err.Error(), `{NextReminderDate} is index LSI1's own key attribute`)
	assert.Contains(t, err.Error(), `Index.SortAttributes: {{Name: "NextReminderDate"}}`)

	other := adjlist.NewTable(nil, "table-key", func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	adjlist.NewEntity[anyData](other, "reminder", "u#{userID}", "r#{reminderID}", func(o *adjlist.EntityOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("{SK}"), SortKey: adjlist.Template("x")}}
	})
	err = other.Check()
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	assert.Contains(t, err.Error(), `{SK} is a key attribute (the table's sort key)`)
}

// TestTemplateNeedsHashBetweenParts: two {names} with text between them
// but no '#' cannot be split back (an escaped id holds any character but
// '#'), so an index key template like that is refused where declared.
func TestTemplateNeedsHashBetweenParts(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		tpl string
		ok  bool
	}{
		{"{a}-{b}", false},
		{"D#{date}T{time}", false},
		{"{a}x#{b}", true},
		{"{a}#x{b}", true},
		{"{a}-x", true},
		{"S#{status}#{createdAt}", true},
	} {
		t.Run(tt.tpl, func(t *testing.T) {
			table := adjlist.NewTable(nil, "hash", func(o *adjlist.Options) {
				o.NoIndex = true
				o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
			})
			adjlist.NewEntity[anyData](table, "e", "u#{userID}", "info", func(o *adjlist.EntityOptions) {
				o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("P"), SortKey: adjlist.Template(tt.tpl)}}
			})
			if tt.ok {
				assert.NoError(t, table.Check())
			} else {
				assert.ErrorIs(t, table.Check(), adjlist.ErrInvalidOption)
			}
		})
	}
}

// tagged is the data of every item type of the index matrix: tag and
// rank key the native indexes, name the derived sort keys.
type tagged struct {
	Tag  string `dynamodbav:"tag,omitempty"`
	Rank int    `dynamodbav:"rank"`
	Name string `dynamodbav:"name,omitempty"`
}

// matrix is one table with every kind of index (the inverted GSI1,
// derived global GSI2 and GSI3, derived local LSI1, native global NAT,
// native local LSN) and every handle: nodes, collections (one sharded),
// edges between nodes, into children and from children, an entity.
type matrix struct {
	calls                *countingClient
	table                *adjlist.Table
	ws, stu, crs, tag    *adjlist.Node[tagged]
	proj, task           *adjlist.Collection[tagged, tagged]
	enroll, tagged, has  *adjlist.Edge[tagged]
	follower             *adjlist.Entity[tagged]
	parent, child, other string
}

func newMatrix(t *testing.T) *matrix {
	t.Helper()
	db := ddbtest.Client(t)
	m := &matrix{calls: &countingClient{Client: db}, parent: "ac#me%", child: "p#1", other: "x%y"}
	m.table = adjlist.NewTable(m.calls, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{
			{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"},
			{Name: "GSI3", PartitionKey: "GSI3PK", SortKey: "GSI3SK"},
			{Name: "LSI1", Local: true, SortKey: "LSI1SK"},
			{Name: "NAT", PartitionAttributes: []adjlist.KeyAttribute{{Name: "tag"}}, SortAttributes: []adjlist.KeyAttribute{{Name: "rank", Type: "N"}}},
			{Name: "LSN", Local: true, SortAttributes: []adjlist.KeyAttribute{{Name: "rank", Type: "N"}}},
		}
	})
	ddbtest.CreateTable(t, m.table)
	keys := func(pk, sk adjlist.KeyTemplate, local string) []adjlist.IndexKeys {
		return []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: pk, SortKey: sk},
			{Index: "LSI1", SortKey: adjlist.Template(local + "#{name}")}}
	}
	m.ws = adjlist.NewNode[tagged](m.table, "WS", "META", func(o *adjlist.NodeOptions) {
		o.Indexes = keys(adjlist.Template("TAG#{tag}"), adjlist.Template("{@self}"), "W")
	})
	m.proj = adjlist.NewCollection[tagged](m.ws, "PROJ", func(o *adjlist.CollectionOptions) {
		o.Indexes = keys(adjlist.Template("IN#{@parent}"), adjlist.Template("{@self}"), "P")
	})
	m.task = adjlist.NewCollection[tagged](m.ws, "TASK", func(o *adjlist.CollectionOptions) {
		o.Shards = 4
		o.Indexes = keys(adjlist.Template("ON#{@parent}"), adjlist.Template("{@self}"), "T")
	})
	m.stu = adjlist.NewNode[tagged](m.table, "STU", "PROFILE")
	m.crs = adjlist.NewNode[tagged](m.table, "CRS", "METADATA")
	m.tag = adjlist.NewNode[tagged](m.table, "TAG", "META")
	m.enroll = adjlist.NewEdge[tagged](m.stu, "ENROLL", m.crs, func(o *adjlist.EdgeOptions) {
		o.Indexes = keys(adjlist.Template("{@target}"), adjlist.Template("{@source}"), "E")
	})
	m.tagged = adjlist.NewEdge[tagged](m.tag, "TAGGED", m.proj, func(o *adjlist.EdgeOptions) {
		o.Indexes = append(keys(adjlist.Template("TO#{@target}"), adjlist.Template("{@source}"), "G"),
			adjlist.IndexKeys{Index: "GSI3", PartitionKey: adjlist.Template("{@self}"), SortKey: adjlist.Template("{@source}")})
	})
	m.has = adjlist.NewEdge[tagged](m.proj, "HAS", m.tag, func(o *adjlist.EdgeOptions) {
		o.Indexes = keys(adjlist.Template("FROM#{@source}"), adjlist.Template("{@target}"), "H")
	})
	m.follower = adjlist.NewEntity[tagged](m.table, "follower", "u#{userID}#follower", "u#{followerID}", func(o *adjlist.EntityOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("F#{followerID}"), SortKey: adjlist.Template("U#{userID}")},
			{Index: "LSI1", SortKey: adjlist.Template("N#{name}")}}
	})
	require.NoError(t, m.table.Check())
	return m
}

func showNode(v adjlist.NodeItem[tagged]) string { return v.ID }
func showChild(v adjlist.Child[tagged]) string   { return v.Parent + "/" + v.ID }
func showEdge(v adjlist.EdgeItem[tagged]) string { return v.From + " → " + v.To }

// TestIndexReadsEveryHandle: for every handle and every kind of index,
// an item written with hostile ids is found by ByIndex with the ids (or
// ref) it was written with: nodes, children (sharded too: a local index
// merges the shards), edges between nodes, into a child and from a
// child, and entities, on derived global and local indexes and native
// global and local ones.
func TestIndexReadsEveryHandle(t *testing.T) {
	t.Parallel()
	m := newMatrix(t)
	ctx := context.Background()
	data := func(tag string) tagged { return tagged{Tag: tag, Rank: 1, Name: "n#%"} }
	ref, err := m.proj.Ref(m.parent, m.child)
	require.NoError(t, err)
	require.NoError(t, m.ws.Put(ctx, m.parent, data("ws")))
	require.NoError(t, m.proj.Put(ctx, m.parent, m.child, data("proj")))
	require.NoError(t, m.task.Put(ctx, m.parent, m.child, data("task")))
	require.NoError(t, m.enroll.Put(ctx, m.other, m.child, data("enroll")))
	require.NoError(t, m.tagged.Put(ctx, m.other, ref, data("tagged")))
	require.NoError(t, m.has.Put(ctx, ref, m.other, data("has")))
	require.NoError(t, m.follower.Put(ctx, adjlist.IDs{m.parent, m.child}, data("follower")))

	node, child, toChild, fromChild := m.parent, m.parent+"/"+m.child, m.other+" → "+ref, ref+" → "+m.other
	for _, tt := range []struct {
		name string
		run  func(t *testing.T)
	}{
		{"node GSI2", func(t *testing.T) { eventuallyFound(t, m.ws.ByIndex("GSI2", "ws"), showNode, node) }},
		{"node LSI1", func(t *testing.T) { eventuallyFound(t, m.ws.ByIndex("LSI1", m.parent), showNode, node) }},
		{"node NAT", func(t *testing.T) { eventuallyFound(t, m.ws.ByIndex("NAT", "ws", 1), showNode, node) }},
		{"node LSN", func(t *testing.T) { eventuallyFound(t, m.ws.ByIndex("LSN", m.parent), showNode, node) }},
		{"child GSI2", func(t *testing.T) { eventuallyFound(t, m.proj.ByIndex("GSI2", m.parent), showChild, child) }},
		{"child LSI1", func(t *testing.T) { eventuallyFound(t, m.proj.ByIndex("LSI1", m.parent), showChild, child) }},
		{"child NAT", func(t *testing.T) { eventuallyFound(t, m.proj.ByIndex("NAT", "proj"), showChild, child) }},
		{"child LSN", func(t *testing.T) { eventuallyFound(t, m.proj.ByIndex("LSN", m.parent, 1), showChild, child) }},
		{"sharded child GSI2", func(t *testing.T) { eventuallyFound(t, m.task.ByIndex("GSI2", m.parent), showChild, child) }},
		{"sharded child LSI1", func(t *testing.T) { eventuallyFound(t, m.task.ByIndex("LSI1", m.parent), showChild, child) }},
		{"sharded child NAT", func(t *testing.T) { eventuallyFound(t, m.task.ByIndex("NAT", "task"), showChild, child) }},
		{"edge GSI2", func(t *testing.T) {
			eventuallyFound(t, m.enroll.ByIndex("GSI2", m.child), showEdge, m.other+" → "+m.child)
		}},
		{"edge LSI1", func(t *testing.T) {
			eventuallyFound(t, m.enroll.ByIndex("LSI1", m.other), showEdge, m.other+" → "+m.child)
		}},
		{"edge NAT", func(t *testing.T) {
			eventuallyFound(t, m.enroll.ByIndex("NAT", "enroll"), showEdge, m.other+" → "+m.child)
		}},
		{"edge LSN", func(t *testing.T) {
			eventuallyFound(t, m.enroll.ByIndex("LSN", m.other), showEdge, m.other+" → "+m.child)
		}},
		{"edge into a child GSI2", func(t *testing.T) { eventuallyFound(t, m.tagged.ByIndex("GSI2", ref), showEdge, toChild) }},
		{"edge into a child GSI3 (SelfKey)", func(t *testing.T) { eventuallyFound(t, m.tagged.ByIndex("GSI3", ref), showEdge, toChild) }},
		{"edge into a child LSI1", func(t *testing.T) { eventuallyFound(t, m.tagged.ByIndex("LSI1", m.other), showEdge, toChild) }},
		{"edge into a child NAT", func(t *testing.T) { eventuallyFound(t, m.tagged.ByIndex("NAT", "tagged"), showEdge, toChild) }},
		{"edge into a child LSN", func(t *testing.T) { eventuallyFound(t, m.tagged.ByIndex("LSN", m.other), showEdge, toChild) }},
		{"edge from a child GSI2", func(t *testing.T) { eventuallyFound(t, m.has.ByIndex("GSI2", ref), showEdge, fromChild) }},
		{"edge from a child LSI1", func(t *testing.T) { eventuallyFound(t, m.has.ByIndex("LSI1", ref), showEdge, fromChild) }},
		{"edge from a child NAT", func(t *testing.T) { eventuallyFound(t, m.has.ByIndex("NAT", "has"), showEdge, fromChild) }},
		{"edge from a child LSN", func(t *testing.T) { eventuallyFound(t, m.has.ByIndex("LSN", ref), showEdge, fromChild) }},
		{"entity GSI2", func(t *testing.T) {
			eventuallyFound(t, m.follower.ByIndex("GSI2", m.child), showIDs[tagged], m.parent+","+m.child)
		}},
		{"entity LSI1", func(t *testing.T) {
			eventuallyFound(t, m.follower.ByIndex("LSI1", m.parent), showIDs[tagged], m.parent+","+m.child)
		}},
		{"entity NAT", func(t *testing.T) {
			eventuallyFound(t, m.follower.ByIndex("NAT", "follower"), showIDs[tagged], m.parent+","+m.child)
		}},
		{"entity LSN", func(t *testing.T) {
			eventuallyFound(t, m.follower.ByIndex("LSN", m.parent), showIDs[tagged], m.parent+","+m.child)
		}},
	} {
		t.Run(tt.name, tt.run)
	}
}

// TestIndexShardedCollectionLocal: a local index of a sharded
// collection is read on every shard of the parent's partition and merged
// in index sort key order, with one cursor; a native local index, which
// cannot merge them, is refused before any request.
func TestIndexShardedCollectionLocal(t *testing.T) {
	t.Parallel()
	m := newMatrix(t)
	ctx := context.Background()
	names := []string{"f", "b", "e", "a", "d", "c"}
	for i, n := range names {
		require.NoError(t, m.task.Put(ctx, m.parent, fmt.Sprintf("t%d", i), tagged{Name: n, Rank: i}))
	}
	require.NoError(t, m.task.Put(ctx, m.other, "t9", tagged{Name: "a", Rank: 9}))
	shardsUsed := map[string]bool{}
	for i := range names {
		pk, _, err := m.task.Key(m.parent, fmt.Sprintf("t%d", i))
		require.NoError(t, err)
		shardsUsed[pk] = true
	}
	require.Greater(t, len(shardsUsed), 1, "the children span several shards")

	show := func(v adjlist.Child[tagged]) string { return v.Data.Name }
	eventuallyFound(t, m.task.ByIndex("LSI1", m.parent), show, "a", "b", "c", "d", "e", "f")
	eventuallyFound(t, m.task.ByIndex("LSI1", m.parent).Desc(), show, "f", "e", "d", "c", "b", "a")
	consistentlyFound(t, m.task.ByIndex("LSI1", m.parent).GreaterThan("c"), show, "d", "e", "f")

	var paged []string
	cursor := ""
	for {
		page, err := m.task.ByIndex("LSI1", m.parent).Limit(2).Page(ctx, cursor)
		require.NoError(t, err)
		for _, v := range page.Items {
			paged = append(paged, v.Data.Name)
		}
		if cursor = page.Cursor; cursor == "" {
			break
		}
	}
	assert.Equal(t, []string{"a", "b", "c", "d", "e", "f"}, paged, "one cursor resumes every shard")
	n, err := m.task.ByIndex("LSI1", m.parent).Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 6, n)

	before := m.calls.total()
	_, err = m.task.ByIndex("LSN", m.parent).Collect(ctx)
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	assert.Equal(t, before, m.calls.total(), "refused before any request")
}

// TestIndexDescribesChildRefs: Describe draws an edge's index keys that
// hold a child's ref as the ref, and its ByIndex pattern sends the ref
// itself, not an escaped copy under the parent's prefix.
func TestIndexDescribesChildRefs(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "refs", func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	ws := adjlist.NewNode[tagged](table, "WS", "META")
	proj := adjlist.NewCollection[tagged](ws, "PROJ")
	tags := adjlist.NewNode[tagged](table, "TAG", "META")
	tagged := adjlist.NewEdge[tagged](tags, "TAGGED", proj, func(o *adjlist.EdgeOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("{@self}"), SortKey: adjlist.Template("{@source}")}}
	})
	m, err := adjlist.DescribeModel(table, tagged)
	require.NoError(t, err)
	require.Len(t, m.Items, 1)
	require.Len(t, m.Items[0].Indexes, 2)
	assert.Equal(t, "GSI2", m.Items[0].Indexes[1].Index)
	assert.Equal(t, "TAGGED#WS#<to parent>#PROJ#<to>", m.Items[0].Indexes[1].PartitionKey)
	var conds []string
	for _, p := range m.AccessPatterns {
		if strings.HasPrefix(p.Call, "Edge.ByIndex") {
			conds = append(conds, p.KeyCondition)
		}
	}
	assert.Equal(t, []string{`(GSI2PK = "TAGGED#WS#<to parent>#PROJ#<to>") AND (begins_with (GSI2SK, "TAG#"))`}, conds)
}

// mapping is an org's member, found by username on an index keyed on
// the table's sort key.
type mapping struct {
	Role string `dynamodbav:"role"`
}

// TestEntityByIndexOnTableKeys: on an index keyed on the table's own
// sort key (a native inverted index, or the table's inverted index on
// SK), an Entity's ByIndex takes the ids of that key and spells them as
// the key is spelled, as Describe draws it: "carrpatrick" is
// SK = "USER#carrpatrick"; a value that cannot be an id is refused before
// any request.
func TestEntityByIndexOnTableKeys(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, index string
		layout      adjlist.Options
	}{
		{"native index on SK, PK", "InvertedIndex", adjlist.Options{NoIndex: true, Indexes: []adjlist.Index{{Name: "InvertedIndex",
			PartitionAttributes: []adjlist.KeyAttribute{{Name: "SK"}}, SortAttributes: []adjlist.KeyAttribute{{Name: "PK"}}}}}},
		{"inverted index on SK, PK", "GSI1", adjlist.Options{IndexPartitionKey: "SK", IndexSortKey: "PK"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			db := ddbtest.Client(t)
			calls := &countingClient{Client: db}
			table := adjlist.NewTable(calls, ddbtest.TableName(t), func(o *adjlist.Options) { *o = tt.layout })
			ddbtest.CreateTable(t, table)
			mappings := adjlist.NewEntity[mapping](table, "mapping", "ORG#{org}", "USER#{username}")
			require.NoError(t, table.Check())
			ctx := context.Background()
			for _, ids := range []adjlist.IDs{{"acme", "carrpatrick"}, {"glob#ex", "carrpatrick"}, {"acme", "carr#patrick"}} {
				require.NoError(t, mappings.Put(ctx, ids, mapping{Role: "admin"}))
			}
			eventuallyFound(t, mappings.ByIndex(tt.index, "carrpatrick"), showIDs[mapping], "acme,carrpatrick", "glob#ex,carrpatrick")
			eventuallyFound(t, mappings.ByIndex(tt.index, "carrpatrick", "glob#ex"), showIDs[mapping], "glob#ex,carrpatrick")
			eventuallyFound(t, mappings.ByIndex(tt.index, "carr#patrick"), showIDs[mapping], "acme,carr#patrick")

			m, err := adjlist.DescribeModel(table, adjlist.AccessPattern("an org's member by username", mappings.ByIndex(tt.index, "<username>")))
			require.NoError(t, err)
			require.Len(t, m.AccessPatterns, 1)
			assert.Contains(t, m.AccessPatterns[0].KeyCondition, `SK = "USER#<username>"`)

			before := calls.total()
			for _, values := range [][]any{{}, {42}, {""}, {"carrpatrick", 7}, {"carrpatrick", "acme", "x"}} {
				_, err := mappings.ByIndex(tt.index, values...).Collect(ctx)
				assert.ErrorIs(t, err, adjlist.ErrInvalidOption, "%v", values)
			}
			assert.Equal(t, before, calls.total(), "refused before any request")
		})
	}
}
