package main

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

	"github.com/adjlist/adjlist/internal/ddbtest"
	"github.com/adjlist/adjlist/internal/exampleutil"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// item is one row of the seed's table: its two key attributes and the names
// of its other attributes. Nothing else: the table has no index keys.
func item(entityRef, detail string, attrs ...string) exampleutil.Shape {
	return exampleutil.Shape{
		Keys:  map[string]string{"EntityRef": entityRef, "Detail": detail},
		Attrs: slices.Sorted(slices.Values(attrs)),
	}
}

// seedTable is seed 004's table.
var seedTable = []exampleutil.Shape{
	item("WS#acme", "META", "displayName", "region", "seatLimit"),
	item("WS#acme", "PROJ#2026-0007", "title", "status", "createdBy"),
	item("WS#acme", "PROJ#2026-0042", "title", "status", "createdBy"),
	item("WS#acme", "PROJ#2026-0118", "title", "status", "createdBy"),
	item("WS#globex", "META", "displayName", "region", "seatLimit"),
	item("WS#globex", "PROJ#2026-0009", "title", "status", "createdBy"),
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
		got := out.String()
		assert.Contains(t, got, "workspace acme: Acme Corp, eu-west-1, 50 seats\n")
		assert.Contains(t, got, "acme projects, newest first:\n"+
			"  2026-0118  SSO rollout    PLANNED  by ana\n"+
			"  2026-0042  Mobile app     ACTIVE   by ben\n"+
			"  2026-0007  Billing revamp DONE     by ana\n")
		assert.Contains(t, got, "project acme/2026-0042: Mobile app (ACTIVE)\n")
		assert.Contains(t, got, "acme has 3 projects\n")
		assert.Contains(t, got, "workspace globex (Globex, 10 seats) in one Query:\n  2026-0009  Data lake\n")
		assert.Contains(t, got, "EntityRef |Detail         |attributes\n"+
			"WS#acme   |META           |displayName=Acme Corp, region=eu-west-1, seatLimit=50\n"+
			"WS#acme   |PROJ#2026-0007 |")
		if i == 0 {
			assert.NotContains(t, got, "already exists")
		} else {
			assert.Contains(t, got, "project 2026-0042 in acme already exists (left as is)\n")
		}

		shapes, err := exampleutil.ScanShapes(ctx, db, table, "EntityRef", "Detail")
		require.NoError(t, err)
		assert.ElementsMatch(t, seedTable, shapes, "run %d", i)
	}

	// Keyed on EntityRef/Detail, with no index.
	desc, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	require.NoError(t, err)
	assert.Equal(t, []types.KeySchemaElement{
		{AttributeName: aws.String("EntityRef"), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String("Detail"), KeyType: types.KeyTypeRange},
	}, desc.Table.KeySchema)
	assert.Empty(t, desc.Table.GlobalSecondaryIndexes)
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
	require.NoError(t, example.Execute(context.Background(), []string{"-describe"}, &out))
	for _, want := range []string{
		"### Table `adjlist-workspaces`",
		"| item | EntityRef | Detail |",
		"| node WS | `WS#<id>` | `META` |",
		"| child PROJ of WS | `WS#<id>` | `PROJ#<child>` |",
		"displayName, region, seatLimit",
		"title, status, createdBy",
		"`EntityRef = \"WS#<id>\" AND Detail = \"META\"`",
		"`EntityRef = \"WS#<id>\" AND begins_with(Detail, \"PROJ#\"); ScanIndexForward=false`",
		"`EntityRef = \"WS#<id>\" AND Detail = \"PROJ#<child>\"`",
	} {
		assert.Contains(t, out.String(), want)
	}
}
