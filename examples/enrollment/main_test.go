package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
	"github.com/adjlist/adjlist/examples/internal/exampleutil/exampletest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// item is one row of the seed's table: the key attributes (empty index keys
// mean the item has none) and the names of its own attributes.
func item(pk, sk, gsi1pk, gsi1sk string, attrs ...string) exampleutil.Shape {
	keys := map[string]string{"PK": pk, "SK": sk}
	if gsi1pk != "" {
		keys["GSI1PK"], keys["GSI1SK"] = gsi1pk, gsi1sk
	}
	return exampletest.Item(keys, attrs...)
}

// seedTable is seed 000's table.
var seedTable = exampletest.Seed{
	KeyAttrs: []string{"PK", "SK", "GSI1PK", "GSI1SK"},
	Items: []exampleutil.Shape{
		item("STU#a91", "PROFILE", "", "", "major", "name", "year"),
		item("STU#a91", "ENROLL#CRS#math204", "CRS#math204", "STU#a91", "enrolledOn", "grade"),
		item("STU#a91", "ENROLL#CRS#cs101", "CRS#cs101", "STU#a91", "enrolledOn", "grade"),
		item("STU#b30", "PROFILE", "", "", "major", "name", "year"),
		item("STU#b30", "ENROLL#CRS#math204", "CRS#math204", "STU#b30", "enrolledOn", "grade"),
		item("CRS#math204", "METADATA", "", "", "credits", "term", "title"),
		item("CRS#cs101", "METADATA", "", "", "credits", "term", "title"),
	},
}

func TestRunWritesSeedTable(t *testing.T) {
	db, table := exampletest.RunTwice(t, example, seedTable, func(_ int, out string) {
		assert.Contains(t, out, "duplicate enrolment refused")
		assert.Contains(t, out, "math204 roster (GSI1):\n  a91\n  b30\n")
		assert.Contains(t, out, "math204 roster in enrolment order (ByEnrolment):\n  2026-09-01  a91\n  2026-09-02  b30\n"+
			"enrolled in math204 from 2026-09-02 on: 1\n")
		assert.Contains(t, out, "STU#a91     |ENROLL#CRS#math204 |CRS#math204 |STU#a91 |enrolledOn=2026-09-01, grade=A-\n")
	})

	// The roster is read from GSI1 on GSI1PK (partition), GSI1SK (sort),
	// and in enrolment order from ByEnrolment on GSI1PK, enrolledOn.
	desc := exampletest.DescribeTable(t, db, table)
	keys := map[string][]types.KeySchemaElement{}
	for _, gsi := range desc.GlobalSecondaryIndexes {
		keys[aws.ToString(gsi.IndexName)] = gsi.KeySchema
	}
	assert.Equal(t, map[string][]types.KeySchemaElement{
		"GSI1":        exampletest.KeySchema("GSI1PK", "GSI1SK"),
		"ByEnrolment": exampletest.KeySchema("GSI1PK", "enrolledOn"),
	}, keys)
}

func TestRunCleanup(t *testing.T) { exampletest.CleanupDeletesTable(t, example) }

// TestVerify: the items the run leaves all fit the model it declares
// (go run ./examples/enrollment -verify).
func TestVerify(t *testing.T) { exampletest.VerifyClean(t, example) }

func TestDescribe(t *testing.T) {
	exampletest.ContainsAll(t, exampletest.Describe(t, example, "-table", "school"),
		"### Table `school`",
		"| PK | SK | GSI1PK | GSI1SK | attributes |",
		"| node STU | `STU#<id>` | `PROFILE` |  |  | name, year, major |",
		"| node CRS | `CRS#<id>` | `METADATA` |  |  | title, credits, term |",
		"| `STU#<from>` | `ENROLL#CRS#<to>` | `CRS#<to>` | `STU#<from>` | enrolledOn, grade |",
		"`GSI1PK = \"CRS#<to>\" AND begins_with(GSI1SK, \"STU#\")",
		"| a course's roster in enrolment order | `Edge.ByIndex(\"ByEnrolment\", …)` | Query | `GSI1PK = \"CRS#<to>\"` | ByEnrolment (eventually consistent) |",
	)
}

// The modelling guide shows this example's -describe output; keep them in step.
func TestReadmeShowsDescribe(t *testing.T) {
	out := exampletest.Describe(t, example)
	readme, err := os.ReadFile("../../docs/modelling.md")
	require.NoError(t, err)
	want := strings.NewReplacer("### Table", "#### Table", "### Access patterns", "#### Access patterns").Replace(out)
	assert.Contains(t, string(readme), strings.TrimSpace(want), "regenerate the section of docs/modelling.md with go run ./examples/enrollment -describe")
}

// -trace prints each adjlist call's span as it ends, between the run's
// own lines: named for the call, with the table and, for the roster, the
// index read.
func TestTrace(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, example.Execute(context.Background(), []string{"-table", ddbtest.TableName(t), "-cleanup", "-trace"}, &out))
	type attr struct {
		Key   string
		Value struct{ Value any }
	}
	var spans []struct {
		Name       string
		Attributes []attr
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var sp struct {
			Name       string
			Attributes []attr
		}
		require.NoError(t, json.Unmarshal([]byte(line), &sp), line)
		spans = append(spans, sp)
	}
	names := map[string]map[string]any{}
	for _, sp := range spans {
		a := map[string]any{}
		for _, kv := range sp.Attributes {
			a[kv.Key] = kv.Value.Value
		}
		names[sp.Name] = a
	}
	for _, name := range []string{"Edge.Put", "LoadNode", "Edge.To", "Edge.ByIndex"} {
		require.Contains(t, names, name)
		assert.Equal(t, "aws.dynamodb", names[name]["db.system.name"], name)
		assert.Equal(t, float64(1), names[name]["adjlist.requests"], name)
	}
	assert.Equal(t, "GSI1", names["Edge.To"]["aws.dynamodb.index_name"])
	assert.Equal(t, "ByEnrolment", names["Edge.ByIndex"]["aws.dynamodb.index_name"])
	assert.Contains(t, out.String(), "math204 roster (GSI1):\n", "the run's own output is there too")
}
