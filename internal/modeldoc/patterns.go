package modeldoc

import "fmt"

// Table is what the access patterns of a handle name of its table: its
// key attributes and its inverted index's.
type Table struct {
	PartitionKey, SortKey                  string
	Index, IndexPartitionKey, IndexSortKey string
	// SortKeyIndex: the inverted index is keyed on the table's sort key
	// (partition) and partition key (sort); PartitionOnly: on its sort
	// key alone; NoIndex: there is none.
	SortKeyIndex, PartitionOnly, NoIndex bool
}

// get is the key condition of a GetItem of pk and sk.
func (t Table) get(pk, sk string) string {
	return fmt.Sprintf("%s = %q AND %s = %q", t.PartitionKey, pk, t.SortKey, sk)
}

// list is the key condition of a Query of partition pk's sort keys from
// prefix.
func (t Table) list(pk, prefix string) string {
	return fmt.Sprintf("%s = %q AND begins_with(%s, %q)", t.PartitionKey, pk, t.SortKey, prefix)
}

// Inverted is an item type's entry in the inverted index, keyed pk then
// sk on the table's index key attributes: an edge's endpoints' node keys,
// or on an index keyed on the table's sort key every item's sort and
// partition keys (its sort key alone when PartitionOnly).
func (t Table) Inverted(pk, sk []Part) IndexFormats {
	x := IndexFormats{Index: t.Index, PartitionKey: []Format{{Attribute: t.IndexPartitionKey, Parts: pk}}}
	if !t.PartitionOnly {
		x.SortKey = []Format{{Attribute: t.IndexSortKey, Parts: sk}}
	}
	return x
}

// GetPattern is the GetItem of item type item's item keyed pk and sk
// (with placeholders) by call.
func GetPattern(t Table, name, call, item, pk, sk string) Pattern {
	return Pattern{Name: name, Call: call, Request: "GetItem", KeyCondition: t.get(pk, sk), On: "table", Item: item}
}

// Edge is what an edge kind's access patterns show of it.
type Edge struct {
	Item                  string // the item type's name
	Label, Source, Target string // its label ("" none) and end types ("STU", "WS/PROJ")
	SourceIsChild         bool   // its source is a collection's children: no node item to load
	// PartitionKey, SortKey and InvertedKey are its keys with
	// placeholders: "STU#<from>", "ENROLL#CRS#<to>", and its inverted
	// index partition "CRS#<to>#<shard of from, 8>".
	PartitionKey, SortKey, InvertedKey string
	// Prefix is its sort keys' prefix ("ENROLL#CRS#"), SourcePrefix its
	// sources' ("STU#").
	Prefix, SourcePrefix string
	Shards               int // inverted index partitions per target; 0 or 1: one
}

// EdgePatterns are the reads of an edge kind: forward and reverse, one
// edge, and its source's item with its edges.
func EdgePatterns(t Table, e Edge) []Pattern {
	rev := fmt.Sprintf("%s = %q AND begins_with(%s, %q)", t.IndexPartitionKey, e.InvertedKey, t.IndexSortKey, e.SourcePrefix)
	revRequest := "Query"
	if e.Shards > 1 {
		revRequest = fmt.Sprintf("%d Queries in parallel, merged", e.Shards)
	}
	switch {
	case t.SortKeyIndex:
		rev = fmt.Sprintf("%s = %q AND begins_with(%s, %q)", t.SortKey, e.SortKey, t.PartitionKey, e.SourcePrefix)
	case t.PartitionOnly:
		rev = fmt.Sprintf("%s = %q; filter begins_with(%s, %q)", t.SortKey, e.SortKey, t.PartitionKey, e.SourcePrefix)
	default:
		rev += fmt.Sprintf("; filter begins_with(%s, %q)", t.SortKey, e.Prefix)
	}
	// Name the label: two edge kinds between the same node types must read
	// apart ("STU's ENROLL edges to CRS", "STU's WAITLIST edges to CRS").
	edges := "edges"
	if e.Label != "" {
		edges = e.Label + " edges"
	}
	patterns := []Pattern{
		{Name: fmt.Sprintf("%s's %s to %s (forward)", e.Source, edges, e.Target), Call: "Edge.From", Request: "Query",
			KeyCondition: t.list(e.PartitionKey, e.Prefix), On: "table"},
		{Name: fmt.Sprintf("%s's %s from %s (reverse)", e.Target, edges, e.Source), Call: "Edge.To", Request: revRequest,
			KeyCondition: rev, Index: t.Index, On: t.Index + " (eventually consistent)"},
		{Name: "one edge", Call: "Edge.Get", Request: "GetItem", KeyCondition: t.get(e.PartitionKey, e.SortKey), On: "table"},
		{Name: fmt.Sprintf("%s item with its %s to %s", e.Source, edges, e.Target), Call: "LoadNode", Request: "Query",
			KeyCondition: fmt.Sprintf("%s = %q", t.PartitionKey, e.PartitionKey), On: "table"},
	}
	if e.SourceIsChild {
		patterns = patterns[:3] // no node item to load with them
	}
	if t.NoIndex {
		patterns = append(patterns[:1], patterns[2:]...)
	}
	return withItem(patterns, e.Item)
}

// Collection is what a collection's access patterns show of it.
type Collection struct {
	Item, Parent, Child string // the item type's name, the parent's node type, the child type
	// Parent's partition key and the children's, with placeholders:
	// "WS#<id>", and when sharded "WS#<id>#<shard of child, 4>".
	ParentKey, PartitionKey string
	Prefix                  string // the children's sort key prefix, "PROJ#"
	Shards                  int    // table partitions per parent; 0: not sharded
	// Nested is a collection under another's children: its parent item
	// is not in the children's partition.
	Nested bool
}

// CollectionPatterns are the reads of a collection's children: the
// newest first, their count, one, and the parent with them all.
func CollectionPatterns(t Table, c Collection) []Pattern {
	list := t.list(c.ParentKey, c.Prefix)
	patterns := []Pattern{
		{Name: fmt.Sprintf("%s's %s children, newest first", c.Parent, c.Child), Call: "Collection.List(id).Desc()", Request: "Query",
			KeyCondition: list + "; ScanIndexForward=false", On: "table"},
		{Name: fmt.Sprintf("count %s's %s children", c.Parent, c.Child), Call: "Collection.List(id).Count()", Request: "Query (keys only)",
			KeyCondition: list, On: "table"},
		{Name: "one " + c.Child, Call: "Collection.Get", Request: "GetItem", KeyCondition: t.get(c.ParentKey, c.Prefix+"<child>"), On: "table"},
		{Name: fmt.Sprintf("%s and all its %s children", c.Parent, c.Child), Call: "Collection.Load", Request: "Query",
			KeyCondition: fmt.Sprintf("%s = %q", t.PartitionKey, c.ParentKey), On: "table"},
	}
	if c.Nested {
		patterns[3].Request, patterns[3].KeyCondition = "GetItem of the parent, then Query", list
	}
	if c.Shards > 0 {
		sharded := fmt.Sprintf("%d Queries in parallel, merged", c.Shards)
		list = t.list(c.PartitionKey, c.Prefix)
		patterns[0].Request, patterns[0].KeyCondition = sharded, list+"; ScanIndexForward=false"
		patterns[1].Request, patterns[1].KeyCondition = sharded+" (keys only)", list
		patterns[2].KeyCondition = t.get(c.PartitionKey, c.Prefix+"<child>")
		patterns[3].Request = "GetItem of the parent, then " + sharded
		patterns[3].KeyCondition = list
	}
	return withItem(patterns, c.Item)
}

// ByIndex is p, the pattern of a ByIndex read by op of item type item in
// index, named for it: the index's partition by (and sort key sorted,
// nil for none) and the call with the values it takes.
func ByIndex(p Pattern, item, op, index string, by, sorted []Part, values []string) Pattern {
	p.Name = fmt.Sprintf("%s in %s by %s", item, index, Text(by))
	if sorted != nil {
		p.Name += ", sorted by " + Text(sorted)
	}
	p.Call = fmt.Sprintf("%s(%q", op, index)
	for _, v := range values {
		p.Call += fmt.Sprintf(", %q", v)
	}
	p.Call += ")"
	p.Item = item
	return p
}

// withItem sets the item type every pattern reads.
func withItem(patterns []Pattern, item string) []Pattern {
	for i := range patterns {
		patterns[i].Item = item
	}
	return patterns
}
