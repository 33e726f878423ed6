package main

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
	"github.com/adjlist/adjlist/examples/internal/exampleutil/exampletest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// item is one row of the seed's table: PK, SK and the names of the other
// attributes. There are no index key attributes: the index is on SK/PK.
func item(pk, sk string, attrs ...string) exampleutil.Shape {
	return exampletest.Item(map[string]string{"PK": pk, "SK": sk}, attrs...)
}

var (
	invoiceAttrs = []string{"customer", "invoiceDate", "status"}
	billAttrs    = []string{"billDate", "amount", "currency"}
	edgeAttrs    = []string{"amount", "dueDate"}
)

// seedTable is seed 002's adjacency list: invoice and bill partitions, each
// headed by its self-keyed item, and one item per bill in each invoice.
var seedTable = exampletest.Seed{
	KeyAttrs: []string{"PK", "SK"},
	Items: []exampleutil.Shape{
		item("INVOICE#92551", "INVOICE#92551", invoiceAttrs...),
		item("INVOICE#92551", "BILL#4224663", edgeAttrs...),
		item("INVOICE#92551", "BILL#4224664", edgeAttrs...),
		item("INVOICE#92552", "INVOICE#92552", invoiceAttrs...),
		item("INVOICE#92552", "BILL#4224664", edgeAttrs...),
		item("INVOICE#92552", "BILL#4224665", edgeAttrs...),
		item("BILL#4224663", "BILL#4224663", billAttrs...),
		item("BILL#4224664", "BILL#4224664", billAttrs...),
		item("BILL#4224665", "BILL#4224665", billAttrs...),
	},
}

func TestRunWritesSeedTable(t *testing.T) {
	db, table := exampletest.RunTwice(t, example, seedTable, func(run int, out string) {
		assert.Contains(t, out, "invoice 92551 (Contoso, 2026-02-01, SENT) contains:\n"+
			"  bill 4224663   120.00 due 2026-03-03\n"+
			"  bill 4224664   200.00 due 2026-03-03\n")
		assert.Contains(t, out, "bill 4224664 (2026-01-10, 300.00 EUR) is in (GSI1):\n"+
			"  invoice 92551   200.00\n"+
			"  invoice 92552   100.00\n")
		assert.Contains(t, out, "index GSI1 is keyed on SK (partition) and PK (sort)")
		assert.Contains(t, out, "PK            |SK            |attributes\n"+
			"INVOICE#92551 |INVOICE#92551 |customer=Contoso, invoiceDate=2026-02-01, status=SENT\n"+
			"INVOICE#92551 |BILL#4224663  |amount=120, dueDate=2026-03-03\n")
		// A rerun finds its items there: Put is a guarded create, so each
		// is reported and left as it is (the table above is unchanged).
		if run == 0 {
			assert.NotContains(t, out, "already", "run %d", run)
		} else {
			assert.Contains(t, out, "already", "run %d", run)
		}
	})

	// The index is on the sort key: GSI1 partition = SK, sort = PK.
	exampletest.OnlyIndex(t, db, table, "GSI1", "SK", "PK")
}

func TestRunCleanup(t *testing.T) { exampletest.CleanupDeletesTable(t, example) }

// TestVerify: the items the run leaves all fit the model it declares
// (go run ./examples/invoices -verify).
func TestVerify(t *testing.T) { exampletest.VerifyClean(t, example) }

func TestDescribe(t *testing.T) {
	exampletest.ContainsAll(t, exampletest.Describe(t, example),
		"### Table `adjlist-invoices`",
		"| item | PK | SK | attributes |",
		"| `INVOICE#<id>` | `INVOICE#<id>` | customer, invoiceDate, status |",
		"| `BILL#<id>` | `BILL#<id>` | billDate, amount, currency |",
		"| `INVOICE#<from>` | `BILL#<to>` | amount, dueDate |",
		"Index `GSI1` is keyed on SK (partition) and PK (sort).",
		"`PK = \"INVOICE#<from>\"`",
		"`SK = \"BILL#<to>\" AND begins_with(PK, \"INVOICE#\")`",
	)
}
