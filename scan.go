package adjlist

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"sync"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/telemetry"
	"github.com/adjlist/adjlist/internal/walks"
)

// Scannable is a handle whose items [Scan] and [Migrate] can walk:
// *Node, *Edge, *Collection and *Entity are Scannable of their NodeItem,
// EdgeItem, Child and EntityItem, and *Table of [TypedItem]: every item
// type it records, in one pass. Other types cannot implement it.
type Scannable[T any] interface {
	Decode(item Item) (T, bool, error)
	scanSpec() scanSpec
}

// scanSpec is what a walk of one item type needs from its handle.
type scanSpec struct {
	t   *Table
	err error
	// filter narrows the Scan to the item type's key shape (DynamoDB still
	// reads, and bills, every item); unset for a walk of every item.
	filter expression.ConditionBuilder
	// of, for a walk of every item type a table records, picks the spec
	// of an item's own type; nil for a walk of one type.
	of func(item Item) (scanSpec, bool)
	// Spec is how the type's derived attributes are computed, for Verify
	// to check and Migrate to write.
	walks.Spec
}

// derivedAttrs are an item's derived key attributes, a handful at most.
type derivedAttrs = ddbitem.Attrs

func (n *nodeCore) scanSpec() scanSpec {
	o := &n.t.opts
	sk := expression.Name(o.SortKey)
	f := expression.Name(o.PartitionKey).BeginsWith(n.typ + "#")
	if n.marker != "" {
		f = f.And(sk.Equal(expression.Value(n.marker)))
	}
	matched := func(item Item, buf derivedAttrs) (derivedAttrs, error) {
		buf = buf[:0]
		if len(n.it.indexes) == 0 {
			return buf, nil
		}
		pk, _ := ddbitem.String(item, o.PartitionKey)
		skv, _ := ddbitem.String(item, o.SortKey)
		return keycodec.Derived(n.it.indexes, item, n.keyCtx(pk, skv), buf)
	}
	return n.t.typeSpec(&n.it, n.err, f, deriveIf(n.hasKeys, matched), matched)
}

// typeSpec is the spec of a walk of item type it; inverted are the inverted
// index's attributes it writes.
func (t *Table) typeSpec(it *itemType, err error, f expression.ConditionBuilder, derive func(Item, derivedAttrs) (derivedAttrs, bool, error), matched func(Item, derivedAttrs) (derivedAttrs, error), inverted ...string) scanSpec {
	owned := keycodec.Owned(it.indexes, inverted...)
	return scanSpec{t: t, err: err, filter: f, Spec: walks.Spec{Owned: owned, Foreign: keycodec.Foreign(t.derived, owned), Feeds: keycodec.Feeds(it.indexes),
		Derive: derive, Matched: matched}}
}

// deriveIf derives, by matched, the attributes of the items is accepts.
func deriveIf(is func(Item) bool, matched func(Item, derivedAttrs) (derivedAttrs, error)) func(Item, derivedAttrs) (derivedAttrs, bool, error) {
	return func(item Item, buf derivedAttrs) (derivedAttrs, bool, error) {
		if !is(item) {
			return buf[:0], false, nil
		}
		want, err := matched(item, buf)
		return want, true, err
	}
}

func (c *collectionCore) scanSpec() scanSpec {
	o := &c.t.opts
	lead, _ := c.it.keys.pk.Prefix(nil) // "WS#", or a nested collection's root's "ORG#"
	f := expression.Name(o.PartitionKey).BeginsWith(lead).And(expression.Name(o.SortKey).BeginsWith(c.prefix))
	// home is where the child belongs under the handle's shard count.
	home := func(item Item) (string, error) {
		parentID, id, ok := c.ids(item)
		if !ok {
			return "", nil
		}
		pk, _, err := c.key(parentID, id) // unsharded: the parent's own partition
		return pk, err
	}
	// The index keys follow the child's home, not where it is stored.
	matched := func(item Item, buf derivedAttrs) (derivedAttrs, error) {
		buf = buf[:0]
		if len(c.it.indexes) == 0 && c.shards == 0 { // nothing to derive, a home always found
			return buf, nil
		}
		pk, err := home(item)
		if err != nil || len(c.it.indexes) == 0 {
			return buf, err
		}
		sk, _ := ddbitem.String(item, o.SortKey)
		return keycodec.Derived(c.it.indexes, item, c.keyCtx(pk, sk), buf)
	}
	is := func(item Item) bool { _, _, ok := c.ids(item); return ok }
	spec := c.t.typeSpec(&c.it, c.err, f, deriveIf(is, matched), matched)
	spec.Home = home
	return spec
}

func (e *edgeCore) scanSpec() scanSpec {
	o := &e.t.opts
	f := expression.Name(o.PartitionKey).BeginsWith(e.sourcePrefix).And(expression.Name(o.SortKey).BeginsWith(e.prefix))
	// The index keys follow the item's own table keys.
	matched := func(item Item, buf derivedAttrs) (derivedAttrs, error) {
		buf = buf[:0]
		pk, _ := ddbitem.String(item, o.PartitionKey)
		sk, _ := ddbitem.String(item, o.SortKey)
		var from string
		if e.shards > 1 {
			from, _, _ = e.splitKeys(pk, sk)
		}
		k := e.keyedAt(pk, sk, from)
		if e.t.layout == explicitKeys {
			buf = append(buf, ddbitem.Attr{Name: o.IndexPartitionKey, Value: k.ipk}, ddbitem.Attr{Name: o.IndexSortKey, Value: k.isk})
		}
		if len(e.it.indexes) == 0 {
			return buf, nil
		}
		return keycodec.Derived(e.it.indexes, item, &k.kc, buf)
	}
	is := func(item Item) bool { _, _, ok := e.split(item); return ok }
	var inverted []string
	if e.t.layout == explicitKeys {
		inverted = []string{o.IndexPartitionKey, o.IndexSortKey}
	}
	return e.t.typeSpec(&e.it, e.err, f, deriveIf(is, matched), matched, inverted...)
}

func (e *entityCore) scanSpec() scanSpec {
	o := &e.t.opts
	f := expression.AttributeExists(expression.Name(o.PartitionKey))
	if p, _ := keycodec.StaticPrefix(e.it.pk, &keyCtx{}); p != "" {
		f = f.And(expression.Name(o.PartitionKey).BeginsWith(p))
	}
	if p, exact := keycodec.StaticPrefix(e.it.sk, &keyCtx{}); exact {
		f = f.And(expression.Name(o.SortKey).Equal(expression.Value(p)))
	} else if p != "" {
		f = f.And(expression.Name(o.SortKey).BeginsWith(p))
	}
	return e.t.typeSpec(&e.it, e.err, f, func(item Item, buf derivedAttrs) (derivedAttrs, bool, error) {
		buf = buf[:0]
		ids, ok := e.parseKeys(item)
		if !ok {
			return buf, false, nil
		}
		if len(e.it.indexes) == 0 {
			return buf, true, nil
		}
		pk, _ := e.t.keyText(item, o.PartitionKey)
		sk, _ := e.t.keyText(item, o.SortKey)
		if err := e.data.Unreadable(item, o.PartitionKey, o.SortKey); err != nil {
			// Rewriting its keys would lose the value.
			return buf, true, err
		}
		data := item
		if len(e.data.KeyOnly) > 0 {
			// Values kept only inside keys feed the other keys too.
			data = maps.Clone(item)
			e.data.Fill(e.fields, ids, data)
		}
		want, err := keycodec.Derived(e.it.indexes, data, e.keyCtx(pk, sk, ids), buf)
		if err == nil {
			want = e.data.KeepHolders(item, want)
		}
		return want, true, err
	}, nil)
}

// keysOf is item's table keys alone, for judging its type.
func keysOf(t *Table, item Item) Item {
	return Item{t.opts.PartitionKey: item[t.opts.PartitionKey], t.opts.SortKey: item[t.opts.SortKey]}
}

// ScanOptions configures [Scan], [Migrate] and [Verify]. The zero value
// uses the defaults.
type ScanOptions struct {
	// Segments is how many parts of the table (or index) are scanned in
	// parallel (Scan's TotalSegments), one goroutine each, at most 1,000,000.
	// Default 0: From's segments when From is set, else 1 for [Scan] and
	// [Migrate] and 4 for [Verify].
	Segments int
	// Limit is how many items one Scan request evaluates. Default 0:
	// DynamoDB's 1 MB pages.
	Limit int32
	// From resumes an interrupted walk at the position it returned;
	// Segments, if set, must be the position's. Default "": from the
	// start.
	From string
	// Progress, if set, is called after each page with the totals so far
	// and the position a resumed walk would start from. Calls do not
	// overlap.
	Progress func(ScanProgress)
	// Index, for [Scan] only, scans that secondary index instead of the table
	// (Scan's IndexName): only its items, as projected, are read and billed,
	// so a sparse index costs what it holds. A global index is eventually
	// consistent. An undeclared index, or Index with [Migrate] or [Verify], is
	// [ErrInvalidOption] before any request. Default "": the table.
	Index string
	// RequestRate, when positive, bounds the walk to that many Scan requests
	// per second, all segments together. Default 0: unbounded.
	RequestRate float64
	// ReadUnitRate, when positive, bounds the read capacity units per second
	// the walk consumes, all segments together, from each Scan's
	// ConsumedCapacity (ReturnConsumedCapacity TOTAL). A 1 MB eventually
	// consistent page consumes 128 units; set Limit to pace in smaller steps.
	// Default 0: unbounded.
	ReadUnitRate float64
	// Filter, for [Scan] only, is a filter expression on the items' own
	// attributes, e.g. expression.Name("is_manager").Equal(expression.Value("1")),
	// ANDed after the item type's key filter. DynamoDB applies it after the
	// read: every item read is billed and counted in [ScanProgress].Scanned,
	// and Limit counts items evaluated, so a page may hold none. A filter that
	// does not build, or Filter with [Migrate] or [Verify], is
	// [ErrInvalidOption] before any request. Default: none.
	Filter expression.ConditionBuilder
}

// ScanProgress is a walk's state after a page.
type ScanProgress struct {
	// Scanned counts the items DynamoDB read (ScannedCount), Matched the
	// items of the walked type handed on.
	Scanned, Matched int
	// Position resumes the walk after the pages handled so far.
	Position string
}

// Scan calls fn with every item of h's type in its table, decoded by h: a
// Scan (one segment by default, [ScanOptions]) with a filter on the type's
// key shape, e.g. for an edge kind
//
//	begins_with(PK, "STU#") AND begins_with(SK, "ENROLL#CRS#")
//
// The filter saves bandwidth, not capacity: DynamoDB reads and bills the
// whole table. Items of other types are passed over; a [Collection]'s
// children come under any shard layout. fn may be called from several
// goroutines at once, in order within a segment. It makes one Scan
// request per page per segment, eventually consistent, fetching the next
// page while fn handles the current one (a walk that stops early may have
// read one page more per segment).
//
// Scan returns "" once every segment is read; when fn, the context or a
// request fails, it returns the error and a position: [ScanOptions].From
// resumes after the last page fn fully accepted (at least once delivery).
// An invalid position is [ErrInvalidCursor]; invalid options, a nil option
// function, client, handle or fn are [ErrInvalidOption]; a handle whose
// declaration failed returns its own error ([ErrInvalidKey],
// [ErrInvalidOption]); all in an [*OpError] with Op "Scan", before any
// request.
func Scan[T any](ctx context.Context, api dynamodb.ScanAPIClient, h Scannable[T], fn func(context.Context, T) error, optFns ...func(*ScanOptions)) (string, error) {
	const op = "Scan"
	switch {
	case isNil(h):
		return "", &OpError{Op: op, Err: errNilHandle}
	case fn == nil:
		return "", &OpError{Op: op, Err: fmt.Errorf("%w: nil fn", ErrInvalidOption)}
	}
	return walk(ctx, op, api, h.scanSpec(), func(ctx context.Context, _ int, item Item) (bool, error) {
		v, ok, err := h.Decode(item)
		if !ok || err != nil {
			return false, err
		}
		return true, fn(ctx, v)
	}, optFns, 1)
}

// Errors of the arguments every walk takes.
var (
	errNilHandle = fmt.Errorf("%w: nil handle", ErrInvalidOption)
	errNilAPI    = fmt.Errorf("%w: nil DynamoDB client", ErrInvalidOption)
	errNilTable  = fmt.Errorf("%w: nil table", ErrInvalidOption)
)

// isNil reports whether v is nil, or an interface holding a nil pointer
// (a client or handle whose methods would dereference it).
func isNil(v any) bool {
	if v == nil {
		return true
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

// scanOptions applies optFns; Segments defaults to From's (a bad position
// is left for walk to refuse), else to segments.
func scanOptions(optFns []func(*ScanOptions), segments int) (ScanOptions, error) {
	var o ScanOptions
	if err := applyOptions(&o, optFns); err != nil {
		return o, err
	}
	if o.Segments == 0 {
		o.Segments = walks.Segments(o.From, segments)
	}
	return o, nil
}

// check refuses options out of range for a walk op of t's table.
func (o *ScanOptions) check(op string, t *Table) error {
	if err := walks.CheckRange(o.Segments, o.Limit, o.RequestRate, o.ReadUnitRate); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidOption, err)
	}
	switch {
	case o.Index != "" && op != "Scan":
		return fmt.Errorf("%w: %s walks the table, not index %s", ErrInvalidOption, op, o.Index)
	case o.Filter.IsSet() && op != "Scan":
		return fmt.Errorf("%w: %s walks every item of its type: ScanOptions.Filter is for Scan", ErrInvalidOption, op)
	case o.Index != "":
		_, err := t.index(o.Index)
		return err
	}
	return nil
}

// walk runs a parallel Scan with spec's filter ([walks.Run]) and returns
// the resume position on failure; segments is the default Segments.
func walk(ctx context.Context, op string, api dynamodb.ScanAPIClient, spec scanSpec, each walks.Each, optFns []func(*ScanOptions), segments int) (_ string, err error) {
	t := spec.t
	opts, optErr := scanOptions(optFns, segments)
	var sp *telemetry.Span // none inside Migrate's or Verify's own
	if t.tracer != nil {
		ctx, sp = t.beginSpan(ctx, op, opts.Index)
	}
	defer sp.End(&err)
	fail := func(err error) (string, error) { return "", &OpError{Op: op, Table: t.name, Err: err} }
	switch {
	case optErr != nil:
		return fail(optErr)
	case spec.err != nil:
		return fail(spec.err)
	case t.err != nil:
		return fail(t.err)
	case isNil(api):
		return fail(errNilAPI)
	}
	if err := opts.check(op, t); err != nil {
		return fail(err)
	}
	pos, ok := walks.Start(opts.From, opts.Segments)
	if !ok {
		return fail(badCursor("not a scan position of this many segments"))
	}
	in := walks.Input{From: pos, RequestRate: opts.RequestRate, ReadUnitRate: opts.ReadUnitRate, Options: callOpts(ctx)}
	if in.Request, err = walks.Request(t.name, opts.Index, opts.Limit, walks.And(spec.filter, opts.Filter)); err != nil {
		return fail(fmt.Errorf("%w: ScanOptions.Filter: %w", ErrInvalidOption, err))
	}
	if progress := opts.Progress; progress != nil {
		in.Progress = func(p walks.Progress) { progress(ScanProgress(p)) }
	}
	if pos, err := walks.Run(ctx, api, in, each); err != nil {
		return pos, &OpError{Op: op, Table: t.name, Index: opts.Index, Err: t.throttled(err, "", "", opts.Index, "")}
	}
	return "", nil
}

// tracked is opts with a Progress that calls note under mu, then opts' own.
func tracked(opts ScanOptions, mu *sync.Mutex, note func(ScanProgress)) []func(*ScanOptions) {
	return []func(*ScanOptions){func(o *ScanOptions) {
		*o = opts
		o.Progress = func(p ScanProgress) {
			mu.Lock()
			note(p)
			mu.Unlock()
			if opts.Progress != nil {
				opts.Progress(p)
			}
		}
	}}
}
