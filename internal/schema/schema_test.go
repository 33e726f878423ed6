package schema

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var testTable = &Table{Name: "school", PartitionKey: "PK", SortKey: "SK", Inverted: true, Indexes: []TableIndex{
	{Name: "GSI1", Partition: []KeyAttribute{{"GSI1PK", "S"}}, Sort: []KeyAttribute{{"GSI1SK", "S"}}},
	{Name: "LSI1", Local: true, Partition: []KeyAttribute{{"PK", "S"}}, Sort: []KeyAttribute{{"year", "N"}},
		Projection: types.ProjectionTypeKeysOnly},
	{Name: "BYSK", Partition: []KeyAttribute{{"SK", "S"}}, Sort: []KeyAttribute{{"year", "N"}},
		Projection: types.ProjectionTypeInclude, NonKeyAttributes: []string{"title"}},
}}

// TestInput: every key attribute defined once, local and global indexes
// apart, the inverted index projected as Options say and the others as
// they declare.
func TestInput(t *testing.T) {
	in := Input(testTable, &Options{Projection: types.ProjectionTypeKeysOnly})
	def := func(name string, typ types.ScalarAttributeType) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: typ}
	}
	assert.Equal(t, []types.AttributeDefinition{def("PK", "S"), def("SK", "S"), def("GSI1PK", "S"), def("GSI1SK", "S"), def("year", "N")},
		in.AttributeDefinitions)
	require.Len(t, in.GlobalSecondaryIndexes, 2)
	require.Len(t, in.LocalSecondaryIndexes, 1)
	assert.Equal(t, &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}, in.GlobalSecondaryIndexes[0].Projection)
	assert.Equal(t, &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"title"}},
		in.GlobalSecondaryIndexes[1].Projection)
	assert.Equal(t, []types.KeySchemaElement{
		{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String("year"), KeyType: types.KeyTypeRange},
	}, in.LocalSecondaryIndexes[0].KeySchema)
}

// TestCheckIndexNames: per-index throughput names a global index of the
// table.
func TestCheckIndexNames(t *testing.T) {
	one := types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(1)}
	for _, tt := range []struct {
		name  string
		index string
		ok    bool
	}{{"global", "BYSK", true}, {"inverted", "GSI1", true}, {"local", "LSI1", false}, {"unknown", "GSI9", false}} {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckCreate(testTable, &Options{IndexOnDemandThroughput: map[string]types.OnDemandThroughput{tt.index: one}})
			if tt.ok {
				assert.NoError(t, err)
			} else {
				assert.Error(t, err)
			}
		})
	}
}
