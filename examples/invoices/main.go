// Command invoices is the adjacency list of the AWS developer guide:
// invoices contain many bills, and one bill can be part of several
// invoices. Every entity is a partition whose own item has sort key = partition
// key; each bill an invoice contains is one more item in the invoice's
// partition, with the bill's id as its sort key and the rolled-up amount.
//
//	PK              SK              attributes
//	INVOICE#92551   INVOICE#92551   customer, invoiceDate, status
//	INVOICE#92551   BILL#4224663    amount, dueDate
//	INVOICE#92551   BILL#4224664    amount, dueDate
//	INVOICE#92552   INVOICE#92552   customer, invoiceDate, status
//	INVOICE#92552   BILL#4224664    amount, dueDate
//	INVOICE#92552   BILL#4224665    amount, dueDate
//	BILL#4224663    BILL#4224663    billDate, amount, currency
//	...
//
// All bills of an invoice are one Query on the table (PK = "INVOICE#92551").
// All invoices that contain a bill are one Query on a global secondary index
// keyed on the table's sort key: GSI1 has SK as its partition key and PK as
// its sort key, so it needs no extra attributes and holds every item.
//
// By default it talks to DynamoDB Local: the endpoint in
// AWS_ENDPOINT_URL_DYNAMODB if set, else a private in-memory server it starts
// (installed by `make deps`). Only -aws makes it use your AWS configuration.
//
//	go run ./examples/invoices [-table NAME] [-cleanup] [-aws] [-describe] [-verify] [-workbench FILE] [-cloudformation FILE]
//
// -describe prints the model (adjlist.Describe) and its Mermaid diagram
// without touching DynamoDB; -workbench and -cloudformation write it as a
// NoSQL Workbench data model and a CloudFormation template.
//
// -verify, after the run, checks every item of the table against the model
// (adjlist.Verify), prints the items scanned and each finding, and exits
// with status 1 if there is any; with -cleanup, the table is deleted after
// the check. -cleanup, -aws and -verify beside -describe are usage errors
// (status 2; `go run` then exits 1).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
)

// Invoice is an invoice's own item: PK = SK = INVOICE#<id>.
type Invoice struct {
	Customer    string `dynamodbav:"customer"`
	InvoiceDate string `dynamodbav:"invoiceDate"`
	Status      string `dynamodbav:"status"`
}

// Bill is a bill's own item: PK = SK = BILL#<id>.
type Bill struct {
	BillDate string  `dynamodbav:"billDate"`
	Amount   float64 `dynamodbav:"amount"`
	Currency string  `dynamodbav:"currency"`
}

// InvoiceBill is the edge's data, what a bill rolls up into an invoice:
// PK = INVOICE#<invoice>, SK = BILL#<bill>.
type InvoiceBill struct {
	Amount  float64 `dynamodbav:"amount"`
	DueDate string  `dynamodbav:"dueDate"`
}

var example = exampleutil.Example{Name: "invoices", Model: described, Run: run}

func main() { exampleutil.Main(example) }

// model is the single-table design. Declaring it makes no request.
type model struct {
	table    *adjlist.Table
	invoices *adjlist.Node[Invoice]
	bills    *adjlist.Node[Bill]
	contains *adjlist.Edge[InvoiceBill]
}

func newModel(db adjlist.Client, tableName string) model {
	// The index on the sort key: GSI1 partition = SK, sort = PK.
	table := adjlist.NewTable(db, tableName, func(o *adjlist.Options) {
		o.Index = "GSI1"
		o.IndexPartitionKey = "SK"
		o.IndexSortKey = "PK"
	})
	// Self-keyed nodes (empty marker): PK = SK = "INVOICE#92551".
	invoices := adjlist.NewNode[Invoice](table, "INVOICE", "")
	bills := adjlist.NewNode[Bill](table, "BILL", "")
	// Unlabelled edge: its SK is the bill's key, "BILL#4224663".
	contains := adjlist.NewEdge[InvoiceBill](invoices, "", bills)
	return model{table, invoices, bills, contains}
}

// described is the model -describe and the exports render (see
// exampleutil.Example.Model).
func described(db adjlist.Client, tableName string) (*adjlist.Table, []adjlist.Describer) {
	m := newModel(db, tableName)
	return m.table, []adjlist.Describer{m.invoices, m.bills, m.contains}
}

// run writes the guide's invoices and bills to table and shows both access
// patterns. It can run again on the same table: nodes are written with
// Replace, and an edge already there (Put is a guarded create) is reported
// and left as it is.
func run(ctx context.Context, db exampleutil.API, tableName string, cleanup bool, w io.Writer) error {
	m := newModel(db, tableName)
	invoices, bills, contains := m.invoices, m.bills, m.contains
	if err := adjlist.CreateTable(ctx, db, m.table, func(o *adjlist.CreateTableOptions) { o.IfNotExists = true }); err != nil {
		return err
	}

	// Nodes: each invoice's and each bill's own item, at the head of its
	// partition.
	for id, inv := range map[string]Invoice{
		"92551": {Customer: "Contoso", InvoiceDate: "2026-02-01", Status: "SENT"},
		"92552": {Customer: "Contoso", InvoiceDate: "2026-03-01", Status: "DRAFT"},
	} {
		if err := invoices.Replace(ctx, id, inv); err != nil {
			return err
		}
	}
	for id, b := range map[string]Bill{
		"4224663": {BillDate: "2026-01-03", Amount: 120, Currency: "EUR"},
		"4224664": {BillDate: "2026-01-10", Amount: 300, Currency: "EUR"},
		"4224665": {BillDate: "2026-01-21", Amount: 75.5, Currency: "EUR"},
	} {
		if err := bills.Replace(ctx, id, b); err != nil {
			return err
		}
	}

	// Edges: each bill an invoice contains, with the amount it rolls up.
	// Bill 4224664 is split over both invoices.
	for _, e := range []struct {
		invoice, bill string
		data          InvoiceBill
	}{
		{"92551", "4224663", InvoiceBill{Amount: 120, DueDate: "2026-03-03"}},
		{"92551", "4224664", InvoiceBill{Amount: 200, DueDate: "2026-03-03"}},
		{"92552", "4224664", InvoiceBill{Amount: 100, DueDate: "2026-04-01"}},
		{"92552", "4224665", InvoiceBill{Amount: 75.5, DueDate: "2026-04-01"}},
	} {
		err := contains.Put(ctx, e.invoice, e.bill, e.data)
		if errors.Is(err, adjlist.ErrExists) {
			fmt.Fprintf(w, "invoice %s already contains bill %s (left as is)\n", e.invoice, e.bill)
		} else if err != nil {
			return err
		}
	}

	// Access pattern 1, all bills of an invoice: the invoice's item and
	// every bill it contains in one Query on the table,
	// PK = "INVOICE#92551".
	inv, err := adjlist.LoadNode(ctx, invoices, contains, "92551")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\ninvoice %s (%s, %s, %s) contains:\n", inv.ID, inv.Node.Customer, inv.Node.InvoiceDate, inv.Node.Status)
	for _, e := range inv.Edges {
		fmt.Fprintf(w, "  bill %s  %7.2f due %s\n", e.To, e.Data.Amount, e.Data.DueDate)
	}

	// Access pattern 2, all invoices that contain a bill: one Query on the
	// index keyed on the sort key, SK = "BILL#4224664" AND
	// begins_with(PK, "INVOICE#"). Index reads are eventually consistent on
	// real DynamoDB.
	bill, err := bills.Get(ctx, "4224664")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nbill 4224664 (%s, %.2f %s) is in (GSI1):\n", bill.BillDate, bill.Amount, bill.Currency)
	for e, err := range contains.To("4224664").All(ctx) {
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  invoice %s  %7.2f\n", e.From, e.Data.Amount)
	}

	// The table as DynamoDB holds it: invoices' partitions, then bills',
	// each entity's own item first.
	fmt.Fprintf(w, "\ntable %s (index GSI1 is keyed on SK (partition) and PK (sort)):\n", tableName)
	order := exampleutil.SeedOrder{Types: []string{"INVOICE", "BILL"}}
	if err := exampleutil.PrintTable(ctx, db, tableName, w, []string{"PK", "SK"}, order.Compare); err != nil {
		return err
	}
	if cleanup {
		return exampleutil.DeleteTable(ctx, db, tableName)
	}
	return nil
}
