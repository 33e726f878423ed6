package paging

import "fmt"

// Kind names an edge kind by its label and ends, in messages and where a
// cascade tells the kinds it was given apart.
type Kind struct{ Label, Src, Dst string }

// String names the kind for error messages, e.g. "ENROLL (STU → CRS)".
func (k Kind) String() string {
	label := k.Label
	if label == "" {
		label = "(unlabelled)"
	}
	return fmt.Sprintf("%s (%s → %s)", label, k.Src, k.Dst)
}

// End is one end of an edge kind: the nodes of Type or, Parent set, the
// Type children of Parent nodes.
type End struct{ Type, Parent string }

// Follows reports whether a cascade of me given no kinds follows a kind a
// table records, from src to dst (collection: the children of a sharded
// collection, whose ends are both its parent's type). For a node type it
// follows every kind that ends at it, every sharded collection of it, and
// every kind that ends at or starts from the children of its
// collections; for a collection's children, every kind that ends at them.
// Kinds it cannot follow on a table without the inverted index (noIndex),
// edges into a node or a child, are left out.
func Follows(me, src, dst End, collection, noIndex bool) bool {
	switch {
	case collection:
		return me.Parent == "" && dst == me
	case me.Parent != "" && dst != me:
		return false
	case dst == me, dst.Parent != "" && dst.Parent == me.Type:
		return !noIndex
	}
	return src.Parent != "" && src.Parent == me.Type
}
