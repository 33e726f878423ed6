package workbench_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/workbench"
)

// TestWorkbenchNumberTableKey: New's table key attributes are "typed as
// adjlist.Model.PartitionKeyType and SortKeyType say", and a sample item
// needs "the table's key attributes of their types (strings, or numbers
// on a number key)": a number on the number key goes into its facet, a
// string there is an error.
func TestWorkbenchNumberTableKey(t *testing.T) {
	table := adjlist.NewTable(nil, "scores", func(o *adjlist.Options) {
		o.NoIndex, o.PartitionKeyType = true, types.ScalarAttributeTypeN
	})
	players := adjlist.NewEntity[userInfo](table, "player", "{id}", "info")
	m, err := adjlist.DescribeModel(table, players)
	require.NoError(t, err)
	item := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberN{Value: "42"}, "SK": s("info"), "name": s("Ada")}
	f, err := workbench.New(m, func(o *workbench.Options) { o.Items = []map[string]types.AttributeValue{item} })
	require.NoError(t, err)
	tbl := f.DataModel[0]
	assert.Equal(t, workbench.Attribute{AttributeName: "PK", AttributeType: "N"}, tbl.KeyAttributes.PartitionKey)
	assert.Equal(t, &workbench.Attribute{AttributeName: "SK", AttributeType: "S"}, tbl.KeyAttributes.SortKey)
	require.Len(t, tbl.TableFacets, 1)
	assert.Equal(t, []workbench.Item{workbench.NewItem(item)}, tbl.TableFacets[0].TableData)

	_, err = workbench.New(m, func(o *workbench.Options) {
		o.Items = []map[string]types.AttributeValue{{"PK": s("42"), "SK": s("info")}}
	})
	assert.Error(t, err, "a string on the number key")
}

// TestWorkbenchOptionsZeroMeansDefault: "The zero value of each field
// means its default", set explicitly too: ModelName "" is the table name
// and Author "" is "adjlist" (they were written empty).
func TestWorkbenchOptionsZeroMeansDefault(t *testing.T) {
	table := adjlist.NewTable(nil, "social")
	users := adjlist.NewEntity[userInfo](table, "user", "u#{userID}", "info")
	m, err := adjlist.DescribeModel(table, users)
	require.NoError(t, err)
	f, err := workbench.New(m, func(o *workbench.Options) { o.ModelName, o.Author, o.Projection = "", "", "" })
	require.NoError(t, err)
	assert.Equal(t, "social", f.ModelName)
	assert.Equal(t, "adjlist", f.ModelMetadata.Author)
	assert.Equal(t, "ALL", f.DataModel[0].GlobalSecondaryIndexes[0].Projection.ProjectionType)
}
