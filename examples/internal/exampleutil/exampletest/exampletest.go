// Package exampletest holds the checks the example tests under examples/
// share: running an example against DynamoDB Local and comparing its table
// with the seed's, -cleanup, -describe and the table's index layout, and
// [Recorder], a client that records the requests a model sends.
//
// What differs between examples stays in each example's main_test.go: its
// seed table, the output it must print, its -describe strings and its
// index. A package using these helpers must call ddbtest.Main from its
// TestMain (see package ddbtest).
package exampletest

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

	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
)

// Item returns the [exampleutil.Shape] of one item of a seed table: the
// values of its key attributes and the names of its other attributes, in
// any order. Attrs is sorted and, like ScanShapes', never nil.
func Item(keys map[string]string, attrs ...string) exampleutil.Shape {
	sorted := append([]string{}, attrs...)
	slices.Sort(sorted)
	return exampleutil.Shape{Keys: keys, Attrs: sorted}
}

// Seed is a seed's table as an example must leave it.
type Seed struct {
	// KeyAttrs names the table's key attributes, index keys included (see
	// [exampleutil.ScanShapes]).
	KeyAttrs []string
	// Items is every item of the table, in any order.
	Items []exampleutil.Shape
}

// RunTwice runs ex without -cleanup on a fresh table of DynamoDB Local,
// twice: the second run must find the data in place and add no item.
// After each run it calls check with the run's number (0, then 1) and
// everything the run printed, then asserts that the table holds exactly
// seed's items (their shapes: values other than the keys may differ). It returns the client and the table, for checks on the
// table itself; the table is deleted when the test ends.
func RunTwice(t testing.TB, ex exampleutil.Example, seed Seed, check func(run int, out string)) (*dynamodb.Client, string) {
	t.Helper()
	db := ddbtest.Client(t)
	table := ddbtest.TableName(t)
	ctx := context.Background()
	t.Cleanup(func() { require.NoError(t, exampleutil.DeleteTable(context.Background(), db, table)) })

	for i := range 2 {
		var out bytes.Buffer
		require.NoError(t, ex.Run(ctx, db, table, false, &out), "run %d", i)
		check(i, out.String())

		got, err := exampleutil.ScanShapes(ctx, db, table, seed.KeyAttrs...)
		require.NoError(t, err, "run %d", i)
		assert.ElementsMatch(t, seed.Items, got, "run %d", i)
	}
	return db, table
}

// CleanupDeletesTable runs ex with -cleanup on a fresh table of DynamoDB
// Local and requires that the table is gone afterwards.
func CleanupDeletesTable(t testing.TB, ex exampleutil.Example) {
	t.Helper()
	db := ddbtest.Client(t)
	table := ddbtest.TableName(t)
	var out bytes.Buffer
	require.NoError(t, ex.Run(context.Background(), db, table, true, &out))
	_, err := db.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	var nf *types.ResourceNotFoundException
	require.ErrorAs(t, err, &nf, "the table is gone")
}

// Describe runs ex as a command with -describe followed by args and
// returns what it printed. It needs no DynamoDB.
func Describe(t testing.TB, ex exampleutil.Example, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	require.NoError(t, ex.Execute(context.Background(), append([]string{"-describe"}, args...), &out))
	return out.String()
}

// ContainsAll asserts that s contains each of want, reporting every one
// that is missing. It returns whether all were found.
func ContainsAll(t testing.TB, s string, want ...string) bool {
	t.Helper()
	ok := true
	for _, w := range want {
		ok = assert.Contains(t, s, w) && ok
	}
	return ok
}

// KeySchema is the key schema of a table or index keyed on partition (HASH)
// and sort (RANGE).
func KeySchema(partition, sort string) []types.KeySchemaElement {
	return []types.KeySchemaElement{
		{AttributeName: aws.String(partition), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String(sort), KeyType: types.KeyTypeRange},
	}
}

// DescribeTable returns the description of table, requiring that it
// exists.
func DescribeTable(t testing.TB, db *dynamodb.Client, table string) *types.TableDescription {
	t.Helper()
	desc, err := db.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	require.NoError(t, err)
	require.NotNil(t, desc.Table)
	return desc.Table
}

// OnlyIndex asserts that table has exactly one global secondary index,
// named name and keyed on partition (HASH) and sort (RANGE).
func OnlyIndex(t testing.TB, db *dynamodb.Client, table, name, partition, sort string) {
	t.Helper()
	desc := DescribeTable(t, db, table)
	require.Len(t, desc.GlobalSecondaryIndexes, 1)
	gsi := desc.GlobalSecondaryIndexes[0]
	assert.Equal(t, name, aws.ToString(gsi.IndexName))
	assert.Equal(t, KeySchema(partition, sort), gsi.KeySchema)
}
