package adjlist_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// TestGetReplaceIdenticalTakesTheEncodersView: Get then Replace of an
// unchanged item another program wrote stores it as it was when the Go
// type declares its attributes as the encoder writes them: a field an
// item may lack is omitempty. A field without it is written as its zero
// value (the encoder's rule, as PutItem of attributevalue.MarshalMap
// writes it), which is why the README names the condition.
func TestGetReplaceIdenticalTakesTheEncodersView(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) { o.NoIndex = true })
	ddbtest.CreateTable(t, table)
	type sparse struct {
		ID    string `dynamodbav:"id"`
		Level int    `dynamodbav:"level,omitempty"`
		Note  string `dynamodbav:"note,omitempty"`
	}
	type dense struct {
		ID    string `dynamodbav:"id"`
		Level int    `dynamodbav:"level"`
		Note  string `dynamodbav:"note"`
	}
	sparseE := adjlist.NewEntity[sparse](table, "sparse", "s#{id}", "meta")
	denseE := adjlist.NewEntity[dense](table, "dense", "d#{id}", "meta")
	require.NoError(t, table.Check())
	raw := func(pk string) adjlist.Item {
		out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table.Name()), ConsistentRead: aws.Bool(true),
			Key: adjlist.Item{"PK": av(pk), "SK": av("meta")}})
		require.NoError(t, err)
		return out.Item
	}
	for _, pk := range []string{"s#1", "d#1"} {
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table.Name()),
			Item: adjlist.Item{"PK": av(pk), "SK": av("meta"), "id": av("1")}}) // no level, no note
		require.NoError(t, err)
	}
	s, err := sparseE.Get(ctx, adjlist.IDs{"1"})
	require.NoError(t, err)
	require.NoError(t, sparseE.Replace(ctx, nil, s))
	assert.Equal(t, adjlist.Item{"PK": av("s#1"), "SK": av("meta"), "id": av("1")}, raw("s#1"), "omitempty: as it was")

	d, err := denseE.Get(ctx, adjlist.IDs{"1"})
	require.NoError(t, err)
	require.NoError(t, denseE.Replace(ctx, nil, d))
	assert.Equal(t, adjlist.Item{"PK": av("d#1"), "SK": av("meta"), "id": av("1"), "level": &typesN{Value: "0"}, "note": av("")}, raw("d#1"),
		"without omitempty, the encoder writes the zero values")
}
