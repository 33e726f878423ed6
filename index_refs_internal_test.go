package adjlist

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestByIndexSelfKeyAndChildRefsSent: what ByIndex sends for an entity's
// SelfKey (its sort key's text and ids) and for range values naming a
// child endpoint in an index sort key, as the doc comments of
// Entity.ByIndex and Edge.ByIndex show them.
func TestByIndexSelfKeyAndChildRefsSent(t *testing.T) {
	t.Parallel()
	table := NewTable(nil, "t", func(o *Options) {
		o.Indexes = append(o.Indexes, Index{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"})
	})
	posts := NewEntity[struct{}](table, "post", "u#{userID}#post", "p#{postID}#u#{authorID}", func(o *EntityOptions) {
		o.Indexes = []IndexKeys{{Index: "GSI2", PartitionKey: Template("{@self}"), SortKey: Template("P#{@self}")}}
	})
	ws := NewNode[struct{}](table, "WS", "META")
	projects := NewCollection[struct{}](ws, "PROJ")
	tags := NewNode[struct{}](table, "TAG", "META")
	tagged := NewEdge[struct{}](tags, "TAGGED", projects, func(o *EdgeOptions) {
		o.Indexes = []IndexKeys{{Index: "GSI2", PartitionKey: Template("{@source}"), SortKey: Template("{@target}")}}
	})
	require.NoError(t, table.Check())
	for _, tc := range []struct {
		name string
		q    Query[Item]
		cond string
		want map[string]string
	}{
		{"entity SelfKey: the sort key's ids", retype(posts.ByIndex("GSI2", "34567", "5#6"), rawItem),
			"(#0 = :0) AND (begins_with (#1, :1))", map[string]string{":0": "p#34567#u#5%236", ":1": "P#p#"}},
		{"entity SelfKey: a range after its text", retype(posts.ByIndex("GSI2", "1", "2").Between("34567#u#a", "34567#u#b#%"), rawItem),
			"(#0 = :0) AND (#1 BETWEEN :1 AND :2)", map[string]string{":0": "p#1#u#2", ":1": "P#p#34567#u#a", ":2": "P#p#34567#u#b%23%25"}},
		{"child endpoint: <parent id>#PROJ#<child id>", retype(tagged.ByIndex("GSI2", "go").BeginsWith("acme#PROJ#2026"), rawItem),
			"(#0 = :0) AND (begins_with (#1, :1))", map[string]string{":0": "TAG#go", ":1": "WS#acme#PROJ#2026"}},
		{"child endpoint: its ids escaped", retype(tagged.ByIndex("GSI2", "go").Equal("a%#PROJ#b#1"), rawItem),
			"(#0 = :0) AND (#1 = :1)", map[string]string{":0": "TAG#go", ":1": "WS#a%25#PROJ#b%231"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cond, vals := sentValues(t, tc.q)
			assert.Equal(t, tc.cond, cond)
			assert.Equal(t, tc.want, vals)
		})
	}
}
