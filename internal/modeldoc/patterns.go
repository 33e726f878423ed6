package modeldoc

import "fmt"

// Table is the inverted index and its key attributes.
type Table struct {
	Index, IndexPartitionKey, IndexSortKey string
	PartitionOnly                          bool // no sort key
}

// Inverted is an item type's entry in the inverted index, keyed pk then
// sk (an edge's ends, or the table's sort then partition key).
func (t Table) Inverted(pk, sk []Part) IndexFormats {
	x := IndexFormats{Index: t.Index, PartitionKey: []Format{{Attribute: t.IndexPartitionKey, Parts: pk}}}
	if !t.PartitionOnly {
		x.SortKey = []Format{{Attribute: t.IndexSortKey, Parts: sk}}
	}
	return x
}

// ByIndex names p, a ByIndex read by op of item in index, by its
// partition by and sort key sorted (nil: none), with the call's values.
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
