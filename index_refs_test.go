package adjlist_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// TestEntityByIndexSelfKeyTakesIDs: an entity's SelfKey in an index key
// template is its sort key, literal text and all ("p#<postID>#u#<authorID>",
// "v#<ver>"): ByIndex takes the sort key's ids and spells them as the write
// does, so an item written with hostile ids is found on the partition
// (GSI2) and by a range on the sort key (GSI3), and Describe shows the ids
// it takes; too few ids are refused before any request.
func TestEntityByIndexSelfKeyTakesIDs(t *testing.T) {
	t.Parallel()
	db := ddbtest.Client(t)
	calls := &countingClient{Client: db}
	table := adjlist.NewTable(calls, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}, {Name: "GSI3", PartitionKey: "GSI3PK", SortKey: "GSI3SK"}}
	})
	ddbtest.CreateTable(t, table)
	keys := []adjlist.IndexKeys{
		{Index: "GSI2", PartitionKey: adjlist.Template("{@self}"), SortKey: adjlist.Template("D#{doc}")},
		{Index: "GSI3", PartitionKey: adjlist.Template("T#{tag}"), SortKey: adjlist.Template("{@self}")},
	}
	posts := adjlist.NewEntity[tagged](table, "post", "d#{doc}", "p#{postID}#u#{authorID}", func(o *adjlist.EntityOptions) { o.Indexes = keys })
	versions := adjlist.NewEntity[tagged](table, "version", "d#{doc}", "v#{ver}", func(o *adjlist.EntityOptions) { o.Indexes = keys })
	require.NoError(t, table.Check())
	ctx := context.Background()
	doc, post, author, ver := "d#1", "p%2", "a#%23", "1#b%" // a range value's ids but its last hold no '#'
	require.NoError(t, posts.Put(ctx, adjlist.IDs{doc, post, author}, tagged{Tag: "p"}))
	require.NoError(t, posts.Put(ctx, adjlist.IDs{doc, "p#3", author}, tagged{Tag: "p"}))
	require.NoError(t, versions.Put(ctx, adjlist.IDs{doc, ver}, tagged{Tag: "v"}))
	require.NoError(t, versions.Put(ctx, adjlist.IDs{doc, "0"}, tagged{Tag: "v"}))

	want, wantVer := doc+","+post+","+author, doc+","+ver
	eventuallyFound(t, posts.ByIndex("GSI2", post, author), showIDs[tagged], want)
	eventuallyFound(t, posts.ByIndex("GSI2", "p#3", author), showIDs[tagged], doc+",p#3,"+author)
	eventuallyFound(t, versions.ByIndex("GSI2", ver), showIDs[tagged], wantVer)
	eventuallyFound(t, posts.ByIndex("GSI3", "p").BeginsWith(post+"#u#"), showIDs[tagged], want)
	eventuallyFound(t, posts.ByIndex("GSI3", "p").Equal(post+"#u#"+author), showIDs[tagged], want)
	eventuallyFound(t, versions.ByIndex("GSI3", "v").GreaterThan("0"), showIDs[tagged], wantVer)
	eventuallyFound(t, versions.ByIndex("GSI3", "v").Between(ver, ver), showIDs[tagged], wantVer)

	m, err := adjlist.DescribeModel(table, posts, versions)
	require.NoError(t, err)
	var calls2 []string
	for _, p := range m.AccessPatterns {
		if strings.Contains(p.Call, `ByIndex("GSI2"`) {
			calls2 = append(calls2, p.Call+" "+p.KeyCondition)
		}
	}
	assert.Equal(t, []string{
		`Entity.ByIndex("GSI2", "<postID>", "<authorID>") (GSI2PK = "p#<postID>#u#<authorID>") AND (begins_with (GSI2SK, "D#"))`,
		`Entity.ByIndex("GSI2", "<ver>") (GSI2PK = "v#<ver>") AND (begins_with (GSI2SK, "D#"))`,
	}, calls2)

	before := calls.total()
	for _, q := range []adjlist.Query[adjlist.EntityItem[tagged]]{posts.ByIndex("GSI2", post), posts.ByIndex("GSI2", post, author, "x"), versions.ByIndex("GSI2", "")} {
		_, err := q.Collect(ctx)
		require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	}
	assert.Equal(t, before, calls.total(), "refused before any request")
}

// TestEdgeByIndexChildRangeValues: on an index whose sort key holds a
// child endpoint (TargetKey, SelfKey, or after a data attribute), a range
// value names the child as Edge.From's does, "<parent id>#PROJ#<child
// id>" with its ids as they are, and finds the edges written with hostile
// child ids.
func TestEdgeByIndexChildRangeValues(t *testing.T) {
	t.Parallel()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}, {Name: "GSI3", PartitionKey: "GSI3PK", SortKey: "GSI3SK"},
			{Name: "LSI1", Local: true, SortKey: "LSI1SK"}}
	})
	ddbtest.CreateTable(t, table)
	ws := adjlist.NewNode[tagged](table, "WS", "META")
	proj := adjlist.NewCollection[tagged](ws, "PROJ")
	tags := adjlist.NewNode[tagged](table, "TAG", "META")
	edges := adjlist.NewEdge[tagged](tags, "TAGGED", proj, func(o *adjlist.EdgeOptions) {
		o.Indexes = []adjlist.IndexKeys{
			{Index: "GSI2", PartitionKey: adjlist.Template("{@source}"), SortKey: adjlist.Template("{@target}")},
			{Index: "GSI3", PartitionKey: adjlist.Template("{@source}"), SortKey: adjlist.Template("{@self}")},
			{Index: "LSI1", SortKey: adjlist.Template("{name}#{@target}")},
		}
	})
	require.NoError(t, table.Check())
	ctx := context.Background()
	tag, parent := "t#1", "ac%me"
	children := []string{"p#1", "p%2", "q"}
	for _, c := range children {
		ref, err := proj.Ref(parent, c)
		require.NoError(t, err)
		require.NoError(t, edges.Put(ctx, tag, ref, tagged{Name: "n"}))
	}
	other, err := proj.Ref("b", "p#1")
	require.NoError(t, err)
	require.NoError(t, edges.Put(ctx, tag, other, tagged{Name: "n"}))
	to := func(c string) string {
		ref, err := proj.Ref(parent, c)
		require.NoError(t, err)
		return tag + " → " + ref
	}
	for _, ix := range []string{"GSI2", "GSI3"} {
		t.Run(ix, func(t *testing.T) {
			q := edges.ByIndex(ix, tag)
			eventuallyFound(t, q.BeginsWith(parent+"#PROJ#p#"), showEdge, to("p#1"))
			eventuallyFound(t, q.BeginsWith(parent+"#PROJ#p"), showEdge, to("p#1"), to("p%2"))
			eventuallyFound(t, q.Equal(parent+"#PROJ#p%2"), showEdge, to("p%2"))
			eventuallyFound(t, q.Between(parent+"#PROJ#p#1", parent+"#PROJ#q"), showEdge, to("p#1"), to("p%2"), to("q"))
			eventuallyFound(t, q.GreaterThan(parent+"#PROJ#p%2"), showEdge, to("q"), tag+" → "+other)
		})
	}
	t.Run("LSI1", func(t *testing.T) {
		q := edges.ByIndex("LSI1", tag)
		consistentlyFound(t, q.BeginsWith("n#WS#"+parent+"#PROJ#p#"), showEdge, to("p#1"))
		consistentlyFound(t, q.Equal("n#WS#"+parent+"#PROJ#p%2"), showEdge, to("p%2"))
	})
}
