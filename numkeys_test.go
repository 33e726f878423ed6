package adjlist_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/cloudformation"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/workbench"
)

// attrTypes are a table's attribute definitions, name → type.
func attrTypes(defs []types.AttributeDefinition) map[string]types.ScalarAttributeType {
	out := map[string]types.ScalarAttributeType{}
	for _, d := range defs {
		out[aws.ToString(d.AttributeName)] = d.AttributeType
	}
	return out
}

// exportTypes are the key attribute types the CloudFormation and
// Workbench exports of t's model declare.
func exportTypes(t *testing.T, table *adjlist.Table) (cfn, wb map[string]string) {
	m, err := adjlist.DescribeModel(table)
	require.NoError(t, err)
	tpl, err := cloudformation.NewTemplate(m)
	require.NoError(t, err)
	cfn = map[string]string{}
	for _, r := range tpl.Resources {
		for _, d := range r.Properties.AttributeDefinitions {
			cfn[d.AttributeName] = d.AttributeType
		}
	}
	f, err := workbench.New(m)
	require.NoError(t, err)
	require.Len(t, f.DataModel, 1)
	k := f.DataModel[0].KeyAttributes
	wb = map[string]string{k.PartitionKey.AttributeName: k.PartitionKey.AttributeType}
	if k.SortKey != nil {
		wb[k.SortKey.AttributeName] = k.SortKey.AttributeType
	}
	return cfn, wb
}

// A table keyed on a number partition key, id N (with a string sort
// key): an entity whose partition key template is one {field}.
func TestNumberPartitionKey(t *testing.T) {
	t.Parallel()
	type Order struct {
		OrderID int    `dynamodbav:"orderID"`
		Status  string `dynamodbav:"status"`
	}
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.PartitionKey, o.PartitionKeyType, o.SortKey, o.NoIndex = "id", types.ScalarAttributeTypeN, "sk", true
	})
	orders := adjlist.NewEntity[Order](table, "order", "{orderID}", "order")
	require.NoError(t, table.Check())
	ctx := context.Background()
	require.NoError(t, adjlist.CreateTable(ctx, db, table))
	dropOnCleanup(t, db, table.Name())

	requireKeyTypes(t, ctx, db, table, map[string]string{"id": "N", "sk": "S"})

	require.NoError(t, orders.Put(ctx, nil, Order{OrderID: 42, Status: "NEW"}))
	require.NoError(t, orders.Put(ctx, adjlist.IDs{"7"}, Order{OrderID: 7, Status: "NEW"}))
	raw, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table.Name()),
		Key: map[string]types.AttributeValue{"id": &types.AttributeValueMemberN{Value: "42"}, "sk": &types.AttributeValueMemberS{Value: "order"}}})
	require.NoError(t, err)
	require.NotNil(t, raw.Item, "the item is keyed on the number 42")

	got, err := orders.Get(ctx, adjlist.IDs{"42"})
	require.NoError(t, err)
	assert.Equal(t, Order{OrderID: 42, Status: "NEW"}, got)
	got, err = orders.Get(ctx, adjlist.IDs{"7"})
	require.NoError(t, err)
	assert.Equal(t, Order{OrderID: 7, Status: "NEW"}, got)
	upd, err := orders.Update(ctx, adjlist.IDs{"42"}, adjlist.Update{}.Set("status", "PAID"))
	require.NoError(t, err)
	assert.Equal(t, "PAID", upd.Status)
	var items []adjlist.EntityItem[Order]
	for it, err := range orders.List("42").All(ctx) {
		require.NoError(t, err)
		items = append(items, it)
	}
	assert.Equal(t, []adjlist.EntityItem[Order]{{IDs: adjlist.IDs{"42"}, Data: Order{OrderID: 42, Status: "PAID"}}}, items)

	res, err := adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)

	require.NoError(t, orders.Delete(ctx, adjlist.IDs{"42"}))
	_, err = orders.Get(ctx, adjlist.IDs{"42"})
	require.ErrorIs(t, err, adjlist.ErrNotFound)
}

// A table keyed pk S + version N: a number sort key reads in numeric
// order, with numeric ranges and cursors.
func TestNumberSortKey(t *testing.T) {
	t.Parallel()
	type Doc struct {
		Title string `dynamodbav:"title"`
	}
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.PartitionKey, o.SortKey, o.SortKeyType, o.NoIndex = "pk", "version", types.ScalarAttributeTypeN, true
	})
	docs := adjlist.NewEntity[Doc](table, "doc", "DOC#{docID}", "{version}")
	require.NoError(t, table.Check())
	ctx := context.Background()
	require.NoError(t, adjlist.CreateTable(ctx, db, table))
	dropOnCleanup(t, db, table.Name())

	requireKeyTypes(t, ctx, db, table, map[string]string{"pk": "S", "version": "N"})

	for _, v := range []string{"10", "2", "1", "9", "11", "-1.5"} {
		require.NoError(t, docs.Put(ctx, adjlist.IDs{"d1", v}, Doc{Title: "v" + v}))
	}
	require.NoError(t, docs.Put(ctx, adjlist.IDs{"d2", "1"}, Doc{Title: "other"}))
	got, err := docs.Get(ctx, adjlist.IDs{"d1", "10"})
	require.NoError(t, err)
	assert.Equal(t, Doc{Title: "v10"}, got)
	_, err = docs.Update(ctx, adjlist.IDs{"d1", "9"}, adjlist.Update{}.Set("title", "nine"))
	require.NoError(t, err)

	versions := func(q adjlist.Query[adjlist.EntityItem[Doc]]) []string {
		t.Helper()
		var out []string
		for it, err := range q.All(ctx) {
			require.NoError(t, err)
			require.Equal(t, "d1", it.IDs[0])
			out = append(out, it.IDs[1])
		}
		return out
	}
	for _, tc := range []struct {
		name string
		q    adjlist.Query[adjlist.EntityItem[Doc]]
		want []string
	}{
		{"all", docs.List("d1"), []string{"-1.5", "1", "2", "9", "10", "11"}},
		{"desc", docs.List("d1").Desc(), []string{"11", "10", "9", "2", "1", "-1.5"}},
		{"between", docs.List("d1").Between(2, 10), []string{"2", "9", "10"}},
		{"greater", docs.List("d1").GreaterThan(9), []string{"10", "11"}},
		{"less than a float", docs.List("d1").LessThan(1.5), []string{"-1.5", "1"}},
		{"one version", docs.List("d1", "10"), []string{"10"}},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, versions(tc.q)) })
	}

	// Paging with a cursor: two versions a page, in numeric order.
	q := docs.List("d1").GreaterThanEqual(1).Limit(2)
	var paged []string
	cursor := ""
	for range 10 {
		page, err := q.Page(ctx, cursor)
		require.NoError(t, err)
		for _, it := range page.Items {
			paged = append(paged, it.IDs[1])
		}
		if cursor = page.Cursor; cursor == "" {
			break
		}
	}
	assert.Equal(t, []string{"1", "2", "9", "10", "11"}, paged)
	first, err := q.Page(ctx, "")
	require.NoError(t, err)
	_, err = docs.List("d2").GreaterThanEqual(1).Limit(2).Page(ctx, first.Cursor)
	require.ErrorIs(t, err, adjlist.ErrInvalidCursor, "a cursor of another partition")
	_, err = docs.List("d1").GreaterThanEqual(10).Limit(2).Page(ctx, first.Cursor)
	require.ErrorIs(t, err, adjlist.ErrInvalidCursor, "a cursor outside the range")

	res, err := adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)

	require.NoError(t, docs.Delete(ctx, adjlist.IDs{"d1", "10"}))
	_, err = docs.Get(ctx, adjlist.IDs{"d1", "10"})
	require.ErrorIs(t, err, adjlist.ErrNotFound)
}

// What a number key cannot hold is refused before any request.
func TestNumberKeyRefusals(t *testing.T) {
	t.Parallel()
	type Doc struct {
		Title string `dynamodbav:"title"`
	}
	calls := &countingClient{}
	numSK := adjlist.NewTable(calls, "docs", func(o *adjlist.Options) {
		o.PartitionKey, o.SortKey, o.SortKeyType = "pk", "version", types.ScalarAttributeTypeN
	})
	numPK := adjlist.NewTable(calls, "orders", func(o *adjlist.Options) {
		o.PartitionKey, o.PartitionKeyType = "id", types.ScalarAttributeTypeN
	})
	ctx := context.Background()

	t.Run("templates", func(t *testing.T) {
		for i, tc := range []struct {
			name   string
			table  *adjlist.Table
			pk, sk string
		}{
			{"text before the field", numSK, "DOC#{docID}", "v#{version}"},
			{"text after the field", numSK, "DOC#{docID}", "{version}#x"},
			{"two fields", numSK, "DOC#{docID}", "{major}#{minor}"},
			{"a constant", numSK, "DOC#{docID}", "1"},
			{"partition key text", numPK, "ORDER#{id}", "info"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				e := adjlist.NewEntity[Doc](tc.table, fmt.Sprint("doc", i), tc.pk, tc.sk)
				err := e.Put(ctx, nil, Doc{})
				require.ErrorIs(t, err, adjlist.ErrInvalidOption)
				assert.ErrorContains(t, err, "number (N) key")
			})
		}
	})
	t.Run("presets", func(t *testing.T) {
		type N struct{}
		for _, table := range []*adjlist.Table{numSK, numPK} {
			users := adjlist.NewNode[N](table, "USER", "")
			require.ErrorIs(t, users.Put(ctx, "u1", N{}), adjlist.ErrInvalidOption)
			follows := adjlist.NewEdge[N](users, "FOLLOWS", users)
			require.ErrorIs(t, follows.Put(ctx, "u1", "u2", N{}), adjlist.ErrInvalidOption)
			posts := adjlist.NewCollection[N, N](users, "POST")
			require.ErrorIs(t, posts.Put(ctx, "u1", "p1", N{}), adjlist.ErrInvalidOption)
			counter := newEdgeCounter(follows, "followers")
			_, err := counter.Get(ctx, "u2")
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
		}
	})
	t.Run("ids", func(t *testing.T) {
		docs := adjlist.NewEntity[Doc](numSK, "doc", "DOC#{docID}", "{version}")
		for _, id := range []string{"07", "+1", "1.50", "1e3", "ten", "-0"} {
			err := docs.Put(ctx, adjlist.IDs{"d1", id}, Doc{})
			var ke *adjlist.KeyError
			require.ErrorAs(t, err, &ke, id)
			require.ErrorIs(t, err, adjlist.ErrInvalidKey, id)
			_, err = docs.List("d1", id).Page(ctx, "")
			require.ErrorIs(t, err, adjlist.ErrInvalidKey, id)
		}
		_, err := docs.List("d1").BeginsWith("1").Page(ctx, "")
		require.ErrorIs(t, err, adjlist.ErrInvalidOption)
		_, err = docs.List("d1").GreaterThan("x").Page(ctx, "")
		require.ErrorIs(t, err, adjlist.ErrInvalidOption)
		_, err = docs.List("d1").Between(10, 2).Page(ctx, "")
		require.ErrorIs(t, err, adjlist.ErrInvalidOption, "10 is after 2, though \"10\" < \"2\"")
	})
	t.Run("type", func(t *testing.T) {
		bad := adjlist.NewTable(calls, "bad", func(o *adjlist.Options) { o.SortKeyType = types.ScalarAttributeTypeB })
		require.ErrorIs(t, bad.Check(), adjlist.ErrInvalidOption)
	})
	assert.Zero(t, calls.total(), "no request")
}

// requireKeyTypes checks the key attribute types of table as DynamoDB
// describes it and as the CloudFormation and Workbench exports declare them.
func requireKeyTypes(t *testing.T, ctx context.Context, db *dynamodb.Client, table *adjlist.Table, want map[string]string) {
	t.Helper()
	desc, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table.Name())})
	require.NoError(t, err)
	got := map[string]string{}
	for k, v := range attrTypes(desc.Table.AttributeDefinitions) {
		got[k] = string(v)
	}
	assert.Equal(t, want, got, "DescribeTable")
	cfn, wb := exportTypes(t, table)
	assert.Equal(t, want, cfn, "CloudFormation")
	assert.Equal(t, want, wb, "Workbench")
}
