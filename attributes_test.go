package adjlist_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// jsonTagKey makes a table's encoder and decoder read `json` tags.
func jsonTagKey(o *adjlist.Options) {
	o.EncoderOptions = func(eo *attributevalue.EncoderOptions) { eo.TagKey = "json" }
	o.DecoderOptions = func(do *attributevalue.DecoderOptions) { do.TagKey = "json" }
}

// TestDescribeNamesAttributesByTableTagKey: the model names a data type's
// attributes as the table's encoder writes them: its json tags under
// TagKey "json", a dynamodbav tag where the field has no json tag, "-"
// skipped, a number tagged ",string" a string.
func TestDescribeNamesAttributesByTableTagKey(t *testing.T) {
	type student struct {
		Name  string `json:"name"`
		Year  int    `dynamodbav:"year"`
		Note  string `json:"note,omitempty" dynamodbav:"nb"`
		Rank  int    `json:"rank,string"`
		Notes string `json:"-"`
	}
	table := adjlist.NewTable(nil, "school", jsonTagKey)
	students := adjlist.NewNode[student](table, "STU", "PROFILE")
	m, err := adjlist.DescribeModel(table, students)
	require.NoError(t, err)
	assert.Equal(t, []adjlist.Attribute{{Name: "name", Type: "S"}, {Name: "year", Type: "N"}, {Name: "note", Type: "S"}, {Name: "rank", Type: "S"}},
		m.Items[0].Attributes)

	var b strings.Builder
	require.NoError(t, adjlist.Describe(&b, table, students))
	assert.Contains(t, b.String(), "| name, year, note, rank |")
}

// TestKeyFieldByDynamodbavTagUnderTableTagKey: under TagKey "json", a key
// field the Go type names by its dynamodbav tag alone (the encoder reads
// dynamodbav whatever TagKey) is the item's own value, as under the
// default tag key: a write takes it from the data, a read fills it in.
func TestKeyFieldByDynamodbavTagUnderTableTagKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), jsonTagKey, func(o *adjlist.Options) { o.NoIndex = true })
	ddbtest.CreateTable(t, table)
	type device struct {
		DeviceID string `dynamodbav:"deviceId"`
		Model    string `json:"model"`
	}
	devices := adjlist.NewEntity[device](table, "device", "d#{deviceId}", "meta")
	require.NoError(t, table.Check())
	require.NoError(t, devices.Put(ctx, nil, device{DeviceID: "d1", Model: "x"}), "the id is the data's")
	out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table.Name()), Key: adjlist.Item{"PK": av("d#d1"), "SK": av("meta")}})
	require.NoError(t, err)
	assert.Equal(t, adjlist.Item{"PK": av("d#d1"), "SK": av("meta"), "deviceId": av("d1"), "model": av("x")}, out.Item)
	assert.ErrorIs(t, devices.Put(ctx, adjlist.IDs{"d2"}, device{DeviceID: "d1"}), adjlist.ErrInvalidKey)
}
