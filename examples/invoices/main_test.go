package main

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/internal/ddbtest"
	"github.com/adjlist/adjlist/internal/exampleutil"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// item is one row of the seed's table: PK, SK and the names of the other
// attributes. There are no index key attributes: the index is on SK/PK.
func item(pk, sk string, attrs ...string) exampleutil.Shape {
	return exampleutil.Shape{
		Keys:  map[string]string{"PK": pk, "SK": sk},
		Attrs: slices.Sorted(slices.Values(attrs)),
	}
}

var (
	invoiceAttrs = []string{"customer", "invoiceDate", "status"}
	billAttrs    = []string{"billDate", "amount", "currency"}
	edgeAttrs    = []string{"amount", "dueDate"}
)

// seedTable is seed 002's adjacency list: invoice and bill partitions, each
// headed by its self-keyed item, and one item per bill in each invoice.
var seedTable = []exampleutil.Shape{
	item("INVOICE#92551", "INVOICE#92551", invoiceAttrs...),
	item("INVOICE#92551", "BILL#4224663", edgeAttrs...),
	item("INVOICE#92551", "BILL#4224664", edgeAttrs...),
	item("INVOICE#92552", "INVOICE#92552", invoiceAttrs...),
	item("INVOICE#92552", "BILL#4224664", edgeAttrs...),
	item("INVOICE#92552", "BILL#4224665", edgeAttrs...),
	item("BILL#4224663", "BILL#4224663", billAttrs...),
	item("BILL#4224664", "BILL#4224664", billAttrs...),
	item("BILL#4224665", "BILL#4224665", billAttrs...),
}

func TestRunWritesSeedTable(t *testing.T) {
	db := ddbtest.Client(t)
	table := ddbtest.TableName(t)
	ctx := context.Background()
	t.Cleanup(func() { require.NoError(t, exampleutil.DeleteTable(context.Background(), db, table)) })

	// Twice: the second run must find the data in place and change nothing.
	for i := range 2 {
		var out bytes.Buffer
		require.NoError(t, run(ctx, db, table, false, &out), "run %d", i)
		got := out.String()
		assert.Contains(t, got, "invoice 92551 (Contoso, 2026-02-01, SENT) contains:\n"+
			"  bill 4224663   120.00 due 2026-03-03\n"+
			"  bill 4224664   200.00 due 2026-03-03\n")
		assert.Contains(t, got, "bill 4224664 (2026-01-10, 300.00 EUR) is in (GSI1):\n"+
			"  invoice 92551   200.00\n"+
			"  invoice 92552   100.00\n")
		assert.Contains(t, got, "index GSI1 is keyed on SK (partition) and PK (sort)")
		assert.Contains(t, got, "PK            |SK            |attributes\n"+
			"INVOICE#92551 |INVOICE#92551 |customer=Contoso, invoiceDate=2026-02-01, status=SENT\n"+
			"INVOICE#92551 |BILL#4224663  |amount=120, dueDate=2026-03-03\n")
		if i == 0 {
			assert.NotContains(t, got, "already")
		} else {
			assert.Contains(t, got, "invoice 92552 already contains bill 4224664 (left as is)\n")
		}

		shapes, err := exampleutil.ScanShapes(ctx, db, table, "PK", "SK")
		require.NoError(t, err)
		assert.ElementsMatch(t, seedTable, shapes, "run %d", i)
	}

	// The index is on the sort key: GSI1 partition = SK, sort = PK.
	desc, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	require.NoError(t, err)
	require.Len(t, desc.Table.GlobalSecondaryIndexes, 1)
	gsi := desc.Table.GlobalSecondaryIndexes[0]
	assert.Equal(t, "GSI1", aws.ToString(gsi.IndexName))
	assert.Equal(t, []types.KeySchemaElement{
		{AttributeName: aws.String("SK"), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String("PK"), KeyType: types.KeyTypeRange},
	}, gsi.KeySchema)
}

func TestRunCleanup(t *testing.T) {
	db := ddbtest.Client(t)
	table := ddbtest.TableName(t)
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), db, table, true, &out))
	_, err := db.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	var nf *types.ResourceNotFoundException
	require.ErrorAs(t, err, &nf, "the table is gone")
}

func TestDescribe(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, example.Execute(context.Background(), []string{"-describe"}, &out))
	for _, want := range []string{
		"### Table `adjlist-invoices`",
		"| item | PK | SK | attributes |",
		"| `INVOICE#<id>` | `INVOICE#<id>` | customer, invoiceDate, status |",
		"| `BILL#<id>` | `BILL#<id>` | billDate, amount, currency |",
		"| `INVOICE#<from>` | `BILL#<to>` | amount, dueDate |",
		"Index `GSI1` is keyed on SK (partition) and PK (sort).",
		"`PK = \"INVOICE#<from>\"`",
		"`SK = \"BILL#<to>\" AND begins_with(PK, \"INVOICE#\")`",
	} {
		assert.Contains(t, out.String(), want)
	}
}
