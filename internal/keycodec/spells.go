package keycodec

import (
	"slices"
	"strings"
)

// KeyPattern is index key template parts as a pattern ([Spells]): text,
// a data attribute's text (escaped or a number: no '#'), and for a key
// field or node key any text after its type prefix.
func KeyPattern(parts []Part, kc *Ctx) []Part {
	out := make([]Part, 0, len(parts)+1)
	for _, p := range parts {
		switch p.Kind {
		case Lit:
			out = append(out, Part{Kind: Lit, Text: p.Text})
		case Attr:
			out = append(out, Part{Kind: Field, Text: p.Text})
		case Field:
			out = append(out, Part{Kind: Var})
		default:
			out = append(out, Part{Kind: Lit, Text: kc.Node(p.Kind)}, Part{Kind: Var})
		}
	}
	return out
}

// Spells reports whether pattern pat can spell v, or with prefix a key
// starting with v. Lit is text; Field and Attr non-empty text without
// '#'; any other kind any non-empty text.
func Spells(pat []Part, v string, prefix bool) bool {
	for len(pat) > 0 {
		if prefix && v == "" {
			return true
		}
		p := pat[0]
		if p.Kind == Lit {
			if prefix && len(v) < len(p.Text) {
				return strings.HasPrefix(p.Text, v)
			}
			var ok bool
			if v, ok = strings.CutPrefix(v, p.Text); !ok {
				return false
			}
			pat = pat[1:]
			continue
		}
		end := len(v)
		if p.Kind == Field || p.Kind == Attr {
			if i := strings.IndexByte(v, '#'); i >= 0 {
				end = i
			}
		}
		for i := end; i >= 1; i-- {
			if Spells(pat[1:], v[i:], prefix) {
				return true
			}
		}
		return false
	}
	return v == ""
}

// Reach is whether a query's key condition can match an item type's
// items, which a read of several item types checks of each target.
type Reach uint8

const (
	Reachable      Reach = iota // it may, or cannot be judged
	OtherPartition              // the items are in no partition it reads
	OtherSortKeys               // its item type prefix excludes them
)

// Query is a query's key condition for [Query.Reaches]: its partition
// key (or its shards'), and sort key prefix (Exact: the value; "": any).
type Query struct {
	PK       string
	ShardPKs []string
	SKPrefix string
	Exact    bool
}

// Reaches judges whether q can match an item whose keys have
// [KeyPattern]s pk and sk (nil: not judged); range conditions are not.
func (q *Query) Reaches(pk, sk []Part) Reach {
	if !q.partitionOf(pk) {
		return OtherPartition
	}
	if sk != nil && !Spells(sk, q.SKPrefix, !q.Exact) {
		return OtherSortKeys
	}
	return Reachable
}

func (q *Query) partitionOf(pk []Part) bool {
	if len(q.ShardPKs) == 0 {
		return Spells(pk, q.PK, false)
	}
	return slices.ContainsFunc(q.ShardPKs, func(v string) bool { return Spells(pk, v, false) })
}
