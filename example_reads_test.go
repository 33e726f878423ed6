package adjlist_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/adjlist/adjlist"
)

// The Get, GetMany and Update of every handle: a verb given one item's ids
// returns its data; a verb that reads several items returns the handle's
// item type, ids decoded from the keys.

// GetMany reads nodes by id in one BatchGetItem per 100 distinct ids, in the order
// given; an id with no item is left out.
func ExampleNode_GetMany() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	for _, id := range []string{"a91", "b30"} {
		if err := students.Put(ctx, id, Student{Name: "Student " + id}); err != nil {
			log.Fatal(err)
		}
	}

	got, err := students.GetMany(ctx, []string{"b30", "zz9", "a91"})
	for _, s := range got {
		fmt.Println(s.ID, s.Data.Name)
	}
	fmt.Println(err)
	// Output:
	// b30 Student b30
	// a91 Student a91
	// <nil>
}

// Get reads one edge by its two ends (GetItem on the table) and returns
// its data; a missing edge is ErrNotFound.
func ExampleEdge_Get() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	if err := enrolled.Put(ctx, "a91", "math204", Enrollment{EnrolledOn: "2026-09-01", Grade: "B"}); err != nil {
		log.Fatal(err)
	}

	// GetItem PK = "STU#a91", SK = "ENROLL#CRS#math204"
	e, err := enrolled.Get(ctx, "a91", "math204")
	fmt.Println(e.EnrolledOn, e.Grade, err)
	_, err = enrolled.Get(ctx, "a91", "bio101")
	fmt.Println(errors.Is(err, adjlist.ErrNotFound))
	// Output:
	// 2026-09-01 B <nil>
	// true
}

// Update changes attributes of an existing edge (UpdateItem) and returns
// its new data; a missing edge is ErrNotFound.
func ExampleEdge_Update() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	if err := enrolled.Put(ctx, "a91", "math204", Enrollment{EnrolledOn: "2026-09-01"}); err != nil {
		log.Fatal(err)
	}

	// UpdateItem SET grade = "A"; attribute_exists (PK)
	e, err := enrolled.Update(ctx, "a91", "math204", adjlist.Set("grade", "A"))
	fmt.Println(e.EnrolledOn, e.Grade, err)
	_, err = enrolled.Update(ctx, "a91", "bio101", adjlist.Set("grade", "A"))
	fmt.Println(errors.Is(err, adjlist.ErrNotFound))
	// Output:
	// 2026-09-01 A <nil>
	// true
}

// Get reads one child by its parent's id and its own (GetItem PK =
// "WS#acme", SK = "PROJ#2026-0001") and returns its data.
func ExampleCollection_Get() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ")
	if err := projects.Put(ctx, "acme", "2026-0001", Project{Title: "Roadmap", Status: "ACTIVE"}); err != nil {
		log.Fatal(err)
	}

	p, err := projects.Get(ctx, "acme", "2026-0001")
	fmt.Println(p.Title, p.Status, err)
	_, err = projects.Get(ctx, "globex", "2026-0001") // another parent's partition
	fmt.Println(errors.Is(err, adjlist.ErrNotFound))
	// Output:
	// Roadmap ACTIVE <nil>
	// true
}

// Update changes attributes of an existing child and returns its new data.
func ExampleCollection_Update() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ")
	if err := projects.Put(ctx, "acme", "2026-0001", Project{Title: "Roadmap", Status: "ACTIVE"}); err != nil {
		log.Fatal(err)
	}

	// UpdateItem SET status = "DONE"; attribute_exists (PK)
	p, err := projects.Update(ctx, "acme", "2026-0001", adjlist.Set("status", "DONE"))
	fmt.Println(p.Title, p.Status, err)
	// Output:
	// Roadmap DONE <nil>
}

// Get reads one item of an entity by its ids, which fill its key
// templates in order, and returns its data.
func ExampleEntity_Get() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	orders := adjlist.NewEntity[Order](table, "order", "c#{customerID}", "o#{orderID}")
	if err := orders.Put(ctx, adjlist.IDs{"42", "1001"}, Order{Total: 30}); err != nil {
		log.Fatal(err)
	}

	// GetItem PK = "c#42", SK = "o#1001"
	o, err := orders.Get(ctx, adjlist.IDs{"42", "1001"})
	fmt.Println(o.Total, err)
	_, err = orders.Get(ctx, adjlist.IDs{"42", "1002"})
	fmt.Println(errors.Is(err, adjlist.ErrNotFound))
	// Output:
	// 30 <nil>
	// true
}

// Update changes attributes of an existing item of an entity and returns
// its new data.
func ExampleEntity_Update() {
	table, done := exampleTable()
	defer done()
	ctx := context.Background()
	orders := adjlist.NewEntity[Order](table, "order", "c#{customerID}", "o#{orderID}")
	if err := orders.Put(ctx, adjlist.IDs{"42", "1001"}, Order{Total: 30}); err != nil {
		log.Fatal(err)
	}

	// UpdateItem SET total = total + 5; attribute_exists (PK)
	o, err := orders.Update(ctx, adjlist.IDs{"42", "1001"}, adjlist.Update{}.Add("total", 5))
	fmt.Println(o.Total, err)
	// Output:
	// 35 <nil>
}
