package adjlist_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// Reads through every kind of secondary index of a table keyed on a
// number (id N, sk S): a native index keyed on the table's keys inverted
// (sk, then the number id), a native index on data attributes (status,
// then the number total), an index whose keys adjlist derives from
// templates holding the number key's field, and local indexes, one on a
// number attribute and one derived. Each finds the items it holds, with
// their ids, in numeric order where a number sorts it.
func TestNumberKeyIndexReads(t *testing.T) {
	t.Parallel()
	type Order struct {
		OrderID  int64  `dynamodbav:"orderID"`
		Customer string `dynamodbav:"customer"`
		Status   string `dynamodbav:"status"`
		Total    int64  `dynamodbav:"total"`
	}
	type Line struct {
		OrderID int64  `dynamodbav:"orderID"`
		LineID  string `dynamodbav:"lineID"`
		Product string `dynamodbav:"product"`
		Total   int64  `dynamodbav:"total"`
	}
	n := func(name string) []adjlist.KeyAttribute {
		return []adjlist.KeyAttribute{{Name: name, Type: types.ScalarAttributeTypeN}}
	}
	s := func(name string) []adjlist.KeyAttribute { return []adjlist.KeyAttribute{{Name: name}} }
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.PartitionKey, o.PartitionKeyType, o.SortKey, o.NoIndex = "id", types.ScalarAttributeTypeN, "sk", true
		o.Indexes = []adjlist.Index{
			{Name: "bySK", PartitionAttributes: s("sk"), SortAttributes: n("id")},
			{Name: "byStatus", PartitionAttributes: s("status"), SortAttributes: n("total")},
			{Name: "GSI1", PartitionKey: "GSI1PK", SortKey: "GSI1SK"},
			{Name: "byTotal", Local: true, SortAttributes: n("total")},
			{Name: "LSI1", Local: true, SortKey: "LSI1SK"},
		}
	})
	orders := adjlist.NewEntity[Order](table, "order", "{orderID}", "order", func(o *adjlist.EntityOptions) {
		o.Indexes = []adjlist.IndexKeys{
			{Index: "GSI1", PartitionKey: adjlist.Template("CUST#{customer}"), SortKey: adjlist.Template("ORDER#{orderID}")},
			{Index: "LSI1", SortKey: adjlist.Template("STATUS#{status}")},
		}
	})
	lines := adjlist.NewEntity[Line](table, "line", "{orderID}", "line#{lineID}")
	require.NoError(t, table.Check())
	ctx := context.Background()
	require.NoError(t, adjlist.CreateTable(ctx, db, table))
	dropOnCleanup(t, db, table.Name())

	for _, o := range []Order{{10, "ann", "NEW", 30}, {9, "ann", "PAID", 12}, {100, "bob", "NEW", 7}, {-2, "ann", "NEW", 30}} {
		require.NoError(t, orders.Put(ctx, nil, o))
	}
	for _, l := range []Line{{10, "1", "pen", 5}, {10, "2", "ink", 25}, {9, "1", "pad", 12}} {
		require.NoError(t, lines.Put(ctx, nil, l))
	}

	ids := func(t *testing.T, q adjlist.Query[adjlist.EntityItem[Order]]) []adjlist.IDs {
		t.Helper()
		out := []adjlist.IDs{}
		for it, err := range q.All(ctx) {
			require.NoError(t, err)
			assert.Equal(t, it.IDs[0], strconv.FormatInt(it.Data.OrderID, 10), "the item's ids are its keys'")
			out = append(out, it.IDs)
		}
		return out
	}
	lineIDs := func(t *testing.T, q adjlist.Query[adjlist.EntityItem[Line]]) []adjlist.IDs {
		t.Helper()
		out := []adjlist.IDs{}
		for it, err := range q.All(ctx) {
			require.NoError(t, err)
			out = append(out, it.IDs)
		}
		return out
	}
	for _, c := range []struct {
		name string
		q    adjlist.Query[adjlist.EntityItem[Order]]
		want []adjlist.IDs
	}{
		{"inverted, numeric order", orders.ByIndex("bySK"), []adjlist.IDs{{"-2"}, {"9"}, {"10"}, {"100"}}},
		{"inverted, one number id", orders.ByIndex("bySK", "100"), []adjlist.IDs{{"100"}}},
		{"inverted, a number range", orders.ByIndex("bySK").GreaterThan(9), []adjlist.IDs{{"10"}, {"100"}}},
		{"inverted, descending", orders.ByIndex("bySK").Desc(), []adjlist.IDs{{"100"}, {"10"}, {"9"}, {"-2"}}},
		{"data attributes, by a number", orders.ByIndex("byStatus", "NEW"), []adjlist.IDs{{"100"}, {"10"}, {"-2"}}},
		{"data attributes, a number range", orders.ByIndex("byStatus", "NEW").Between(8, 40), []adjlist.IDs{{"10"}, {"-2"}}},
		{"derived", orders.ByIndex("GSI1", "ann"), []adjlist.IDs{{"-2"}, {"10"}, {"9"}}},
		{"derived, the number field in a range", orders.ByIndex("GSI1", "ann").BeginsWith("1"), []adjlist.IDs{{"10"}}},
		{"local on a number", orders.ByIndex("byTotal", "10"), []adjlist.IDs{{"10"}}},
		{"local derived", orders.ByIndex("LSI1", "9"), []adjlist.IDs{{"9"}}},
		{"local derived, by its text", orders.ByIndex("LSI1", "-2").BeginsWith("N"), []adjlist.IDs{{"-2"}}},
	} {
		t.Run(c.name, func(t *testing.T) { assert.Equal(t, c.want, ids(t, c.q)) })
	}
	t.Run("lines by a local number index", func(t *testing.T) {
		assert.Equal(t, []adjlist.IDs{{"10", "1"}, {"10", "2"}}, lineIDs(t, lines.ByIndex("byTotal", "10")))
		assert.Equal(t, []adjlist.IDs{{"10", "2"}}, lineIDs(t, lines.ByIndex("byTotal", "10").GreaterThan(5)))
		assert.Equal(t, []adjlist.IDs{{"9", "1"}, {"10", "1"}}, lineIDs(t, lines.ByIndex("bySK", "1")))
	})

	res, err := adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
}

// TestNumberKeyShardedIndexPages: pages of a sharded derived index on a
// table keyed on a number merge the shards and resume from cursors
// holding the number key: every item once, in Collect's order.
func TestNumberKeyShardedIndexPages(t *testing.T) {
	t.Parallel()
	type Order struct {
		OrderID  int64  `dynamodbav:"orderID"`
		Customer string `dynamodbav:"customer"`
	}
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.PartitionKey, o.PartitionKeyType, o.SortKey, o.NoIndex = "id", types.ScalarAttributeTypeN, "sk", true
		o.Indexes = []adjlist.Index{{Name: "GSI1", PartitionKey: "GSI1PK", SortKey: "GSI1SK"}}
	})
	orders := adjlist.NewEntity[Order](table, "order", "{orderID}", "order", func(o *adjlist.EntityOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI1", PartitionKey: adjlist.Template("CUST#{customer}"), SortKey: adjlist.Template("ORDER#{orderID}"), Shards: 3}}
	})
	require.NoError(t, table.Check())
	ctx := context.Background()
	require.NoError(t, adjlist.CreateTable(ctx, db, table))
	dropOnCleanup(t, db, table.Name())
	for i := range 7 {
		require.NoError(t, orders.Put(ctx, nil, Order{int64(i), "ann"}))
	}
	all, err := orders.ByIndex("GSI1", "ann").Collect(ctx)
	require.NoError(t, err)
	require.Len(t, all, 7)
	var got []adjlist.EntityItem[Order]
	cursor := ""
	for range 20 {
		p, err := orders.ByIndex("GSI1", "ann").Limit(2).Page(ctx, cursor)
		require.NoError(t, err)
		got = append(got, p.Items...)
		if cursor = p.Cursor; cursor == "" {
			break
		}
	}
	assert.Equal(t, all, got)
}
