package adjlist_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// A partition read and a cascade of an entity heading a partition on a
// table keyed on a number: the partition key goes out as a number.
func TestNumberKeyPartitionHead(t *testing.T) {
	t.Parallel()
	type Order struct {
		OrderID int    `dynamodbav:"orderID"`
		Status  string `dynamodbav:"status"`
	}
	type Line struct {
		OrderID int    `dynamodbav:"orderID"`
		Sku     string `dynamodbav:"sku"`
	}
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.PartitionKey, o.PartitionKeyType, o.SortKey, o.NoIndex = "id", types.ScalarAttributeTypeN, "sk", true
	})
	orders := adjlist.NewEntity[Order](table, "order", "{orderID}", "ORDER")
	lines := adjlist.NewEntity[Line](table, "line", "{orderID}", "LINE#{sku}")
	require.NoError(t, table.Check())
	ctx := context.Background()
	require.NoError(t, adjlist.CreateTable(ctx, db, table))
	dropOnCleanup(t, db, table.Name())

	for _, id := range []int{42, 7} {
		require.NoError(t, orders.Put(ctx, nil, Order{OrderID: id, Status: "NEW"}))
		require.NoError(t, lines.Put(ctx, nil, Line{OrderID: id, Sku: "a"}))
		require.NoError(t, lines.Put(ctx, nil, Line{OrderID: id, Sku: "b"}))
	}

	var got []adjlist.EntityItem[Line]
	p, err := adjlist.LoadPartition(ctx, orders, "42", lines.Into(&got))
	require.NoError(t, err)
	assert.Equal(t, Order{OrderID: 42, Status: "NEW"}, p.Node)
	assert.Equal(t, []adjlist.EntityItem[Line]{
		{IDs: adjlist.IDs{"42", "a"}, Data: Line{OrderID: 42, Sku: "a"}},
		{IDs: adjlist.IDs{"42", "b"}, Data: Line{OrderID: 42, Sku: "b"}},
	}, got)

	page, err := adjlist.PagePartition(ctx, orders, "42", "", 10)
	require.NoError(t, err)
	assert.Equal(t, Order{OrderID: 42, Status: "NEW"}, page.Node)

	res, err := adjlist.DeletePartition(ctx, orders, "42")
	require.NoError(t, err)
	assert.True(t, res.Node)
	assert.Equal(t, 2, res.Partition)
	_, err = orders.Get(ctx, adjlist.IDs{"42"})
	require.ErrorIs(t, err, adjlist.ErrNotFound)
	_, err = orders.Get(ctx, adjlist.IDs{"7"})
	require.NoError(t, err, "the other order's partition stays")

	_, err = adjlist.LoadPartition(ctx, orders, "4x2")
	require.ErrorIs(t, err, adjlist.ErrInvalidKey, "an id that is no number is refused before any request")
}
