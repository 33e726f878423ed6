package walks

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Kind is what is wrong with an item; adjlist's Finding kind constants
// spell the same strings.
type Kind string

// The kinds of Finding, as adjlist's Finding kind constants spell them.
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

// Sorted returns a copy of fs by key, then kind and attribute.
func Sorted(fs []Finding) []Finding {
	out := slices.Clone(fs)
	slices.SortFunc(out, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Key.PK, b.Key.PK), cmp.Compare(a.Key.SK, b.Key.SK),
			cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Attribute, b.Attribute))
	})
	return out
}

// DescribeValue is an attribute value with its DynamoDB type, as a finding
// shows a stored value it cannot use: `S "3"`, `N 7`, `M (3 attributes)`.
func DescribeValue(av types.AttributeValue) string {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		return fmt.Sprintf("S %q", x.Value)
	case *types.AttributeValueMemberN:
		return "N " + x.Value
	case *types.AttributeValueMemberBOOL:
		return fmt.Sprintf("BOOL %t", x.Value)
	case *types.AttributeValueMemberNULL:
		return "NULL"
	case *types.AttributeValueMemberB:
		return fmt.Sprintf("B (%d bytes)", len(x.Value))
	case *types.AttributeValueMemberM:
		return fmt.Sprintf("M (%d attributes)", len(x.Value))
	case *types.AttributeValueMemberL:
		return fmt.Sprintf("L (%d values)", len(x.Value))
	case *types.AttributeValueMemberSS, *types.AttributeValueMemberNS, *types.AttributeValueMemberBS:
		return "set"
	}
	return fmt.Sprintf("%T", av)
}

// CountOf is an aggregate's count as stored: its number, "" if absent,
// or DescribeValue of another value.
func CountOf(item map[string]types.AttributeValue) string {
	switch n := item["count"].(type) {
	case *types.AttributeValueMemberN:
		return n.Value
	case nil:
		return ""
	default:
		return DescribeValue(n)
	}
}
