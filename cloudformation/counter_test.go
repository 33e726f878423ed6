package cloudformation_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/cloudformation"
)

// A model with a counter exports the table its aggregates need: the
// native index on the counts, its count attribute a Number; the
// aggregates, an item type, add no key attribute of their own.
func TestTemplateCounter(t *testing.T) {
	type named struct {
		Name string `dynamodbav:"name"`
	}
	table := adjlist.NewTable(nil, "school", func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "ByCount",
			PartitionAttributes: []adjlist.KeyAttribute{{Name: "counter"}},
			SortAttributes:      []adjlist.KeyAttribute{{Name: "count", Type: "N"}}}}
	})
	students := adjlist.NewNode[named](table, "STU", "PROFILE")
	courses := adjlist.NewNode[named](table, "CRS", "METADATA")
	adjlist.NewItemCounter(adjlist.NewEdge[named](students, "ENROLL", courses), "ENROLLED", func(o *adjlist.CounterOptions) { o.Per = "to" })
	m, err := adjlist.DescribeModel(table)
	require.NoError(t, err)
	require.Equal(t, "counter", m.Items[len(m.Items)-1].Kind)
	tpl, err := cloudformation.NewTemplate(m)
	require.NoError(t, err)
	p := tpl.Resources["Table"].Properties
	assert.Equal(t, []cloudformation.AttributeDefinition{
		{AttributeName: "PK", AttributeType: "S"}, {AttributeName: "SK", AttributeType: "S"},
		{AttributeName: "GSI1PK", AttributeType: "S"}, {AttributeName: "GSI1SK", AttributeType: "S"},
		{AttributeName: "counter", AttributeType: "S"}, {AttributeName: "count", AttributeType: "N"},
	}, p.AttributeDefinitions)
	require.Len(t, p.GlobalSecondaryIndexes, 2)
	assert.Equal(t, []cloudformation.KeySchemaElement{{AttributeName: "counter", KeyType: "HASH"}, {AttributeName: "count", KeyType: "RANGE"}},
		p.GlobalSecondaryIndexes[1].KeySchema)
}
