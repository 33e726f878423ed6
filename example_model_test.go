package adjlist_test

import (
	"fmt"
	"log"
	"os"

	"github.com/adjlist/adjlist"
)

func ExampleDescribeModel() {
	table := adjlist.NewTable(nil, "tenancy", func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ", func(o *adjlist.CollectionOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2",
			PartitionKey: adjlist.Template("STATUS#{status}"),
			SortKey:      adjlist.Template("{@self}")}}
	})
	m, err := adjlist.DescribeModel(table, workspaces, projects)
	if err != nil {
		log.Fatal(err)
	}
	for _, it := range m.Items {
		fmt.Println(it.Name, it.PartitionKey, it.SortKey, it.Indexes)
	}
	for _, p := range m.AccessPatterns {
		if p.Index == "GSI2" {
			fmt.Println(p.Call, p.KeyCondition)
		}
	}
	// Output:
	// node WS WS#<id> META []
	// child PROJ of WS WS#<id> PROJ#<child> [{GSI2 STATUS#<status> PROJ#<child> 0}]
	// Collection.ByIndex("GSI2", "<status>") (GSI2PK = "STATUS#<status>") AND (begins_with (GSI2SK, "PROJ#"))
}

func ExampleModel_Mermaid() {
	table := adjlist.NewTable(nil, "school")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	m, err := adjlist.DescribeModel(table, students, courses, enrolled)
	if err != nil {
		log.Fatal(err)
	}
	if err := m.Mermaid(os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// ```mermaid
	// flowchart LR
	//   n_STU["STU<br/>PK = STU#35;#lt;id#gt;, SK = PROFILE"]
	//   n_CRS["CRS<br/>PK = CRS#35;#lt;id#gt;, SK = METADATA"]
	//   n_STU -->|"ENROLL (Edge.From, table)"| n_CRS
	//   n_CRS -.->|"ENROLL reverse (Edge.To, GSI1)"| n_STU
	// ```
}
