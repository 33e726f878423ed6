// Command enrollment is the students↔courses many-to-many example: it writes
// the seed's items to DynamoDB, reads the relationship in both directions,
// and prints the table as the seed draws it.
//
//	PK           SK                   GSI1PK        GSI1SK    attributes
//	STU#a91      PROFILE                                      name, year, major
//	STU#a91      ENROLL#CRS#math204   CRS#math204   STU#a91   enrolledOn, grade
//	...
//
// By default it talks to DynamoDB Local: the endpoint in
// AWS_ENDPOINT_URL_DYNAMODB if set, else a private in-memory server it starts
// (installed by `make deps`). Only -aws makes it use your AWS configuration.
//
//	go run ./examples/enrollment [-table NAME] [-cleanup] [-aws]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/internal/ddblocal"
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

// API is what the example needs from DynamoDB: the library's operations,
// table creation, and a Scan to print the table raw.
type API interface {
	adjlist.Client
	adjlist.TableAdminClient
	dynamodb.ScanAPIClient
	DeleteTable(ctx context.Context, in *dynamodb.DeleteTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteTableOutput, error)
}

func main() {
	table := flag.String("table", "adjlist-enrollment", "DynamoDB table `name`; created if missing")
	cleanup := flag.Bool("cleanup", false, "delete the table at the end")
	useAWS := flag.Bool("aws", false, "use your AWS configuration (real DynamoDB, billed) instead of DynamoDB Local")
	flag.Parse()
	log.SetFlags(0)

	ctx := context.Background()
	client, stop, err := connect(ctx, *useAWS)
	if err != nil {
		log.Fatal(err)
	}
	err = run(ctx, client, *table, *cleanup, os.Stdout)
	if stopErr := stop(); err == nil {
		err = stopErr
	}
	if err != nil {
		log.Fatal(err)
	}
}

// connect returns a client for real DynamoDB only when asked; otherwise for
// DynamoDB Local.
func connect(ctx context.Context, useAWS bool) (API, func() error, error) {
	if useAWS {
		cfg, err := config.LoadDefaultConfig(ctx)
		if err != nil {
			return nil, nil, err
		}
		return dynamodb.NewFromConfig(cfg), func() error { return nil }, nil
	}
	client, stop, err := ddblocal.Connect(ctx)
	if errors.Is(err, ddblocal.ErrNotInstalled) {
		err = fmt.Errorf("%w\nTo fix: %s", err, ddblocal.InstallHint)
	}
	return client, stop, err
}

// run writes seed 000's students↔courses items to table and shows each
// access pattern. It can run again on the same table: existing edges are
// reported, not duplicated.
func run(ctx context.Context, db API, tableName string, cleanup bool, w io.Writer) error {
	table := adjlist.NewTable(db, tableName)
	if err := adjlist.CreateTable(ctx, db, table, func(o *adjlist.CreateTableOptions) { o.IfNotExists = true }); err != nil {
		return err
	}
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)

	// Nodes: one item each at the head of its partition.
	for id, s := range map[string]Student{
		"a91": {Name: "Ada Lovelace", Year: 2, Major: "Mathematics"},
		"b30": {Name: "Blaise Pascal", Year: 1, Major: "Physics"},
	} {
		if err := students.Put(ctx, id, s); err != nil {
			return err
		}
	}
	for id, c := range map[string]Course{
		"math204": {Title: "Linear Algebra", Credits: 4, Term: "2026-fall"},
		"cs101":   {Title: "Introduction to Programming", Credits: 3, Term: "2026-fall"},
	} {
		if err := courses.Put(ctx, id, c); err != nil {
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
		if errors.Is(err, adjlist.ErrEdgeExists) {
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

	// The guard: a second enrolment in the same course is refused.
	err = enrolled.Put(ctx, "a91", "math204", Enrollment{EnrolledOn: "2026-10-01", Grade: "F"})
	if !errors.Is(err, adjlist.ErrEdgeExists) {
		return fmt.Errorf("duplicate enrolment was not refused: %v", err)
	}
	fmt.Fprintf(w, "\nduplicate enrolment refused: %v\n", err)

	// Edge data lives on the edge: update the grade in place.
	updated, err := enrolled.Update(ctx, "a91", "math204", expression.Set(expression.Name("grade"), expression.Value("A-")))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "grade of a91 in math204 is now %s\n", updated.Data.Grade)

	// Drop a course: b30 enrols in cs101, then drops it.
	if err := enrolled.Put(ctx, "b30", "cs101", Enrollment{EnrolledOn: "2026-09-04", Grade: "B"}); err != nil && !errors.Is(err, adjlist.ErrEdgeExists) {
		return err
	}
	if err := enrolled.Delete(ctx, "b30", "cs101"); err != nil {
		return err
	}
	fmt.Fprintln(w, "b30 enrolled in cs101 and dropped it")

	fmt.Fprintf(w, "\ntable %s:\n", tableName)
	if err := printTable(ctx, db, tableName, w); err != nil {
		return err
	}
	if cleanup {
		_, err := db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(tableName)})
		return err
	}
	return nil
}

// printTable scans the table and prints it as the seed draws it: the four
// key attributes, then the item's own attributes.
func printTable(ctx context.Context, db dynamodb.ScanAPIClient, tableName string, w io.Writer) error {
	keys := []string{"PK", "SK", "GSI1PK", "GSI1SK"}
	var rows [][]string
	pages := dynamodb.NewScanPaginator(db, &dynamodb.ScanInput{TableName: aws.String(tableName)})
	for pages.HasMorePages() {
		out, err := pages.NextPage(ctx)
		if err != nil {
			return err
		}
		for _, item := range out.Items {
			var m map[string]any
			if err := attributevalue.UnmarshalMap(item, &m); err != nil {
				return err
			}
			row := make([]string, 0, len(keys)+1)
			for _, k := range keys {
				s, _ := m[k].(string)
				row = append(row, s)
				delete(m, k)
			}
			attrs := make([]string, 0, len(m))
			for k, v := range m {
				attrs = append(attrs, fmt.Sprintf("%s=%v", k, v))
			}
			sort.Strings(attrs)
			rows = append(rows, append(row, strings.Join(attrs, ", ")))
		}
	}
	// In the seed's order: students before courses, each node's item
	// before its edges.
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		ta, _, _ := strings.Cut(a[0], "#")
		tb, _, _ := strings.Cut(b[0], "#")
		switch {
		case ta != tb:
			return ta > tb
		case a[0] != b[0]:
			return a[0] < b[0]
		case (a[2] == "") != (b[2] == ""):
			return a[2] == ""
		}
		return a[1] > b[1]
	})
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.Debug)
	fmt.Fprintln(tw, strings.Join(append(keys, "attributes"), "\t"))
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}
