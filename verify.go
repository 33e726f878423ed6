package adjlist

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/batch"
	"github.com/adjlist/adjlist/internal/drift"
	"github.com/adjlist/adjlist/internal/goattrs"
	"github.com/adjlist/adjlist/internal/keycodec"
)

// FindingKind names what [Verify] found wrong with an item.
type FindingKind string

// The kinds of [Finding].
const (
	// FindingUnknownItem is an item whose keys are those of no item type
	// the table records (nor a [Counter]'s marker item): written by
	// another program, or by a model no longer declared.
	FindingUnknownItem FindingKind = "unknown item"
	// FindingUndecodable is an item of a recorded type whose data its
	// handle cannot decode (Finding.Err says why), or whose index keys
	// cannot be computed from its data. A [Tracking].Version attribute
	// that is not a number is [FindingBadVersion] alone: the data is
	// decoded without it, so a type that exposes its version field is
	// undecodable only if the rest of its data is.
	FindingUndecodable FindingKind = "undecodable"
	// FindingIndexKeyMissing is a derived index key attribute the item's
	// ids and data give that the item lacks: the item is missing from
	// that index.
	FindingIndexKeyMissing FindingKind = "index key missing"
	// FindingIndexKeyStale is a derived index key attribute whose stored
	// value is not the one the item's ids and data give: the index lists
	// the item under the wrong key.
	FindingIndexKeyStale FindingKind = "index key stale"
	// FindingIndexKeyExtra is a derived index key attribute the item
	// carries although its data says it should not (a sparse index whose
	// condition no longer holds), or although its type does not declare
	// that index (a node item with the inverted index's GSI1PK, which only
	// edges carry; an entity with the keys of another entity's index):
	// Want is "".
	FindingIndexKeyExtra FindingKind = "index key extra"
	// FindingDanglingEdge is an edge whose endpoint item (a node item, or
	// a child in its collection) is missing.
	FindingDanglingEdge FindingKind = "dangling edge"
	// FindingOrphan is a collection's child whose parent node item is
	// missing.
	FindingOrphan FindingKind = "orphan"
	// FindingCounterMismatch is a [Counter]'s aggregate item whose count
	// differs from the number of counted edges present.
	FindingCounterMismatch FindingKind = "counter mismatch"
	// FindingBadVersion is an item of a type with [Tracking].Version whose
	// version attribute is not a number.
	FindingBadVersion FindingKind = "bad version"
	// FindingKeyMismatch is an item of an [Entity] whose attribute of a
	// key field (one its Go type declares: "complaint_id" of
	// "comp#{complaint_id}") differs from the id its keys hold:
	// Attribute names it, Have is its value, Want the id. Repair leaves
	// it: which of the two is right is the application's call.
	FindingKeyMismatch FindingKind = "key mismatch"
	// FindingUndeclaredAttribute is an attribute an item holds that its
	// type cannot hold: neither its table keys, an index key attribute the
	// table derives, an attribute its handle tracks ([Tracking]), nor one
	// its Go data type declares (a field's name as the table's
	// attributevalue encoder names it: its dynamodbav tag, or its tag
	// under [Options].EncoderOptions' TagKey, else the field name;
	// embedded structs flattened; "-" fields not declared). A write
	// writes exactly what the data type declares, as PutItem does: a
	// Replace of the value Get reads drops the attribute; an Update keeps
	// it. One finding per attribute; Attribute names it and Have is its
	// value as DynamoDB JSON would type it (`N 7`, `M (3 attributes)`).
	// A data type that is a map or an interface holds every attribute; one
	// that marshals or unmarshals itself (attributevalue.Marshaler,
	// Unmarshaler) is not checked. [Repair] leaves it: declare the
	// attribute in the data type (a field, or a map type), or remove it
	// yourself.
	FindingUndeclaredAttribute FindingKind = "undeclared attribute"
	// FindingBadExpiry is an item of a type with [Tracking].Expiry whose
	// expiry attribute is not a Number, which DynamoDB's Time to Live
	// passes over, or a Number that is no time in epoch seconds (negative,
	// or past the year 9999, as an expiry in milliseconds is): the item
	// never expires. Attribute names it and Have is its
	// value as DynamoDB JSON would type it (`S "2026-12-01"`). As with
	// [FindingBadVersion], the data is decoded without it. [Repair] leaves
	// it: write the item again with [WriteOptions].ExpiresAt.
	FindingBadExpiry FindingKind = "bad expiry"
	// FindingMisplaced is an item its type recognises at another primary
	// key than the one its handle gives its ids: a [Collection]'s child
	// in another shard partition than its id's ("WS#acme#03" for a child
	// the handle keeps at "WS#acme#07"), or where another shard layout put
	// it (before [Migrate] moved it after a change of
	// [CollectionOptions].Shards). Get, Update and Delete by its ids miss
	// it ([ErrNotFound]). Attribute is the partition key attribute, Have
	// the item's partition key, Want the handle's. [Repair] moves it as
	// [Migrate] does: one TransactWriteItems that puts it at its key and
	// deletes it where it was, unless an item is stored there already
	// (then it is left, in RepairResult.Left).
	FindingMisplaced FindingKind = "misplaced"
)

// Finding is one thing [Verify] found wrong, e.g.
//
//	{Kind: FindingIndexKeyStale, Type: "edge ENROLL (STU → CRS)",
//	 Key: {"STU#a91", "ENROLL#CRS#math204"}, Attribute: "GSI1PK",
//	 Have: "CRS#cs101", Want: "CRS#math204"}
type Finding struct {
	Kind FindingKind
	// Type is the item's type as the table records it ([Table.TypeOf]),
	// e.g. "node STU", or "counter ENROLLED" for a counter's aggregate;
	// "" for FindingUnknownItem.
	Type string
	// Key is the item's table keys.
	Key Key
	// Attribute is the index key attribute of the FindingIndexKey kinds
	// ("GSI1PK"), the version attribute of FindingBadVersion, the expiry
	// attribute of FindingBadExpiry, the attribute of
	// FindingUndeclaredAttribute, "count" for FindingCounterMismatch, the
	// key field's attribute of FindingKeyMismatch, the partition key
	// attribute of FindingMisplaced ("PK"); "" otherwise.
	Attribute string
	// Have and Want are, for the FindingIndexKey kinds, the stored value
	// and the one the item's ids and data give ("" when absent); for
	// FindingCounterMismatch the stored count ("" when the aggregate item
	// is missing) and the number of edges counted ("2"); for
	// FindingBadVersion, FindingBadExpiry and FindingUndeclaredAttribute,
	// Have is the stored value as DynamoDB JSON would type it, e.g.
	// `S "3"`, and Want is ""; for FindingKeyMismatch the attribute's
	// value and the id the keys hold; for FindingMisplaced the item's
	// partition key and the one its handle gives its ids ("WS#acme#03",
	// "WS#acme#07").
	Have, Want string
	// Missing is, for FindingDanglingEdge and FindingOrphan, the key of
	// the item that should exist.
	Missing Key
	// Err is, for FindingUndecodable, the decoder's error.
	Err error
}

// String formats the finding on one line: its kind, type and keys, then
// what differs.
func (f Finding) String() string {
	s := fmt.Sprintf("%s: %q %q", f.Kind, f.Key.PK, f.Key.SK)
	if f.Type != "" {
		s += " (" + f.Type + ")"
	}
	switch f.Kind {
	case FindingIndexKeyMissing, FindingIndexKeyStale, FindingIndexKeyExtra, FindingCounterMismatch, FindingMisplaced, FindingKeyMismatch:
		s += fmt.Sprintf(": %s = %q, want %q", f.Attribute, f.Have, f.Want)
	case FindingBadVersion, FindingUndeclaredAttribute, FindingBadExpiry:
		s += fmt.Sprintf(": %s is %s", f.Attribute, f.Have)
	case FindingDanglingEdge, FindingOrphan:
		s += fmt.Sprintf(": no item %q %q", f.Missing.PK, f.Missing.SK)
	case FindingUndecodable:
		s += fmt.Sprintf(": %v", f.Err)
	}
	return s
}

// VerifyResult is what [Verify] found.
type VerifyResult struct {
	// Scanned counts the items DynamoDB read.
	Scanned int
	// Findings are every fault found, each confirmed by a strongly
	// consistent read after the scan met it, ordered by key, then kind.
	Findings []Finding
	// Position resumes an interrupted Verify ([ScanOptions].From); "" when
	// it completed.
	Position string
}

// maxCounterChecks bounds the reads that confirm a counter mismatch.
const maxCounterChecks = 5

// Verify checks every item of t's table against the model the table
// records ([Table.Check]: every [NewNode], [NewEdge], [NewCollection],
// [NewEntity] and [NewCounter] declared on it) and returns what does not
// fit, as typed [Finding]s with the item's keys:
//
//   - items no recorded type has the keys of ([FindingUnknownItem]), or
//     whose data their type's handle cannot decode ([FindingUndecodable]);
//   - derived index key attributes (the inverted index's, and each
//     [IndexKeys] key) missing, stale, or present where the item's data
//     says they should not be or on an item whose type does not declare
//     the index ([FindingIndexKeyMissing], [FindingIndexKeyStale],
//     [FindingIndexKeyExtra]);
//   - edges whose endpoint node item or child is missing
//     ([FindingDanglingEdge]) and children whose parent node item is
//     missing ([FindingOrphan]), for endpoint and parent types of which
//     the walk met at least one item (a design that keeps no node items
//     of a type is not reported);
//   - counters whose aggregate count differs from the edges present
//     ([FindingCounterMismatch]);
//   - a [Tracking].Version or [Tracking].Expiry attribute that is not a
//     number ([FindingBadVersion], [FindingBadExpiry]);
//   - a collection's child at another partition key than its handle
//     gives its ids: another shard ([FindingMisplaced]);
//   - attributes an item holds that its type cannot hold: not its keys,
//     derived index keys or tracked attributes, and not declared by its
//     Go data type, so that a Replace of the value Get reads would drop
//     them ([FindingUndeclaredAttribute]), one finding per attribute.
//
// It is a parallel Scan of the whole table, as [Scan] with opts
// (Segments, 4 by default; Limit, From, Progress, and the RequestRate and
// ReadUnitRate bounds for a live table; Index is refused). No finding is a false
// positive of a concurrent write: before one is reported, the item is
// read again with a strongly consistent GetItem and checked again (an
// item deleted meanwhile is passed over); a missing endpoint or parent is
// confirmed with a strongly consistent BatchGetItem of it and of the items
// needing it, after the scan; a counter mismatch by reading the aggregate
// (strongly consistent), counting the edges on the index with Query, and
// reading the aggregate again, until the same mismatch is seen twice in a
// row (at most 5 rounds, 100 ms apart times the round). Verify writes
// nothing; see [Repair].
//
// Verify keeps the keys of the node and child items it meets, and the
// count per counted node, in memory. Dangling edges and orphans are
// checked for the items met in this run; counters only on a run from the
// start (From == ""), since a resumed run has not counted every edge.
// When the scan fails, Verify returns the findings so far with the error
// (an [*OpError] with Op "Verify") and the position to resume from, and
// skips the checks across items; when those checks fail after a complete
// scan, the error comes with Position "": run Verify again. The
// confirming reads go through the table's own client; the Scan through
// api. An invalid model ([Table.Check]: [ErrInvalidKey],
// [ErrInvalidOption]), invalid options ([ErrInvalidOption]; a bad From,
// [ErrInvalidCursor]), a nil api, table or option function, and a table
// without a client ([NewTable] with nil) ([ErrInvalidOption]) fail, in an
// [*OpError] with Op "Verify", before any request.
func Verify(ctx context.Context, api dynamodb.ScanAPIClient, t *Table, optFns ...func(*ScanOptions)) (res VerifyResult, err error) {
	const op = "Verify"
	if t == nil {
		return res, &OpError{Op: op, Err: errNilTable}
	}
	ctx, sp := t.startSpan(ctx, op)
	defer sp.end(&err)
	opts, err := scanOptions(optFns, verifySegments)
	if err == nil {
		err = opts.check(op, t) // before the tallies are made for Segments
	}
	if err == nil && isNil(api) {
		err = errNilAPI
	}
	if _, none := t.client.(noClient); none && err == nil { // it confirms findings through it
		err = errNoClient
	}
	if err != nil {
		return res, &OpError{Op: op, Table: t.name, Err: err}
	}
	v := newVerifier(t, opts.Segments)
	var mu sync.Mutex
	track := func(o *ScanOptions) {
		*o = opts
		o.Progress = func(p ScanProgress) {
			mu.Lock()
			res.Scanned = p.Scanned
			mu.Unlock()
			if opts.Progress != nil {
				opts.Progress(p)
			}
		}
	}
	pos, err := walk(ctx, op, api, t.scanSpec(), v.each, []func(*ScanOptions){track}, verifySegments)
	res.Position = pos
	if err == nil {
		for _, tl := range v.segs {
			if tl != nil {
				v.all.Merge(&tl.tally)
			}
		}
		if err = v.checkRefs(ctx); err == nil && opts.From == "" {
			err = v.checkCounters(ctx)
		}
		if err != nil {
			err = t.opErr(op, "", "", err)
		}
	}
	res.Findings = v.sorted()
	return res, err
}

// verifySegments is Verify's default [ScanOptions].Segments.
const verifySegments = 4

// verifier is one Verify's state.
type verifier struct {
	t *Table
	// types are the item types the table records without error, with what
	// Verify needs of each; index finds one by record id.
	types    []vtype
	index    map[string]int
	counters []counterRecord

	// segs is what each segment met, its own so that segments share no
	// lock per item (made by its segment on its first item); merged into
	// all once the scan is done.
	segs []*segment
	all  tally

	mu       sync.Mutex
	findings []Finding
}

// vtype is one recorded item type as Verify sees it.
type vtype struct {
	recorded
	// prefix is the type's static key prefixes, which an item's keys must
	// start with before the type's match is asked.
	prefix itemKey
	spec   *scanSpec // nil for a type whose handle has none
	// target is whether items of other types need items of this one.
	target bool
	// counts and aggregates are the counters (indexes in
	// verifier.counters) whose counted edges, and whose aggregate items,
	// are of this type.
	counts, aggregates []int
}

// tally is what a walk met of the items that tell of others, by item
// key.
type tally = drift.Tally[itemKey, needer]

func (v *verifier) newTally() tally {
	return drift.NewTally[itemKey, needer](len(v.types), len(v.counters))
}

// segment is what one segment of the walk met, with its scratch space
// for an item's derived keys and the items it needs, kept for the next
// item.
type segment struct {
	tally
	want keyAttrs
	refs []itemRef
}

// needer is an item needing one not met yet.
type needer struct {
	from itemKey
	typ  int    // its type in verifier.types
	of   string // the record id of the needed item's type
	kind FindingKind
}

// newVerifier is a verifier of t's record for a walk of segments
// segments.
func newVerifier(t *Table, segments int) *verifier {
	v := &verifier{t: t, index: map[string]int{}, counters: t.recordedCounters()}
	targets := map[string]bool{}
	for _, r := range t.recordedTypes() {
		if r.err != nil {
			continue
		}
		vt := vtype{recorded: r}
		vt.prefix.pk, _ = keycodec.StaticPrefix(r.pk, &keyCtx{})
		vt.prefix.sk, _ = keycodec.StaticPrefix(r.sk, &keyCtx{})
		if h, ok := r.h.(interface{ scanSpec() scanSpec }); ok {
			spec := h.scanSpec()
			vt.spec = &spec
		}
		if h, ok := r.h.(interface{ endpoint() endpoint }); ok {
			targets[h.endpoint().rid] = true
		}
		v.index[r.id] = len(v.types)
		v.types = append(v.types, vt)
	}
	for i := range v.types {
		v.types[i].target = targets[v.types[i].id]
	}
	for c, cr := range v.counters {
		if i, ok := v.index[cr.edge]; ok {
			v.types[i].counts = append(v.types[i].counts, c)
		}
		if i, ok := v.index[cr.aggregate]; ok {
			v.types[i].aggregates = append(v.types[i].aggregates, c)
		}
	}
	v.segs = make([]*segment, max(segments, 0))
	v.all = v.newTally()
	return v
}

// typeOf is the recorded type of item; nil for an item of none.
func (v *verifier) typeOf(item Item) *vtype {
	if i := v.typeAt(item, v.t.keyOf(item)); i >= 0 {
		return &v.types[i]
	}
	return nil
}

// typeAt is the index in v.types of the type of item, whose key is k; -1
// for an item of no recorded type.
func (v *verifier) typeAt(item Item, k itemKey) int {
	for i := range v.types {
		vt := &v.types[i]
		if vt.match != nil && strings.HasPrefix(k.pk, vt.prefix.pk) && strings.HasPrefix(k.sk, vt.prefix.sk) && vt.match(item) {
			return i
		}
	}
	return -1
}

// each checks one scanned item: what it alone shows, confirmed by a
// fresh read, and what it tells of others.
func (v *verifier) each(ctx context.Context, seg int, item Item) (bool, error) {
	tl := v.segs[seg]
	if tl == nil {
		tl = &segment{tally: v.newTally()}
		v.segs[seg] = tl
	}
	k := v.t.keyOf(item)
	typ, found := v.inspectAt(item, k, &tl.want)
	v.note(tl, item, k, typ)
	if len(found) > 0 {
		fresh, err := v.read(ctx, v.t.client, k)
		if err != nil {
			return true, err
		}
		found = nil
		if fresh != nil {
			_, found = v.inspect(fresh)
		}
	}
	if len(found) > 0 {
		v.mu.Lock()
		v.findings = append(v.findings, found...)
		v.mu.Unlock()
	}
	return true, nil
}

// inspect returns the index of item's type (-1 for none) and the faults
// the item alone shows.
func (v *verifier) inspect(item Item) (typ int, found []Finding) {
	var want keyAttrs
	return v.inspectAt(item, v.t.keyOf(item), &want)
}

// inspectAt is inspect of an item whose key is k; want is scratch space
// for its derived keys, kept for the next item.
func (v *verifier) inspectAt(item Item, k itemKey, want *keyAttrs) (typ int, found []Finding) {
	key := Key{PK: k.pk, SK: k.sk}
	typ = v.typeAt(item, k)
	if typ < 0 {
		for _, c := range v.counters {
			if c.marker(item) {
				return typ, nil
			}
		}
		return typ, []Finding{{Kind: FindingUnknownItem, Key: key}}
	}
	r := &v.types[typ]
	data, cloned := item, false
	for _, t := range [...]struct {
		attr string
		kind FindingKind
	}{{r.version, FindingBadVersion}, {r.expiry, FindingBadExpiry}} {
		av := item[t.attr]
		if t.attr == "" || av == nil || !badTracked(t.kind, av) {
			continue
		}
		found = append(found, Finding{Kind: t.kind, Type: r.name, Key: key, Attribute: t.attr, Have: drift.DescribeValue(av)})
		// The attribute is reported as what it is: the data is decoded
		// without it, so that a type that exposes the field is not also
		// undecodable.
		if !cloned {
			data, cloned = maps.Clone(item), true
		}
		delete(data, t.attr)
	}
	// The home Migrate moves an item to: a child's shard.
	if r.spec != nil && r.spec.home != nil {
		if want, err := r.spec.home(item); err == nil && want != "" && want != k.pk {
			found = append(found, Finding{Kind: FindingMisplaced, Type: r.name, Key: key, Attribute: v.t.opts.PartitionKey, Have: k.pk, Want: want})
		}
	}
	if r.holds.loses(item) {
		for name, av := range item {
			if !r.holds.set[name] {
				found = append(found, Finding{Kind: FindingUndeclaredAttribute, Type: r.name, Key: key, Attribute: name, Have: drift.DescribeValue(av)})
			}
		}
	}
	if r.check != nil {
		if err := r.check(data); err != nil {
			if km, ok := err.(*keyMismatch); ok {
				return typ, append(found, Finding{Kind: FindingKeyMismatch, Type: r.name, Key: key, Attribute: km.attr, Have: km.have, Want: km.want})
			}
			return typ, append(found, Finding{Kind: FindingUndecodable, Type: r.name, Key: key, Err: err})
		}
	}
	spec := r.spec
	if spec == nil {
		return typ, found
	}
	var err error
	ok := true
	if spec.matched != nil {
		*want, err = spec.matched(item, *want)
	} else {
		*want, ok, err = spec.derive(item, *want)
	}
	if err != nil {
		return typ, append(found, Finding{Kind: FindingUndecodable, Type: r.name, Key: key, Err: err})
	}
	if !ok {
		return typ, found
	}
	for _, name := range spec.owned {
		have, isS := stringAttr(item, name)
		present := item[name] != nil
		w, should := want.get(name)
		f := Finding{Type: r.name, Key: key, Attribute: name, Have: have, Want: w}
		switch {
		case should && !present:
			f.Kind = FindingIndexKeyMissing
		case should && (!isS || have != w):
			f.Kind, f.Have = FindingIndexKeyStale, drift.DescribeValue(item[name])
			if isS {
				f.Have = have
			}
		case !should && present:
			f.Kind = FindingIndexKeyExtra
			if !isS {
				f.Have = drift.DescribeValue(item[name])
			}
		default:
			continue
		}
		found = append(found, f)
	}
	// Keys of an index the type does not declare: the item is listed
	// where it does not belong.
	for _, name := range spec.foreign {
		if av := item[name]; av != nil {
			f := Finding{Kind: FindingIndexKeyExtra, Type: r.name, Key: key, Attribute: name}
			if f.Have, ok = stringAttr(item, name); !ok {
				f.Have = drift.DescribeValue(av)
			}
			found = append(found, f)
		}
	}
	return typ, found
}

// maxExpiry is the last second of year 9999 in epoch seconds: an expiry
// past it is no time in seconds (one in milliseconds, 1764000000000, is).
const maxExpiry = 253402300799

// badTracked reports whether av cannot be the tracked attribute of kind
// ([FindingBadVersion], [FindingBadExpiry]): no Number, or for an expiry
// no time in epoch seconds.
func badTracked(kind FindingKind, av types.AttributeValue) bool {
	n, ok := av.(*types.AttributeValueMemberN)
	if !ok {
		return true
	}
	if kind != FindingBadExpiry {
		return false
	}
	sec, err := strconv.ParseFloat(n.Value, 64)
	return err != nil || sec < 0 || sec > maxExpiry
}

// dataCheck decodes the data of an item whose keys are known to be of its
// type into a V, as the type's Decode does, and returns the error. item is
// copied first when decoding into V may modify it (unmarshalData removes
// the keys before decoding into anything but a struct); a struct V is
// decoded into a zeroed value of a pool, for Verify meets many.
func dataCheck[V any](t *Table) func(Item) error {
	if reflect.TypeFor[V]().Kind() != reflect.Struct {
		return func(item Item) error {
			var v V
			return t.unmarshalData(maps.Clone(item), &v)
		}
	}
	type scratch struct {
		v  V
		av types.AttributeValueMemberM
	}
	pool := sync.Pool{New: func() any { return new(scratch) }}
	return func(item Item) error {
		s := pool.Get().(*scratch)
		var zero V
		s.v, s.av.Value = zero, item
		// As unmarshalData into a struct: the decoder passes over the keys.
		err := t.dec.Decode(&s.av, &s.v)
		s.v, s.av.Value = zero, nil
		pool.Put(s)
		return err
	}
}

// note records what item, of type typ, tells of other items: that it
// exists, what it needs, what it counts.
func (v *verifier) note(tl *segment, item Item, k itemKey, typ int) {
	if typ < 0 {
		return
	}
	r := &v.types[typ]
	tl.Met[typ]++
	if r.target {
		tl.Meet(k)
	}
	if r.refs != nil {
		tl.refs = r.refs(item, tl.refs)
		for _, ref := range tl.refs {
			tl.Need(ref.key, needer{from: k, typ: typ, of: ref.of, kind: ref.kind})
		}
	}
	for _, c := range r.counts {
		if agg, ok := v.counters[c].target(item); ok {
			tl.Counted[c][agg.pk]++
		}
	}
	for _, c := range r.aggregates {
		tl.Stored[c][k.pk] = drift.CountOf(item)
	}
}

// checkRefs confirms the needed items not met: each read again, with the
// items needing it, strongly consistent.
func (v *verifier) checkRefs(ctx context.Context) error {
	keys := v.all.Unmet(func(w needer) bool {
		i, ok := v.index[w.of]
		return ok && v.all.Met[i] > 0 // of a type the walk met items of
	})
	if len(keys) == 0 {
		return nil
	}
	consistent := ReadOptions{ConsistentRead: true}
	found, err := v.t.batchGet(ctx, "Verify", keys, consistent)
	if err != nil {
		return err
	}
	var missing, from []itemKey
	for _, k := range keys {
		if found[k] == nil {
			missing = append(missing, k)
			for _, w := range v.all.Pending[k] {
				from = append(from, w.from)
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	needing, err := v.t.batchGet(ctx, "Verify", from, consistent)
	if err != nil {
		return err
	}
	for _, k := range missing {
		for _, w := range v.all.Pending[k] {
			r := &v.types[w.typ]
			item := needing[w.from]
			if item == nil || !containsRef(r.refs(item, nil), k) {
				continue // gone, or no longer pointing there
			}
			v.findings = append(v.findings, Finding{Kind: w.kind, Type: r.name, Key: Key{w.from.pk, w.from.sk}, Missing: Key{k.pk, k.sk}})
		}
	}
	return nil
}

// checkCounters confirms each aggregate whose count differs from the
// edges met.
func (v *verifier) checkCounters(ctx context.Context) error {
	for c, cr := range v.counters {
		for _, pk := range v.all.Mismatched(c) {
			f, err := v.confirmCount(ctx, cr, itemKey{pk, cr.name})
			if err != nil {
				return err
			}
			if f != nil {
				v.findings = append(v.findings, *f)
			}
		}
	}
	return nil
}

// confirmCount reads aggregate key's count and counts its edges until
// the same mismatch shows twice in a row; nil when they agree.
func (v *verifier) confirmCount(ctx context.Context, c counterRecord, key itemKey) (*Finding, error) {
	var last *Finding
	for round := 1; round <= maxCounterChecks; round++ {
		before, err := v.readCount(ctx, key)
		if err != nil {
			return nil, err
		}
		n, err := c.recount(ctx, key)
		if err != nil {
			return nil, err
		}
		after, err := v.readCount(ctx, key)
		if err != nil {
			return nil, err
		}
		want := strconv.FormatInt(n, 10)
		if before == after && (after == want || after == "" && n == 0) {
			return nil, nil
		}
		f := &Finding{Kind: FindingCounterMismatch, Type: "counter " + c.name, Key: Key{key.pk, key.sk}, Attribute: "count", Have: after, Want: want}
		if before == after && last != nil && *last == *f {
			return f, nil
		}
		last = f
		if err := batch.Sleep(ctx, time.Duration(round)*100*time.Millisecond); err != nil {
			return nil, err
		}
	}
	return nil, nil // still moving: not reported
}

// readCount is an aggregate's stored count, strongly consistent; "" when
// the item is missing.
func (v *verifier) readCount(ctx context.Context, key itemKey) (string, error) {
	item, err := v.read(ctx, v.t.client, key)
	if err != nil || item == nil {
		return "", err
	}
	return drift.CountOf(item), nil
}

// itemReader is what read needs of a client: the table's, or Repair's.
type itemReader interface {
	GetItem(ctx context.Context, params *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
}

// read is the item at k, strongly consistent; nil when there is none.
func (v *verifier) read(ctx context.Context, api itemReader, k itemKey) (Item, error) {
	out, err := api.GetItem(ctx, &dynamodb.GetItemInput{TableName: v.t.tableName, Key: v.t.keyItem(k.pk, k.sk), ConsistentRead: strong}, callOpts(ctx)...)
	if err != nil {
		return nil, err
	}
	return out.Item, nil
}

// sorted returns the findings by key, then kind and attribute.
func (v *verifier) sorted() []Finding {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := slices.Clone(v.findings)
	slices.SortFunc(out, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Key.PK, b.Key.PK), cmp.Compare(a.Key.SK, b.Key.SK),
			cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Attribute, b.Attribute))
	})
	return out
}

// held is the attributes the items of one recorded type may hold without
// loss ([FindingUndeclaredAttribute]): the table's key attributes and
// derived index key attributes, the attributes its handle tracks, and
// those its data type declares. The zero value, for a data type that holds
// any attribute (a map, an interface, a type that marshals itself) or a
// type recorded without it, checks nothing.
type held struct {
	set   map[string]bool
	names []string // set's, to count those an item holds
}

// loses reports whether item holds an attribute that h does not, without
// allocating: it counts the names of h that item holds, or, when h has
// many more names than item has attributes, looks each of item's up in h.
func (h *held) loses(item Item) bool {
	if h.set == nil {
		return false
	}
	if len(h.names) <= 2*len(item) {
		n := 0
		for _, name := range h.names {
			if _, ok := item[name]; ok {
				n++
			}
		}
		return n != len(item)
	}
	for name := range item {
		if !h.set[name] {
			return true
		}
	}
	return false
}

// holdsOf is what the items of a type of t hold whose data type is data
// and whose handle tracks tr.
func (t *Table) holdsOf(data reflect.Type, tr *tracking) held {
	declared, open := goattrs.Of(data, t.encoderTagKey())
	if open {
		return held{}
	}
	o := &t.opts
	set := map[string]bool{}
	for _, n := range [...]string{o.PartitionKey, o.SortKey, o.IndexPartitionKey, o.IndexSortKey, tr.version, tr.createdAt, tr.updatedAt, tr.expiry} {
		if n != "" {
			set[n] = true
		}
	}
	maps.Copy(set, t.derived)
	for _, a := range declared {
		set[a.Name] = true
	}
	return held{set: set, names: slices.Sorted(maps.Keys(set))}
}
