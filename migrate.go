package adjlist

import (
	"context"
	"errors"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/send"
	"github.com/adjlist/adjlist/internal/walks"
)

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
	// Unread lists the keys of the [Entity] items left as they are
	// because an index key holds a value kept only inside keys that the
	// handle's template for that key cannot parse back, and no key that
	// can holds it: a rewrite would lose the value (see [Migrate]).
	Unread []Key
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

// Migrate brings every item of h's type into the layout h declares now: a
// [Scan] of the type, and for each item whose derived key attributes (the
// inverted index's keys, with the edge's current shard count, and every
// [IndexKeys] key) differ from what its ids and data give, one UpdateItem
// that SETs the right values and REMOVEs the stale ones, and the keys of
// any index of the table that the type does not declare. Use it to
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
// are returned with the position to resume from, as Scan's (but for the
// items it cannot read, below).
//
// # Values kept only inside keys
//
// An [Entity] item whose [EntityOptions].KeyOnly value is held in an
// index key written under another template than the handle's (GSI1SK
// "2026-01-01" written by "{date}", the template now "D#{date}"), and in
// no other key whose template parses it back, is left as it is: a
// rewrite of its keys would lose the value. Migrate lists it in
// [MigrateResult].Unread, goes on with the other items, and once the
// walk completes returns the first in an [*OpError] with Op "Migrate",
// the item's PK and SK and Position "", wrapping a [*KeyError] (errors.Is
// [ErrInvalidKey]) that names the index key attribute, its stored value
// and the template that cannot parse it. The value is read from the first index key that
// holds it and matches its template whole, so an item with one such key
// is migrated, every key written with the value. To migrate the others,
// read each through a handle declaring the old template (its Get parses
// the value) and Replace it through the new one, then run Migrate again.
// Migrate never changes an Entity's table keys: items written under
// another table key template are not of the type, and are passed over
// ([Verify] reports them as [FindingUnknownItem]).
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
// Migrate sends, per page per segment (one segment by default:
// [ScanOptions].Segments), one Scan; per stale item one UpdateItem and per
// child to move one TransactWriteItems, each sent again after a retry's
// GetItem. Invalid options or handles
// ([ErrInvalidOption], [ErrInvalidKey], [ErrInvalidCursor]) and a nil
// api, handle or option function ([ErrInvalidOption]) fail, in an
// [*OpError] with Op "Migrate", before any request.
func Migrate[T any](ctx context.Context, api MigrateClient, h Scannable[T], optFns ...func(*ScanOptions)) (_ MigrateResult, err error) {
	const op = "Migrate"
	if isNil(h) {
		return MigrateResult{}, &OpError{Op: op, Err: errNilHandle}
	}
	spec := h.scanSpec()
	ctx, sp := spec.t.startSpan(ctx, op)
	defer sp.end(&err)
	var (
		mu          sync.Mutex
		res         MigrateResult
		firstUnread *keycodec.UnreadError
	)
	user, err := scanOptions(optFns, 1)
	if err != nil {
		return res, &OpError{Op: op, Table: spec.t.name, Err: err}
	}
	track := func(o *ScanOptions) {
		*o = user
		o.Progress = func(p ScanProgress) {
			mu.Lock()
			res.Scanned, res.Matched = p.Scanned, p.Matched
			mu.Unlock()
			if user.Progress != nil {
				user.Progress(p)
			}
		}
	}
	pos, err := walk(ctx, op, api, spec, func(ctx context.Context, _ int, item Item) (bool, error) {
		s := spec
		if spec.of != nil {
			var ok bool
			if s, ok = spec.of(item); !ok {
				return false, nil
			}
		}
		m, err := s.migrateItem(ctx, api, item)
		var u *keycodec.UnreadError
		unread := errors.As(err, &u)
		if unread {
			err = nil // left as it is, reported once the walk completes
		}
		mu.Lock()
		res.Retried += m.retried
		if unread {
			res.Unread = append(res.Unread, Key{PK: u.PK, SK: u.SK})
			if firstUnread == nil {
				firstUnread = u
			}
		}
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
	}, []func(*ScanOptions){track}, 1)
	res.Position = pos
	if err == nil && firstUnread != nil {
		err = &OpError{Op: op, Table: spec.t.name, PK: firstUnread.PK, SK: firstUnread.SK, Err: firstUnread.Err}
	}
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
// or moves it to its home ([walks.Table.Migrate]).
func (spec scanSpec) migrateItem(ctx context.Context, api MigrateClient, item Item) (migrated, error) {
	typ := walks.MigrateType{Home: spec.home, Owned: spec.owned, Foreign: spec.foreign, Feeds: spec.feeds,
		Derive: func(item Item) (ddbitem.Attrs, bool, error) { return spec.derive(item, nil) }}
	o, err := spec.t.migrationTable(ctx).Migrate(ctx, api, &typ, item)
	m := migrated{ok: o.Matched, rewrote: o.Rewrote, moved: o.Moved, retried: o.Retried}
	if c := o.Conflict; c != nil {
		m.conflict = &MoveConflict{From: Key(c.From), To: Key(c.To)}
	}
	return m, err
}

// migrationTable is how internal/walks' migrations and repairs write to
// t's table: its names, and the library's judgement of errors.
func (t *Table) migrationTable(ctx context.Context) *walks.Table {
	return &walks.Table{Name: t.name, PartitionKey: t.opts.PartitionKey, SortKey: t.opts.SortKey, IsKey: t.isKeyAttr, Enc: t.enc,
		Wait:            t.waitTx,
		ConditionFailed: isConditionFailed, Cancelled: cancelCodes, Transient: transient, Options: callOpts(ctx)}
}

// waitTx waits the table's backoff before attempt (from 1) of a
// transaction cancelled by a conflict or throttling.
func (t *Table) waitTx(ctx context.Context, attempt int) error {
	return send.Wait(ctx, t.opts.BatchBackoff, attempt, ErrTxConflict)
}
