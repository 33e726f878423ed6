package main

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
	"github.com/adjlist/adjlist/examples/internal/exampleutil/exampletest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// item is one row of the seed's table: its two key attributes and the names
// of its other attributes. Nothing else: the table has no index keys.
func item(entityRef, detail string, attrs ...string) exampleutil.Shape {
	return exampletest.Item(map[string]string{"EntityRef": entityRef, "Detail": detail}, attrs...)
}

// seedTable is seed 004's table.
var seedTable = exampletest.Seed{
	KeyAttrs: []string{"EntityRef", "Detail"},
	Items: []exampleutil.Shape{
		item("WS#acme", "META", "displayName", "region", "seatLimit"),
		item("WS#acme", "PROJ#2026-0007", "title", "status", "createdBy"),
		item("WS#acme", "PROJ#2026-0042", "title", "status", "createdBy"),
		item("WS#acme", "PROJ#2026-0118", "title", "status", "createdBy"),
		item("WS#globex", "META", "displayName", "region", "seatLimit"),
		item("WS#globex", "PROJ#2026-0009", "title", "status", "createdBy"),
	},
}

func TestRunWritesSeedTable(t *testing.T) {
	db, table := exampletest.RunTwice(t, example, seedTable, func(run int, out string) {
		assert.Contains(t, out, "workspace acme: Acme Corp, eu-west-1, 50 seats\n")
		assert.Contains(t, out, "acme projects, newest first:\n"+
			"  2026-0118  SSO rollout    PLANNED  by ana\n"+
			"  2026-0042  Mobile app     ACTIVE   by ben\n"+
			"  2026-0007  Billing revamp DONE     by ana\n")
		assert.Contains(t, out, "project acme/2026-0042: Mobile app (ACTIVE)\n")
		assert.Contains(t, out, "acme projects since 2026-0042, active only, title and status:\n"+
			"  2026-0042  Mobile app     ACTIVE   by \"\"\n")
		assert.Contains(t, out, "acme has 3 projects\n")
		// The sparse ByStatus index, before and after Update moves a project
		// into its ACTIVE partition and out again.
		active := "\nACTIVE projects across workspaces (ByStatus), newest first:\n" +
			"  acme/2026-0042  Mobile app\n" +
			"  globex/2026-0009  Data lake\n"
		assert.Contains(t, out, active+"\nproject acme/2026-0118 is now ACTIVE\n"+
			"\nACTIVE projects across workspaces (ByStatus), newest first:\n"+
			"  acme/2026-0118  SSO rollout\n"+
			"  acme/2026-0042  Mobile app\n"+
			"  globex/2026-0009  Data lake\n"+
			"\nproject acme/2026-0118 is now PLANNED\n"+active)
		assert.Contains(t, out, "workspace globex (Globex, 10 seats) in one Query:\n  2026-0009  Data lake\n")
		assert.Contains(t, out, "EntityRef |Detail         |attributes\n"+
			"WS#acme   |META           |displayName=Acme Corp, region=eu-west-1, seatLimit=50\n"+
			"WS#acme   |PROJ#2026-0007 |")
		// A rerun finds its items there: Put is a guarded create, so each
		// is reported and left as it is (the table above is unchanged).
		if run == 0 {
			assert.NotContains(t, out, "already", "run %d", run)
		} else {
			assert.Contains(t, out, "already", "run %d", run)
		}
	})

	// Keyed on EntityRef/Detail, with one index: ByStatus on the items'
	// own status and Detail (no attribute of its own on any item).
	desc := exampletest.DescribeTable(t, db, table)
	assert.Equal(t, exampletest.KeySchema("EntityRef", "Detail"), desc.KeySchema)
	exampletest.OnlyIndex(t, db, table, "ByStatus", "status", "Detail")
}

func TestRunCleanup(t *testing.T) { exampletest.CleanupDeletesTable(t, example) }

// TestVerify: the items the run leaves all fit the model it declares
// (go run ./examples/workspaces -verify).
func TestVerify(t *testing.T) { exampletest.VerifyClean(t, example) }

func TestDescribe(t *testing.T) {
	exampletest.ContainsAll(t, exampletest.Describe(t, example),
		"### Table `adjlist-workspaces`",
		"| item | EntityRef | Detail |",
		"| node WS | `WS#<id>` | `META` |",
		"| child PROJ of WS | `WS#<id>` | `PROJ#<child>` |",
		"displayName, region, seatLimit",
		"title, status, createdBy",
		"`EntityRef = \"WS#<id>\" AND Detail = \"META\"`",
		"`EntityRef = \"WS#<id>\" AND begins_with(Detail, \"PROJ#\"); ScanIndexForward=false`",
		"`EntityRef = \"WS#<id>\" AND Detail = \"PROJ#<child>\"`",
		"| every ACTIVE project across workspaces, newest first | `Collection.ByIndex(\"ByStatus\", …).Desc()` | Query | `status = \"ACTIVE\"; ScanIndexForward=false` | ByStatus (eventually consistent) |",
		"| a workspace's active projects since an id, title and status only | `Collection.List(id).GreaterThanEqual(v).Filter(cond).Project(title, status)` | Query | `(EntityRef = \"WS#<id>\") AND (Detail BETWEEN \"PROJ#<since>\" AND \"PROJ$\"); filter status = \"ACTIVE\"; projection EntityRef, Detail, title, status` | table |",
	)
}
