package adjlist

import (
	"context"
	"reflect"
	"slices"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/walks"
)

// The kinds of [Finding]: what [Verify] found wrong with an item.
const (
	// FindingUnknownItem is an item whose keys are those of no item type
	// the table records (nor an [ItemCounter.Apply] marker item): written by
	// another program, or by a model no longer declared.
	FindingUnknownItem = "unknown item"
	// FindingUndecodable is an item of a recorded type whose data its handle
	// cannot decode (Finding.Err says why), or whose index keys cannot be
	// computed from its data. A bad version alone is [FindingBadVersion].
	FindingUndecodable = "undecodable"
	// FindingIndexKeyMissing is a derived index key attribute the item's
	// ids and data give that the item lacks: the item is missing from
	// that index.
	FindingIndexKeyMissing = "index key missing"
	// FindingIndexKeyStale is a derived index key attribute whose stored
	// value is not the one the item's ids and data give: the index lists
	// the item under the wrong key.
	FindingIndexKeyStale = "index key stale"
	// FindingIndexKeyExtra is a derived index key attribute the item carries
	// although its data says it should not (a sparse index) or its type does
	// not declare that index (a node item with GSI1PK): Want is "".
	FindingIndexKeyExtra = "index key extra"
	// FindingDanglingEdge is an edge whose endpoint item (a node item, or
	// a child in its collection) is missing.
	FindingDanglingEdge = "dangling edge"
	// FindingOrphan is a collection's child whose parent node item is
	// missing.
	FindingOrphan = "orphan"
	// FindingCounterMismatch is an [ItemCounter]'s count item whose count
	// differs from the number of counted edges present.
	FindingCounterMismatch = "counter mismatch"
	// FindingBadVersion is an item of a type with [Tracking].Version whose
	// version attribute is not a number.
	FindingBadVersion = "bad version"
	// FindingKeyMismatch is an [Entity] item whose key field attribute
	// ("complaint_id" of "comp#{complaint_id}") differs from the id its keys
	// hold. [Repair] leaves it.
	FindingKeyMismatch = "key mismatch"
	// FindingUndeclaredAttribute is an attribute an item holds that its type
	// cannot hold: not a table or derived index key, not tracked ([Tracking]),
	// not declared by its Go data type (as the table's attributevalue encoder
	// names fields). A Replace of the value Get read would drop it. One
	// finding per attribute. Map and interface data types hold every
	// attribute; types with their own (un)marshaler are not checked. [Repair]
	// leaves it.
	FindingUndeclaredAttribute = "undeclared attribute"
	// FindingBadExpiry is an item whose [Tracking].Expiry attribute is not a
	// Number, or a Number that is no time in epoch seconds (negative, or past
	// the year 9999, as milliseconds are): the item never expires. [Repair]
	// leaves it: write the item again with [WriteOptions].ExpiresAt.
	FindingBadExpiry = "bad expiry"
	// FindingMisplaced is an item its type recognises at another primary key
	// than its handle gives its ids, e.g. a [Collection] child in shard
	// partition "WS#acme#03" that the handle keeps at "WS#acme#07"; Get,
	// Update and Delete miss it ([ErrNotFound]). [Repair] moves it as
	// [Migrate] does (one TransactWriteItems), unless its key is taken (then
	// in RepairResult.Left).
	FindingMisplaced = "misplaced"
)

// Finding is one thing [Verify] found wrong, e.g.
//
//	{Kind: FindingIndexKeyStale, Type: "edge ENROLL (STU → CRS)",
//	 Key: {"STU#a91", "ENROLL#CRS#math204"}, Attribute: "GSI1PK",
//	 Have: "CRS#cs101", Want: "CRS#math204"}
type Finding struct {
	// Kind is what is wrong, one of the Finding constants, e.g.
	// FindingIndexKeyStale ("index key stale").
	Kind string
	// Type is the item's type as the table records it ([Table.TypeOf]),
	// e.g. "node STU", or "counter ENROLLED" for a counter's aggregate;
	// "" for FindingUnknownItem.
	Type string
	// Key is the item's table keys.
	Key Key
	// Attribute is the attribute the finding is about: the index key ("GSI1PK"),
	// version, expiry, undeclared or key field attribute, "count" for
	// FindingCounterMismatch, the partition key ("PK") for FindingMisplaced;
	// "" otherwise.
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
	return walks.Finding{Kind: walks.Kind(f.Kind), Type: f.Type, Key: walks.Key(f.Key), Attribute: f.Attribute,
		Have: f.Have, Want: f.Want, Missing: walks.Key(f.Missing), Err: f.Err}.String()
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

// Verify checks every item of t's table against the model the table
// records ([Table.Check]) and returns what does not fit, as [Finding]
// values with the item's keys; docs/operations.md has the table of kinds
// and what [Repair] does with each. It writes nothing.
//
// It is a parallel Scan through api, as [Scan] with optFns (Segments, 4 by
// default; Limit, From, Progress, RequestRate, ReadUnitRate; Index is
// refused). Each finding is confirmed by a strongly consistent read through
// t's client (GetItem; BatchGetItem for missing endpoints and parents; for
// counters, the aggregate and a Query of the index until the same mismatch
// shows twice, at most 5 rounds), so a concurrent write is never reported.
// Dangling edges and orphans are reported for endpoint and parent types
// of which the walk met an item; counters only on a run from the start.
// Verify keeps the keys
// of node and child items met, and a count per counted node, in memory.
//
// Errors are [*OpError] with Op "Verify". When the scan fails, Verify
// returns the findings so far with the error and Position to resume from;
// when the checks across items fail after a complete scan, Position is "".
// An invalid model ([ErrInvalidKey], [ErrInvalidOption]), invalid options
// ([ErrInvalidOption]; a bad From, [ErrInvalidCursor]), a nil api, table or
// option function, and a table without a client ([ErrInvalidOption]) fail
// before any request.
func Verify(ctx context.Context, api dynamodb.ScanAPIClient, t *Table, optFns ...func(*ScanOptions)) (res VerifyResult, err error) {
	const op = "Verify"
	if t == nil {
		return res, &OpError{Op: op, Err: errNilTable}
	}
	ctx, sp := t.startSpan(ctx, op)
	defer sp.End(&err)
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
	v := newVerifier(ctx, t, opts.Segments)
	var mu sync.Mutex
	track := tracked(opts, &mu, func(p ScanProgress) { res.Scanned = p.Scanned })
	pos, err := walk(ctx, op, api, t.scanSpec(), v.each, track, verifySegments)
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
	res.Findings = findings(v.findings)
	return res, err
}

// verifySegments is Verify's default [ScanOptions].Segments.
const verifySegments = 4

// verifier is one Verify's state.
type verifier struct {
	t  *Table
	mt *walks.Table // its reads' and Repair's writes' table
	// model is the item types the table records without error; types is
	// the rest of each (same index); index finds one by record id.
	model    walks.Model
	types    []vtype
	index    map[string]int
	counters []*ItemCounter

	// segs is what each segment met, its own so that segments share no
	// lock per item; merged into all once the scan is done.
	segs []*segment
	all  tally

	mu       sync.Mutex
	findings []walks.Finding
}

// vtype is one recorded item type as Verify sees it.
type vtype struct {
	recorded
	target bool // items of other types need items of this one
	// counts and aggregates are the counters (in verifier.counters) whose
	// counted items, and whose aggregates, are of this type.
	counts, aggregates []int
}

type tally = walks.Tally[Key, needer]

func (v *verifier) newTally() tally {
	return walks.NewTally[Key, needer](len(v.types), len(v.counters))
}

// segment is what one segment met, with scratch space kept for the next
// item.
type segment struct {
	tally
	want ddbitem.Attrs
	refs []itemRef
}

// needer is an item needing one not met yet.
type needer struct {
	from Key
	typ  int    // its type in verifier.types
	of   string // the record id of the needed item's type
	kind string
}

// newVerifier is a verifier of t's record for a walk of segments.
func newVerifier(ctx context.Context, t *Table, segments int) *verifier {
	v := &verifier{t: t, mt: t.migrationTable(ctx), index: map[string]int{}, counters: t.recordedCounters()}
	v.model = walks.Model{PartitionKey: t.opts.PartitionKey}
	targets := map[string]bool{}
	for _, r := range t.recordedTypes() {
		if r.err != nil {
			continue
		}
		vt := r.Type
		vt.PKPrefix, _ = keycodec.StaticPrefix(r.pk, &keyCtx{})
		vt.SKPrefix, _ = keycodec.StaticPrefix(r.sk, &keyCtx{})
		if spec, ok := r.scanSpec(); ok {
			vt.Spec = &spec.Spec
		}
		if h, ok := r.h.(interface{ endpoint() endpoint }); ok {
			targets[h.endpoint().rid] = true
		}
		v.index[r.id] = len(v.types)
		v.types = append(v.types, vtype{recorded: r})
		v.model.Types = append(v.model.Types, vt)
	}
	for i := range v.types {
		v.types[i].target = targets[v.types[i].id]
	}
	for c, cr := range v.counters {
		v.model.Markers = append(v.model.Markers, cr.marker)
		if i, ok := v.index[cr.rid]; ok {
			v.types[i].counts = append(v.types[i].counts, c)
		}
		if i, ok := v.index[cr.agg]; ok {
			v.types[i].aggregates = append(v.types[i].aggregates, c)
		}
	}
	v.segs = make([]*segment, max(segments, 0))
	v.all = v.newTally()
	return v
}

// typeOf is the recorded type of item; nil for an item of none.
func (v *verifier) typeOf(item Item) *vtype {
	k := v.t.keyOf(item)
	if i := v.model.TypeAt(item, k.PK, k.SK); i >= 0 {
		return &v.types[i]
	}
	return nil
}

// each checks one scanned item, its faults confirmed by a fresh read, and
// notes what it tells of others.
func (v *verifier) each(ctx context.Context, seg int, item Item) (bool, error) {
	tl := v.segs[seg]
	if tl == nil {
		tl = &segment{tally: v.newTally()}
		v.segs[seg] = tl
	}
	k := v.t.keyOf(item)
	typ, found := v.model.Inspect(item, k.PK, k.SK, &tl.want)
	v.note(tl, item, k, typ)
	if len(found) > 0 {
		fresh, err := walks.Read(ctx, v.t.client, v.mt, walks.Key(k))
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
func (v *verifier) inspect(item Item) (typ int, found []walks.Finding) {
	var want ddbitem.Attrs
	k := v.t.keyOf(item)
	return v.model.Inspect(item, k.PK, k.SK, &want)
}

// note records that item, of type typ, exists, what it needs and counts.
func (v *verifier) note(tl *segment, item Item, k Key, typ int) {
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
		if agg, ok, err := v.counters[c].target(item); ok && err == nil {
			tl.Counted[c][agg]++
		}
	}
	for _, c := range r.aggregates {
		tl.Stored[c][k] = walks.CountOf(item)
	}
}

// checkRefs confirms the needed items not met by reading them and their
// needers again, strongly consistent.
func (v *verifier) checkRefs(ctx context.Context) error {
	keys := v.all.Unmet(func(w needer) bool {
		i, ok := v.index[w.of]
		return ok && v.all.Met[i] > 0 // of a type the walk met items of
	})
	get := func(ctx context.Context, keys []Key) (map[Key]Item, error) {
		return v.t.batchGet(ctx, "Verify", keys, ReadOptions{ConsistentRead: true})
	}
	return walks.Missing(ctx, keys, v.all.Pending, func(w needer) Key { return w.from }, get, func(k Key, w needer, item Item) {
		r := &v.types[w.typ]
		if item == nil || !containsRef(r.refs(item, nil), k) {
			return // gone, or no longer pointing there
		}
		v.findings = append(v.findings, walks.Finding{Kind: walks.Kind(w.kind), Type: r.Name,
			Key: walks.Key(w.from), Missing: walks.Key(k)})
	})
}

// checkCounters confirms each aggregate whose count differs from the
// items met.
func (v *verifier) checkCounters(ctx context.Context) error {
	for c, cr := range v.counters {
		for _, key := range v.all.Mismatched(c) {
			f, err := walks.ConfirmCount(ctx, cr.name, walks.Key(key),
				func(ctx context.Context) (Item, error) {
					return walks.Read(ctx, v.t.client, v.mt, walks.Key(key))
				},
				func(ctx context.Context) (int64, error) { return cr.recount(ctx, key) })
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

// findings are fs sorted, as Verify reports them.
func findings(fs []walks.Finding) []Finding {
	if fs == nil {
		return nil
	}
	out := make([]Finding, len(fs))
	for i, f := range walks.Sorted(fs) {
		out[i] = Finding{Kind: string(f.Kind), Type: f.Type, Key: Key(f.Key), Attribute: f.Attribute,
			Have: f.Have, Want: f.Want, Missing: Key(f.Missing), Err: f.Err}
	}
	return out
}

// holdsOf is what the items of a type with data type data and tracking
// tr may hold.
func (t *Table) holdsOf(data reflect.Type, tr *tracking) walks.Held {
	declared, open := ddbitem.Of(data, t.encoderTagKey())
	if open {
		return walks.Held{}
	}
	o := &t.opts
	ipk, isk := o.IndexPartitionKey, o.IndexSortKey
	if t.layout == noIndex {
		ipk, isk = "", "" // data, which the type must hold
	}
	return walks.HeldOf(declared, t.derived, o.PartitionKey, o.SortKey, ipk, isk, tr.Version, tr.CreatedAt, tr.UpdatedAt, tr.Expiry)
}

// containsRef reports whether refs name the item k.
func containsRef(refs []itemRef, k Key) bool {
	return slices.ContainsFunc(refs, func(r itemRef) bool { return r.key == k })
}
