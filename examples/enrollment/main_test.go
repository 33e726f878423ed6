package main

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/internal/ddbtest"
	"github.com/adjlist/adjlist/internal/exampleutil"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// item is one row of the seed's table: the key attributes (empty index keys
// mean the item has none) and the names of its own attributes.
func item(pk, sk, gsi1pk, gsi1sk string, attrs ...string) exampleutil.Shape {
	keys := map[string]string{"PK": pk, "SK": sk}
	if gsi1pk != "" {
		keys["GSI1PK"], keys["GSI1SK"] = gsi1pk, gsi1sk
	}
	return exampleutil.Shape{Keys: keys, Attrs: slices.Sorted(slices.Values(attrs))}
}

// seedTable is seed 000's table.
var seedTable = []exampleutil.Shape{
	item("STU#a91", "PROFILE", "", "", "major", "name", "year"),
	item("STU#a91", "ENROLL#CRS#math204", "CRS#math204", "STU#a91", "enrolledOn", "grade"),
	item("STU#a91", "ENROLL#CRS#cs101", "CRS#cs101", "STU#a91", "enrolledOn", "grade"),
	item("STU#b30", "PROFILE", "", "", "major", "name", "year"),
	item("STU#b30", "ENROLL#CRS#math204", "CRS#math204", "STU#b30", "enrolledOn", "grade"),
	item("CRS#math204", "METADATA", "", "", "credits", "term", "title"),
	item("CRS#cs101", "METADATA", "", "", "credits", "term", "title"),
}

func TestRunWritesSeedTable(t *testing.T) {
	db := ddbtest.Client(t)
	table := ddbtest.TableName(t)
	ctx := context.Background()
	t.Cleanup(func() { require.NoError(t, exampleutil.DeleteTable(context.Background(), db, table)) })

	// Twice: the second run must find the data in place and change nothing.
	for i := range 2 {
		var out bytes.Buffer
		require.NoError(t, run(ctx, db, table, false, &out), "run %d", i)
		assert.Contains(t, out.String(), "duplicate enrolment refused")
		assert.Contains(t, out.String(), "math204 roster (GSI1):\n  a91\n  b30\n")
		assert.Contains(t, out.String(), "STU#a91     |ENROLL#CRS#math204 |CRS#math204 |STU#a91 |enrolledOn=2026-09-01, grade=A-\n")

		got, err := exampleutil.ScanShapes(ctx, db, table, "PK", "SK", "GSI1PK", "GSI1SK")
		require.NoError(t, err)
		assert.ElementsMatch(t, seedTable, got, "run %d", i)
	}
}

func TestRunCleanup(t *testing.T) {
	db := ddbtest.Client(t)
	table := ddbtest.TableName(t)
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), db, table, true, &out))
	_, err := db.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	var nf *types.ResourceNotFoundException
	require.ErrorAs(t, err, &nf, "the table is gone")
}

func TestDescribe(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, example.Execute(context.Background(), []string{"-describe", "-table", "school"}, &out))
	for _, want := range []string{
		"### Table `school`",
		"| PK | SK | GSI1PK | GSI1SK | attributes |",
		"| node STU | `STU#<id>` | `PROFILE` |  |  | name, year, major |",
		"| node CRS | `CRS#<id>` | `METADATA` |  |  | title, credits, term |",
		"| `STU#<from>` | `ENROLL#CRS#<to>` | `CRS#<to>` | `STU#<from>` | enrolledOn, grade |",
		"`GSI1PK = \"CRS#<to>\" AND begins_with(GSI1SK, \"STU#\")",
	} {
		assert.Contains(t, out.String(), want)
	}
}

// The README shows this example's -describe output; keep them in step.
func TestReadmeShowsDescribe(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, example.Execute(context.Background(), []string{"-describe"}, &out))
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	want := strings.NewReplacer("### Table", "#### Table", "### Access patterns", "#### Access patterns").Replace(out.String())
	assert.Contains(t, string(readme), strings.TrimSpace(want), "regenerate the README section with go run ./examples/enrollment -describe")
}
