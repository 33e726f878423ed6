package modeldoc

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMarkdown: a model documented without a table: the inverted index's
// keys as columns of the item table and no section of its own, a local
// native index with its number attribute marked and an INCLUDE
// projection, a '|' in a key condition escaped, the Time to Live line.
func TestMarkdown(t *testing.T) {
	m := &Model{Table: "t", PartitionKey: "PK", SortKey: "SK", InvertedIndex: "GSI1", IndexColumns: []string{"GSI1PK", "GSI1SK"}, TimeToLive: "exp",
		Items: []Item{
			{Name: "node WS", PartitionKey: "WS#<id>", SortKey: "META", Attributes: []string{"name", "year"},
				Indexes: []Keys{{Index: "BYYEAR", PartitionKey: "WS#<id>", SortKey: "<year>"}}},
			{Name: "edge OWNS", PartitionKey: "U#<from>", SortKey: "OWNS#<to>", Indexes: []Keys{{Index: "GSI1", PartitionKey: "<to>", SortKey: "<from>"}}},
		},
		AccessPatterns: []Pattern{{Name: "one WS", Call: "Node.Get", Request: "GetItem", KeyCondition: `PK = "a|b"`, On: "table"}},
		Indexes: []Index{
			{Name: "GSI1", Partition: []string{"GSI1PK"}, Sort: []string{"GSI1SK"}},
			{Name: "BYYEAR", Local: true, Native: true, Projection: types.ProjectionTypeInclude, NonKeyAttributes: []string{"name"},
				Partition: []string{"PK"}, Sort: []string{"year"}, Numbers: []string{"year"}},
		},
	}
	var b strings.Builder
	require.NoError(t, Markdown(&b, m))
	assert.Equal(t, "### Table `t`\n\n"+
		"| item | PK | SK | GSI1PK | GSI1SK | attributes |\n"+
		"| --- | --- | --- | --- | --- | --- |\n"+
		"| node WS | `WS#<id>` | `META` |  |  | name, year |\n"+
		"| edge OWNS | `U#<from>` | `OWNS#<to>` | `<to>` | `<from>` |  |\n"+
		"\nTime to Live: `exp` (epoch seconds), after which DynamoDB deletes the item, typically within a few days.\n"+
		"\nIndex `BYYEAR` (local, native keys, projection INCLUDE (name)): PK (partition, the table's), year (N) (sort).\n\n"+
		"| item | PK | year |\n"+
		"| --- | --- | --- |\n"+
		"| node WS | `WS#<id>` | `<year>` |\n"+
		"\n### Access patterns\n\n"+
		"| access pattern | call | request | key condition | on |\n"+
		"| --- | --- | --- | --- | --- |\n"+
		"| one WS | `Node.Get` | GetItem | `PK = \"a\\|b\"` | table |\n", b.String())
}

// TestMarkdownSortKeyIndex: an inverted index keyed on the table's sort
// key adds no columns and is noted under the item table.
func TestMarkdownSortKeyIndex(t *testing.T) {
	m := &Model{Table: "t", PartitionKey: "PK", SortKey: "SK", InvertedIndex: "GSI1", SortKeyIndex: true,
		Items:   []Item{{Name: "node WS", PartitionKey: "WS#<id>", SortKey: "META"}},
		Indexes: []Index{{Name: "GSI1", Partition: []string{"SK"}, Sort: []string{"PK"}}},
	}
	var b strings.Builder
	require.NoError(t, Markdown(&b, m))
	assert.Equal(t, "### Table `t`\n\n"+
		"| item | PK | SK | attributes |\n"+
		"| --- | --- | --- | --- |\n"+
		"| node WS | `WS#<id>` | `META` |  |\n"+
		"\nIndex `GSI1` is keyed on SK (partition) and PK (sort).\n"+
		"\n### Access patterns\n\n"+
		"| access pattern | call | request | key condition | on |\n"+
		"| --- | --- | --- | --- | --- |\n", b.String())
}
