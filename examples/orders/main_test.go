package main

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
	"github.com/adjlist/adjlist/examples/internal/exampleutil/exampletest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// item is one row of the seed's table: the key attributes (empty index keys
// mean the item has none) and the names of its other attributes.
func item(pk, sk, gsiPK, gsiSK string, attrs ...string) exampleutil.Shape {
	keys := map[string]string{"PK": pk, "SK": sk}
	if gsiPK != "" {
		keys["GSI_PK"], keys["GSI_SK"] = gsiPK, gsiSK
	}
	return exampletest.Item(keys, attrs...)
}

// seedTable is seed 003's table: the 1:N item collection and the M:N link.
var seedTable = exampletest.Seed{
	KeyAttrs: []string{"PK", "SK", "GSI_PK", "GSI_SK"},
	Items: []exampleutil.Shape{
		item("USER#123", "METADATA", "", "", "Name", "Email"),
		item("USER#123", "ORDER#2023-01-01", "", "", "Total", "Status"),
		item("USER#123", "ORDER#2023-01-05", "", "", "Total", "Status"),
		item("STUDENT#Alice", "COURSE#Math", "COURSE#Math", "STUDENT#Alice", "Grade"),
	},
}

func TestRunWritesSeedTable(t *testing.T) {
	db, table := exampletest.RunTwice(t, example, seedTable, func(run int, out string) {
		assert.Contains(t, out, "user 123 (Jane Doe, jane@example.com) and their orders, one Query:\n"+
			"  2023-01-01     42.50  DELIVERED\n"+
			"  2023-01-05     19.99  SHIPPED\n")
		assert.Contains(t, out, "orders of user 123 from 2023-01-02 to 2023-01-31, newest first:\n"+
			"  2023-01-05     19.99  SHIPPED\n\n")
		assert.Contains(t, out, "What courses is Alice taking? (table)\n  Math, grade A\n")
		assert.Contains(t, out, "Who is taking Math? (GSI1)\n  Alice, grade A\n")
		assert.Contains(t, out, "STUDENT#Alice |COURSE#Math      |COURSE#Math |STUDENT#Alice |Grade=A\n")
		// A rerun finds its items there: Put is a guarded create, so each
		// is reported and left as it is (the table above is unchanged).
		if run == 0 {
			assert.NotContains(t, out, "already", "run %d", run)
		} else {
			assert.Contains(t, out, "already", "run %d", run)
		}
	})

	// The index inverts the link: GSI1 on GSI_PK (partition), GSI_SK (sort).
	exampletest.OnlyIndex(t, db, table, "GSI1", "GSI_PK", "GSI_SK")
}

func TestRunCleanup(t *testing.T) { exampletest.CleanupDeletesTable(t, example) }

// TestVerify: the items the run leaves all fit the model it declares
// (go run ./examples/orders -verify).
func TestVerify(t *testing.T) { exampletest.VerifyClean(t, example) }

func TestDescribe(t *testing.T) {
	out := exampletest.Describe(t, example)
	exampletest.ContainsAll(t, out,
		"### Table `adjlist-orders`",
		"| item | PK | SK | GSI_PK | GSI_SK | attributes |",
		"| `USER#<id>` | `METADATA` |  |  | Name, Email |",
		"| `USER#<id>` | `ORDER#<child>` |  |  | Total, Status |",
		"| a user's orders in a date range, newest first | `Collection.List(id).Between(lo, hi).Desc()` | Query | `(PK = \"USER#<id>\") AND (SK BETWEEN \"ORDER#<from>\" AND \"ORDER#<to>\\U0010ffff\"); ScanIndexForward=false` | table |",
		"| `STUDENT#<from>` | `COURSE#<to>` | `COURSE#<to>` | `STUDENT#<from>` | Grade |",
		"`PK = \"USER#<id>\"`",
		"`PK = \"STUDENT#<from>\" AND begins_with(SK, \"COURSE#\")`",
		"`GSI_PK = \"COURSE#<to>\" AND begins_with(GSI_SK, \"STUDENT#\")",
	)
	// The seed stores no student or course items.
	assert.NotContains(t, out, "node STUDENT")
	assert.NotContains(t, out, "node COURSE")
}
