package adjlist

import (
	"io"

	"github.com/adjlist/adjlist/internal/mermaid"
)

// Mermaid writes the model as a Mermaid flowchart in a fenced ```mermaid
// block, which GitHub and most Markdown viewers render as a diagram:
//
//   - each node type a box with its table keys,
//     n_STU["STU<br/>PK = STU#<id>, SK = PROFILE"];
//   - each edge kind a solid arrow from source to target type labelled
//     with its label and forward read, n_STU -->|"ENROLL (Edge.From, table)"| n_CRS,
//     and, where an index serves its reverse read, a dotted arrow back
//     naming the index, n_CRS -.->|"ENROLL reverse (Edge.To, GSI1)"| n_STU;
//   - each item collection a thick arrow from the parent type to a box of
//     its children, n_WS ==>|"PROJ children (Collection.List, table)"| c_WS_PROJ;
//   - each [Entity] a box with its sort key, inside a subgraph of the
//     entities that share its partition key template (they share item
//     collections), subgraph p_0["PK = u#<userID>"] ... e_user["user<br/>SK = info"];
//   - each index but the inverted one a hexagon with its key attributes, and a dotted
//     arrow to every item type in it (an edge kind's from its source type)
//     labelled with its key templates, i_GSI2 -.->|"STATUS#<status> · <createdAt>"| c_WS_PROJ;
//     every index of the model is drawn, as the Markdown, Workbench and
//     CloudFormation exports list them all, an index no described item
//     type is in without arrows.
//
// Labels escape '#', '<', '>' and '"' as Mermaid entity codes (#35;,
// #lt;, #gt;, #quot;). Node ids are the types with characters other than
// letters, digits and '_' replaced by '_'. It returns the write error.
func (m *Model) Mermaid(w io.Writer) error {
	d := mermaid.Model{PartitionKey: m.PartitionKey, SortKey: m.SortKey, InvertedIndex: m.InvertedIndex}
	for _, it := range m.Items {
		item := mermaid.Item{Name: it.Name, Kind: it.Kind, Type: it.Type, From: it.From, To: it.To, PartitionKey: it.PartitionKey, SortKey: it.SortKey}
		for _, k := range it.Indexes {
			item.Indexes = append(item.Indexes, mermaid.Keys{Index: k.Index, PartitionKey: k.PartitionKey, SortKey: k.SortKey})
		}
		d.Items = append(d.Items, item)
	}
	for _, p := range m.AccessPatterns {
		d.AccessPatterns = append(d.AccessPatterns, mermaid.Pattern{Item: p.Item, Call: p.Call, Index: p.Index})
	}
	for _, ix := range m.Indexes {
		partition, sort := ix.KeySchema(m.PartitionKey)
		var names []string
		for _, a := range append(partition, sort...) {
			names = append(names, a.Name)
		}
		d.Indexes = append(d.Indexes, mermaid.Index{Name: ix.Name, Attributes: names})
	}
	return mermaid.Write(w, &d)
}
