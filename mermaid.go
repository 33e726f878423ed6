package adjlist

import (
	"fmt"
	"io"
	"strings"
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
	var b strings.Builder
	b.WriteString("```mermaid\nflowchart LR\n")
	declared := map[string]bool{}
	node := func(typ, label string) string {
		id := "n_" + mermaidID(typ)
		if !declared[id] {
			declared[id] = true
			if label == "" {
				label = typ
			}
			fmt.Fprintf(&b, "  %s[\"%s\"]\n", id, mermaidText(label))
		}
		return id
	}
	for _, it := range m.Items {
		if it.Kind == "node" {
			node(it.Type, fmt.Sprintf("%s\x00%s = %s, %s = %s", it.Type, m.PartitionKey, it.PartitionKey, m.SortKey, it.SortKey))
		}
	}
	// end is the diagram node of an edge's end: a node type's, or for
	// children ("WS/PROJ") their collection's box.
	end := func(name string) string {
		if parent, child, ok := strings.Cut(name, "/"); ok {
			return "c_" + mermaidID(parent) + "_" + mermaidID(child)
		}
		return node(name, "")
	}
	itemNode := map[string]string{} // item type name → the diagram node its index arrows point at
	for _, it := range m.Items {
		switch it.Kind {
		case "node":
			itemNode[it.Name] = node(it.Type, "")
		case "edge":
			from, to := end(it.From), end(it.To)
			itemNode[it.Name] = from
			label := it.Type
			if label == "" {
				label = "edge"
			}
			fmt.Fprintf(&b, "  %s -->|\"%s\"| %s\n", from, mermaidText(label+" (Edge.From, table)"), to)
			for _, p := range m.AccessPatterns {
				if p.Item == it.Name && p.Call == "Edge.To" {
					fmt.Fprintf(&b, "  %s -.->|\"%s\"| %s\n", to, mermaidText(fmt.Sprintf("%s reverse (Edge.To, %s)", label, p.Index)), from)
				}
			}
		case "child":
			parent := node(it.From, "")
			id := "c_" + mermaidID(it.From) + "_" + mermaidID(it.Type)
			itemNode[it.Name] = id
			fmt.Fprintf(&b, "  %s[\"%s\"]\n", id, mermaidText(fmt.Sprintf("%s (child of %s)\x00%s = %s", it.Type, it.From, m.SortKey, it.SortKey)))
			fmt.Fprintf(&b, "  %s ==>|\"%s\"| %s\n", parent, mermaidText(it.Type+" children (Collection.List, table)"), id)
		}
	}
	// Entities sharing a partition key template share item collections:
	// a box each, in one subgraph per partition key.
	var partitions []string
	byPartition := map[string][]ItemType{}
	for _, it := range m.Items {
		if it.Kind == "entity" {
			if _, ok := byPartition[it.PartitionKey]; !ok {
				partitions = append(partitions, it.PartitionKey)
			}
			byPartition[it.PartitionKey] = append(byPartition[it.PartitionKey], it)
		}
	}
	for i, pk := range partitions {
		fmt.Fprintf(&b, "  subgraph p_%d[\"%s\"]\n", i, mermaidText(m.PartitionKey+" = "+pk))
		for _, it := range byPartition[pk] {
			id := "e_" + mermaidID(it.Type)
			itemNode[it.Name] = id
			fmt.Fprintf(&b, "    %s[\"%s\"]\n", id, mermaidText(fmt.Sprintf("%s\x00%s = %s", it.Type, m.SortKey, it.SortKey)))
		}
		b.WriteString("  end\n")
	}
	for _, ix := range m.Indexes {
		var links []string
		for _, it := range m.Items {
			k, ok := it.keysIn(ix.Name)
			if !ok || ix.Name == m.InvertedIndex {
				continue
			}
			label := k.PartitionKey
			if k.SortKey != "" {
				label += " · " + k.SortKey
			}
			if it.Kind == "edge" {
				label = strings.TrimSpace(it.Type+" edges") + ": " + label
			}
			links = append(links, fmt.Sprintf("  i_%s -.->|\"%s\"| %s\n", mermaidID(ix.Name), mermaidText(label), itemNode[it.Name]))
		}
		if ix.Name == m.InvertedIndex {
			continue
		}
		attrs := ixAttrNames(ix, m.PartitionKey)
		fmt.Fprintf(&b, "  i_%s{{\"%s\"}}\n", mermaidID(ix.Name), mermaidText(ix.Name+"\x00"+attrs))
		b.WriteString(strings.Join(links, ""))
	}
	b.WriteString("```\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// ixAttrNames lists an index's key attributes for its box: "GSI2PK,
// GSI2SK", a local index's partition being the table's.
func ixAttrNames(ix Index, tablePK string) string {
	partition, sort := ix.KeySchema(tablePK)
	var names []string
	for _, a := range append(partition, sort...) {
		names = append(names, a.Name)
	}
	return strings.Join(names, ", ")
}

// mermaidID keeps letters, digits and '_' of s, replacing the rest by '_'.
func mermaidID(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			return r
		}
		return '_'
	}, s)
}

// mermaidText escapes a label for a quoted Mermaid label; a NUL becomes a
// line break.
func mermaidText(s string) string {
	return strings.NewReplacer("#", "#35;", "<", "#lt;", ">", "#gt;", `"`, "#quot;", "\x00", "<br/>").Replace(s)
}
