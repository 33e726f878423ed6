package ddbtest_test

import (
	"testing"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// These examples are compiled, not run: each needs a test's *testing.T or
// *testing.M.

type User struct {
	Name string `dynamodbav:"name"`
}

// Main starts one DynamoDB Local for all tests of a package (or attaches
// to $AWS_ENDPOINT_URL_DYNAMODB) and stops it after them. In the
// package's tests:
//
//	func TestMain(m *testing.M) { ddbtest.Main(m) }
func ExampleMain() {
	var m *testing.M // the package's TestMain argument
	ddbtest.Main(m)
}

// NewTable is a fresh, empty table for one test, deleted when it ends.
func ExampleNewTable() {
	var t *testing.T // the test's
	table := ddbtest.NewTable(t)
	users := adjlist.NewNode[User](table, "USER", "PROFILE")
	if err := users.Put(t.Context(), "ada", User{Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
}

// CreateTable creates a table your own code declared (the model's
// constructor, on the harness's client and a fresh name), with every
// index its options declare, and deletes it when the test ends.
func ExampleCreateTable() {
	var t *testing.T // the test's
	table := adjlist.NewTable(ddbtest.Client(t), ddbtest.TableName(t), func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	ddbtest.CreateTable(t, table, func(o *adjlist.CreateTableOptions) { o.Projection = "KEYS_ONLY" })
}
