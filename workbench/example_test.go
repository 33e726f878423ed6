package workbench_test

import (
	"fmt"
	"log"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/workbench"
)

func ExampleNew() {
	table := adjlist.NewTable(nil, "school")
	students := adjlist.NewNode[student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[enrollment](students, "ENROLL", courses)
	m, err := adjlist.DescribeModel(table, students, courses, enrolled)
	if err != nil {
		log.Fatal(err)
	}
	f, err := workbench.New(m, func(o *workbench.Options) {
		o.Date = time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
		o.Items = []map[string]types.AttributeValue{{
			"PK": &types.AttributeValueMemberS{Value: "STU#a91"}, "SK": &types.AttributeValueMemberS{Value: "PROFILE"},
			"name": &types.AttributeValueMemberS{Value: "Ada"},
		}}
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(f.ModelName, f.ModelMetadata.DateCreated)
	t := f.DataModel[0]
	for _, g := range t.GlobalSecondaryIndexes {
		fmt.Println(g.IndexName, g.KeyAttributes.PartitionKey.AttributeName, g.KeyAttributes.SortKey.AttributeName, g.Projection.ProjectionType)
	}
	for _, facet := range t.TableFacets {
		fmt.Println(facet.FacetName, facet.KeyAttributeAlias.PartitionKeyAlias, facet.KeyAttributeAlias.SortKeyAlias, len(facet.TableData))
	}
	// Output:
	// school Nov 23, 2026, 09:30 AM
	// GSI1 GSI1PK GSI1SK ALL
	// node_STU STU#<id> PROFILE 1
	// node_CRS CRS#<id> METADATA 0
	// edge_ENROLL_STU_CRS STU#<from> ENROLL#CRS#<to> 0
}
