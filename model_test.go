package adjlist_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// describedModel is the indexed workspaces model of index_test.go with a
// native index beside GSI2 and LSI1, and projects sharded in GSI2.
func describedModel(t *testing.T) (*adjlist.Table, []adjlist.Describer) {
	t.Helper()
	table := adjlist.NewTable(nil, "tenancy", indexedTableOptions, func(o *adjlist.Options) {
		o.Indexes = append(o.Indexes, adjlist.Index{Name: "BYSTARS",
			PartitionAttributes: []adjlist.KeyAttribute{{Name: "status"}},
			SortAttributes:      []adjlist.KeyAttribute{{Name: "stars", Type: types.ScalarAttributeTypeN}},
			Projection:          types.ProjectionTypeKeysOnly})
	})
	workspaces := adjlist.NewNode[Space](table, "WS", "META", func(o *adjlist.NodeOptions) {
		o.Indexes = []adjlist.IndexKeys{byStatus}
	})
	projects := adjlist.NewCollection[Proj](workspaces, "PROJ", func(o *adjlist.CollectionOptions) {
		o.Indexes = []adjlist.IndexKeys{
			{Index: "GSI2", PartitionKey: byStatus.PartitionKey, SortKey: byStatus.SortKey, Shards: 4},
			{Index: "LSI1", SortKey: adjlist.Template("TITLE#{title}")},
		}
	})
	return table, []adjlist.Describer{workspaces, projects}
}

// TestDescribeIndexes: every declared index is shown with the item types
// in it and their key templates, and each derived index key is a ByIndex
// access pattern with the key condition the query sends.
func TestDescribeIndexes(t *testing.T) {
	t.Parallel()
	table, handles := describedModel(t)
	var b strings.Builder
	require.NoError(t, adjlist.Describe(&b, table, handles...))
	md := b.String()
	for _, want := range []string{
		"| child PROJ of WS | `WS#<id>` | `PROJ#<child>` |  |  | title, status, createdAt, stars |",
		"Index `GSI2` (global, projection ALL): GSI2PK (partition), GSI2SK (sort).\n\n" +
			"| item | GSI2PK | GSI2SK |\n| --- | --- | --- |\n" +
			"| node WS | `STATUS#<status>` | `<createdAt>` |\n" +
			"| child PROJ of WS | `STATUS#<status>#<shard of key, 4>` | `<createdAt>` |\n",
		"Index `LSI1` (local, projection ALL): PK (partition, the table's), LSI1SK (sort).\n\n" +
			"| item | PK | LSI1SK |\n| --- | --- | --- |\n" +
			"| child PROJ of WS | `WS#<id>` | `TITLE#<title>` |\n",
		"Index `BYSTARS` (global, native keys, projection KEYS_ONLY): status (partition), stars (N) (sort).\n\n" +
			"| item | status | stars |\n| --- | --- | --- |\n" +
			"| child PROJ of WS | `<status>` | `<stars>` |\n",
		"| node WS in GSI2 by STATUS#<status>, sorted by <createdAt> | `Node.ByIndex(\"GSI2\", \"<status>\")` | Query | `GSI2PK = \"STATUS#<status>\"` | GSI2 (eventually consistent) |",
		"| child PROJ of WS in GSI2 by STATUS#<status>#<shard of key, 4>, sorted by <createdAt> | `Collection.ByIndex(\"GSI2\", \"<status>\")` | 4 Queries in parallel, merged | `GSI2PK = \"STATUS#<status>\"` | GSI2 (eventually consistent) |",
		"| child PROJ of WS in LSI1 by WS#<id>, sorted by TITLE#<title> | `Collection.ByIndex(\"LSI1\", \"<id>\")` | Query | `(PK = \"WS#<id>\") AND (begins_with (LSI1SK, \"TITLE#\"))` | LSI1 (eventually consistent) |",
	} {
		assert.Contains(t, md, want)
	}
	// A node type without the sort attribute of BYSTARS is not in it.
	assert.NotContains(t, md, "| node WS | `<status>` |")
}

// TestDescribeDefaultTable: a table without Options.Indexes prints exactly
// what Describe printed before indexes were values of the model.
func TestDescribeDefaultTable(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "school")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	var b strings.Builder
	require.NoError(t, adjlist.Describe(&b, table, students, courses, enrolled))
	assert.Equal(t, "### Table `school`\n\n"+
		"| item | PK | SK | GSI1PK | GSI1SK | attributes |\n"+
		"| --- | --- | --- | --- | --- | --- |\n"+
		"| node STU | `STU#<id>` | `PROFILE` |  |  | name, year, major |\n"+
		"| node CRS | `CRS#<id>` | `METADATA` |  |  | title, credits, term |\n"+
		"| edge ENROLL (STU → CRS) | `STU#<from>` | `ENROLL#CRS#<to>` | `CRS#<to>` | `STU#<from>` | enrolledOn, grade |\n"+
		"\n### Access patterns\n\n"+
		"| access pattern | call | request | key condition | on |\n"+
		"| --- | --- | --- | --- | --- |\n"+
		"| get one STU | `Node.Get` | GetItem | `PK = \"STU#<id>\" AND SK = \"PROFILE\"` | table |\n"+
		"| get one CRS | `Node.Get` | GetItem | `PK = \"CRS#<id>\" AND SK = \"METADATA\"` | table |\n"+
		"| STU's ENROLL edges to CRS (forward) | `Edge.From` | Query | `PK = \"STU#<from>\" AND begins_with(SK, \"ENROLL#CRS#\")` | table |\n"+
		"| CRS's ENROLL edges from STU (reverse) | `Edge.To` | Query | `GSI1PK = \"CRS#<to>\" AND begins_with(GSI1SK, \"STU#\"); filter begins_with(SK, \"ENROLL#CRS#\")` | GSI1 (eventually consistent) |\n"+
		"| one edge | `Edge.Get` | GetItem | `PK = \"STU#<from>\" AND SK = \"ENROLL#CRS#<to>\"` | table |\n"+
		"| STU item with its ENROLL edges to CRS | `LoadNode` | Query | `PK = \"STU#<from>\"` | table |\n",
		b.String())
}

// TestDescribeModel: the model Describe walks, as data.
func TestDescribeModel(t *testing.T) {
	t.Parallel()
	table, handles := describedModel(t)
	m, err := adjlist.DescribeModel(table, handles...)
	require.NoError(t, err)
	assert.Equal(t, "tenancy", m.Table)
	assert.Equal(t, [2]string{"PK", "SK"}, [2]string{m.PartitionKey, m.SortKey})
	assert.Equal(t, m.InvertedIndex, m.Indexes[0].Name)
	require.Len(t, m.Items, 2)

	ws, proj := m.Items[0], m.Items[1]
	assert.Equal(t, adjlist.ItemType{Name: "node WS", Kind: "node", Type: "WS", PartitionKey: "WS#<id>", SortKey: "META",
		Attributes: []adjlist.Attribute{{Name: "name", Type: "S"}, {Name: "status", Type: "S"}, {Name: "createdAt", Type: "S"}},
		Indexes:    []adjlist.ItemKeys{{Index: "GSI2", PartitionKey: "STATUS#<status>", SortKey: "<createdAt>"}},
	}, ws)
	assert.Equal(t, "child", proj.Kind)
	assert.Equal(t, "WS", proj.From)
	assert.Equal(t, []adjlist.Attribute{{Name: "title", Type: "S"}, {Name: "status", Type: "S"}, {Name: "createdAt", Type: "S"}, {Name: "stars", Type: "N"}}, proj.Attributes)
	assert.Equal(t, []adjlist.ItemKeys{
		{Index: "GSI2", PartitionKey: "STATUS#<status>#<shard of key, 4>", SortKey: "<createdAt>", Shards: 4},
		{Index: "LSI1", PartitionKey: "WS#<id>", SortKey: "TITLE#<title>"},
		{Index: "BYSTARS", PartitionKey: "<status>", SortKey: "<stars>"},
	}, proj.Indexes)

	var byIndex []adjlist.Pattern
	for _, p := range m.AccessPatterns {
		if p.Index != "" {
			byIndex = append(byIndex, p)
		}
	}
	require.Len(t, byIndex, 3)
	assert.Equal(t, adjlist.Pattern{Name: "node WS in GSI2 by STATUS#<status>, sorted by <createdAt>", Call: `Node.ByIndex("GSI2", "<status>")`,
		Request: "Query", KeyCondition: `GSI2PK = "STATUS#<status>"`, Index: "GSI2", On: "GSI2 (eventually consistent)", Item: "node WS"}, byIndex[0])

	i := slices.IndexFunc(m.Indexes, func(ix adjlist.Index) bool { return ix.Name == "BYSTARS" })
	require.GreaterOrEqual(t, i, 0)
	assert.Equal(t, types.ProjectionTypeKeysOnly, m.Indexes[i].Projection)
	m.Indexes[3].PartitionAttributes[0].Name = "changed"
	assert.Equal(t, "status", indexesOf(t, table)[3].PartitionAttributes[0].Name, "the model shares nothing with the table")
}

// TestDescribeModelEdges: edges carry their inverted index keys (sharded
// too), an unlabelled edge its own name; a sort-key index holds every item
// keyed SK/PK; attribute types follow attributevalue.
func TestDescribeModelEdges(t *testing.T) {
	t.Parallel()
	type typed struct {
		S    string            `dynamodbav:"s"`
		N    float64           `dynamodbav:"n"`
		B    []byte            `dynamodbav:"b"`
		OK   bool              `dynamodbav:"ok"`
		L    []string          `dynamodbav:"l"`
		SS   []string          `dynamodbav:"ss,stringset"`
		M    map[string]string `dynamodbav:"m"`
		T    time.Time         `dynamodbav:"t"`
		U    time.Time         `dynamodbav:"u,unixtime"`
		P    *int              `dynamodbav:"p"`
		I    any               `dynamodbav:"i"`
		Skip string            `dynamodbav:"-"`
	}
	table := adjlist.NewTable(nil, "graph")
	users := adjlist.NewNode[Student](table, "USER", "")
	follows := adjlist.NewEdge[typed](users, "FOLLOWS", users, func(o *adjlist.EdgeOptions) { o.Shards = 8 })
	plain := adjlist.NewEdge[Enrollment](users, "", adjlist.NewNode[Course](table, "CRS", "METADATA"))
	m, err := adjlist.DescribeModel(table, follows, plain)
	require.NoError(t, err)
	assert.Equal(t, adjlist.ItemType{Name: "edge FOLLOWS (USER → USER)", Kind: "edge", Type: "FOLLOWS", From: "USER", To: "USER",
		PartitionKey: "USER#<from>", SortKey: "FOLLOWS#USER#<to>",
		Attributes: []adjlist.Attribute{{"s", "S"}, {"n", "N"}, {"b", "B"}, {"ok", "BOOL"}, {"l", "L"}, {"ss", "SS"}, {"m", "M"}, {"t", "S"}, {"u", "N"}, {"p", "N"}, {"i", "S"}},
		Indexes:    []adjlist.ItemKeys{{Index: "GSI1", PartitionKey: "USER#<to>#<shard of from, 8>", SortKey: "USER#<from>", Shards: 8}},
	}, m.Items[0])
	assert.Equal(t, "edge USER → CRS", m.Items[1].Name)
	assert.Equal(t, "8 Queries in parallel, merged", m.AccessPatterns[1].Request)

	inv := adjlist.NewTable(nil, "bills", func(o *adjlist.Options) { o.IndexPartitionKey, o.IndexSortKey = "SK", "PK" })
	bills := adjlist.NewNode[Course](inv, "BILL", "")
	m, err = adjlist.DescribeModel(inv, bills)
	require.NoError(t, err)
	assert.Equal(t, []adjlist.ItemKeys{{Index: "GSI1", PartitionKey: "BILL#<id>", SortKey: "BILL#<id>"}}, m.Items[0].Indexes)

	_, err = adjlist.DescribeModel(adjlist.NewTable(nil, ""), bills)
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	_, err = adjlist.DescribeModel(table, bills)
	require.ErrorIs(t, err, adjlist.ErrInvalidOption, "a handle of another table")
}

// indexesOf is the table's indexes, as its model describes them.
func indexesOf(t *testing.T, table *adjlist.Table) []adjlist.Index {
	t.Helper()
	m, err := adjlist.DescribeModel(table)
	require.NoError(t, err)
	return m.Indexes
}
