package adjlist

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"golang.org/x/sync/errgroup"
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
	t    *Table
	kind string
	err  error
	// filter narrows the Scan to the item type's key shape (DynamoDB still
	// reads, and bills, every item).
	filter expression.ConditionBuilder
	// derive returns the derived key attributes item should carry in the
	// current layout (absent ones omitted), given its table keys; ok is
	// false for an item not of this type.
	derive func(item Item) (want map[string]string, ok bool, err error)
	// owned are every derived attribute the type may write; feeds the data
	// attributes they are computed from.
	owned, feeds []string
	// of, for a walk of every item type a table records, picks the spec
	// of an item's own type; nil for a walk of one type.
	of func(item Item) (scanSpec, bool)
	// home, if set, is the partition key an item of the type (one derive
	// accepts) belongs at under the current declaration: a child's shard.
	// derive computes the derived attributes for that key; Migrate moves
	// an item stored under another.
	home func(item Item) (string, error)
}

func (n *Node[N]) scanSpec() scanSpec {
	o := &n.t.opts
	sk := expression.Name(o.SortKey)
	f := expression.Name(o.PartitionKey).BeginsWith(n.typ + "#")
	if n.marker != "" {
		f = f.And(sk.Equal(expression.Value(n.marker)))
	}
	return scanSpec{t: n.t, kind: n.it.kind, err: n.err, filter: f, owned: ownedAttrs(n.t, n.it.indexes, false), feeds: feedAttrs(n.it.indexes),
		derive: func(item Item) (map[string]string, bool, error) {
			if _, ok, _ := n.decode(keysOf(n.t, item)); !ok {
				return nil, false, nil
			}
			pk, _ := stringAttr(item, o.PartitionKey)
			skv, _ := stringAttr(item, o.SortKey)
			return derived(n.it.indexes, item, n.keyCtx(pk, skv), nil)
		}}
}

func (c *Collection[P, C]) scanSpec() scanSpec {
	o := &c.t.opts
	f := expression.Name(o.PartitionKey).BeginsWith(c.parent.typ + "#").And(expression.Name(o.SortKey).BeginsWith(c.prefix))
	// home is where the child belongs under the handle's shard count;
	// decode recognises it under any.
	home := func(item Item) (string, error) {
		v, ok, _ := c.decode(keysOf(c.t, item))
		if !ok {
			return "", nil
		}
		pk, _, err := c.Key(v.Parent, v.ID)
		return pk, err
	}
	return scanSpec{t: c.t, kind: c.it.kind, err: c.err, filter: f, owned: ownedAttrs(c.t, c.it.indexes, false), feeds: feedAttrs(c.it.indexes), home: home,
		derive: func(item Item) (map[string]string, bool, error) {
			if _, ok, _ := c.decode(keysOf(c.t, item)); !ok {
				return nil, false, nil
			}
			pk, err := home(item)
			if err != nil {
				return nil, true, err
			}
			sk, _ := stringAttr(item, o.SortKey)
			return derived(c.it.indexes, item, c.keyCtx(pk, sk), nil)
		}}
}

func (e *Edge[E]) scanSpec() scanSpec {
	o := &e.t.opts
	f := expression.Name(o.PartitionKey).BeginsWith(e.sourcePrefix).And(expression.Name(o.SortKey).BeginsWith(e.prefix))
	return scanSpec{t: e.t, kind: e.it.kind, err: e.err, filter: f, owned: ownedAttrs(e.t, e.it.indexes, e.t.indexKeysOnItems()), feeds: feedAttrs(e.it.indexes),
		derive: func(item Item) (map[string]string, bool, error) {
			from, to, ok := e.split(item)
			if !ok {
				return nil, false, nil
			}
			k, err := e.keys(from, to)
			if err != nil {
				return nil, true, err
			}
			var inverted map[string]string
			if e.t.indexKeysOnItems() {
				inverted = map[string]string{o.IndexPartitionKey: k.ipk, o.IndexSortKey: k.isk}
			}
			return derived(e.it.indexes, item, e.keyCtx(k), inverted)
		}}
}

func (e *Entity[T]) scanSpec() scanSpec {
	o := &e.t.opts
	f := expression.AttributeExists(expression.Name(o.PartitionKey))
	if p, _ := staticPrefix(e.pk, &keyCtx{}); p != "" {
		f = f.And(expression.Name(o.PartitionKey).BeginsWith(p))
	}
	if p, exact := staticPrefix(e.sk, &keyCtx{}); exact {
		f = f.And(expression.Name(o.SortKey).Equal(expression.Value(p)))
	} else if p != "" {
		f = f.And(expression.Name(o.SortKey).BeginsWith(p))
	}
	return scanSpec{t: e.t, kind: e.it.kind, err: e.err, filter: f, owned: ownedAttrs(e.t, e.it.indexes, false), feeds: feedAttrs(e.it.indexes),
		derive: func(item Item) (map[string]string, bool, error) {
			ids, ok := e.parseKeys(item)
			if !ok {
				return nil, false, nil
			}
			pk, _ := stringAttr(item, o.PartitionKey)
			sk, _ := stringAttr(item, o.SortKey)
			return derived(e.it.indexes, item, e.keyCtx(pk, sk, ids), nil)
		}}
}

// keysOf is item's table keys alone, for judging its type.
func keysOf(t *Table, item Item) Item {
	return Item{t.opts.PartitionKey: item[t.opts.PartitionKey], t.opts.SortKey: item[t.opts.SortKey]}
}

// ownedAttrs lists the derived attributes an item type writes.
func ownedAttrs(t *Table, indexes []boundIndex, inverted bool) []string {
	var out []string
	if inverted {
		out = append(out, t.opts.IndexPartitionKey, t.opts.IndexSortKey)
	}
	for i := range indexes {
		for _, d := range indexes[i].derivedKeys() {
			out = append(out, d.attr)
		}
	}
	return out
}

// feedAttrs lists the data attributes indexes' keys are computed from.
func feedAttrs(indexes []boundIndex) []string {
	var out []string
	for i := range indexes {
		out = append(out, indexes[i].attrs...)
	}
	return out
}

// derived computes the derived attributes of item (its data and keys)
// under indexes, plus the given ones.
func derived(indexes []boundIndex, item Item, kc *keyCtx, plus map[string]string) (map[string]string, bool, error) {
	want := map[string]string{}
	for k, v := range plus {
		want[k] = v
	}
	for i := range indexes {
		for _, d := range indexes[i].derivedKeys() {
			v, ok, err := d.compute(item, kc)
			if err != nil {
				return nil, true, err
			}
			if ok {
				want[d.attr] = v
			}
		}
	}
	return want, true, nil
}

// ScanOptions configures [Scan] and [Migrate]. The zero value uses the
// defaults.
type ScanOptions struct {
	// Segments is how many parts of the table are scanned in parallel
	// (Scan's TotalSegments), one goroutine each. Default 4, at most
	// 1,000,000.
	Segments int
	// Limit is how many items one Scan request evaluates. Default 0:
	// DynamoDB's 1 MB pages.
	Limit int32
	// From resumes an interrupted walk at the position it returned. Its
	// Segments must be the same. Default "": from the start.
	From string
	// Progress, if set, is called after each page with the totals so far
	// and the position a resumed walk would start from. Calls do not
	// overlap.
	Progress func(ScanProgress)
	// Index, for [Scan] only, scans that secondary index of the table
	// instead of the table (Scan's IndexName): only the items in the
	// index, as it projects them, are read and billed, so a scan of a
	// sparse index ("every flagged item") costs what the index holds, not
	// what the table holds. A global index is eventually consistent. An
	// index the table does not declare, or Index with [Migrate], is
	// [ErrInvalidOption] before any request. Default "": the table.
	Index string
}

// ScanProgress is a walk's state after a page.
type ScanProgress struct {
	// Scanned counts the items DynamoDB read (ScannedCount), Matched the
	// items of the walked type handed on.
	Scanned, Matched int
	// Position resumes the walk after the pages handled so far.
	Position string
}

// scanPosition is the JSON inside a position: per segment, where it
// resumes.
type scanPosition struct {
	Segments []shardState `json:"s"`
}

// Scan calls fn with every item of h's type in its table: a parallel Scan
// (Segment/TotalSegments, [ScanOptions].Segments goroutines) with a filter
// on the type's key shape, e.g. for an edge kind
//
//	begins_with(PK, "STU#") AND begins_with(SK, "ENROLL#CRS#")
//
// each item decoded with h's Decode (items of other types are passed
// over; a [Collection]'s children are delivered under any shard layout,
// with their parent's id, whether or not [Migrate] has moved them yet:
// see Migrate for a Scan during the moves). The filter saves bandwidth, not capacity: DynamoDB reads and
// bills the whole table. fn may be called from several goroutines at
// once; it gets the items of one segment in order.
//
// The walk is resumable. Scan returns "" when it has read every segment
// to the end; when fn, the context or a request fails, it returns the
// error and a position: [ScanOptions].From = position resumes after the
// last page whose every item fn accepted, so items of the page that failed
// are delivered again (at least once). Reads are eventually consistent.
// An invalid position is [ErrInvalidCursor], invalid options
// [ErrInvalidOption], both before any request. It makes one Scan request
// per page per segment.
func Scan[T any](ctx context.Context, api dynamodb.ScanAPIClient, h Scannable[T], fn func(context.Context, T) error, optFns ...func(*ScanOptions)) (string, error) {
	spec := h.scanSpec()
	return walk(ctx, "Scan", api, spec, func(ctx context.Context, item Item) (bool, error) {
		v, ok, err := h.Decode(item)
		if !ok || err != nil {
			return false, err
		}
		return true, fn(ctx, v)
	}, optFns)
}

// walk runs a parallel Scan with spec's filter, handing each raw item to
// each (which reports whether it matched), and returns the resume
// position on failure.
func walk(ctx context.Context, op string, api dynamodb.ScanAPIClient, spec scanSpec, each func(context.Context, Item) (bool, error), optFns []func(*ScanOptions)) (string, error) {
	opts := ScanOptions{Segments: 4}
	for _, fn := range optFns {
		fn(&opts)
	}
	t := spec.t
	fail := func(err error) (string, error) { return "", &OpError{Op: op, Table: t.name, Err: err} }
	switch {
	case spec.err != nil:
		return fail(spec.err)
	case t.err != nil:
		return fail(t.err)
	case opts.Segments < 1 || opts.Segments > 1_000_000:
		return fail(fmt.Errorf("%w: Segments %d", ErrInvalidOption, opts.Segments))
	case opts.Limit < 0:
		return fail(fmt.Errorf("%w: Limit %d", ErrInvalidOption, opts.Limit))
	case opts.Index != "" && op != "Scan":
		return fail(fmt.Errorf("%w: %s walks the table, not index %s", ErrInvalidOption, op, opts.Index))
	case opts.Index != "":
		if _, err := t.index(opts.Index); err != nil {
			return fail(err)
		}
	}
	pos := scanPosition{Segments: make([]shardState, opts.Segments)}
	if opts.From != "" {
		b, err := decodeExact(opts.From)
		if err == nil {
			err = json.Unmarshal(b, &pos)
		}
		if err != nil || len(pos.Segments) != opts.Segments {
			return fail(badCursor("not a scan position of this many segments"))
		}
	}
	expr, err := expression.NewBuilder().WithFilter(spec.filter).Build()
	if err != nil {
		return fail(err)
	}
	var (
		mu       sync.Mutex
		progress ScanProgress
	)
	seal := func() string {
		b, _ := json.Marshal(pos)
		return base64.RawURLEncoding.EncodeToString(b)
	}
	g, gctx := errgroup.WithContext(ctx)
	for seg := range pos.Segments {
		if pos.Segments[seg].Done {
			continue
		}
		g.Go(func() error {
			in := &dynamodb.ScanInput{
				TableName: aws.String(t.name), Segment: aws.Int32(int32(seg)), TotalSegments: aws.Int32(int32(opts.Segments)),
				FilterExpression: expr.Filter(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
			}
			if opts.Limit > 0 {
				in.Limit = aws.Int32(opts.Limit)
			}
			if opts.Index != "" {
				in.IndexName = aws.String(opts.Index)
			}
			mu.Lock()
			if k := pos.Segments[seg].Key; k != nil {
				in.ExclusiveStartKey = Item{}
				for name, v := range k {
					in.ExclusiveStartKey[name] = &types.AttributeValueMemberS{Value: v}
				}
			}
			mu.Unlock()
			pages := dynamodb.NewScanPaginator(api, in)
			for pages.HasMorePages() {
				out, err := pages.NextPage(gctx, callOpts(gctx)...)
				if err != nil {
					return err
				}
				matched := 0
				for _, item := range out.Items {
					ok, err := each(gctx, item)
					if err != nil {
						return err
					}
					if ok {
						matched++
					}
				}
				mu.Lock()
				st := shardState{Done: len(out.LastEvaluatedKey) == 0}
				if !st.Done {
					if st.Key, err = keyStrings(out.LastEvaluatedKey); err != nil {
						mu.Unlock()
						return err
					}
				}
				pos.Segments[seg] = st
				progress.Scanned += int(out.ScannedCount)
				progress.Matched += matched
				if opts.Progress != nil {
					progress.Position = seal()
					opts.Progress(progress)
				}
				mu.Unlock()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		mu.Lock()
		defer mu.Unlock()
		return seal(), &OpError{Op: op, Table: t.name, Err: err}
	}
	return "", nil
}

// MigrateResult is what [Migrate] did.
type MigrateResult struct {
	// Scanned counts the items DynamoDB read; Matched the items of the
	// type (a child moved ahead of the scan may be met, and counted, again
	// at its new key); Rewritten those whose derived attributes were
	// updated in place; Retried the writes that met a concurrent change
	// and were computed again from a fresh read.
	Scanned, Matched, Rewritten, Retried int
	// Moved counts the children moved to the primary key their
	// collection's current shard count gives, their derived attributes
	// set in the same write (a move is not also counted in Rewritten).
	Moved int
	// Conflicts lists the children not moved because an item was already
	// at their new key; both items are left as they are (see [Migrate]).
	Conflicts []MoveConflict
	// Position resumes an interrupted Migrate ([ScanOptions].From); "" when
	// it completed.
	Position string
}

// MoveConflict is a child that [Migrate] found at an old place while an
// item was already at its new one, e.g. From {"WS#acme", "PROJ#p1"}
// (unsharded) and To {"WS#acme#05", "PROJ#p1"} (the shard the handle's
// [CollectionOptions].Shards gives). Neither item was changed.
type MoveConflict struct {
	From, To Key
}

// MigrateClient is the subset of the DynamoDB API that [Migrate] uses; a
// *dynamodb.Client satisfies it. TransactWriteItems moves children between
// partitions.
type MigrateClient interface {
	dynamodb.ScanAPIClient
	GetItem(ctx context.Context, params *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	UpdateItem(ctx context.Context, params *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	TransactWriteItems(ctx context.Context, params *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error)
}

// maxMigrateAttempts bounds the writes of one item that keeps changing.
const maxMigrateAttempts = 10

// Migrate brings every item of h's type into the layout h declares now: a
// [Scan] of the type, and for each item whose derived key attributes (the
// inverted index's keys, with the edge's current shard count, and every
// [IndexKeys] key) differ from what its ids and data give, one UpdateItem
// that SETs the right values and REMOVEs the stale ones. Use it to
// backfill a new index, re-shard edges ([EdgeOptions].Shards) or repair
// items written by other programs.
//
// It never loses a concurrent write: the UpdateItem touches only derived
// attributes and is conditioned on the item being as it was read (every
// data attribute equal, and the attributes its keys are computed from
// that were absent still absent); when that fails, the item is read again
// (a strongly consistent GetItem) and the rewrite recomputed, up to 10
// times. A
// deleted item is passed over. It is idempotent: an item already in the
// layout gets no write, so a run resumed from its Position, or run twice,
// rewrites nothing twice in effect. Errors, [*OpError] with Op "Migrate",
// are returned with the position to resume from, as Scan's.
//
// # Moving children
//
// With a [Collection] handle, Migrate also moves children whose primary
// key is not the one the handle's [CollectionOptions].Shards gives: after
// a change from unsharded to sharded ("WS#acme" to "WS#acme#05"), from N
// shards to M, or back to unsharded. The scan finds the collection's
// children under any shard layout of their parent's key (a two-digit
// suffix, whatever the count), and no other items of the partition. Each
// child elsewhere is moved with one TransactWriteItems of two actions:
//
//   - a Put of the child at its new key, conditioned on
//     attribute_not_exists(PK) there, with every attribute copied as read
//     (its data, version, timestamps and expiry unchanged: a move is not a
//     user write) and its derived index keys computed for the new key;
//   - a Delete of the child at its old key, conditioned on it being as
//     read, as the UpdateItem above.
//
// The transaction is atomic, so at every instant exactly one copy exists.
// If the old child changed, it is read again (a strongly consistent
// GetItem) and the move retried, up to 10 times in all (after a backoff
// wait when the transaction was cancelled by a conflict or throttling);
// if it is gone, it is passed over. If the new key is already taken (a
// writer created the child there, e.g. with the new handle's Put, while
// the old copy existed), nothing is written: both items are kept and
// reported in [MigrateResult].Conflicts, and a full run reports them
// again until resolved. To resolve one, read both items, write the data that should
// win at the new key (through the new handle), delete the old one (a
// DeleteItem, or the old handle's Delete), and run Migrate again. A
// completed run with no Conflicts has moved every child. A child already
// at its key gets no move, so a resumed or repeated run moves nothing
// twice.
//
// While children move, a service keeps both handles and writes by this
// protocol: update through the new handle (its Update is guarded by
// attribute_exists, so a child not yet moved is [ErrNotFound]), on
// ErrNotFound through the old handle, and on ErrNotFound again through the
// new one (the child moved in between); deletes alike. Reads through the
// new handle (Get, List, Load) miss the children not yet moved until
// Migrate completes; [Scan] and [Collection.Decode] see them at either
// place, but a Scan running during the moves may deliver a child twice or
// miss one that moves from a part it has not read to one it has. The
// Delete's condition compares the attributes the child had when read: a
// concurrent write that only adds an attribute the child lacked would not
// fail it, and would be lost with the old copy, unless the children
// carry a version ([Tracking].Version), which every write through the
// library changes (UpdatedAt too, unless two writes share a millisecond).
// Give the collection a version, or let writers only set attributes the
// children already have, while children move.
//
// Migrate sends, per page per segment, one Scan; per stale item one
// UpdateItem and per child to move one TransactWriteItems, each sent
// again after a retry's GetItem. Invalid options or handles ([ErrInvalidOption],
// [ErrInvalidKey], [ErrInvalidCursor]) fail before any request.
func Migrate[T any](ctx context.Context, api MigrateClient, h Scannable[T], optFns ...func(*ScanOptions)) (MigrateResult, error) {
	spec := h.scanSpec()
	var (
		mu  sync.Mutex
		res MigrateResult
	)
	user := ScanOptions{}
	for _, fn := range optFns {
		fn(&user)
	}
	track := func(o *ScanOptions) {
		o.Progress = func(p ScanProgress) {
			mu.Lock()
			res.Scanned, res.Matched = p.Scanned, p.Matched
			mu.Unlock()
			if user.Progress != nil {
				user.Progress(p)
			}
		}
	}
	pos, err := walk(ctx, "Migrate", api, spec, func(ctx context.Context, item Item) (bool, error) {
		s := spec
		if spec.of != nil {
			var ok bool
			if s, ok = spec.of(item); !ok {
				return false, nil
			}
		}
		m, err := s.migrateItem(ctx, api, item)
		mu.Lock()
		res.Retried += m.retried
		switch {
		case m.rewrote:
			res.Rewritten++
		case m.moved:
			res.Moved++
		case m.conflict != nil:
			res.Conflicts = append(res.Conflicts, *m.conflict)
		}
		mu.Unlock()
		return m.ok, err
	}, append(optFns, track))
	res.Position = pos
	return res, err
}

// migrated is what migrateItem did with one item.
type migrated struct {
	ok             bool // of the walked type
	rewrote, moved bool
	conflict       *MoveConflict
	retried        int
}

// migrateItem rewrites one item's derived attributes if they are stale,
// or moves it to its home.
func (spec scanSpec) migrateItem(ctx context.Context, api MigrateClient, item Item) (m migrated, err error) {
	t := spec.t
	o := &t.opts
	for attempt := 0; attempt < maxMigrateAttempts; attempt++ {
		want, ok, err := spec.derive(item)
		if m.ok = ok; !ok || err != nil {
			return m, err
		}
		home := ""
		if spec.home != nil {
			if home, err = spec.home(item); err != nil {
				return m, err
			}
		}
		if pk, _ := stringAttr(item, o.PartitionKey); home != "" && home != pk {
			res, err := spec.move(ctx, api, item, home, want)
			switch {
			case err != nil:
				return m, err
			case res == moveDone:
				m.moved = true
				return m, nil
			case res == moveTaken:
				sk, _ := stringAttr(item, o.SortKey)
				m.conflict = &MoveConflict{From: Key{PK: pk, SK: sk}, To: Key{PK: home, SK: sk}}
				return m, nil
			case res == moveBusy:
				delay, err := t.opts.BatchBackoff.BackoffDelay(attempt+1, ErrTxConflict)
				if err == nil {
					err = sleep(ctx, delay)
				}
				if err != nil {
					return m, err
				}
			}
		} else {
			upd, changed := staleUpdate(item, want, spec.owned)
			if !changed {
				return m, nil
			}
			ub, err := upd.builder(t.enc)
			if err != nil {
				return m, err
			}
			e, err := expression.NewBuilder().WithUpdate(ub).WithCondition(spec.asRead(item)).Build()
			if err != nil {
				return m, err
			}
			_, err = api.UpdateItem(ctx, &dynamodb.UpdateItemInput{
				TableName: aws.String(t.name), Key: keysOf(t, item),
				UpdateExpression: e.Update(), ConditionExpression: e.Condition(),
				ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values(),
			}, callOpts(ctx)...)
			if err == nil {
				m.rewrote = true
				return m, nil
			}
			if !IsConditionFailed(err) {
				return m, err
			}
		}
		// Changed (or deleted) since it was read: read it again.
		m.retried++
		got, err := api.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(t.name), Key: keysOf(t, item), ConsistentRead: aws.Bool(true)}, callOpts(ctx)...)
		if err != nil {
			return m, err
		}
		if got.Item == nil {
			return m, nil
		}
		item = got.Item
	}
	return m, fmt.Errorf("adjlist: item %v changed on every one of %d writes", keysOf(t, item), maxMigrateAttempts)
}

// asRead is the condition that item is stored as it was read: every data
// attribute equal, and the ones the keys are computed from that were
// absent still absent.
func (spec scanSpec) asRead(item Item) expression.ConditionBuilder {
	t := spec.t
	cond := expression.AttributeExists(expression.Name(t.opts.PartitionKey))
	for name, av := range item {
		if !t.isKeyAttr(name) {
			cond = cond.And(expression.Name(name).Equal(expression.Value(avValue{av})))
		}
	}
	for _, name := range spec.feeds {
		if item[name] == nil {
			cond = cond.And(expression.AttributeNotExists(expression.Name(name)))
		}
	}
	return cond
}

// moveResult is how one move transaction ended.
type moveResult int

const (
	moveDone    moveResult = iota
	moveChanged            // the old item changed or is gone: read it again
	moveTaken              // an item is at the new key: a conflict
	moveBusy               // a transaction conflict or throttling: wait, read again
)

// move puts item at partition key home, with the derived attributes
// want, and deletes it at its old key, in one transaction.
func (spec scanSpec) move(ctx context.Context, api MigrateClient, item Item, home string, want map[string]string) (moveResult, error) {
	t := spec.t
	moved := maps.Clone(item)
	moved[t.opts.PartitionKey] = &types.AttributeValueMemberS{Value: home}
	for _, name := range spec.owned {
		if v, ok := want[name]; ok {
			moved[name] = &types.AttributeValueMemberS{Value: v}
		} else {
			delete(moved, name)
		}
	}
	put, err := expression.NewBuilder().WithCondition(expression.AttributeNotExists(expression.Name(t.opts.PartitionKey))).Build()
	if err != nil {
		return 0, err
	}
	del, err := expression.NewBuilder().WithCondition(spec.asRead(item)).Build()
	if err != nil {
		return 0, err
	}
	_, err = api.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(t.name), Item: moved,
			ConditionExpression: put.Condition(), ExpressionAttributeNames: put.Names()}},
		{Delete: &types.Delete{TableName: aws.String(t.name), Key: keysOf(t, item),
			ConditionExpression: del.Condition(), ExpressionAttributeNames: del.Names(), ExpressionAttributeValues: del.Values()}},
	}}, callOpts(ctx)...)
	if err == nil {
		return moveDone, nil
	}
	codes, ok := cancelCodes(err)
	if !ok {
		return 0, err
	}
	code := func(i int) string {
		if i < len(codes) {
			return codes[i]
		}
		return ""
	}
	switch {
	case code(1) == "ConditionalCheckFailed":
		return moveChanged, nil
	case code(0) == "ConditionalCheckFailed":
		return moveTaken, nil
	case !transient(code(0)) || !transient(code(1)):
		return 0, err
	}
	return moveBusy, nil
}

// staleUpdate is the update that gives item exactly the derived
// attributes want among owned; changed is false when it has them.
func staleUpdate(item Item, want map[string]string, owned []string) (upd Update, changed bool) {
	for _, name := range owned {
		have, has := stringAttr(item, name)
		w, should := want[name]
		switch {
		case should && (!has || have != w):
			upd = upd.Set(name, w)
		case !should && item[name] != nil:
			upd = upd.Remove(name)
		}
	}
	return upd, len(upd.ops) > 0
}
