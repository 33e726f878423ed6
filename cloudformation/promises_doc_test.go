package cloudformation_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/cloudformation"
)

// TestTemplateNumberTableKey: NewTemplate's table keys are typed as the
// model's (Model.PartitionKeyType and SortKeyType), as CreateTable makes
// them: a table keyed on a number gets an N attribute definition, so the
// template's table is the one the model's writes and queries expect.
func TestTemplateNumberTableKey(t *testing.T) {
	table := adjlist.NewTable(nil, "scores", func(o *adjlist.Options) {
		o.NoIndex, o.PartitionKeyType = true, types.ScalarAttributeTypeN
	})
	players := adjlist.NewEntity[student](table, "player", "{id}", "info")
	m, err := adjlist.DescribeModel(table, players)
	require.NoError(t, err)
	require.Equal(t, types.ScalarAttributeTypeN, m.PartitionKeyType)
	tpl := lint(t, m)
	p := tpl.Resources["Table"].Properties
	assert.Equal(t, []cloudformation.AttributeDefinition{{AttributeName: "PK", AttributeType: "N"}, {AttributeName: "SK", AttributeType: "S"}},
		p.AttributeDefinitions)
}

// TestTemplateOptionsZeroMeansDefault: "The zero value of each field
// means its default", set explicitly too: LogicalID "" is "Table" and
// DeletionPolicy "" is Retain (they were an empty logical id and an
// error).
func TestTemplateOptionsZeroMeansDefault(t *testing.T) {
	table := adjlist.NewTable(nil, "school")
	students := adjlist.NewNode[student](table, "STU", "PROFILE")
	m, err := adjlist.DescribeModel(table, students)
	require.NoError(t, err)
	tpl, err := cloudformation.NewTemplate(m, func(o *cloudformation.Options) {
		o.LogicalID, o.DeletionPolicy, o.Projection = "", "", ""
	})
	require.NoError(t, err)
	require.Contains(t, tpl.Resources, "Table")
	r := tpl.Resources["Table"]
	assert.Equal(t, "Retain", r.DeletionPolicy)
	assert.Equal(t, "Retain", r.UpdateReplacePolicy)
	assert.Equal(t, "ALL", r.Properties.GlobalSecondaryIndexes[0].Projection.ProjectionType)
}
