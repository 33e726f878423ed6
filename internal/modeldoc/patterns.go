package modeldoc

import "fmt"

// Table is what an item type's entry in the inverted index names of its
// table: the index and its key attributes.
type Table struct {
	Index, IndexPartitionKey, IndexSortKey string
	// PartitionOnly: the index is keyed on its partition key alone.
	PartitionOnly bool
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
