package adjlist_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// TestDescribeKeyOnlyUnderTableTagKey: under the table's tag key, the
// model names an entity's attributes as its encoder writes them, and lists
// the values the entity keeps only inside keys (a table key field, an
// index key's value) in its keys alone, not among its attributes; a key
// field stored as an attribute too stays one.
func TestDescribeKeyOnlyUnderTableTagKey(t *testing.T) {
	t.Parallel()
	type line struct {
		OrderID   string  `json:"orderId"`
		ProductID string  `json:"productId"`
		Date      string  `json:"date"`
		Quantity  int     `json:"qty"`
		Price     float64 `dynamodbav:"price"`
		Note      string  `json:"note,string"`
	}
	table := adjlist.NewTable(nil, "shop", jsonTagKey, func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{{Name: "GSI1", PartitionKey: "GSI1PK", SortKey: "GSI1SK"}}
	})
	lines := adjlist.NewEntity[line](table, "line", "o#{orderId}", "p#{productId}", func(o *adjlist.EntityOptions) {
		o.KeyOnly = []string{"orderId", "date"}
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI1", PartitionKey: adjlist.Template("p#{productId}"), SortKey: adjlist.Template("{date}")}}
	})
	require.NoError(t, table.Check())
	m, err := adjlist.DescribeModel(table, lines)
	require.NoError(t, err)
	require.Len(t, m.Items, 1)
	assert.Equal(t, []adjlist.Attribute{{Name: "productId", Type: "S"}, {Name: "qty", Type: "N"}, {Name: "price", Type: "N"}, {Name: "note", Type: "S"}},
		m.Items[0].Attributes)
	var b strings.Builder
	require.NoError(t, adjlist.Describe(&b, table, lines))
	assert.Contains(t, b.String(), "| entity line | `o#<orderId>` | `p#<productId>` | productId, qty, price, note |")
}

// cycleA and cycleB embed each other by pointer.
type cycleA struct {
	*cycleB
	X string `dynamodbav:"x"`
}

type cycleB struct {
	*cycleA
	Y string `dynamodbav:"y"`
}

// TestDescribeTypesThatEmbedEachOther: Describe and DescribeModel end on
// struct types that embed each other by pointer, naming the attributes
// the encoder writes (each struct's fields once, in field order), for a
// node and an entity (whose key field y is an attribute too) alike.
func TestDescribeTypesThatEmbedEachOther(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "cycles")
	nodes := adjlist.NewNode[cycleA](table, "CYC", "META")
	items := adjlist.NewEntity[cycleB](table, "cyc", "c#{y}", "meta")
	require.NoError(t, table.Check())
	m, err := adjlist.DescribeModel(table, nodes, items)
	require.NoError(t, err)
	require.Len(t, m.Items, 2)
	assert.Equal(t, []adjlist.Attribute{{Name: "y", Type: "S"}, {Name: "x", Type: "S"}}, m.Items[0].Attributes)
	assert.Equal(t, []adjlist.Attribute{{Name: "x", Type: "S"}, {Name: "y", Type: "S"}}, m.Items[1].Attributes)
	var b strings.Builder
	require.NoError(t, adjlist.Describe(&b, table))
	assert.Contains(t, b.String(), "| y, x |")
}
