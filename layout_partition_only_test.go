package adjlist_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/cloudformation"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// createRecorder records the CreateTableInput that CreateTable sends.
type createRecorder struct {
	*dynamodb.Client
	in *dynamodb.CreateTableInput
}

func (r *createRecorder) CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, o ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	r.in = in
	return r.Client.CreateTable(ctx, in, o...)
}

// The labs' invoices ↔ bills design: GSI_1 is keyed on the table's SK
// alone, with no index sort key (Options.IndexPartitionOnly).
func TestIndexPartitionOnly(t *testing.T) {
	t.Parallel()
	type Invoice struct {
		Customer string `dynamodbav:"customer"`
	}
	type Bill struct {
		Amount int `dynamodbav:"amount"`
	}
	type InvoiceBill struct {
		Amount int `dynamodbav:"amount"`
	}
	db := ddbtest.Client(t)
	calls := &queryRecorder{countingClient: &countingClient{Client: db}}
	table := adjlist.NewTable(calls, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.Index, o.IndexPartitionKey, o.IndexPartitionOnly = "GSI_1", "SK", true
	})
	ctx := context.Background()
	rec := &createRecorder{Client: db}
	require.NoError(t, adjlist.CreateTable(ctx, rec, table))
	dropOnCleanup(t, db, table.Name())
	invoices := adjlist.NewNode[Invoice](table, "INVOICE", "")
	bills := adjlist.NewNode[Bill](table, "BILL", "")
	contains := adjlist.NewEdge[InvoiceBill](invoices, "", bills)
	require.NoError(t, table.Check())

	o := table.Options()
	assert.Equal(t, "SK", o.IndexPartitionKey)
	assert.Empty(t, o.IndexSortKey, "no index sort key, and no default for one")
	assert.Equal(t, []adjlist.Index{{Name: "GSI_1", PartitionKey: "SK"}}, indexesOf(t, table))

	// The index CreateTable asked for, and the one the table has: SK HASH.
	onlySK := []types.KeySchemaElement{{AttributeName: aws.String("SK"), KeyType: types.KeyTypeHash}}
	require.NotNil(t, rec.in)
	require.Len(t, rec.in.GlobalSecondaryIndexes, 1)
	assert.Equal(t, onlySK, rec.in.GlobalSecondaryIndexes[0].KeySchema)
	assert.Len(t, rec.in.AttributeDefinitions, 2, "PK and SK, no index attribute")
	desc, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table.Name())})
	require.NoError(t, err)
	require.Len(t, desc.Table.GlobalSecondaryIndexes, 1)
	assert.Equal(t, "GSI_1", aws.ToString(desc.Table.GlobalSecondaryIndexes[0].IndexName))
	assert.Equal(t, onlySK, desc.Table.GlobalSecondaryIndexes[0].KeySchema)

	for id, inv := range map[string]Invoice{"92551": {"Contoso"}, "92552": {"Fabrikam"}, "92553": {"Contoso"}} {
		require.NoError(t, invoices.Put(ctx, id, inv))
	}
	for id, b := range map[string]Bill{"4224663": {120}, "4224664": {300}} {
		require.NoError(t, bills.Put(ctx, id, b))
	}
	// Bill 4224664 is on three invoices, enough to page through.
	for _, e := range []struct{ inv, bill string }{
		{"92551", "4224663"}, {"92551", "4224664"}, {"92552", "4224664"}, {"92553", "4224664"},
	} {
		require.NoError(t, contains.Put(ctx, e.inv, e.bill, InvoiceBill{Amount: 10}))
	}
	// Edge items carry the table's keys only.
	raw, err := db.GetItem(ctx, getInput(table.Name(), "INVOICE#92551", "BILL#4224664"))
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"PK": "INVOICE#92551", "SK": "BILL#4224664"}, stringsOf(t, map[string]types.AttributeValue{
		"PK": raw.Item["PK"], "SK": raw.Item["SK"]}))
	assert.Len(t, raw.Item, 3, "keys and amount: %v", raw.Item)

	// Forward: the invoice's partition on the table.
	inv, err := adjlist.LoadNode(ctx, invoices, contains, "92551")
	require.NoError(t, err)
	assert.Equal(t, "Contoso", inv.Node.Customer)
	assert.Equal(t, []string{"4224663", "4224664"}, ids(inv.Edges, func(e adjlist.EdgeItem[InvoiceBill]) string { return e.To }))
	fwd, err := contains.From("92551").Collect(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"4224663", "4224664"}, ids(fwd, func(e adjlist.EdgeItem[InvoiceBill]) string { return e.To }))

	// Reverse: the bill's partition of GSI_1, SK = "BILL#4224664", the
	// bill's own item filtered out. No defined order: compare sorted.
	from := func(e adjlist.EdgeItem[InvoiceBill]) string { return e.From }
	require.NoError(t, contains.WaitIndexed(ctx, "92553", "4224664", waitIndex))
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		rev, err := contains.To("4224664").Collect(ctx)
		require.NoError(c, err)
		assert.ElementsMatch(c, []string{"92551", "92552", "92553"}, ids(rev, from))
		n, err := contains.To("4224664").Count(ctx)
		require.NoError(c, err)
		assert.Equal(c, 3, n)
	}, waitIndex, 20*time.Millisecond)
	rev, err := contains.To("4224663").Collect(ctx)
	require.NoError(t, err)
	assert.Equal(t, []adjlist.EdgeItem[InvoiceBill]{{From: "92551", To: "4224663", Data: InvoiceBill{Amount: 10}}}, rev)

	// Paged: one item evaluated per request (the bill's own item among
	// them), every edge once, the cursor resuming on the index.
	var paged []string
	cursor, pages := "", 0
	for {
		page, err := contains.To("4224664").Limit(1).Page(ctx, cursor)
		require.NoError(t, err)
		paged = append(paged, ids(page.Items, from)...)
		pages++
		require.Less(t, pages, 10, "the cursor does not advance")
		if cursor = page.Cursor; cursor == "" {
			break
		}
	}
	slices.Sort(paged)
	assert.Equal(t, []string{"92551", "92552", "92553"}, paged)
	assert.GreaterOrEqual(t, pages, 4, "four items in the partition, one per page")
	_, err = contains.To("4224663").Limit(1).Page(ctx, cursor)
	require.NoError(t, err)

	// Desc is sent and changes nothing that is defined: the same edges.
	down, err := contains.To("4224664").Desc().Collect(ctx)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"92551", "92552", "92553"}, ids(down, from))

	// An entity reads the index by its ids, as a native index on SK alone
	// (another Table on the same DynamoDB table: the entity's keys are
	// the edges').
	other := adjlist.NewTable(db, table.Name(), func(o *adjlist.Options) {
		o.Index, o.IndexPartitionKey, o.IndexPartitionOnly = "GSI_1", "SK", true
	})
	lines := adjlist.NewEntity[InvoiceBill](other, "line", "INVOICE#{invoice}", "BILL#{bill}")
	got, err := lines.ByIndex("GSI_1", "4224664").Collect(ctx)
	require.NoError(t, err)
	invs := ids(got, func(e adjlist.EntityItem[InvoiceBill]) string { return e.IDs[0] })
	assert.ElementsMatch(t, []string{"92551", "92552", "92553"}, invs)

	// The request: the key condition on SK alone, the source's prefix a
	// filter on PK.
	_, err = contains.To("4224664").Collect(ctx)
	require.NoError(t, err)
	in := calls.lastQuery()
	assert.Equal(t, "GSI_1", aws.ToString(in.IndexName))
	ph := map[string]string{}
	for k, v := range in.ExpressionAttributeNames {
		ph[v] = k
	}
	require.Len(t, ph, 2, "%v", in.ExpressionAttributeNames)
	var kname, kval, fname, fval string
	_, err = fmt.Sscanf(aws.ToString(in.KeyConditionExpression), "%s = %s", &kname, &kval)
	require.NoError(t, err, aws.ToString(in.KeyConditionExpression))
	_, err = fmt.Sscanf(strings.NewReplacer("(", "", ")", "", ",", "").Replace(aws.ToString(in.FilterExpression)), "begins_with %s %s", &fname, &fval)
	require.NoError(t, err, aws.ToString(in.FilterExpression))
	assert.Equal(t, []string{ph["SK"], ph["PK"]}, []string{kname, fname})
	assert.Equal(t, &types.AttributeValueMemberS{Value: "BILL#4224664"}, in.ExpressionAttributeValues[kval])
	assert.Equal(t, &types.AttributeValueMemberS{Value: "INVOICE#"}, in.ExpressionAttributeValues[fval])

	// No index sort key to range over: refused before any request.
	before := calls.total()
	_, err = contains.To("4224664").Between("92551", "92552").Collect(ctx)
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	assert.Equal(t, before, calls.total())

	// Describe, its model's exports and Verify.
	var md bytes.Buffer
	require.NoError(t, adjlist.Describe(&md, table, invoices, bills, contains))
	assert.Contains(t, md.String(), "Index `GSI_1` is keyed on SK (partition) alone, with no sort key.")
	assert.Contains(t, md.String(), "`SK = \"BILL#<to>\"; filter begins_with(PK, \"INVOICE#\")`")
	m, err := adjlist.DescribeModel(table, invoices, bills, contains)
	require.NoError(t, err)
	for _, it := range m.Items {
		assert.Equal(t, []adjlist.ItemKeys{{Index: "GSI_1", PartitionKey: it.SortKey}}, it.Indexes, it.Name)
	}
	tpl, err := cloudformation.NewTemplate(m)
	require.NoError(t, err)
	require.Len(t, tpl.Resources, 1)
	for _, r := range tpl.Resources {
		require.Len(t, r.Properties.GlobalSecondaryIndexes, 1)
		assert.Equal(t, []cloudformation.KeySchemaElement{{AttributeName: "SK", KeyType: "HASH"}}, r.Properties.GlobalSecondaryIndexes[0].KeySchema)
	}
	res, err := adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
	assert.Equal(t, 9, res.Scanned, "3 invoices, 2 bills, 4 edges")
}

// queryRecorder is a countingClient that keeps the last QueryInput.
type queryRecorder struct {
	*countingClient
	mu   sync.Mutex
	last *dynamodb.QueryInput
}

func (r *queryRecorder) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	r.mu.Lock()
	r.last = in
	r.mu.Unlock()
	return r.countingClient.Query(ctx, in, o...)
}

func (r *queryRecorder) lastQuery() *dynamodb.QueryInput {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// IndexPartitionOnly is the inverted index on the table's sort key alone:
// any other keying is refused, naming the fields, before any request.
func TestIndexPartitionOnlyOptions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts adjlist.Options
		want string // "" for valid
	}{
		{"on the sort key", adjlist.Options{IndexPartitionKey: "SK", IndexPartitionOnly: true}, ""},
		{"on renamed keys", adjlist.Options{PartitionKey: "EntityRef", SortKey: "Detail", IndexPartitionKey: "Detail", IndexPartitionOnly: true}, ""},
		{"default index partition key", adjlist.Options{IndexPartitionOnly: true},
			`adjlist: invalid option: Options.IndexPartitionOnly needs Options.IndexPartitionKey to be the table's sort key "SK", not "GSI1PK"`},
		{"on the partition key", adjlist.Options{IndexPartitionKey: "PK", IndexPartitionOnly: true},
			`adjlist: invalid option: Options.IndexPartitionOnly needs Options.IndexPartitionKey to be the table's sort key "SK", not "PK"`},
		{"with a sort key", adjlist.Options{IndexPartitionKey: "SK", IndexSortKey: "PK", IndexPartitionOnly: true},
			`adjlist: invalid option: Options.IndexSortKey "PK" with Options.IndexPartitionOnly: a partition-only index has no sort key; leave IndexSortKey empty`},
		{"with NoIndex", adjlist.Options{IndexPartitionKey: "SK", IndexPartitionOnly: true, NoIndex: true},
			`adjlist: invalid option: Options.IndexPartitionOnly with Options.NoIndex: a table without the inverted index has no index keys to declare`},
		{"sort key alone without it", adjlist.Options{IndexPartitionKey: "SK"},
			`adjlist: invalid option: Options.IndexPartitionKey "SK" is the table's sort key; the inverted index's keys must be distinct from the table's, exactly its sort and partition key, or its sort key alone with Options.IndexPartitionOnly`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := &countingClient{} // no client behind: a request would panic
			table := adjlist.NewTable(calls, "t", func(o *adjlist.Options) { *o = tc.opts })
			if tc.want == "" {
				require.NoError(t, table.Check())
				assert.Equal(t, []adjlist.Index{{Name: "GSI1", PartitionKey: tc.opts.IndexPartitionKey}}, indexesOf(t, table))
				return
			}
			require.ErrorIs(t, table.Check(), adjlist.ErrInvalidOption)
			assert.EqualError(t, table.Check(), tc.want)
			bills := adjlist.NewNode[Student](table, "BILL", "")
			err := bills.Put(context.Background(), "4224663", Student{})
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
			assert.Zero(t, calls.total())
		})
	}
}
