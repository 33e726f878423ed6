package cloudformation_test

import (
	"log"
	"os"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/cloudformation"
)

func ExampleWrite() {
	type project struct {
		Status string `dynamodbav:"status"`
	}
	table := adjlist.NewTable(nil, "tenancy", func(o *adjlist.Options) {
		o.PartitionKey, o.SortKey, o.NoIndex = "EntityRef", "Detail", true
		o.Indexes = []adjlist.Index{{Name: "BYSTATUS", PartitionAttributes: []adjlist.KeyAttribute{{Name: "status"}}}}
	})
	workspaces := adjlist.NewNode[struct{}](table, "WS", "META")
	projects := adjlist.NewCollection[project](workspaces, "PROJ")
	m, err := adjlist.DescribeModel(table, workspaces, projects)
	if err != nil {
		log.Fatal(err)
	}
	if err := cloudformation.Write(os.Stdout, m); err != nil {
		log.Fatal(err)
	}
	// Output:
	// {
	//   "AWSTemplateFormatVersion": "2010-09-09",
	//   "Resources": {
	//     "Table": {
	//       "Type": "AWS::DynamoDB::Table",
	//       "DeletionPolicy": "Retain",
	//       "UpdateReplacePolicy": "Retain",
	//       "Properties": {
	//         "TableName": "tenancy",
	//         "BillingMode": "PAY_PER_REQUEST",
	//         "AttributeDefinitions": [
	//           {
	//             "AttributeName": "EntityRef",
	//             "AttributeType": "S"
	//           },
	//           {
	//             "AttributeName": "Detail",
	//             "AttributeType": "S"
	//           },
	//           {
	//             "AttributeName": "status",
	//             "AttributeType": "S"
	//           }
	//         ],
	//         "KeySchema": [
	//           {
	//             "AttributeName": "EntityRef",
	//             "KeyType": "HASH"
	//           },
	//           {
	//             "AttributeName": "Detail",
	//             "KeyType": "RANGE"
	//           }
	//         ],
	//         "GlobalSecondaryIndexes": [
	//           {
	//             "IndexName": "BYSTATUS",
	//             "KeySchema": [
	//               {
	//                 "AttributeName": "status",
	//                 "KeyType": "HASH"
	//               }
	//             ],
	//             "Projection": {
	//               "ProjectionType": "ALL"
	//             }
	//           }
	//         ],
	//         "DeletionProtectionEnabled": true,
	//         "PointInTimeRecoverySpecification": {
	//           "PointInTimeRecoveryEnabled": true
	//         }
	//       }
	//     }
	//   }
	// }
}
