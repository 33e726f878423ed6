package adjlist_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"sync"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal"
)

// The examples of this file run against DynamoDB Local, each on a fresh
// table of its own, and print what it answered. TestMain skips them with
// the tests when DynamoDB Local is not installed (examplesOnLocal).

// examplesOnLocal matches the examples that need DynamoDB Local.
const examplesOnLocal = `^Example(Node|Edge|Collection|Entity|NewItemCounter)_|^Example(Load|Tx_Commit|Verify)$`

// skipExamplesWithoutLocal skips the examples that need DynamoDB Local
// (-test.skip, unless the command line sets it) where it is neither
// running nor installed, outside CI: as ddbtest skips the tests there.
// TestMain calls it before ddbtest.Main parses the flags.
func skipExamplesWithoutLocal() {
	if os.Getenv(ddblocal.EnvEndpoint) != "" || os.Getenv("CI") != "" {
		return
	}
	if _, err := ddblocal.JarDir(); err == nil {
		if _, err := ddblocal.JavaPath(); err == nil {
			return
		}
	}
	if err := flag.Set("test.skip", examplesOnLocal); err != nil {
		log.Fatal(err)
	}
}

// exampleDB is DynamoDB Local for the examples, which have no *testing.T
// for ddbtest: the shared server of AWS_ENDPOINT_URL_DYNAMODB (make test,
// CI), else one started once (stopped with the test binary).
var exampleDB struct {
	once   sync.Once
	client *dynamodb.Client
	err    error
	seq    atomic.Int64
}

// exampleClient returns the examples' client for DynamoDB Local.
func exampleClient() *dynamodb.Client {
	exampleDB.once.Do(func() {
		exampleDB.client, _, exampleDB.err = ddblocal.Connect(context.Background())
	})
	if exampleDB.err != nil {
		log.Fatalf("the examples need DynamoDB Local: %v\n%s", exampleDB.err, ddblocal.InstallHint)
	}
	return exampleDB.client
}

// exampleTable creates a fresh table with the default keys and GSI1 on
// DynamoDB Local; done deletes it.
func exampleTable() (table *adjlist.Table, done func()) {
	db := exampleClient()
	name := fmt.Sprintf("example-%d-%d", os.Getpid(), exampleDB.seq.Add(1))
	table = adjlist.NewTable(db, name)
	if err := adjlist.CreateTable(context.Background(), db, table); err != nil {
		log.Fatal(err)
	}
	return table, func() {
		if _, err := db.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil {
			log.Fatal(err)
		}
	}
}

// Put is a guarded create: a second Put of the same id changes nothing.
func ExampleNode_Put() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")

	// PutItem PK = "STU#a91", SK = "PROFILE"; attribute_not_exists (PK)
	err := students.Put(ctx, "a91", Student{Name: "Ann", Year: 2, Major: "math"})
	fmt.Println(err)
	err = students.Put(ctx, "a91", Student{Name: "Someone else"})
	fmt.Println(errors.Is(err, adjlist.ErrExists))
	// Output:
	// <nil>
	// true
}

// Get reads one node item (GetItem); a missing one is ErrNotFound.
func ExampleNode_Get() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	if err := students.Put(ctx, "a91", Student{Name: "Ann", Year: 2, Major: "math"}); err != nil {
		log.Fatal(err)
	}

	s, err := students.Get(ctx, "a91") // GetItem PK = "STU#a91", SK = "PROFILE"
	fmt.Println(s.Name, s.Year, s.Major, err)
	_, err = students.Get(ctx, "b30", adjlist.Consistent) // a strongly consistent read
	fmt.Println(errors.Is(err, adjlist.ErrNotFound))
	// Output:
	// Ann 2 math <nil>
	// true
}

// Update changes the named attributes of an existing item and returns it.
func ExampleNode_Update() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	if err := students.Put(ctx, "a91", Student{Name: "Ann", Year: 2, Major: "math"}); err != nil {
		log.Fatal(err)
	}

	// UpdateItem SET year = year + 1; attribute_exists (PK)
	s, err := students.Update(ctx, "a91", adjlist.Update{}.Add("year", 1))
	fmt.Println(s.Year, err)
	_, err = students.Update(ctx, "nobody", adjlist.Set("major", "cs"))
	fmt.Println(errors.Is(err, adjlist.ErrNotFound))
	// Output:
	// 3 <nil>
	// true
}

// Delete removes an existing item; deleting a missing one is ErrNotFound.
func ExampleNode_Delete() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	if err := students.Put(ctx, "a91", Student{Name: "Ann"}); err != nil {
		log.Fatal(err)
	}

	fmt.Println(students.Delete(ctx, "a91")) // DeleteItem; attribute_exists (PK)
	fmt.Println(errors.Is(students.Delete(ctx, "a91"), adjlist.ErrNotFound))
	// Output:
	// <nil>
	// true
}

// An edge is one item, written once, read from both sides.
func ExampleEdge_Put() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)

	// PK = "STU#a91", SK = "ENROLL#CRS#math204", GSI1PK = "CRS#math204", GSI1SK = "STU#a91"
	err := enrolled.Put(ctx, "a91", "math204", Enrollment{EnrolledOn: "2026-09-01", Grade: "B"})
	fmt.Println(err)
	err = enrolled.Put(ctx, "a91", "math204", Enrollment{})
	fmt.Println(errors.Is(err, adjlist.ErrExists))
	e, err := enrolled.Get(ctx, "a91", "math204")
	fmt.Println(e.Grade, err)
	// Output:
	// <nil>
	// true
	// B <nil>
}

// From reads a node's edges on the table, in sort key order.
func ExampleEdge_From() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	for _, c := range []string{"math204", "cs101"} {
		if err := enrolled.Put(ctx, "a91", c, Enrollment{Grade: "B"}); err != nil {
			log.Fatal(err)
		}
	}

	// Query PK = "STU#a91" AND begins_with(SK, "ENROLL#CRS#"), page by page
	for e, err := range enrolled.From("a91").All(ctx) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(e.To, e.Data.Grade)
	}
	// Output:
	// cs101 B
	// math204 B
}

// To reads a node's incoming edges on the inverted index, GSI1, which is
// eventually consistent: on real DynamoDB a new edge may take a moment to
// appear (DynamoDB Local shows it at once).
func ExampleEdge_To() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	for _, s := range []string{"b30", "a91"} {
		if err := enrolled.Put(ctx, s, "math204", Enrollment{EnrolledOn: "2026-09-01"}); err != nil {
			log.Fatal(err)
		}
	}

	// Query GSI1: GSI1PK = "CRS#math204" AND begins_with(GSI1SK, "STU#")
	roster, err := enrolled.To("math204").Collect(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range roster {
		fmt.Println(e.From)
	}
	n, err := enrolled.To("math204").Count(ctx) // keys only
	fmt.Println(n, err)
	// Output:
	// a91
	// b30
	// 2 <nil>
}

// Delete removes one edge; both directions lose it.
func ExampleEdge_Delete() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	if err := enrolled.Put(ctx, "a91", "math204", Enrollment{}); err != nil {
		log.Fatal(err)
	}

	fmt.Println(enrolled.Delete(ctx, "a91", "math204"))
	fmt.Println(errors.Is(enrolled.Delete(ctx, "a91", "math204"), adjlist.ErrNotFound))
	n, err := enrolled.From("a91").Count(ctx)
	fmt.Println(n, err)
	// Output:
	// <nil>
	// true
	// 0 <nil>
}

// A collection's children share their parent's partition: PK = "WS#acme",
// SK = "PROJ#<id>".
func ExampleCollection_Put() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ")

	id := fmt.Sprintf("2026-%04d", 7) // "2026-0007": byte order is creation order
	fmt.Println(id, projects.Put(ctx, "acme", id, Project{Title: "Launch"}))
	fmt.Println(errors.Is(projects.Put(ctx, "acme", id, Project{}), adjlist.ErrExists))
	p, err := projects.Get(ctx, "acme", id)
	fmt.Println(p.Title, err)
	// Output:
	// 2026-0007 <nil>
	// true
	// Launch <nil>
}

// List reads a parent's children: one Query per page, newest first with
// Desc when ids sort by creation.
func ExampleCollection_List() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ")
	for i, title := range []string{"Roadmap", "Launch", "Retro"} {
		id := fmt.Sprintf("2026-%04d", i+1)
		if err := projects.Put(ctx, "acme", id, Project{Title: title}); err != nil {
			log.Fatal(err)
		}
	}

	// Query PK = "WS#acme" AND begins_with(SK, "PROJ#"), ScanIndexForward = false
	page, err := projects.List("acme").Desc().Limit(2).Page(ctx, "")
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range page.Items {
		fmt.Println(p.ID, p.Data.Title)
	}
	rest, err := projects.List("acme").Desc().Limit(2).Page(ctx, page.Cursor)
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range rest.Items {
		fmt.Println(p.ID, p.Data.Title)
	}
	// Output:
	// 2026-0003 Retro
	// 2026-0002 Launch
	// 2026-0001 Roadmap
}

// Load reads the parent and every child in one Query.
func ExampleCollection_Load() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ")
	if err := workspaces.Put(ctx, "acme", Workspace{DisplayName: "Acme"}); err != nil {
		log.Fatal(err)
	}
	if err := projects.Put(ctx, "acme", "2026-0001", Project{Title: "Roadmap"}); err != nil {
		log.Fatal(err)
	}

	fam, err := projects.Load(ctx, "acme") // Query PK = "WS#acme"
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(fam.Parent.DisplayName, len(fam.Children), fam.Children[0].Data.Title)
	// Output:
	// Acme 1 Roadmap
}

// Delete removes one child; Update changes one in place.
func ExampleCollection_Delete() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ")
	if err := projects.Put(ctx, "acme", "2026-0001", Project{Title: "Roadmap", Status: "ACTIVE"}); err != nil {
		log.Fatal(err)
	}

	p, err := projects.Update(ctx, "acme", "2026-0001", adjlist.Set("status", "DONE"))
	fmt.Println(p.Status, err)
	fmt.Println(projects.Delete(ctx, "acme", "2026-0001"))
	_, err = projects.Get(ctx, "acme", "2026-0001")
	fmt.Println(errors.Is(err, adjlist.ErrNotFound))
	// Output:
	// DONE <nil>
	// <nil>
	// true
}

// Order is an entity's data in the examples: an online shop's order,
// keyed the shop's own way.
type Order struct {
	Total int `dynamodbav:"total"`
}

// An entity's keys are templates of the design's own spelling; its ids
// fill the {fields} in order.
func ExampleEntity_Put() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	orders := adjlist.NewEntity[Order](table, "order", "c#{customerID}", "o#{orderID}")

	// PutItem PK = "c#42", SK = "o#1001"; attribute_not_exists (PK)
	fmt.Println(orders.Put(ctx, adjlist.IDs{"42", "1001"}, Order{Total: 30}))
	fmt.Println(errors.Is(orders.Put(ctx, adjlist.IDs{"42", "1001"}, Order{}), adjlist.ErrExists))
	o, err := orders.Get(ctx, adjlist.IDs{"42", "1001"})
	fmt.Println(o.Total, err)
	_, err = orders.Get(ctx, adjlist.IDs{"42"}) // one id short
	fmt.Println(errors.Is(err, adjlist.ErrInvalidKey))
	// Output:
	// <nil>
	// true
	// 30 <nil>
	// true
}

// List reads one partition of an entity; each item carries its ids,
// parsed from its keys.
func ExampleEntity_List() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	orders := adjlist.NewEntity[Order](table, "order", "c#{customerID}", "o#{orderID}")
	for _, id := range []string{"1002", "1001"} {
		if err := orders.Put(ctx, adjlist.IDs{"42", id}, Order{Total: 10}); err != nil {
			log.Fatal(err)
		}
	}

	// Query PK = "c#42" AND begins_with(SK, "o#")
	all, err := orders.List("42").Collect(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, o := range all {
		fmt.Println(o.IDs, o.Data.Total)
	}
	// Output:
	// [42 1001] 10
	// [42 1002] 10
}

// Delete removes one item of the entity.
func ExampleEntity_Delete() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	orders := adjlist.NewEntity[Order](table, "order", "c#{customerID}", "o#{orderID}")
	if err := orders.Put(ctx, adjlist.IDs{"42", "1001"}, Order{Total: 30}); err != nil {
		log.Fatal(err)
	}

	fmt.Println(orders.Delete(ctx, adjlist.IDs{"42", "1001"}))
	fmt.Println(errors.Is(orders.Delete(ctx, adjlist.IDs{"42", "1001"}), adjlist.ErrNotFound))
	// Output:
	// <nil>
	// true
}

// An edge's counter per target keeps its in-degree in the target's
// partition: every write of the edge changes the count in the same
// transaction.
func ExampleNewItemCounter_perTarget() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	// PK = "CRS#math204", SK = "ENROLLED"
	counter := adjlist.NewItemCounter(enrolled, "ENROLLED", func(o *adjlist.CounterOptions) { o.Per = "to" })

	for _, s := range []string{"a91", "b30"} {
		if err := enrolled.Put(ctx, s, "math204", Enrollment{EnrolledOn: "2026-09-01"}); err != nil {
			log.Fatal(err)
		}
	}
	err := enrolled.Put(ctx, "a91", "math204", Enrollment{}) // already there: nothing changes
	fmt.Println(errors.Is(err, adjlist.ErrExists))
	n, err := counter.Get(ctx, adjlist.IDs{"math204"}, "") // one GetItem
	fmt.Println(n, err)
	if err := enrolled.Delete(ctx, "b30", "math204"); err != nil {
		log.Fatal(err)
	}
	n, err = counter.Get(ctx, adjlist.IDs{"math204"}, "")
	fmt.Println(n, err)
	// Output:
	// true
	// 2 <nil>
	// 1 <nil>
}

// Load reads several item types of one partition in one Query, each item
// into the slice of its type.
func ExampleLoad() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	type Profile struct {
		Name string `dynamodbav:"name"`
	}
	profiles := adjlist.NewEntity[Profile](table, "profile", "c#{customerID}", "profile")
	orders := adjlist.NewEntity[Order](table, "order", "c#{customerID}", "o#{orderID}")
	if err := profiles.Put(ctx, adjlist.IDs{"42"}, Profile{Name: "Ada"}); err != nil {
		log.Fatal(err)
	}
	if err := orders.Put(ctx, adjlist.IDs{"42", "1001"}, Order{Total: 30}); err != nil {
		log.Fatal(err)
	}

	// Query PK = "c#42": every item type in the partition
	var ps []adjlist.EntityItem[Profile]
	var ords []adjlist.EntityItem[Order]
	other, err := adjlist.Load(ctx, adjlist.AllTypes(orders.List("42")), profiles.Into(&ps), orders.Into(&ords))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ps[0].Data.Name, len(ords), ords[0].IDs, other)
	// Output:
	// Ada 1 [42 1001] 0
}

// A transaction: writes join it with InTx and Commit sends them in one
// TransactWriteItems, all or nothing.
func ExampleTx_Commit() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	if err := courses.Put(ctx, "math204", Course{Title: "Linear Algebra"}); err != nil {
		log.Fatal(err)
	}

	tx := adjlist.NewTx(table)
	students.Put(ctx, "a91", Student{Name: "Ann"}, adjlist.InTx(tx))
	enrolled.Put(ctx, "a91", "math204", Enrollment{EnrolledOn: "2026-09-01"}, adjlist.InTx(tx))
	courses.TxCheck(tx, "math204") // ConditionCheck: the course exists
	fmt.Println(tx.Commit(ctx))

	// The student exists now: the whole second transaction fails, and
	// its edge is not written.
	tx = adjlist.NewTx(table)
	students.Put(ctx, "a91", Student{Name: "Ann"}, adjlist.InTx(tx))
	enrolled.Put(ctx, "a91", "cs101", Enrollment{}, adjlist.InTx(tx))
	fmt.Println(errors.Is(tx.Commit(ctx), adjlist.ErrExists))
	_, err := enrolled.Get(ctx, "a91", "cs101")
	fmt.Println(errors.Is(err, adjlist.ErrNotFound))
	// Output:
	// <nil>
	// true
	// true
}

// Verify checks every item of the table against the model the table
// records, and reports what does not fit.
func ExampleVerify() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	if err := students.Put(ctx, "a91", Student{Name: "Ann"}); err != nil {
		log.Fatal(err)
	}
	if err := courses.Put(ctx, "cs101", Course{Title: "Programming"}); err != nil {
		log.Fatal(err)
	}
	// An edge to a course that does not exist: Put does not check (with
	// WriteOptions.CheckEnds it does). Verify reports it, as it has met items of the course type.
	if err := enrolled.Put(ctx, "a91", "math204", Enrollment{}); err != nil {
		log.Fatal(err)
	}

	res, err := adjlist.Verify(ctx, exampleClient(), table) // a Scan of the whole table
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range res.Findings {
		fmt.Println(f.Kind, f.Key.PK, f.Key.SK, "missing", f.Missing.PK, f.Missing.SK)
	}
	// Output:
	// dangling edge STU#a91 ENROLL#CRS#math204 missing CRS#math204 METADATA
}
