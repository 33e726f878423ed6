// Command orders is the users/orders design's two relationships in one table. One-to-many:
// a user and their orders form an item collection (same PK, the SK tells
// them apart), read with one Query. Many-to-many: a student's enrolment in
// a course is one link item, read from the student's side on the table and
// from the course's side on a global secondary index that inverts its keys
// (GSI1, keyed GSI_PK/GSI_SK).
//
//	PK              SK                 GSI_PK        GSI_SK          attributes
//	USER#123        METADATA                                         Name, Email
//	USER#123        ORDER#2023-01-01                                 Total, Status
//	USER#123        ORDER#2023-01-05                                 Total, Status
//	STUDENT#Alice   COURSE#Math        COURSE#Math   STUDENT#Alice   Grade
//
// By default it talks to DynamoDB Local: the endpoint in
// AWS_ENDPOINT_URL_DYNAMODB if set, else a private in-memory server it starts
// (installed by `make deps`). Only -aws makes it use your AWS configuration.
//
//	go run ./examples/orders [-table NAME] [-cleanup] [-aws] [-describe] [-verify] [-workbench FILE] [-cloudformation FILE]
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

// User is the parent item's data: PK=USER#<id>, SK=METADATA.
type User struct {
	Name  string `dynamodbav:"Name"`
	Email string `dynamodbav:"Email"`
}

// Order is a child item's data: PK=USER#<user>, SK=ORDER#<date>.
type Order struct {
	Total  float64 `dynamodbav:"Total"`
	Status string  `dynamodbav:"Status"`
}

// Student and Course are the two ends of the many-to-many link. The design
// stores no item for either, only the link, so they carry no data here.
type (
	Student struct{}
	Course  struct{}
)

// Enrollment is the link item's data, as in the design's Go struct:
// PK=STUDENT#<student>, SK=COURSE#<course>, GSI_PK=COURSE#<course>,
// GSI_SK=STUDENT#<student>, Grade. The library writes the four keys.
type Enrollment struct {
	Grade string `dynamodbav:"Grade"`
}

var example = exampleutil.Example{Name: "orders", Model: described, Run: run}

func main() { exampleutil.Main(example) }

// model is the single-table design. Declaring it makes no request.
type model struct {
	table    *adjlist.Table
	users    *adjlist.Node[User]
	orders   *adjlist.Collection[Order, User]
	students *adjlist.Node[Student]
	courses  *adjlist.Node[Course]
	enrolled *adjlist.Edge[Enrollment]
}

func newModel(db adjlist.Client, tableName string) model {
	table := adjlist.NewTable(db, tableName, func(o *adjlist.Options) {
		o.Index = "GSI1"
		o.IndexPartitionKey = "GSI_PK"
		o.IndexSortKey = "GSI_SK"
	})
	// 1:N: the user's item at SK = "METADATA", orders at SK = "ORDER#<date>".
	users := adjlist.NewNode[User](table, "USER", "METADATA")
	orders := adjlist.NewCollection[Order](users, "ORDER")
	// M:N: an unlabelled edge, so the link's SK is the course's key alone
	// ("COURSE#Math"). No student or course items are written.
	students := adjlist.NewNode[Student](table, "STUDENT", "METADATA")
	courses := adjlist.NewNode[Course](table, "COURSE", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "", courses)
	return model{table, users, orders, students, courses, enrolled}
}

// described is the model -describe and the exports render (see
// exampleutil.Example.Model).
func described(db adjlist.Client, tableName string) (*adjlist.Table, []adjlist.Describer) {
	m := newModel(db, tableName)
	return m.table, []adjlist.Describer{m.users, m.orders, m.enrolled,
		adjlist.AccessPattern("a user's orders in a date range, newest first", ordersInRange(m.orders, "<id>", "<from>", "<to>"))}
}

// ordersInRange is a user's orders dated from through to (whole days:
// to + U+10FFFF makes "2023-01-31" include "2023-01-31T10:00"), newest first:
// PK = "USER#123" AND SK BETWEEN "ORDER#2023-01-02" AND
// "ORDER#2023-01-31\U0010FFFF", ScanIndexForward = false.
func ordersInRange(orders *adjlist.Collection[Order, User], user, from, to string) adjlist.Query[adjlist.Child[Order]] {
	return orders.List(user).Between(from, to+"\U0010FFFF").Desc()
}

// run writes the design's items to table and shows each access pattern. It
// can run again on the same table: the user is written with Replace, and
// orders and enrolments already there (Put is a guarded create) are
// reported and left as they are.
func run(ctx context.Context, db exampleutil.API, tableName string, cleanup bool, w io.Writer) error {
	m := newModel(db, tableName)
	users, orders, enrolled := m.users, m.orders, m.enrolled
	if err := adjlist.CreateTable(ctx, db, m.table, func(o *adjlist.CreateTableOptions) { o.IfNotExists = true }); err != nil {
		return err
	}

	// 1:N. The parent, then its children in the same partition; dates as
	// ids sort the orders by date.
	if err := users.Replace(ctx, "123", User{Name: "Jane Doe", Email: "jane@example.com"}); err != nil {
		return err
	}
	for date, o := range map[string]Order{
		"2023-01-01": {Total: 42.5, Status: "DELIVERED"},
		"2023-01-05": {Total: 19.99, Status: "SHIPPED"},
	} {
		err := orders.Put(ctx, "123", date, o)
		if errors.Is(err, adjlist.ErrExists) {
			fmt.Fprintf(w, "order %s of user 123 already exists (left as is)\n", date)
		} else if err != nil {
			return err
		}
	}

	// M:N. One link item, written once, guarded against duplicates.
	err := enrolled.Put(ctx, "Alice", "Math", Enrollment{Grade: "A"})
	if errors.Is(err, adjlist.ErrExists) {
		fmt.Fprintln(w, "Alice is already enrolled in Math (left as is)")
	} else if err != nil {
		return err
	}

	// The user and all their orders, sorted by date, in one Query:
	// PK = "USER#123".
	u, err := orders.Load(ctx, "123")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nuser %s (%s, %s) and their orders, one Query:\n", u.ID, u.Parent.Name, u.Parent.Email)
	for _, o := range u.Children {
		fmt.Fprintf(w, "  %s  %8.2f  %s\n", o.ID, o.Data.Total, o.Data.Status)
	}

	// A date range, newest first: one Query whose sort key condition stays
	// inside the ORDER# items (the METADATA item is never read).
	fmt.Fprintln(w, "\norders of user 123 from 2023-01-02 to 2023-01-31, newest first:")
	for o, err := range ordersInRange(orders, "123", "2023-01-02", "2023-01-31").All(ctx) {
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %s  %8.2f  %s\n", o.ID, o.Data.Total, o.Data.Status)
	}

	// Access pattern 1: "What courses is Alice taking?" Query the base
	// table: PK = "STUDENT#Alice" AND begins_with(SK, "COURSE#").
	fmt.Fprintln(w, "\nWhat courses is Alice taking? (table)")
	for e, err := range enrolled.From("Alice").All(ctx) {
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %s, grade %s\n", e.To, e.Data.Grade)
	}

	// Access pattern 2: "Who is taking Math?" Query the index:
	// GSI_PK = "COURSE#Math" AND begins_with(GSI_SK, "STUDENT#").
	// Index reads are eventually consistent on real DynamoDB.
	fmt.Fprintln(w, "\nWho is taking Math? (GSI1)")
	for e, err := range enrolled.To("Math").All(ctx) {
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %s, grade %s\n", e.From, e.Data.Grade)
	}

	// The table as DynamoDB holds it: the user's collection (METADATA
	// first), then the link item with its inverted index keys.
	fmt.Fprintf(w, "\ntable %s:\n", tableName)
	order := exampleutil.SeedOrder{Types: []string{"USER", "STUDENT"}, Heads: []string{"METADATA"}}
	if err := exampleutil.PrintTable(ctx, db, tableName, w, []string{"PK", "SK", "GSI_PK", "GSI_SK"}, order.Compare); err != nil {
		return err
	}
	if cleanup {
		return exampleutil.DeleteTable(ctx, db, tableName)
	}
	return nil
}
