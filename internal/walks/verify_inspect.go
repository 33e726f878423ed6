package walks

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/ddbitem"
)

// Item is a stored item.
type Item = map[string]types.AttributeValue

// Model is the item types a table records, as Inspect sees them.
type Model struct {
	Types []Type
	// Markers recognise the counters' per-edge marker items, which are of
	// no type and still known.
	Markers      []func(Item) bool
	PartitionKey string // the table's, which a Misplaced finding names
}

// MismatchError is the Type.Check error of an item whose key field's
// attribute Attr is Have while its keys hold Want: a KeyMismatch.
type MismatchError struct{ Attr, Have, Want string }

func (e *MismatchError) Error() string {
	return fmt.Sprintf("adjlist: attribute %s is %q, its keys hold %q", e.Attr, e.Have, e.Want)
}

// Type is one recorded item type: how its items are recognised and what
// they must hold.
type Type struct {
	Name string
	// PKPrefix and SKPrefix are its keys' static prefixes, which an
	// item's keys must start with before Match is asked.
	PKPrefix, SKPrefix string
	Match              func(Item) bool
	Version, Expiry    string // tracked attributes; "" untracked
	Holds              Held
	Check              func(Item) error // decodes an item's data as its handle does
	Spec               *Spec            // how its derived keys are computed; nil for none
}

// Spec is how the derived key attributes of a type's items are computed:
// what Inspect checks them against and Migrate writes.
type Spec struct {
	// Home, if set, is the partition key an item belongs at (a child's
	// shard); one stored under another is Misplaced, and moved there.
	Home func(Item) (string, error)
	// Derive appends to buf[:0] (buf may be nil) the derived attributes
	// item should carry; ok is false for an item not of the type. Matched,
	// if set, is Derive for an item known to be of the type, which saves
	// parsing its keys again.
	Derive  func(item Item, buf ddbitem.Attrs) (want ddbitem.Attrs, ok bool, err error)
	Matched func(item Item, buf ddbitem.Attrs) (want ddbitem.Attrs, err error)
	// Owned are the derived attributes the type writes, Foreign the
	// table's others, which its items never carry; Feeds the data
	// attributes the owned ones are computed from.
	Owned, Foreign, Feeds []string
}

// Held is the attributes the items of a type may hold without loss on a
// Replace. The zero value, for a type that may hold any, checks nothing.
type Held struct {
	Set   map[string]bool
	Names []string // Set's, to count those an item holds
}

// HeldOf is declared, the table's derived attributes, and names (keys and
// tracked attributes; empty ones skipped).
func HeldOf(declared []ddbitem.GoAttr, derived map[string]bool, names ...string) Held {
	set := maps.Clone(derived)
	if set == nil {
		set = map[string]bool{}
	}
	for _, n := range names {
		if n != "" {
			set[n] = true
		}
	}
	for _, a := range declared {
		set[a.Name] = true
	}
	return Held{Set: set, Names: slices.Sorted(maps.Keys(set))}
}

// Loses reports whether item holds an attribute that h does not, without
// allocating.
func (h *Held) Loses(item Item) bool {
	if h.Set == nil {
		return false
	}
	if len(h.Names) <= 2*len(item) {
		n := 0
		for _, name := range h.Names {
			if _, ok := item[name]; ok {
				n++
			}
		}
		return n != len(item)
	}
	for name := range item {
		if !h.Set[name] {
			return true
		}
	}
	return false
}

// TypeAt is the index in m.Types of item's type; -1 for none.
func (m *Model) TypeAt(item Item, pk, sk string) int {
	for i := range m.Types {
		vt := &m.Types[i]
		if vt.Match != nil && strings.HasPrefix(pk, vt.PKPrefix) && strings.HasPrefix(sk, vt.SKPrefix) && vt.Match(item) {
			return i
		}
	}
	return -1
}

// Inspect returns [Model.TypeAt] of item and the faults the item alone
// shows. want is scratch space kept for the next item.
func (m *Model) Inspect(item Item, pk, sk string, want *ddbitem.Attrs) (typ int, found []Finding) {
	key := Key{PK: pk, SK: sk}
	typ = m.TypeAt(item, pk, sk)
	if typ < 0 {
		for _, marker := range m.Markers {
			if marker(item) {
				return typ, nil
			}
		}
		return typ, []Finding{{Kind: UnknownItem, Key: key}}
	}
	r := &m.Types[typ]
	data, cloned := item, false
	for _, t := range [...]struct {
		attr string
		kind Kind
	}{{r.Version, BadVersion}, {r.Expiry, BadExpiry}} {
		av := item[t.attr]
		if t.attr == "" || av == nil || !badTracked(t.kind, av) {
			continue
		}
		found = append(found, Finding{Kind: t.kind, Type: r.Name, Key: key, Attribute: t.attr, Have: DescribeValue(av)})
		// The attribute is reported as what it is: the data is decoded
		// without it, so that a type that exposes the field is not also
		// undecodable.
		if !cloned {
			data, cloned = maps.Clone(item), true
		}
		delete(data, t.attr)
	}
	if r.Spec != nil && r.Spec.Home != nil {
		if want, err := r.Spec.Home(item); err == nil && want != "" && want != pk {
			found = append(found, Finding{Kind: Misplaced, Type: r.Name, Key: key, Attribute: m.PartitionKey, Have: pk, Want: want})
		}
	}
	if r.Holds.Loses(item) {
		for name, av := range item {
			if !r.Holds.Set[name] {
				found = append(found, Finding{Kind: UndeclaredAttribute, Type: r.Name, Key: key, Attribute: name, Have: DescribeValue(av)})
			}
		}
	}
	if r.Check != nil {
		if err := r.Check(data); err != nil {
			if km, ok := err.(*MismatchError); ok {
				return typ, append(found, Finding{Kind: KeyMismatch, Type: r.Name, Key: key, Attribute: km.Attr, Have: km.Have, Want: km.Want})
			}
			return typ, append(found, Finding{Kind: Undecodable, Type: r.Name, Key: key, Err: err})
		}
	}
	if r.Spec == nil {
		return typ, found
	}
	return typ, r.Spec.indexKeys(item, r.Name, key, want, found)
}

// indexKeys appends to found the faults of item's derived keys.
func (spec *Spec) indexKeys(item Item, typ string, key Key, want *ddbitem.Attrs, found []Finding) []Finding {
	var err error
	ok := true
	if spec.Matched != nil {
		*want, err = spec.Matched(item, *want)
	} else {
		*want, ok, err = spec.Derive(item, *want)
	}
	if err != nil {
		return append(found, Finding{Kind: Undecodable, Type: typ, Key: key, Err: err})
	}
	if !ok {
		return found
	}
	for _, name := range spec.Owned {
		have, isS := ddbitem.String(item, name)
		present := item[name] != nil
		w, should := want.Get(name)
		f := Finding{Type: typ, Key: key, Attribute: name, Have: have, Want: w}
		switch {
		case should && !present:
			f.Kind = IndexKeyMissing
		case should && (!isS || have != w):
			f.Kind, f.Have = IndexKeyStale, DescribeValue(item[name])
			if isS {
				f.Have = have
			}
		case !should && present:
			f.Kind = IndexKeyExtra
			if !isS {
				f.Have = DescribeValue(item[name])
			}
		default:
			continue
		}
		found = append(found, f)
	}
	for _, name := range spec.Foreign {
		if av := item[name]; av != nil {
			f := Finding{Kind: IndexKeyExtra, Type: typ, Key: key, Attribute: name}
			if f.Have, ok = ddbitem.String(item, name); !ok {
				f.Have = DescribeValue(av)
			}
			found = append(found, f)
		}
	}
	return found
}

// maxExpiry is the last second of year 9999 in epoch seconds: an expiry
// past it is no time in seconds (one in milliseconds, 1764000000000, is).
const maxExpiry = 253402300799

// badTracked reports whether av cannot be a version or expiry (kind): no
// Number, or for an expiry no time in epoch seconds.
func badTracked(kind Kind, av types.AttributeValue) bool {
	n, ok := av.(*types.AttributeValueMemberN)
	if !ok {
		return true
	}
	if kind != BadExpiry {
		return false
	}
	sec, err := strconv.ParseFloat(n.Value, 64)
	return err != nil || sec < 0 || sec > maxExpiry
}

// DataCheck is a Type.Check for a type whose data is a typ, decoding as
// its handle does (unmarshal). unmarshal removes the keys before decoding
// into anything but a struct, so the item is copied first; a struct is
// decoded with dec, which passes over the keys, into a pooled value, for
// Verify meets many. It is not generic: compiled once.
func DataCheck(typ reflect.Type, dec *attributevalue.Decoder, unmarshal func(item Item, out any) error) func(Item) error {
	if typ.Kind() != reflect.Struct {
		return func(item Item) error {
			return unmarshal(maps.Clone(item), reflect.New(typ).Interface())
		}
	}
	type scratch struct {
		v  reflect.Value // a *typ
		p  any           // v's pointer
		av types.AttributeValueMemberM
	}
	pool := sync.Pool{New: func() any {
		v := reflect.New(typ)
		return &scratch{v: v, p: v.Interface()}
	}}
	return func(item Item) error {
		s := pool.Get().(*scratch)
		s.v.Elem().SetZero()
		s.av.Value = item
		err := dec.Decode(&s.av, s.p)
		s.v.Elem().SetZero()
		s.av.Value = nil
		pool.Put(s)
		return err
	}
}
