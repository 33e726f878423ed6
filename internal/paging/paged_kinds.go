package paging

import "fmt"

// Kind is an edge kind by its label and ends.
type Kind struct{ Label, Src, Dst string }

// String names the kind for error messages, e.g. "ENROLL (STU → CRS)".
func (k Kind) String() string {
	label := k.Label
	if label == "" {
		label = "(unlabelled)"
	}
	return fmt.Sprintf("%s (%s → %s)", label, k.Src, k.Dst)
}

// End is one end of an edge kind: Type nodes, or Type children of Parent.
type End struct{ Type, Parent string }

// Follows reports whether a cascade of me given no kinds follows kind
// src → dst (collection: a sharded collection's children, both ends its
// parent's type): for a node type, kinds ending at it, its sharded
// collections, and kinds ending at or starting from its collections'
// children; for children, kinds ending at them. Without the inverted
// index (noIndex) edges into a node or child cannot be followed.
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
