package adjlist

import (
	"context"
	"errors"
	"sync"

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
	// Unread lists the keys of the [Entity] items left as they are because a
	// value kept only inside keys is in an index key its template cannot
	// parse back, and in no key that can (see [Migrate]).
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

// Migrate brings every item of h's type into the layout h declares now, on
// a live table: to backfill a new index, re-shard edges
// ([EdgeOptions].Shards) or collections ([CollectionOptions].Shards), or
// repair items written by other programs. docs/operations.md ("Changing
// the model") has the protocol for writers while it runs.
//
// It is a [Scan] of the type. An item whose derived key attributes differ
// from what its ids and data give gets one UpdateItem that SETs the right
// values and REMOVEs stale ones; a [Collection] child at another shard's
// key gets one TransactWriteItems: a Put at the new key guarded by
// attribute_not_exists(PK), every attribute copied, and a Delete of the
// old item. Both are conditioned on the item being as read, and recomputed
// from a strongly consistent GetItem when that fails, up to 10 times. An
// item already in the layout gets no write, so a resumed or repeated run
// changes nothing twice. Migrate never changes an Entity's table keys.
//
// A child whose new key is taken is left, in [MigrateResult].Conflicts. An
// [Entity] item whose [EntityOptions].KeyOnly value only an index key
// written under another template holds is left, in [MigrateResult].Unread,
// and once the walk completes the first is returned in an [*OpError] with
// Position "", wrapping a [*KeyError] ([ErrInvalidKey]).
//
// Errors are [*OpError] with Op "Migrate", returned with the position to
// resume from. Invalid options or handles ([ErrInvalidOption],
// [ErrInvalidKey], [ErrInvalidCursor]) and a nil api, handle or option
// function ([ErrInvalidOption]) fail before any request.
func Migrate[T any](ctx context.Context, api Client, h Scannable[T], optFns ...func(*ScanOptions)) (_ MigrateResult, err error) {
	if isNil(h) {
		return MigrateResult{}, &OpError{Op: "Migrate", Err: errNilHandle}
	}
	return migrate(ctx, api, h.scanSpec(), optFns)
}

// migrate is [Migrate] of the items spec walks.
func migrate(ctx context.Context, api Client, spec scanSpec, optFns []func(*ScanOptions)) (_ MigrateResult, err error) {
	const op = "Migrate"
	ctx, sp := spec.t.startSpan(ctx, op)
	defer sp.End(&err)
	var (
		mu          sync.Mutex
		res         MigrateResult
		firstUnread *keycodec.UnreadError
	)
	user, err := scanOptions(optFns, 1)
	if err != nil {
		return res, &OpError{Op: op, Table: spec.t.name, Err: err}
	}
	mt := spec.t.migrationTable(ctx)
	pos, err := walk(ctx, op, api, spec, func(ctx context.Context, _ int, item Item) (bool, error) {
		s := spec
		if spec.of != nil {
			var ok bool
			if s, ok = spec.of(item); !ok {
				return false, nil
			}
		}
		m, err := mt.Migrate(ctx, api, &s.Spec, item)
		var u *keycodec.UnreadError
		unread := errors.As(err, &u)
		if unread {
			err = nil // left as it is, reported once the walk completes
		}
		mu.Lock()
		res.Retried += m.Retried
		if unread {
			res.Unread = append(res.Unread, Key{PK: u.PK, SK: u.SK})
			if firstUnread == nil {
				firstUnread = u
			}
		}
		switch {
		case m.Rewrote:
			res.Rewritten++
		case m.Moved:
			res.Moved++
		case m.Conflict != nil:
			res.Conflicts = append(res.Conflicts, MoveConflict{From: Key(m.Conflict.From), To: Key(m.Conflict.To)})
		}
		mu.Unlock()
		return m.Matched, err
	}, tracked(user, &mu, func(p ScanProgress) { res.Scanned, res.Matched = p.Scanned, p.Matched }), 1)
	res.Position = pos
	if err == nil && firstUnread != nil {
		err = &OpError{Op: op, Table: spec.t.name, PK: firstUnread.PK, SK: firstUnread.SK, Err: firstUnread.Err}
	}
	return res, err
}

// migrationTable is how internal/walks' migrations and repairs write to
// t's table: its names, and the library's judgement of errors.
func (t *Table) migrationTable(ctx context.Context) *walks.Table {
	return &walks.Table{Name: t.name, Keys: t.keys(), IsKey: t.isKeyAttr, Enc: t.enc,
		Wait: func(ctx context.Context, attempt int) error {
			return send.Wait(ctx, t.opts.BatchBackoff, attempt, ErrTxConflict)
		},
		ConditionFailed: isConditionFailed, Cancelled: cancelCodes, Transient: transient, Options: callOpts(ctx)}
}
