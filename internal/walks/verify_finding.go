package walks

import (
	"cmp"
	"fmt"
	"slices"
)

// Kind is what is wrong with an item; adjlist's FindingKind constants
// spell the same strings.
type Kind string

// The kinds of Finding, as adjlist's FindingKind constants spell them.
const (
	UnknownItem         Kind = "unknown item"
	Undecodable         Kind = "undecodable"
	IndexKeyMissing     Kind = "index key missing"
	IndexKeyStale       Kind = "index key stale"
	IndexKeyExtra       Kind = "index key extra"
	DanglingEdge        Kind = "dangling edge"
	Orphan              Kind = "orphan"
	CounterMismatch     Kind = "counter mismatch"
	BadVersion          Kind = "bad version"
	KeyMismatch         Kind = "key mismatch"
	UndeclaredAttribute Kind = "undeclared attribute"
	BadExpiry           Kind = "bad expiry"
	Misplaced           Kind = "misplaced"
)

// Finding is one fault, field for field adjlist's Finding (which says
// what each field holds per kind).
type Finding struct {
	Kind       Kind
	Type       string
	Key        Key
	Attribute  string
	Have, Want string
	Missing    Key
	Err        error
}

// String formats the finding on one line: its kind, type and keys, then
// what differs.
func (f Finding) String() string {
	s := fmt.Sprintf("%s: %q %q", f.Kind, f.Key.PK, f.Key.SK)
	if f.Type != "" {
		s += " (" + f.Type + ")"
	}
	switch f.Kind {
	case IndexKeyMissing, IndexKeyStale, IndexKeyExtra, CounterMismatch, Misplaced, KeyMismatch:
		s += fmt.Sprintf(": %s = %q, want %q", f.Attribute, f.Have, f.Want)
	case BadVersion, UndeclaredAttribute, BadExpiry:
		s += fmt.Sprintf(": %s is %s", f.Attribute, f.Have)
	case DanglingEdge, Orphan:
		s += fmt.Sprintf(": no item %q %q", f.Missing.PK, f.Missing.SK)
	case Undecodable:
		s += fmt.Sprintf(": %v", f.Err)
	}
	return s
}

// Sorted returns a copy of fs by key, then kind and attribute: the order
// Verify reports, whatever order the segments found them in.
func Sorted(fs []Finding) []Finding {
	out := slices.Clone(fs)
	slices.SortFunc(out, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Key.PK, b.Key.PK), cmp.Compare(a.Key.SK, b.Key.SK),
			cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Attribute, b.Attribute))
	})
	return out
}
