package adjlist_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/adjlist/adjlist"
)

func ExampleNode_Key() {
	table := adjlist.NewTable(nil, "school") // no client: keys need no DynamoDB
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	pk, sk, _ := students.Key("a91")
	fmt.Println(pk, sk)
	// A hostile id cannot forge a separator.
	pk, _, _ = students.Key("a91#ENROLL#CRS#x")
	fmt.Println(pk)
	_, _, err := students.Key("")
	fmt.Println(errors.Is(err, adjlist.ErrInvalidKey))
	// Output:
	// STU#a91 PROFILE
	// STU#a91%23ENROLL%23CRS%23x
	// true
}

func ExampleEdge_Key() {
	table := adjlist.NewTable(nil, "school")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	pk, sk, _ := enrolled.Key("a91", "math204")
	fmt.Println(pk, sk)
	// Output:
	// STU#a91 ENROLL#CRS#math204
}

// The students↔courses model of the seed: write an edge once, read it from
// both sides. (This example talks to DynamoDB, so it is compiled, not run;
// examples/enrollment is the runnable version.)
func Example() {
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx) // honours AWS_ENDPOINT_URL_DYNAMODB
	if err != nil {
		log.Fatal(err)
	}
	table := adjlist.NewTable(dynamodb.NewFromConfig(cfg), "school")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)

	// PK=STU#a91 SK=ENROLL#CRS#math204 GSI1PK=CRS#math204 GSI1SK=STU#a91
	err = enrolled.Put(ctx, "a91", "math204", Enrollment{EnrolledOn: "2026-09-01", Grade: "B"})
	if errors.Is(err, adjlist.ErrExists) {
		fmt.Println("already enrolled")
	} else if err != nil {
		log.Fatal(err)
	}

	// Forward: PK = "STU#a91" AND begins_with(SK, "ENROLL#CRS#")
	for e, err := range enrolled.From("a91").All(ctx) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("a91 takes", e.To)
	}

	// Reverse, on GSI1: GSI1PK = "CRS#math204" (eventually consistent)
	page, err := enrolled.To("math204").Limit(25).Page(ctx, "")
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range page.Items {
		fmt.Println("math204 has", e.From)
	}
	// page.Cursor, if not empty, resumes after this page.

	_, err = enrolled.Update(ctx, "a91", "math204", adjlist.Set("grade", "A"))
	if err != nil {
		log.Fatal(err)
	}
}

func ExampleQuery_Page() {
	var enrolled *adjlist.Edge[Enrollment] // from NewEdge
	// In an HTTP handler: the cursor comes from the client and goes back to it.
	handler := func(ctx context.Context, course, cursor string) ([]string, string, error) {
		page, err := enrolled.To(course).Limit(50).Page(ctx, cursor)
		if errors.Is(err, adjlist.ErrInvalidCursor) {
			return nil, "", fmt.Errorf("bad request: %w", err)
		}
		if err != nil {
			return nil, "", err
		}
		ids := make([]string, len(page.Items))
		for i, e := range page.Items {
			ids[i] = e.From
		}
		return ids, page.Cursor, nil
	}
	_ = handler
}

func ExampleDescribe() {
	table := adjlist.NewTable(nil, "school")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	if err := adjlist.Describe(os.Stdout, table, students, enrolled, courses); err != nil {
		log.Fatal(err)
	}
	// Output:
	// ### Table `school`
	//
	// | item | PK | SK | GSI1PK | GSI1SK | attributes |
	// | --- | --- | --- | --- | --- | --- |
	// | node STU | `STU#<id>` | `PROFILE` |  |  | name, year, major |
	// | edge ENROLL (STU → CRS) | `STU#<from>` | `ENROLL#CRS#<to>` | `CRS#<to>` | `STU#<from>` | enrolledOn, grade |
	// | node CRS | `CRS#<id>` | `METADATA` |  |  | title, credits, term |
	//
	// ### Access patterns
	//
	// | access pattern | call | request | key condition | on |
	// | --- | --- | --- | --- | --- |
	// | get one STU | `Node.Get` | GetItem | `PK = "STU#<id>" AND SK = "PROFILE"` | table |
	// | STU's ENROLL edges to CRS (forward) | `Edge.From` | Query | `PK = "STU#<from>" AND begins_with(SK, "ENROLL#CRS#")` | table |
	// | CRS's ENROLL edges from STU (reverse) | `Edge.To` | Query | `GSI1PK = "CRS#<to>" AND begins_with(GSI1SK, "STU#"); filter begins_with(SK, "ENROLL#CRS#")` | GSI1 (eventually consistent) |
	// | one edge | `Edge.Get` | GetItem | `PK = "STU#<from>" AND SK = "ENROLL#CRS#<to>"` | table |
	// | STU item with its ENROLL edges to CRS | `LoadNode` | Query | `PK = "STU#<from>"` | table |
	// | get one CRS | `Node.Get` | GetItem | `PK = "CRS#<id>" AND SK = "METADATA"` | table |
}

// A condition of the caller's, ANDed after the library's guard: publish a
// post only while it is a draft. (Compiled, not run: it talks to DynamoDB;
// examples/blog is the runnable version.)
func ExampleIf() {
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		log.Fatal(err)
	}
	table := adjlist.NewTable(dynamodb.NewFromConfig(cfg), "blog")
	authors := adjlist.NewNode[Author](table, "AUTHOR", "PROFILE")
	posts := adjlist.NewCollection[Post](authors, "POST")

	draft := expression.Name("status").Equal(expression.Value("DRAFT"))
	// UpdateItem, ConditionExpression "(attribute_exists (#0)) AND (#1 = :0)"
	_, err = posts.Update(ctx, "ada", "2026-0001", adjlist.Set("status", "PUBLISHED"), adjlist.If(draft))
	switch {
	case errors.Is(err, adjlist.ErrNotFound):
		fmt.Println("no such post") // the guard
	case errors.Is(err, adjlist.ErrConditionFailed):
		fmt.Println("not a draft") // the caller's condition
	case err != nil:
		log.Fatal(err)
	}
}

// Optimistic locking: read, change, write at the version read, and retry
// when another writer was first. (Compiled, not run.)
func ExampleIfVersion() {
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		log.Fatal(err)
	}
	table := adjlist.NewTable(dynamodb.NewFromConfig(cfg), "blog")
	authors := adjlist.NewNode[Author](table, "AUTHOR", "PROFILE", func(o *adjlist.NodeOptions) {
		o.Version = "version" // Author.Version is tagged `dynamodbav:"version"`
	})
	for {
		a, err := authors.Get(ctx, "ada")
		if err != nil {
			log.Fatal(err)
		}
		_, err = authors.Update(ctx, "ada", adjlist.Set("posts", a.Posts+1), adjlist.IfVersion(a.Version))
		if errors.Is(err, adjlist.ErrVersionConflict) {
			continue // read again
		}
		if err != nil {
			log.Fatal(err)
		}
		break
	}
}

// Writes join a transaction with InTx: each keeps its guard and options,
// none is sent, and Commit sends them all in one TransactWriteItems. An
// invalid action is returned at once, and by Commit, which then sends
// nothing.
func ExampleInTx() {
	ctx := context.Background()
	table := adjlist.NewTable(nil, "school") // no request is made below
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)

	tx := adjlist.NewTx(table)
	fmt.Println(students.Put(ctx, "c07", Student{Name: "Cy"}, adjlist.InTx(tx)))
	fmt.Println(enrolled.Put(ctx, "c07", "math204", Enrollment{EnrolledOn: "2026-09-01"}, adjlist.InTx(tx)))
	fmt.Println(tx.Len())
	// A second action on one item is refused, here and by Commit.
	err := enrolled.Delete(ctx, "c07", "math204", adjlist.InTx(tx))
	fmt.Println(errors.Is(err, adjlist.ErrTxLimit), errors.Is(tx.Commit(ctx), adjlist.ErrTxLimit))
	// Output:
	// <nil>
	// <nil>
	// 2
	// true true
}
