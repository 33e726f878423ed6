package modeldoc

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Mermaid writes m as a fenced ```mermaid flowchart to w, in one write.
func Mermaid(w io.Writer, m *Model) error {
	var b strings.Builder
	b.WriteString("```mermaid\nflowchart LR\n")
	declared := map[string]bool{}
	node := func(typ, label string) string {
		id := "n_" + idOf(typ)
		if !declared[id] {
			declared[id] = true
			if label == "" {
				label = typ
			}
			fmt.Fprintf(&b, "  %s[\"%s\"]\n", id, escape(label))
		}
		return id
	}
	for _, it := range m.Items {
		if it.Kind == "node" {
			node(it.Type, fmt.Sprintf("%s\x00%s = %s, %s = %s", it.Type, m.PartitionKey, it.PartitionKey, m.SortKey, it.SortKey))
		}
	}
	// end is the diagram node of an edge's end: a node type's, or for
	// children ("WS/PROJ", "ORG/PROJ/ISSUE") their collection's box.
	end := func(name string) string {
		if strings.Contains(name, "/") {
			return "c_" + idOf(name)
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
			fmt.Fprintf(&b, "  %s -->|\"%s\"| %s\n", from, escape(label+" (Edge.From, table)"), to)
			for _, p := range m.AccessPatterns {
				if p.Item == it.Name && p.Call == "Edge.To" {
					fmt.Fprintf(&b, "  %s -.->|\"%s\"| %s\n", to, escape(fmt.Sprintf("%s reverse (Edge.To, %s)", label, p.Index)), from)
				}
			}
		case "child":
			parent := end(it.From)
			id := "c_" + idOf(it.From) + "_" + idOf(it.Type)
			itemNode[it.Name] = id
			fmt.Fprintf(&b, "  %s[\"%s\"]\n", id, escape(fmt.Sprintf("%s (child of %s)\x00%s = %s", it.Type, it.From, m.SortKey, it.SortKey)))
			fmt.Fprintf(&b, "  %s ==>|\"%s\"| %s\n", parent, escape(it.Type+" children (Collection.List, table)"), id)
		case "counter":
			// A count item in each partition of what it counts under: a
			// node type's, or a collection's children's; an Entity's
			// counts (To "") hang under nothing drawn.
			id := "k_" + idOf(it.To) + "_" + idOf(it.Type)
			itemNode[it.Name] = id
			if it.To == "" {
				fmt.Fprintf(&b, "  %s[\"%s\"]\n", id, escape(fmt.Sprintf("%s (counter)\x00%s = %s", it.Type, m.SortKey, it.SortKey)))
				break
			}
			fmt.Fprintf(&b, "  %s[\"%s\"]\n", id, escape(fmt.Sprintf("%s (counter of %s)\x00%s = %s", it.Type, it.To, m.SortKey, it.SortKey)))
			fmt.Fprintf(&b, "  %s ---|\"%s\"| %s\n", end(it.To), escape(it.Type+" count (ItemCounter.Get, table)"), id)
		}
	}
	// Entities sharing a partition key template share item collections:
	// a box each, in one subgraph per partition key.
	var partitions []string
	byPartition := map[string][]Item{}
	for _, it := range m.Items {
		if it.Kind == "entity" {
			if _, ok := byPartition[it.PartitionKey]; !ok {
				partitions = append(partitions, it.PartitionKey)
			}
			byPartition[it.PartitionKey] = append(byPartition[it.PartitionKey], it)
		}
	}
	for i, pk := range partitions {
		fmt.Fprintf(&b, "  subgraph p_%d[\"%s\"]\n", i, escape(m.PartitionKey+" = "+pk))
		for _, it := range byPartition[pk] {
			id := "e_" + idOf(it.Type)
			itemNode[it.Name] = id
			fmt.Fprintf(&b, "    %s[\"%s\"]\n", id, escape(fmt.Sprintf("%s\x00%s = %s", it.Type, m.SortKey, it.SortKey)))
		}
		b.WriteString("  end\n")
	}
	for _, ix := range m.Indexes {
		if ix.Name == m.InvertedIndex {
			continue
		}
		fmt.Fprintf(&b, "  i_%s{{\"%s\"}}\n", idOf(ix.Name), escape(ix.Name+"\x00"+strings.Join(slices.Concat(ix.Partition, ix.Sort), ", ")))
		for _, it := range m.Items {
			k, ok := it.keysIn(ix.Name)
			if !ok {
				continue
			}
			label := k.PartitionKey
			if k.SortKey != "" {
				label += " · " + k.SortKey
			}
			if it.Kind == "edge" {
				label = strings.TrimSpace(it.Type+" edges") + ": " + label
			}
			fmt.Fprintf(&b, "  i_%s -.->|\"%s\"| %s\n", idOf(ix.Name), escape(label), itemNode[it.Name])
		}
	}
	b.WriteString("```\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// idOf is s as a Mermaid node id: letters, digits, '_' for the rest.
func idOf(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			return r
		}
		return '_'
	}, s)
}

// escape escapes s for a quoted Mermaid label; a NUL becomes a line break.
func escape(s string) string {
	return strings.NewReplacer("#", "#35;", "<", "#lt;", ">", "#gt;", `"`, "#quot;", "\x00", "<br/>").Replace(s)
}
