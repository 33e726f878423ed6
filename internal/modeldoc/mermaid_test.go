package modeldoc

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMermaid: a model drawn without a table: an edge to a collection's
// children ends at their box, the inverted index draws no box, another
// index points at the source type of the edges in it, labels escaped.
func TestMermaid(t *testing.T) {
	m := &Model{PartitionKey: "PK", SortKey: "SK", InvertedIndex: "GSI1",
		Items: []Item{
			{Name: "node WS", Kind: "node", Type: "WS", PartitionKey: "WS#<id>", SortKey: "META"},
			{Name: "child PROJ of WS", Kind: "child", Type: "PROJ", From: "WS", PartitionKey: "WS#<id>", SortKey: "PROJ#<child>"},
			{Name: "edge OWNS", Kind: "edge", Type: "OWNS", From: "U-1", To: "WS/PROJ", PartitionKey: "U#<from>", SortKey: "OWNS#<to>",
				Indexes: []Keys{{Index: "GSI1", PartitionKey: "<to>", SortKey: "<from>"}, {Index: "BYDATE", PartitionKey: `"d"`}}},
		},
		AccessPatterns: []Pattern{{Item: "edge OWNS", Call: "Edge.To", Index: "GSI1"}, {Item: "edge OWNS", Call: "Edge.From"}},
		Indexes:        []Index{{Name: "GSI1", Partition: []string{"GSI1PK"}, Sort: []string{"GSI1SK"}}, {Name: "BYDATE", Partition: []string{"D"}}},
	}
	var b strings.Builder
	require.NoError(t, Mermaid(&b, m))
	assert.Equal(t, "```mermaid\nflowchart LR\n"+
		"  n_WS[\"WS<br/>PK = WS#35;#lt;id#gt;, SK = META\"]\n"+
		"  c_WS_PROJ[\"PROJ (child of WS)<br/>SK = PROJ#35;#lt;child#gt;\"]\n"+
		"  n_WS ==>|\"PROJ children (Collection.List, table)\"| c_WS_PROJ\n"+
		"  n_U_1[\"U-1\"]\n"+
		"  n_U_1 -->|\"OWNS (Edge.From, table)\"| c_WS_PROJ\n"+
		"  c_WS_PROJ -.->|\"OWNS reverse (Edge.To, GSI1)\"| n_U_1\n"+
		"  i_BYDATE{{\"BYDATE<br/>D\"}}\n"+
		"  i_BYDATE -.->|\"OWNS edges: #quot;d#quot;\"| n_U_1\n"+
		"```\n", b.String())
}
