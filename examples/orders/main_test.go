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

// item is one row of the seed's table: the key attributes (empty index keys
// mean the item has none) and the names of its other attributes.
func item(pk, sk, gsiPK, gsiSK string, attrs ...string) exampleutil.Shape {
	keys := map[string]string{"PK": pk, "SK": sk}
	if gsiPK != "" {
		keys["GSI_PK"], keys["GSI_SK"] = gsiPK, gsiSK
	}
	return exampleutil.Shape{Keys: keys, Attrs: slices.Sorted(slices.Values(attrs))}
}

// seedTable is seed 003's table: the 1:N item collection and the M:N link.
var seedTable = []exampleutil.Shape{
	item("USER#123", "METADATA", "", "", "Name", "Email"),
	item("USER#123", "ORDER#2023-01-01", "", "", "Total", "Status"),
	item("USER#123", "ORDER#2023-01-05", "", "", "Total", "Status"),
	item("STUDENT#Alice", "COURSE#Math", "COURSE#Math", "STUDENT#Alice", "Grade"),
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
		assert.Contains(t, got, "user 123 (Jane Doe, jane@example.com) and their orders, one Query:\n"+
			"  2023-01-01     42.50  DELIVERED\n"+
			"  2023-01-05     19.99  SHIPPED\n")
		assert.Contains(t, got, "What courses is Alice taking? (table)\n  Math, grade A\n")
		assert.Contains(t, got, "Who is taking Math? (GSI1)\n  Alice, grade A\n")
		assert.Contains(t, got, "STUDENT#Alice |COURSE#Math      |COURSE#Math |STUDENT#Alice |Grade=A\n")
		if i == 0 {
			assert.NotContains(t, got, "already")
		} else {
			assert.Contains(t, got, "order 2023-01-05 of user 123 already exists (left as is)\n")
			assert.Contains(t, got, "Alice is already enrolled in Math (left as is)\n")
		}

		shapes, err := exampleutil.ScanShapes(ctx, db, table, "PK", "SK", "GSI_PK", "GSI_SK")
		require.NoError(t, err)
		assert.ElementsMatch(t, seedTable, shapes, "run %d", i)
	}

	// The index inverts the link: GSI1 on GSI_PK (partition), GSI_SK (sort).
	desc, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	require.NoError(t, err)
	require.Len(t, desc.Table.GlobalSecondaryIndexes, 1)
	gsi := desc.Table.GlobalSecondaryIndexes[0]
	assert.Equal(t, "GSI1", aws.ToString(gsi.IndexName))
	assert.Equal(t, []types.KeySchemaElement{
		{AttributeName: aws.String("GSI_PK"), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String("GSI_SK"), KeyType: types.KeyTypeRange},
	}, gsi.KeySchema)
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
		"### Table `adjlist-orders`",
		"| item | PK | SK | GSI_PK | GSI_SK | attributes |",
		"| `USER#<id>` | `METADATA` |  |  | Name, Email |",
		"| `USER#<id>` | `ORDER#<child>` |  |  | Total, Status |",
		"| `STUDENT#<from>` | `COURSE#<to>` | `COURSE#<to>` | `STUDENT#<from>` | Grade |",
		"`PK = \"USER#<id>\"`",
		"`PK = \"STUDENT#<from>\" AND begins_with(SK, \"COURSE#\")`",
		"`GSI_PK = \"COURSE#<to>\" AND begins_with(GSI_SK, \"STUDENT#\")",
	} {
		assert.Contains(t, out.String(), want)
	}
	// The seed stores no student or course items.
	assert.NotContains(t, out.String(), "node STUDENT")
	assert.NotContains(t, out.String(), "node COURSE")
}
