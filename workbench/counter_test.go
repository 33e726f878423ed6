package workbench_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/workbench"
)

// A counter's aggregates are a facet of their own, counter_ENROLLED, with
// the aggregate items as its data, and ItemCounter.Get in the description:
// not a second node_CRS facet.
func TestWorkbenchCounterFacet(t *testing.T) {
	table := adjlist.NewTable(nil, "school")
	students := adjlist.NewNode[student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[enrollment](students, "ENROLL", courses)
	adjlist.NewItemCounter(enrolled, "ENROLLED", func(o *adjlist.CounterOptions) { o.Per = "to" })
	m, err := adjlist.DescribeModel(table)
	require.NoError(t, err)
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	course := map[string]types.AttributeValue{"PK": s("CRS#math204"), "SK": s("METADATA"), "title": s("Algebra")}
	count := map[string]types.AttributeValue{"PK": s("CRS#math204"), "SK": s("ENROLLED"),
		"counter": s("ENROLLED"), "count": &types.AttributeValueMemberN{Value: "2"}}
	f, err := workbench.New(m, func(o *workbench.Options) { o.Items = []map[string]types.AttributeValue{course, count} })
	require.NoError(t, err)

	facets := map[string]workbench.Facet{}
	var names []string
	for _, fc := range f.DataModel[0].TableFacets {
		facets[fc.FacetName] = fc
		names = append(names, fc.FacetName)
	}
	assert.Equal(t, []string{"node_STU", "node_CRS", "edge_ENROLL_STU_CRS", "counter_ENROLLED"}, names)
	agg := facets["counter_ENROLLED"]
	assert.Equal(t, workbench.KeyAttributeAlias{PartitionKeyAlias: "CRS#<id>", SortKeyAlias: "ENROLLED"}, agg.KeyAttributeAlias)
	assert.Equal(t, []string{"counter", "count"}, agg.NonKeyAttributes)
	require.Len(t, agg.TableData, 1)
	assert.Equal(t, &types.AttributeValueMemberN{Value: "2"}, agg.TableData[0]["count"].AttributeValue)
	require.Len(t, facets["node_CRS"].TableData, 1)
	assert.Equal(t, &types.AttributeValueMemberS{Value: "METADATA"}, facets["node_CRS"].TableData[0]["SK"].AttributeValue)
	assert.Contains(t, f.ModelMetadata.Description,
		"\n- one CRS's ENROLLED count: ItemCounter.Get, GetItem PK = \"CRS#<id>\" AND SK = \"ENROLLED\" on table")
}
