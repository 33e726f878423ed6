package adjlist

import (
	"io"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/modeldoc"
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
//   - each edge's [ItemCounter] per target a box of its count items linked to their node
//     type, n_CRS ---|"ENROLLED count (ItemCounter.Get, table)"| k_CRS_ENROLLED;
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
func (m *Model) Mermaid(w io.Writer) error { return modeldoc.Mermaid(w, m.doc()) }

// doc is m as internal/modeldoc draws it, for Mermaid and [Describe].
func (m *Model) doc() *modeldoc.Model {
	d := &modeldoc.Model{Table: m.Table, PartitionKey: m.PartitionKey, SortKey: m.SortKey, InvertedIndex: m.InvertedIndex, TimeToLive: m.TimeToLive}
	for _, it := range m.Items {
		item := modeldoc.Item{Name: it.Name, Kind: it.Kind, Type: it.Type, From: it.From, To: it.To, PartitionKey: it.PartitionKey, SortKey: it.SortKey}
		for _, a := range it.Attributes {
			item.Attributes = append(item.Attributes, a.Name)
		}
		for _, k := range it.Indexes {
			item.Indexes = append(item.Indexes, modeldoc.Keys(k))
		}
		d.Items = append(d.Items, item)
	}
	for _, p := range m.AccessPatterns {
		d.AccessPatterns = append(d.AccessPatterns, modeldoc.Pattern(p))
	}
	for _, ix := range m.Indexes {
		partition, sort := ix.KeySchema(m.PartitionKey)
		x := modeldoc.Index{Name: ix.Name, Local: ix.Local, Native: ix.native(), Projection: ix.Projection, NonKeyAttributes: ix.NonKeyAttributes,
			Partition: attrNames(partition), Sort: attrNames(sort)}
		for _, a := range slices.Concat(ix.PartitionAttributes, ix.SortAttributes) {
			if a.Type == types.ScalarAttributeTypeN {
				x.Numbers = append(x.Numbers, a.Name)
			}
		}
		d.Indexes = append(d.Indexes, x)
	}
	return d
}
