package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/internal/ddbtest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// seedItems is seed 000's table: each item's key attributes and the names of
// its own attributes.
var seedItems = map[[2]string]struct {
	gsi1pk, gsi1sk string
	attrs          []string
}{
	{"STU#a91", "PROFILE"}:            {"", "", []string{"major", "name", "year"}},
	{"STU#b30", "PROFILE"}:            {"", "", []string{"major", "name", "year"}},
	{"STU#a91", "ENROLL#CRS#math204"}: {"CRS#math204", "STU#a91", []string{"enrolledOn", "grade"}},
	{"STU#b30", "ENROLL#CRS#math204"}: {"CRS#math204", "STU#b30", []string{"enrolledOn", "grade"}},
	{"STU#a91", "ENROLL#CRS#cs101"}:   {"CRS#cs101", "STU#a91", []string{"enrolledOn", "grade"}},
	{"CRS#math204", "METADATA"}:       {"", "", []string{"credits", "term", "title"}},
	{"CRS#cs101", "METADATA"}:         {"", "", []string{"credits", "term", "title"}},
}

func TestRunWritesSeedTable(t *testing.T) {
	db := ddbtest.Client(t)
	table := ddbtest.TableName(t)
	ctx := context.Background()
	t.Cleanup(func() {
		_, err := db.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(table)})
		require.NoError(t, err)
	})

	// Twice: the second run must find the data in place and change nothing.
	for i := range 2 {
		var out bytes.Buffer
		require.NoError(t, run(ctx, db, table, false, &out), "run %d", i)
		assert.Contains(t, out.String(), "duplicate enrolment refused")
		assert.Contains(t, out.String(), "math204 roster (GSI1):\n  a91\n  b30\n")
		assertSeedTable(t, db, table)
	}
}

// assertSeedTable scans the table raw and compares it item for item with
// the seed.
func assertSeedTable(t *testing.T, db *dynamodb.Client, table string) {
	t.Helper()
	out, err := db.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(table)})
	require.NoError(t, err)
	require.Nil(t, out.LastEvaluatedKey)
	require.Len(t, out.Items, len(seedItems))
	for _, item := range out.Items {
		pk := item["PK"].(*types.AttributeValueMemberS).Value
		sk := item["SK"].(*types.AttributeValueMemberS).Value
		want, ok := seedItems[[2]string{pk, sk}]
		require.True(t, ok, "unexpected item %s / %s", pk, sk)
		var attrs []string
		for name, v := range item {
			switch name {
			case "PK", "SK":
			case "GSI1PK":
				assert.Equal(t, want.gsi1pk, v.(*types.AttributeValueMemberS).Value)
			case "GSI1SK":
				assert.Equal(t, want.gsi1sk, v.(*types.AttributeValueMemberS).Value)
			default:
				attrs = append(attrs, name)
			}
		}
		if want.gsi1pk == "" {
			assert.NotContains(t, item, "GSI1PK", "%s / %s is not in the index", pk, sk)
			assert.NotContains(t, item, "GSI1SK")
		} else {
			assert.Contains(t, item, "GSI1PK")
			assert.Contains(t, item, "GSI1SK")
		}
		assert.ElementsMatch(t, want.attrs, attrs, "%s / %s", pk, sk)
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
