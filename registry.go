package adjlist

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/schema"
	"github.com/adjlist/adjlist/internal/walks"
)

// registry is the table's record of its item types, in declaration
// order. A later declaration of the same item type (an entity's name; a
// node's type and marker; an edge's label and ends; a collection's child
// and parent types) replaces the earlier: a handle declared again, or a
// new layout beside the old one while [Migrate] moves the items.
type registry struct {
	mu    sync.Mutex
	types []recorded
	// counters are the table's counters, as [Verify], [Repair] and the
	// cascades see them: their items are the aggregates (also recorded in
	// types, as "counter ENROLLED") and per-edge marker items (recorded
	// only here).
	counters []*ItemCounter
	// items are the counters kept at write time by the kind of item type
	// they count, made again from counters on each declaration, never
	// changed: every write of an item looks them up without the lock.
	items atomic.Pointer[map[string][]*ItemCounter]
}

// recorded is one declared item type: Type is how [Verify] recognises
// and checks its items.
type recorded struct {
	walks.Type
	// id tells item types apart (a node type under two markers is two).
	id string
	// pk and sk are its table keys' templates (for a preset, the spelling
	// its own key code writes: registry_internal_test holds them equal).
	pk, sk []keycodec.Part
	// reach is its keys in the table ("") and in each index, by index
	// name, as a read of several types judges its targets ([qsReaches]):
	// built once here, not per read.
	reach      map[string]reachKeys
	h          Describer
	err        error // the declaration's own error
	entity     bool  // an Entity: refused, not only reported, when ambiguous
	collection bool  // a Collection: its children, not an edge kind
	// refs appends to buf[:0] the items an item of the type needs: an
	// edge's endpoints, a child's parent.
	refs func(item Item, buf []itemRef) []itemRef
	// spec is the walk of the type's items when h is not Scannable
	// itself: a counter's aggregates are walked as its node's items.
	spec func() scanSpec
}

// scanSpec is the walk of r's items, if it has one.
func (r *recorded) scanSpec() (scanSpec, bool) {
	if r.spec != nil {
		return r.spec(), true
	}
	if h, ok := r.h.(interface{ scanSpec() scanSpec }); ok {
		return h.scanSpec(), true
	}
	return scanSpec{}, false
}

// itemRef is an item another one needs: its key, its type's record id,
// and the finding its absence makes.
type itemRef struct {
	key  Key
	of   string
	kind string
}

// record adds r to t's record. An Entity that could have the keys of a
// type recorded already is refused (the error); presets are recorded
// whatever they overlap, for [Table.Check] to report.
func (t *Table) record(r recorded) error {
	t.reg.mu.Lock()
	defer t.reg.mu.Unlock()
	if r.id == "" {
		r.id = r.Name
	}
	if h, ok := r.h.(typedHandle); ok && r.err == nil {
		r.pk, r.sk = h.keyType().pk, h.keyType().sk
		r.reach = map[string]reachKeys{"": t.reachKeys("", h)}
		if t.layout != noIndex {
			r.reach[t.opts.Index] = t.reachKeys(t.opts.Index, h)
		}
		for _, ix := range t.opts.Indexes {
			r.reach[ix.Name] = t.reachKeys(ix.Name, h)
		}
	}
	var err error
	if r.entity && r.err == nil {
		if i := slices.IndexFunc(t.reg.types, func(o recorded) bool { return o.id != r.id && o.err == nil && overlaps(o, r) }); i >= 0 {
			err = fmt.Errorf("%w: %s could have the keys of %s: an item's type would be ambiguous", ErrInvalidOption, r.Name, t.reg.types[i].Name)
			r.err = err
		}
	}
	t.reg.types = schema.Put(t.reg.types, r, func(o recorded) bool { return o.id == r.id })
	return err
}

// overlaps reports whether item types a and b could have the same keys.
func overlaps(a, b recorded) bool {
	return keycodec.Overlap(a.pk, b.pk) && keycodec.Overlap(a.sk, b.sk)
}

// recordCounter adds c to t's record, replacing a counter of the same
// name on the same item type.
func (t *Table) recordCounter(c *ItemCounter) {
	t.reg.mu.Lock()
	defer t.reg.mu.Unlock()
	t.reg.counters = schema.Put(t.reg.counters, c, func(o *ItemCounter) bool { return o.name == c.name && o.rid == c.rid })
	m := map[string][]*ItemCounter{}
	for _, o := range t.reg.counters {
		if !o.stream {
			m[o.of.kind] = append(m[o.of.kind], o)
		}
	}
	t.reg.items.Store(&m)
}

// recordedCounters is a copy of t's counters.
func (t *Table) recordedCounters() []*ItemCounter {
	t.reg.mu.Lock()
	defer t.reg.mu.Unlock()
	return slices.Clone(t.reg.counters)
}

// recordedTypes is a copy of t's record.
func (t *Table) recordedTypes() []recorded {
	t.reg.mu.Lock()
	defer t.reg.mu.Unlock()
	return slices.Clone(t.reg.types)
}

// Check returns every mistake in the model declared on t so far, joined
// (errors.Join), or nil, so a service can refuse to start on a wrong model:
// the table's options, each declaration ([NewNode], [NewEdge],
// [NewCollection], [NewEntity], [NewItemCounter]; bad names are
// [ErrInvalidKey], bad templates, indexes or options [ErrInvalidOption]),
// and each pair of item types whose key templates could spell the same key
// ([ErrInvalidOption]). The table records item types in declaration order;
// a later declaration of the same item type replaces the earlier. Check
// makes no request.
func (t *Table) Check() error {
	return schema.Check(t.err, t.recordedTypes(), func(r recorded) schema.Type { return schema.Type{Name: r.Name, Err: r.err} }, overlaps)
}

func (e *entityCore) recorded() recorded {
	return recorded{h: e, err: e.err, entity: true, Type: walks.Type{Name: "entity " + e.name, Version: e.tr.Version, Expiry: e.tr.Expiry,
		Match: func(item Item) bool { _, ok := e.parseKeys(item); return ok },
		Check: e.check(), Holds: heldData(&e.data, e.t.holdsOf(e.goType, &e.tr))}}
}

// recordID is the id of n's item type in the table's record.
func (n *nodeCore) recordID() string { return "node " + n.typ + " " + n.marker }

// refs are the endpoint items an edge item of e needs
// ([FindingDanglingEdge]).
func (e *edgeCore) refs(item Item, buf []itemRef) []itemRef {
	out := buf[:0]
	from, to, ok := e.split(item)
	if !ok {
		return out
	}
	for _, end := range [...]struct {
		p  endpoint
		id string
	}{{e.src, from}, {e.dst, to}} {
		if pk, sk, err := end.p.item(end.id); err == nil {
			out = append(out, itemRef{key: Key{pk, sk}, of: end.p.rid, kind: FindingDanglingEdge})
		}
	}
	return out
}

// refs is the parent item, of record id of, a child needs
// ([FindingOrphan]).
func (c *collectionCore) refs(item Item, of string, buf []itemRef) []itemRef {
	parentID, _, ok := c.ids(item)
	pk, sk, err := c.parent.end.item(parentID)
	if !ok || err != nil {
		return buf[:0]
	}
	return append(buf[:0], itemRef{key: Key{pk, sk}, of: of, kind: FindingOrphan})
}

// recorded is node n as the table records it, whatever its error.
func (n *nodeCore) recorded() recorded {
	return recorded{id: n.recordID(), h: n, err: n.err, Type: walks.Type{Name: "node " + n.typ, Version: n.tr.Version, Expiry: n.tr.Expiry,
		Match: n.hasKeys, Check: walks.DataCheck(n.goType, n.t.dec, n.t.unmarshalData), Holds: n.t.holdsOf(n.goType, &n.tr)}}
}

// kindName is e's item type as the table records it: its label and ends,
// "edge ENROLL (STU → CRS)", or "edge STU → CRS" unlabelled.
func (e *edgeCore) kindName() string {
	if e.label == "" {
		return fmt.Sprintf("edge %s → %s", e.src, e.dst)
	}
	return fmt.Sprintf("edge %s (%s → %s)", e.label, e.src, e.dst)
}

// record records edge e, whatever its error.
func (e *edgeCore) record() {
	r := recorded{id: e.it.kind, h: e, err: e.err, refs: e.refs, Type: walks.Type{Name: e.kindName(), Version: e.tr.Version, Expiry: e.tr.Expiry,
		Match: func(item Item) bool { _, _, ok := e.split(item); return ok },
		Check: walks.DataCheck(e.goType, e.t.dec, e.t.unmarshalData), Holds: e.t.holdsOf(e.goType, &e.tr)}}
	if e.err != nil {
		r.Name = "edge " + e.label
	}
	_ = e.t.record(r)
}

// record records collection c, whatever its error.
func (c *collectionCore) record() {
	of := c.parent.end.rid
	// The id is the child and parent types, whatever the error, so that a
	// declaration made again replaces a failed one.
	id := fmt.Sprintf("child %s of %s", c.childType, c.parent.end)
	r := recorded{id: id, h: c, err: c.err, collection: true, Type: walks.Type{Name: c.it.kind, Version: c.tr.Version, Expiry: c.tr.Expiry,
		Match: func(item Item) bool { _, _, ok := c.ids(item); return ok },
		Check: walks.DataCheck(c.goType, c.t.dec, c.t.unmarshalData), Holds: c.t.holdsOf(c.goType, &c.tr)},
		refs: func(item Item, buf []itemRef) []itemRef { return c.refs(item, of, buf) }}
	if c.err != nil {
		r.Name = "child " + c.childType
	}
	_ = c.t.record(r)
}

// TypedItem is an item of any type a table records, as [Table.Decode]
// reads it: the name of its item type, as [Describe] and [Table.Check]
// name it ("node STU", "edge ENROLL (STU → CRS)", "child PROJ of WS",
// "entity follower", "counter ENROLLED"), and the raw item, for the handle of that type to
// decode.
type TypedItem struct {
	Type string
	Item Item
}

// TypeOf returns the name of the recorded item type ([Table.Check]) whose
// keys item has, as [Finding].Type names it, e.g. "entity follower" for
// PK = "u#12345#follower", SK = "u#34567", or "counter ENROLLED" for a
// count item PK = "CRS#math204", SK = "ENROLLED"; ok is false for no
// recorded type. It reads only the key attributes and makes no request.
func (t *Table) TypeOf(item Item) (name string, ok bool) {
	if r, ok := t.typeOf(item); ok {
		return r.Name, true
	}
	return "", false
}

func (t *Table) typeOf(item Item) (recorded, bool) {
	for _, r := range t.recordedTypes() {
		if r.err == nil && r.Match != nil && r.Match(item) {
			return r, true
		}
	}
	return recorded{}, false
}

// Decode makes t a decoder of every item type it records, for [Scan],
// [Migrate] and the streams package (streams.On(router, table, fn) routes
// the records of every recorded type): ok is false for an item of no
// recorded type ([Table.TypeOf]). It makes no request; err is always nil
// (the type's own handle decodes the data).
func (t *Table) Decode(item Item) (v TypedItem, ok bool, err error) {
	r, ok := t.typeOf(item)
	if !ok {
		return v, false, nil
	}
	return TypedItem{Type: r.Name, Item: item}, true, nil
}

// scanSpec makes *Table Scannable: every recorded type in one pass, each
// item handed to its own type's spec.
func (t *Table) scanSpec() scanSpec {
	specs := map[string]scanSpec{}
	for _, r := range t.recordedTypes() {
		if s, ok := r.scanSpec(); ok && r.err == nil {
			specs[r.id] = s
		}
	}
	pick := func(item Item) (scanSpec, bool) {
		r, ok := t.typeOf(item)
		if !ok {
			return scanSpec{}, false
		}
		s, ok := specs[r.id]
		return s, ok
	}
	return scanSpec{t: t, err: t.Check(), of: pick}
}
