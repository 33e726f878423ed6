package adjlist_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// TestMermaid: node types, edge kinds with their labels and direction,
// the index serving their reverse read, item collections and secondary
// indexes with their key templates, escaped for Mermaid.
func TestMermaid(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "school")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	m, err := adjlist.DescribeModel(table, students, courses, enrolled)
	require.NoError(t, err)
	var b strings.Builder
	require.NoError(t, m.Mermaid(&b))
	assert.Equal(t, "```mermaid\nflowchart LR\n"+
		"  n_STU[\"STU<br/>PK = STU#35;#lt;id#gt;, SK = PROFILE\"]\n"+
		"  n_CRS[\"CRS<br/>PK = CRS#35;#lt;id#gt;, SK = METADATA\"]\n"+
		"  n_STU -->|\"ENROLL (Edge.From, table)\"| n_CRS\n"+
		"  n_CRS -.->|\"ENROLL reverse (Edge.To, GSI1)\"| n_STU\n"+
		"```\n", b.String())

	indexed, handles := describedModel(t)
	m, err = adjlist.DescribeModel(indexed, handles...)
	require.NoError(t, err)
	b.Reset()
	require.NoError(t, m.Mermaid(&b))
	for _, want := range []string{
		"  n_WS ==>|\"PROJ children (Collection.List, table)\"| c_WS_PROJ\n",
		"  c_WS_PROJ[\"PROJ (child of WS)<br/>SK = PROJ#35;#lt;child#gt;\"]\n",
		"  i_GSI2{{\"GSI2<br/>GSI2PK, GSI2SK\"}}\n",
		"  i_GSI2 -.->|\"STATUS#35;#lt;status#gt; · #lt;createdAt#gt;\"| n_WS\n",
		"  i_GSI2 -.->|\"STATUS#35;#lt;status#gt;#35;#lt;shard of key, 4#gt; · #lt;createdAt#gt;\"| c_WS_PROJ\n",
		"  i_LSI1{{\"LSI1<br/>PK, LSI1SK\"}}\n",
		"  i_BYSTARS -.->|\"#lt;status#gt; · #lt;stars#gt;\"| c_WS_PROJ\n",
	} {
		assert.Contains(t, b.String(), want)
	}
	assert.NotContains(t, b.String(), "GSI1", "no inverted index box: NoIndex is false but no edge reads it")
}

// TestMermaidEdgesOnly: node types named only by edges are drawn; an
// unlabelled edge reads "edge"; a table without an index has no reverse
// arrow; an edge in a derived index hangs off its source type.
func TestMermaidEdgesOnly(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "school", func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{{Name: "BYDATE", PartitionKey: "BYDATE_PK", SortKey: "BYDATE_SK"}}
	})
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "my-CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "", courses, func(o *adjlist.EdgeOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "BYDATE", PartitionKey: adjlist.Template("{@target}"),
			SortKey: adjlist.Template("ON#{enrolledOn}")}}
	})
	m, err := adjlist.DescribeModel(table, enrolled)
	require.NoError(t, err)
	var b strings.Builder
	require.NoError(t, m.Mermaid(&b))
	assert.Equal(t, "```mermaid\nflowchart LR\n"+
		"  n_STU[\"STU\"]\n"+
		"  n_my_CRS[\"my-CRS\"]\n"+
		"  n_STU -->|\"edge (Edge.From, table)\"| n_my_CRS\n"+
		"  i_BYDATE{{\"BYDATE<br/>BYDATE_PK, BYDATE_SK\"}}\n"+
		"  i_BYDATE -.->|\"edges: my-CRS#35;#lt;to#gt; · ON#35;#lt;enrolledOn#gt;\"| n_STU\n"+
		"```\n", b.String())
}

// TestMermaidDrawsEveryIndex: the diagram names every index of the model,
// as the Markdown and the exports do: a counter's native index with its
// count items when the counter is described, and without arrows when no
// described item type is in it.
func TestMermaidDrawsEveryIndex(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "school", func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "ByCount",
			PartitionAttributes: []adjlist.KeyAttribute{{Name: "counter"}},
			SortAttributes:      []adjlist.KeyAttribute{{Name: "count", Type: "N"}}}}
	})
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	counter := newEdgeCounter(enrolled, "ENROLLED")
	for name, tc := range map[string]struct {
		handles []adjlist.Describer
		want    string
	}{
		"without the counter": {[]adjlist.Describer{students, courses, enrolled}, "  i_ByCount{{\"ByCount<br/>counter, count\"}}\n```\n"},
		"with the counter": {[]adjlist.Describer{students, courses, enrolled, counter},
			"  i_ByCount{{\"ByCount<br/>counter, count\"}}\n  i_ByCount -.->|\"#lt;counter#gt; · #lt;count#gt;\"| k_CRS_ENROLLED\n"},
	} {
		t.Run(name, func(t *testing.T) {
			m, err := adjlist.DescribeModel(table, tc.handles...)
			require.NoError(t, err)
			var b strings.Builder
			require.NoError(t, m.Mermaid(&b))
			assert.Contains(t, b.String(), tc.want)
		})
	}
}

// TestMermaidDrawsEntities: each entity is a box with its sort key, in a
// subgraph of the entities that share its partition key template, and an
// index points at the entities in it.
func TestMermaidDrawsEntities(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "entities", func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{{Name: "GSI1", PartitionKey: "GSI1PK", SortKey: "GSI1SK"}}
	})
	adjlist.NewEntity[anyData](table, "user", "u#{userID}", "info", func(o *adjlist.EntityOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI1", PartitionKey: adjlist.Template("NAME#{name}"), SortKey: adjlist.Template("{userID}")}}
	})
	adjlist.NewEntity[anyData](table, "count", "u#{userID}", "count")
	adjlist.NewEntity[anyData](table, "follower", "u#{userID}#follower", "u#{followerID}")
	m, err := adjlist.DescribeModel(table)
	require.NoError(t, err)
	var b strings.Builder
	require.NoError(t, m.Mermaid(&b))
	for _, want := range []string{
		"  subgraph p_0[\"PK = u#35;#lt;userID#gt;\"]\n    e_user[\"user<br/>SK = info\"]\n    e_count[\"count<br/>SK = count\"]\n  end\n",
		"  subgraph p_1[\"PK = u#35;#lt;userID#gt;#35;follower\"]\n    e_follower[\"follower<br/>SK = u#35;#lt;followerID#gt;\"]\n  end\n",
		"  i_GSI1 -.->|\"NAME#35;#lt;name#gt; · #lt;userID#gt;\"| e_user\n",
	} {
		assert.Contains(t, b.String(), want)
	}
}
