package adjlist

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
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
	// cannot be computed from its data.
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
	// condition no longer holds, or an index its type does not declare).
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
	// ("GSI1PK"), the version attribute of FindingBadVersion, "count" for
	// FindingCounterMismatch; "" otherwise.
	Attribute string
	// Have and Want are, for the FindingIndexKey kinds, the stored value
	// and the one the item's ids and data give ("" when absent); for
	// FindingCounterMismatch the stored count ("" when the aggregate item
	// is missing) and the number of edges counted ("2"); for
	// FindingBadVersion, Have is the stored value as DynamoDB JSON would
	// type it, e.g. `S "3"`.
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
	case FindingIndexKeyMissing, FindingIndexKeyStale, FindingIndexKeyExtra, FindingCounterMismatch:
		s += fmt.Sprintf(": %s = %q, want %q", f.Attribute, f.Have, f.Want)
	case FindingBadVersion:
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
//     says they should not be ([FindingIndexKeyMissing],
//     [FindingIndexKeyStale], [FindingIndexKeyExtra]);
//   - edges whose endpoint node item or child is missing
//     ([FindingDanglingEdge]) and children whose parent node item is
//     missing ([FindingOrphan]), for endpoint and parent types of which
//     the walk met at least one item (a design that keeps no node items
//     of a type is not reported);
//   - counters whose aggregate count differs from the edges present
//     ([FindingCounterMismatch]);
//   - a [Tracking].Version attribute that is not a number
//     ([FindingBadVersion]).
//
// It is a parallel Scan of the whole table, as [Scan] with opts
// (Segments, Limit, From, Progress, and the RequestRate and ReadUnitRate
// bounds for a live table; Index is refused). No finding is a false
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
// scan, the error comes with Position "": run Verify again. The confirming reads go through the
// table's own client; the Scan through api. An invalid model
// ([Table.Check]: [ErrInvalidKey], [ErrInvalidOption]), invalid options
// ([ErrInvalidOption]; a bad From, [ErrInvalidCursor]) and a table
// without a client ([NewTable] with nil: [ErrInvalidOption]) fail before
// any request.
func Verify(ctx context.Context, api dynamodb.ScanAPIClient, t *Table, optFns ...func(*ScanOptions)) (res VerifyResult, err error) {
	const op = "Verify"
	ctx, sp := t.startSpan(ctx, op)
	defer sp.end(&err)
	opts := ScanOptions{}
	for _, fn := range optFns {
		fn(&opts)
	}
	if opts.Index != "" {
		return res, &OpError{Op: op, Table: t.name, Err: fmt.Errorf("%w: Verify walks the table, not index %s", ErrInvalidOption, opts.Index)}
	}
	if _, none := t.client.(noClient); none { // it confirms findings through it
		return res, &OpError{Op: op, Table: t.name, Err: errNoClient}
	}
	v := newVerifier(t, cmp.Or(opts.Segments, 4)) // walk's default
	var mu sync.Mutex
	track := func(o *ScanOptions) {
		o.Progress = func(p ScanProgress) {
			mu.Lock()
			res.Scanned = p.Scanned
			mu.Unlock()
			if opts.Progress != nil {
				opts.Progress(p)
			}
		}
	}
	pos, err := walk(ctx, op, api, t.scanSpec(), v.each, append(optFns, track))
	res.Position = pos
	if err == nil {
		for _, tl := range v.segs {
			v.all.merge(tl)
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

// verifier is one Verify's state.
type verifier struct {
	t     *Table
	types []recorded
	// prefixes are each type's static key prefixes, which an item's keys
	// must start with before its type's match is asked.
	prefixes []itemKey
	specs    map[string]scanSpec
	counters []counterRecord
	// targets are the record ids of the types some item needs.
	targets map[string]bool

	// segs is what each segment met, its own so that segments share no
	// lock per item; merged into all once the scan is done.
	segs []*tally
	all  *tally

	mu       sync.Mutex
	findings []Finding
}

// tally is what a walk met of the items that tell of others.
type tally struct {
	met     map[string]int       // items met per record id
	seen    map[itemKey]bool     // items met of a type in targets
	pending map[itemKey][]needer // needed items not met yet
	counted map[aggregate]int64  // edges met per aggregate
	stored  map[aggregate]string // counts read per aggregate
}

func newTally() *tally {
	return &tally{met: map[string]int{}, seen: map[itemKey]bool{}, pending: map[itemKey][]needer{},
		counted: map[aggregate]int64{}, stored: map[aggregate]string{}}
}

// merge adds what o met to a.
func (a *tally) merge(o *tally) {
	for id, n := range o.met {
		a.met[id] += n
	}
	for k := range o.seen {
		a.seen[k] = true
		delete(a.pending, k)
	}
	for k, ws := range o.pending {
		if !a.seen[k] {
			a.pending[k] = append(a.pending[k], ws...)
		}
	}
	for g, n := range o.counted {
		a.counted[g] += n
	}
	for g, n := range o.stored {
		a.stored[g] = n
	}
}

// needer is an item needing one not met yet.
type needer struct {
	from itemKey
	typ  string
	of   string
	kind FindingKind
	refs func(Item) []itemRef
}

// aggregate is one counter's aggregate item.
type aggregate struct {
	counter int
	key     itemKey
}

// newVerifier is a verifier of t's record for a walk of segments
// segments.
func newVerifier(t *Table, segments int) *verifier {
	v := &verifier{t: t, types: t.recordedTypes(), specs: map[string]scanSpec{}, counters: t.recordedCounters(),
		targets: map[string]bool{}, all: newTally()}
	for range segments {
		v.segs = append(v.segs, newTally())
	}
	for _, r := range v.types {
		var p itemKey
		if r.err == nil {
			p.pk, _ = staticPrefix(r.pk, &keyCtx{})
			p.sk, _ = staticPrefix(r.sk, &keyCtx{})
		}
		v.prefixes = append(v.prefixes, p)
		if h, ok := r.h.(interface{ scanSpec() scanSpec }); ok && r.err == nil {
			v.specs[r.id] = h.scanSpec()
		}
		if h, ok := r.h.(interface{ endpoint() endpoint }); ok && r.err == nil {
			v.targets[h.endpoint().rid] = true
		}
	}
	return v
}

// typeOf is the recorded type of item, from the snapshot.
func (v *verifier) typeOf(item Item) (recorded, bool) {
	return v.typeAt(item, itemKeyOf(v.t, item))
}

// typeAt is typeOf of an item whose key is k.
func (v *verifier) typeAt(item Item, k itemKey) (recorded, bool) {
	for i, r := range v.types {
		p := v.prefixes[i]
		if r.err == nil && r.match != nil && strings.HasPrefix(k.pk, p.pk) && strings.HasPrefix(k.sk, p.sk) && r.match(item) {
			return r, true
		}
	}
	return recorded{}, false
}

// each checks one scanned item: what it alone shows, confirmed by a
// fresh read, and what it tells of others.
func (v *verifier) each(ctx context.Context, seg int, item Item) (bool, error) {
	k := itemKeyOf(v.t, item)
	r, known, found := v.inspectAt(item, k)
	v.note(v.segs[seg], item, k, r, known)
	if len(found) > 0 {
		fresh, err := v.read(ctx, v.t.client, k)
		if err != nil {
			return true, err
		}
		found = nil
		if fresh != nil {
			_, _, found = v.inspect(fresh)
		}
	}
	if len(found) > 0 {
		v.mu.Lock()
		v.findings = append(v.findings, found...)
		v.mu.Unlock()
	}
	return true, nil
}

// inspect returns item's type and the faults the item alone shows.
func (v *verifier) inspect(item Item) (r recorded, known bool, found []Finding) {
	return v.inspectAt(item, itemKeyOf(v.t, item))
}

// inspectAt is inspect of an item whose key is k.
func (v *verifier) inspectAt(item Item, k itemKey) (r recorded, known bool, found []Finding) {
	key := Key{PK: k.pk, SK: k.sk}
	r, known = v.typeAt(item, k)
	if !known {
		for _, c := range v.counters {
			if c.marker(item) {
				return r, false, nil
			}
		}
		return r, false, []Finding{{Kind: FindingUnknownItem, Key: key}}
	}
	if r.check != nil {
		if err := r.check(item); err != nil {
			return r, true, []Finding{{Kind: FindingUndecodable, Type: r.name, Key: key, Err: err}}
		}
	}
	if av := item[r.version]; r.version != "" && av != nil {
		if _, ok := av.(*types.AttributeValueMemberN); !ok {
			found = append(found, Finding{Kind: FindingBadVersion, Type: r.name, Key: key, Attribute: r.version, Have: describeValue(av)})
		}
	}
	spec, ok := v.specs[r.id]
	if !ok {
		return r, true, found
	}
	var want map[string]string
	var err error
	if spec.matched != nil {
		want, err = spec.matched(item)
	} else {
		want, ok, err = spec.derive(item)
	}
	if err != nil {
		return r, true, append(found, Finding{Kind: FindingUndecodable, Type: r.name, Key: key, Err: err})
	}
	if !ok {
		return r, true, found
	}
	for _, name := range spec.owned {
		have, isS := stringAttr(item, name)
		present := item[name] != nil
		w, should := want[name]
		f := Finding{Type: r.name, Key: key, Attribute: name, Have: have, Want: w}
		switch {
		case should && !present:
			f.Kind = FindingIndexKeyMissing
		case should && (!isS || have != w):
			f.Kind, f.Have = FindingIndexKeyStale, describeValue(item[name])
			if isS {
				f.Have = have
			}
		case !should && present:
			f.Kind = FindingIndexKeyExtra
			if !isS {
				f.Have = describeValue(item[name])
			}
		default:
			continue
		}
		found = append(found, f)
	}
	return r, true, found
}

// note records what item tells of other items: that it exists, what it
// needs, what it counts.
func (v *verifier) note(tl *tally, item Item, k itemKey, r recorded, known bool) {
	if !known {
		return
	}
	tl.met[r.id]++
	if v.targets[r.id] {
		tl.seen[k] = true
		delete(tl.pending, k)
	}
	if r.refs != nil {
		for _, ref := range r.refs(item) {
			if !tl.seen[ref.key] {
				tl.pending[ref.key] = append(tl.pending[ref.key], needer{from: k, typ: r.name, of: ref.of, kind: ref.kind, refs: r.refs})
			}
		}
	}
	for i, c := range v.counters {
		switch r.id {
		case c.edge:
			if agg, ok := c.target(item); ok {
				tl.counted[aggregate{i, agg}]++
			}
		case c.aggregate:
			tl.stored[aggregate{i, k}] = countOf(item)
		}
	}
}

// checkRefs confirms the needed items not met: each read again, with the
// items needing it, strongly consistent.
func (v *verifier) checkRefs(ctx context.Context) error {
	var keys []itemKey
	for k, ws := range v.all.pending {
		if v.all.met[ws[0].of] > 0 {
			keys = append(keys, k)
		}
	}
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
			for _, w := range v.all.pending[k] {
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
		for _, w := range v.all.pending[k] {
			item := needing[w.from]
			if item == nil || !containsRef(w.refs(item), k) {
				continue // gone, or no longer pointing there
			}
			v.findings = append(v.findings, Finding{Kind: w.kind, Type: w.typ, Key: Key{w.from.pk, w.from.sk}, Missing: Key{k.pk, k.sk}})
		}
	}
	return nil
}

// checkCounters confirms each aggregate whose count differs from the
// edges met.
func (v *verifier) checkCounters(ctx context.Context) error {
	aggs := map[aggregate]bool{}
	for a := range v.all.counted {
		aggs[a] = true
	}
	for a := range v.all.stored {
		aggs[a] = true
	}
	for a := range aggs {
		stored, ok := v.all.stored[a]
		if ok && stored == strconv.FormatInt(v.all.counted[a], 10) {
			continue
		}
		if !ok && v.all.counted[a] == 0 {
			continue
		}
		f, err := v.confirmCount(ctx, v.counters[a.counter], a.key)
		if err != nil {
			return err
		}
		if f != nil {
			v.findings = append(v.findings, *f)
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
		if err := sleep(ctx, time.Duration(round)*100*time.Millisecond); err != nil {
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
	return countOf(item), nil
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

// itemKeyOf is an item's primary key.
func itemKeyOf(t *Table, item Item) itemKey {
	pk, _ := stringAttr(item, t.opts.PartitionKey)
	sk, _ := stringAttr(item, t.opts.SortKey)
	return itemKey{pk, sk}
}

// countOf is an aggregate item's count attribute as stored, "" if absent.
func countOf(item Item) string {
	switch n := item["count"].(type) {
	case *types.AttributeValueMemberN:
		return n.Value
	case nil:
		return ""
	default:
		return describeValue(n)
	}
}

// describeValue is an attribute value with its DynamoDB type, `S "3"`.
func describeValue(av types.AttributeValue) string {
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
