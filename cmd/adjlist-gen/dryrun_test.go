package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// lsiDryRun is -dry-run's output for testdata/variants/lsi.json.
const lsiDryRun = "table orders (from lsi.json): partition key PK (S), sort key SK (S); 5 items\n" +
	"  index LSI1: local, derived: PK / LSI1SK; projection ALL\n" +
	"  index byTotal: local, native: PK / total; projection INCLUDE status\n" +
	"  item type profile (Go type Profile): 2 items, the items whose keys are shaped c#* / profile\n" +
	"    PK  c#{cID}\n" +
	"    SK  profile\n" +
	"    {cID}: kept only in the keys; named for the prefix \"c\"\n" +
	"    field CID string `dynamodbav:\"cID\"` (kept only in the keys)\n" +
	"    field Name string `dynamodbav:\"name\"`\n" +
	"  item type o (Go type O): 3 items, the items whose keys are shaped c#* / o#*\n" +
	"    PK      c#{cID}\n" +
	"    SK      o#{oID}\n" +
	"    LSI1SK  STATUS#{status}#{date}\n" +
	"    {cID}: kept only in the keys; named for the prefix \"c\"\n" +
	"    {oID}: kept only in the keys; named for the item type o, after the prefix \"o\"\n" +
	"    {status}: the item's own status\n" +
	"    {date}: the item's own date\n" +
	"    field CID string `dynamodbav:\"cID\"` (kept only in the keys)\n" +
	"    field OID string `dynamodbav:\"oID\"` (kept only in the keys)\n" +
	"    field Status string `dynamodbav:\"status\"`\n" +
	"    field Date string `dynamodbav:\"date\"`\n" +
	"    field Total int64 `dynamodbav:\"total\"`\n"

// TestDryRun: -dry-run prints the inferred model on standard output (each
// table with its keys and item count, its indexes, each item type with
// its key templates, what each {name} is, its Go fields, then the notes)
// and writes nothing, with -workbench and with -table alike: a live table
// holding a model's items prints the lines the model prints, in its own
// order (its items come in key order, with no model's attribute order).
func TestDryRun(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, runIO([]string{"-dry-run", "-workbench", "testdata/variants/lsi.json", "-o", out}, nil, &stdout, &stderr), stderr.String())
	assert.Equal(t, lsiDryRun, stdout.String())
	assert.Empty(t, stderr.String())
	assert.NoDirExists(t, out, "nothing written")

	// The notes, last.
	stdout.Reset()
	require.Equal(t, 0, runIO([]string{"-dry-run", "-workbench", "testdata/chat-system/ChatSystemSchema.json", "-o", out}, nil, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "\nnotes:\n  User: a part of SK holds the item's CreatedAt on 4 of 5 items, but not on TableData[3] (User:UserA / 2023-04-01T13:00:00.001Z): it is an attribute of its own, date, kept only in the keys\n")
	assert.Empty(t, stderr.String())
	assert.NoDirExists(t, out, "nothing written")

	// A type that has no entity says so.
	stdout.Reset()
	require.Equal(t, 0, runIO([]string{"-dry-run", "-workbench", "-"}, strings.NewReader(overlapping), &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "  item type b (Go type B): 2 items, the items whose kind is \"b\"\n    no entity: its keys could spell a's\n")

	// A live table.
	db := localEnv(t)
	table := ddbtest.TableName(t)
	createRaw(t, db, table, built(t, "testdata/variants/lsi.json").m.tables[0])
	stdout.Reset()
	require.Equal(t, 0, runIO([]string{"-dry-run", "-table", table, "-o", out}, nil, &stdout, &stderr), stderr.String())
	want := strings.Replace(lsiDryRun, "table orders (from lsi.json)", "table "+table+" (from table "+table+")", 1)
	assert.ElementsMatch(t, strings.Split(want, "\n"), strings.Split(stdout.String(), "\n"))
	assert.Equal(t, "adjlist-gen: table "+table+": read 5 items\n", stderr.String(), "progress only")
	assert.NoDirExists(t, out, "nothing written")
}

// TestDryRunFindsWhatARunFinds: a model a run refuses, -dry-run refuses
// alike, exit status 2.
func TestDryRunFindsWhatARunFinds(t *testing.T) {
	_, err := buildTable(context.Background(), "x", 1, "main", nil)
	require.ErrorIs(t, err, errBadInput)
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, runIO([]string{"-dry-run", "-workbench", "testdata/bad/connected-vehicles/ConnectedVehiclesSchema.json"}, nil, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "not an item in DynamoDB JSON")
	assert.Empty(t, stdout.String())
}
