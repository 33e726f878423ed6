// Command enrollment is the students↔courses many-to-many example: it writes
// the design's items to DynamoDB, reads the relationship in both directions,
// reads a course's roster in enrolment order, and prints the table as the
// design draws it.
//
//	PK           SK                   GSI1PK        GSI1SK    attributes
//	STU#a91      PROFILE                                      name, year, major
//	STU#a91      ENROLL#CRS#math204   CRS#math204   STU#a91   enrolledOn, grade
//	...
//
// Besides the design's inverted index GSI1, the table has ByEnrolment, a
// global secondary index keyed natively on attributes every enrolment
// already carries: GSI1PK, the course (partition), and enrolledOn, the date
// (sort). It serves "a course's roster in enrolment order" with no new
// attribute on any item.
//
// By default it talks to DynamoDB Local: the endpoint in
// AWS_ENDPOINT_URL_DYNAMODB if set, else a private in-memory server it starts
// (installed by `make deps`). Only -aws makes it use your AWS configuration.
//
//	go run ./examples/enrollment [-table NAME] [-cleanup] [-aws] [-describe] [-verify] [-workbench FILE] [-cloudformation FILE] [-trace]
//
// -describe prints the model (adjlist.Describe) and its Mermaid diagram
// without touching DynamoDB; -workbench and -cloudformation write it as a
// NoSQL Workbench data model and a CloudFormation template. -trace gives
// the table an OpenTelemetry TracerProvider (adjlist.Options) that prints
// each call's span as it ends: its name ("Edge.Put"), the table and index,
// the requests made, the items returned and the capacity consumed.
//
// -verify, after the run, checks every item of the table against the model
// (adjlist.Verify), prints the items scanned and each finding, and exits
// with status 1 if there is any; with -cleanup, the table is deleted after
// the check. -cleanup, -aws, -verify and -trace beside -describe are usage
// errors (status 2; `go run` then exits 1).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"go.opentelemetry.io/otel/trace"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
)

// Student is a node item's data: PK=STU#<id>, SK=PROFILE.
type Student struct {
	Name  string `dynamodbav:"name"`
	Year  int    `dynamodbav:"year"`
	Major string `dynamodbav:"major"`
}

// Course is a node item's data: PK=CRS#<id>, SK=METADATA.
type Course struct {
	Title   string `dynamodbav:"title"`
	Credits int    `dynamodbav:"credits"`
	Term    string `dynamodbav:"term"`
}

// Enrollment is an edge's data: PK=STU#<student>, SK=ENROLL#CRS#<course>.
type Enrollment struct {
	EnrolledOn string `dynamodbav:"enrolledOn"`
	Grade      string `dynamodbav:"grade"`
}

var example = exampleutil.Example{Name: "enrollment", Model: described, Run: run, Traced: true}

func main() { exampleutil.Main(example) }

// model is the single-table design: the table, its two node types and the
// edge between them. Declaring it makes no request.
type model struct {
	table    *adjlist.Table
	students *adjlist.Node[Student]
	courses  *adjlist.Node[Course]
	enrolled *adjlist.Edge[Enrollment]
}

// rosterIndex orders each course's enrolments by date.
const rosterIndex = "ByEnrolment"

// newModel declares the model on tableName; tp, if not nil, traces every
// call on the table.
func newModel(db adjlist.Client, tableName string, tp trace.TracerProvider) model {
	table := adjlist.NewTable(db, tableName, func(o *adjlist.Options) {
		o.TracerProvider = tp // nil: no spans, at no cost
		o.Indexes = []adjlist.Index{{
			Name:                rosterIndex,
			PartitionAttributes: []adjlist.KeyAttribute{{Name: "GSI1PK"}},     // CRS#math204
			SortAttributes:      []adjlist.KeyAttribute{{Name: "enrolledOn"}}, // 2026-09-01
		}}
	})
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	return model{table, students, courses, enrolled}
}

// described is the model -describe and the exports render (see
// exampleutil.Example.Model).
func described(db adjlist.Client, tableName string) (*adjlist.Table, []adjlist.Describer) {
	m := newModel(db, tableName, nil)
	return m.table, []adjlist.Describer{m.students, m.courses, m.enrolled,
		adjlist.AccessPattern("a course's roster in enrolment order", m.enrolled.ByIndex(rosterIndex, "CRS#<to>"))}
}

// run writes the students↔courses items to table and shows each
// access pattern. It can run again on the same table: nodes are written
// with Replace, and an edge already there (Put is a guarded create) is
// reported and left as it is.
func run(ctx context.Context, db exampleutil.API, tableName string, cleanup bool, w io.Writer) error {
	m := newModel(db, tableName, exampleutil.TracerProvider(ctx))
	students, courses, enrolled := m.students, m.courses, m.enrolled
	if err := adjlist.CreateTable(ctx, db, m.table, func(o *adjlist.CreateTableOptions) { o.IfNotExists = true }); err != nil {
		return err
	}

	// Nodes: one item each at the head of its partition.
	for id, s := range map[string]Student{
		"a91": {Name: "Ada Lovelace", Year: 2, Major: "Mathematics"},
		"b30": {Name: "Blaise Pascal", Year: 1, Major: "Physics"},
	} {
		if err := students.Replace(ctx, id, s); err != nil {
			return err
		}
	}
	for id, c := range map[string]Course{
		"math204": {Title: "Linear Algebra", Credits: 4, Term: "2026-fall"},
		"cs101":   {Title: "Introduction to Programming", Credits: 3, Term: "2026-fall"},
	} {
		if err := courses.Replace(ctx, id, c); err != nil {
			return err
		}
	}

	// Edges: each enrolment written once, guarded against duplicates.
	for _, e := range []struct{ student, course, on string }{
		{"a91", "math204", "2026-09-01"},
		{"b30", "math204", "2026-09-02"},
		{"a91", "cs101", "2026-09-03"},
	} {
		err := enrolled.Put(ctx, e.student, e.course, Enrollment{EnrolledOn: e.on, Grade: "B"})
		if errors.Is(err, adjlist.ErrExists) {
			fmt.Fprintf(w, "%s is already enrolled in %s (left as is)\n", e.student, e.course)
		} else if err != nil {
			return err
		}
	}

	// Forward: the student's profile and every enrolment in one Query on
	// PK = "STU#a91".
	a91, err := adjlist.LoadNode(ctx, students, enrolled, "a91")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s (%s) is enrolled in:\n", a91.Node.Name, a91.ID)
	for _, e := range a91.Edges {
		fmt.Fprintf(w, "  %-8s since %s, grade %s\n", e.To, e.Data.EnrolledOn, e.Data.Grade)
	}

	// Reverse: the roster from the inverted index, GSI1PK = "CRS#math204".
	// Index reads are eventually consistent on real DynamoDB.
	fmt.Fprintln(w, "\nmath204 roster (GSI1):")
	for e, err := range enrolled.To("math204").All(ctx) {
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %s\n", e.From)
	}

	// The roster in enrolment order, from ByEnrolment: one Query,
	// GSI1PK = "CRS#math204", sorted by enrolledOn; then only those who
	// enrolled from 2 September on (enrolledOn >= "2026-09-02").
	course, _, err := courses.Key("math204") // "CRS#math204"
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nmath204 roster in enrolment order (%s):\n", rosterIndex)
	for e, err := range enrolled.ByIndex(rosterIndex, course).All(ctx) {
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %s  %s\n", e.Data.EnrolledOn, e.From)
	}
	late, err := enrolled.ByIndex(rosterIndex, course).GreaterThanEqual("2026-09-02").Collect(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "enrolled in math204 from 2026-09-02 on: %d\n", len(late))

	// The guard: a second enrolment in the same course is refused.
	err = enrolled.Put(ctx, "a91", "math204", Enrollment{EnrolledOn: "2026-10-01", Grade: "F"})
	if !errors.Is(err, adjlist.ErrExists) {
		return fmt.Errorf("duplicate enrolment was not refused: %v", err)
	}
	fmt.Fprintf(w, "\nduplicate enrolment refused: %v\n", err)

	// Edge data lives on the edge: update the grade in place.
	updated, err := enrolled.Update(ctx, "a91", "math204", adjlist.Set("grade", "A-"))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "grade of a91 in math204 is now %s\n", updated.Grade)

	// Drop a course: b30 enrols in cs101, then drops it.
	if err := enrolled.Put(ctx, "b30", "cs101", Enrollment{EnrolledOn: "2026-09-04", Grade: "B"}); err != nil && !errors.Is(err, adjlist.ErrExists) {
		return err
	}
	if err := enrolled.Delete(ctx, "b30", "cs101"); err != nil {
		return err
	}
	fmt.Fprintln(w, "b30 enrolled in cs101 and dropped it")

	// The table as DynamoDB holds it, in the design's order: students before
	// courses, each node's item before its edges.
	fmt.Fprintf(w, "\ntable %s:\n", tableName)
	order := exampleutil.SeedOrder{Types: []string{"STU", "CRS"}, Heads: []string{"PROFILE", "METADATA"}, Desc: true}
	if err := exampleutil.PrintTable(ctx, db, tableName, w, []string{"PK", "SK", "GSI1PK", "GSI1SK"}, order.Compare); err != nil {
		return err
	}
	if cleanup {
		return exampleutil.DeleteTable(ctx, db, tableName)
	}
	return nil
}
