package adjlist

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/adjlist/adjlist/internal/walks"
)

// RepairOptions configures [Repair]. The zero value repairs what is
// derivable and deletes nothing. No option acts on a
// [FindingUndeclaredAttribute]: whether to declare the attribute in the
// Go type or remove it from the items is yours to decide.
type RepairOptions struct {
	// DeleteDangling deletes the edges of [FindingDanglingEdge] and the
	// children of [FindingOrphan] whose missing item is still missing.
	// Default false: they are left as they are, in RepairResult.Left.
	DeleteDangling bool
	// DeleteUnknown deletes the items of [FindingUnknownItem] that are
	// still of no recorded type. Default false: left.
	DeleteUnknown bool
	// DeleteUndecodable deletes the items of [FindingUndecodable] that are
	// still undecodable: items of a recorded type, which hold data, and
	// which other items may need. Deleting a node item leaves its edges
	// and its collection's children in place, and deleting a child leaves
	// the edges into it: dangling, which the next [Verify] reports as
	// dangling edges and orphans (while the table holds other items of
	// the deleted item's type), and DeleteDangling then deletes. Default
	// false: left (DeleteUnknown does not delete them).
	DeleteUndecodable bool
}

// RepairResult is what [Repair] did with each finding.
type RepairResult struct {
	// Repaired are the findings fixed by a write.
	Repaired []Finding
	// Left are the findings Repair cannot decide (a bad version or
	// expiry; an undeclared attribute; a misplaced item whose key another
	// item holds; a dangling edge, orphan, unknown or undecodable item
	// not asked to be deleted): nothing was written for them.
	Left []Finding
	// Gone are the findings that no longer held when read again (the item
	// deleted or already fixed by someone else, the missing item
	// created): nothing was written for them.
	Gone []Finding
	// Retried counts the writes that met a concurrent change and were
	// computed again from a fresh read.
	Retried int
}

// repairIndexWait bounds how long one Repair waits for the inverted index
// to list the counted edges it re-indexed before it counts them.
const repairIndexWait = 5 * time.Second

// Repair fixes the findings of [Verify] on t's table that are derivable
// from the model, each from a fresh strongly consistent read and with a
// conditional write that loses no concurrent update, in three rounds, so
// that one Repair of one Verify's findings leaves nothing for the next
// Verify to find but what it left:
//
//  1. index keys ([FindingIndexKeyMissing], [FindingIndexKeyStale],
//     [FindingIndexKeyExtra]): one UpdateItem per item that SETs and
//     REMOVEs its derived attributes (removing, too, the keys of indexes
//     its type does not declare), conditioned on the item being as read,
//     recomputed from a new read when that fails (as [Migrate], which it
//     shares); and misplaced children ([FindingMisplaced]), moved as
//     Migrate moves them, one TransactWriteItems each, left when an item
//     is stored at their key already;
//  2. counters ([FindingCounterMismatch]), once the index keys are right:
//     the edges are counted on the index (Query), and one UpdateItem SETs
//     the count, conditioned on the stored count being the one read (or
//     the aggregate absent), so that a concurrent write of a counted
//     item makes it count again. When round 1 re-indexed an
//     edge counted towards one of these aggregates, Repair first waits
//     until the index lists it ([Edge.WaitIndexed]; 5 s at most for all
//     of them, then it counts what the index holds). The index is
//     eventually consistent: an edge written by others within the index's
//     propagation delay (typically under a second) before the count may
//     be missed, so repair counters of a table whose counted edges are
//     quiet, and run Verify again;
//  3. deletes, asked for by [RepairOptions]: with DeleteDangling, a
//     dangling edge or an orphan is deleted in one TransactWriteItems with
//     a ConditionCheck that the missing item is still missing and a Delete
//     conditioned on the item being as read; with DeleteUnknown, an
//     unknown item, and with DeleteUndecodable an undecodable one, is
//     deleted with a DeleteItem conditioned on it being as read. Deleting
//     a counted edge leaves its [ItemCounter]'s count as it is (a count kept
//     from a stream follows the delete on its own; one kept at write time
//     is then one too high): the next Verify finds it, and Repair fixes
//     it. ([DeleteNode] and [DeleteChild] count the edges they delete
//     down, and leave no such mismatch.)
//
// What it cannot decide ([FindingBadVersion], [FindingBadExpiry],
// [FindingUndeclaredAttribute] whatever the options, a move whose key is
// taken, and the deletes not asked for) is left untouched,
// in RepairResult.Left; a finding that no longer holds when read again,
// in Gone. A finding on an item changed on each of
// 10 attempts, or an SDK error, stops Repair with an [*OpError] (Op
// "Repair") and the result so far. The counting Query and the wait go
// through the table's own client; everything else through api. Run
// [Verify] again to confirm. An invalid model ([Table.Check]), a nil
// table, client or option function, and counter findings on a table
// without a client ([NewTable] with nil) fail before any request
// ([ErrInvalidOption]).
func Repair(ctx context.Context, api Client, t *Table, findings []Finding, optFns ...func(*RepairOptions)) (res RepairResult, err error) {
	const op = "Repair"
	if t == nil {
		return res, &OpError{Op: op, Err: errNilTable}
	}
	ctx, sp := t.startSpan(ctx, op)
	defer sp.end(&err)
	fail := func(err error) (RepairResult, error) { return res, &OpError{Op: op, Table: t.name, Err: err} }
	var opts RepairOptions
	if err := applyOptions(&opts, optFns); err != nil {
		return fail(err)
	}
	if isNil(api) {
		return fail(errNilAPI)
	}
	spec := t.scanSpec()
	if spec.err != nil {
		return fail(spec.err)
	}
	r := &repairer{verifier: newVerifier(t, 0), api: api, mt: t.migrationTable(ctx), spec: spec, opts: opts,
		done: map[itemKey]bool{}, counted: map[itemKey]bool{}}
	for _, f := range findings {
		if f.Kind == FindingCounterMismatch {
			r.counted[itemKey{f.Key.PK, f.Key.SK}] = true
		}
	}
	if _, none := t.client.(noClient); none && len(r.counted) > 0 { // it counts through it
		return fail(errNoClient)
	}
	for round := range 3 {
		if round == 1 {
			if err := r.awaitIndexed(ctx); err != nil {
				return res, t.opErr(op, "", "", err)
			}
		}
		for _, f := range findings {
			if walks.Round(walks.Kind(f.Kind)) != round {
				continue
			}
			out, retried, err := r.repair(ctx, f)
			res.Retried += retried
			switch {
			case err != nil:
				return res, t.opErr(op, f.Key.PK, f.Key.SK, err)
			case out == walks.Repaired:
				res.Repaired = append(res.Repaired, f)
			case out == walks.Left:
				res.Left = append(res.Left, f)
			default:
				res.Gone = append(res.Gone, f)
			}
		}
	}
	return res, nil
}

// repairer is one Repair's state.
type repairer struct {
	*verifier
	api  Client
	mt   *walks.Table
	spec scanSpec
	opts RepairOptions
	// done holds the items whose index keys were rewritten already.
	done map[itemKey]bool
	// counted holds the aggregates of counter findings; reindexed the
	// counted edges towards them whose index keys round 1 rewrote.
	counted   map[itemKey]bool
	reindexed []Item
}

// repair repairs one finding: the writes are verify's, but for index keys
// and moves, Migrate's.
func (r *repairer) repair(ctx context.Context, f Finding) (walks.Outcome, int, error) {
	k, key := itemKey{f.Key.PK, f.Key.SK}, walks.Key(f.Key)
	switch f.Kind {
	case FindingIndexKeyMissing, FindingIndexKeyStale, FindingIndexKeyExtra, FindingMisplaced:
		if r.done[k] {
			return walks.Repaired, 0, nil
		}
		item, err := walks.Read(ctx, r.api, r.mt, key)
		if err != nil {
			return walks.Gone, 0, err
		}
		s, ok := r.spec.of(item)
		if item == nil || !ok {
			return walks.Gone, 0, nil
		}
		m, err := s.migrateItem(ctx, r.api, item)
		r.done[k] = m.rewrote || m.moved
		if m.rewrote {
			r.noteReindexed(item)
		}
		if m.conflict != nil {
			return walks.Left, m.retried, err
		}
		return walks.Did(r.done[k]), m.retried, err
	case FindingCounterMismatch:
		i := -1
		for j, c := range r.counters {
			if "counter "+c.name == f.Type {
				i = j
			}
		}
		if i < 0 {
			return walks.Gone, 0, fmt.Errorf("%w: %s is not a counter the table records", ErrInvalidOption, f.Type)
		}
		c := r.counters[i]
		fixed, retried, err := walks.RepairCount(ctx, r.api, r.mt, c.name, key,
			func(ctx context.Context) (int64, error) { return c.recount(ctx, k) })
		return walks.Did(fixed), retried, err
	case FindingDanglingEdge, FindingOrphan:
		if !r.opts.DeleteDangling {
			return walks.Left, 0, nil
		}
		missing := itemKey{f.Missing.PK, f.Missing.SK}
		ok, err := walks.DeleteDangling(ctx, r.api, r.mt, key, walks.Key(f.Missing), func(item Item) bool {
			vt := r.typeOf(item)
			return vt != nil && vt.refs != nil && containsRef(vt.refs(item, nil), missing)
		})
		return walks.Did(ok), 0, err
	case FindingUnknownItem, FindingUndecodable:
		if f.Kind == FindingUnknownItem && !r.opts.DeleteUnknown || f.Kind == FindingUndecodable && !r.opts.DeleteUndecodable {
			return walks.Left, 0, nil
		}
		ok, err := walks.DeleteUnknown(ctx, r.api, r.mt, key, func(item Item) bool {
			_, found := r.inspect(item)
			return slices.ContainsFunc(found, func(g walks.Finding) bool { return g.Kind == walks.Kind(f.Kind) })
		})
		return walks.Did(ok), 0, err
	}
	return walks.Left, 0, nil
}

// noteReindexed keeps item, whose index keys were just rewritten, if it is
// an edge counted towards an aggregate of a counter finding.
func (r *repairer) noteReindexed(item Item) {
	vt := r.typeOf(item)
	if vt == nil {
		return
	}
	for _, c := range vt.counts {
		if agg, ok := r.counters[c].target(item); ok && r.counted[agg] {
			r.reindexed = append(r.reindexed, item)
			return
		}
	}
}

// awaitIndexed waits until the inverted index lists each edge in
// r.reindexed, repairIndexWait at most for all; an edge still not listed
// then is counted as the index has it.
func (r *repairer) awaitIndexed(ctx context.Context) error {
	deadline := time.Now().Add(repairIndexWait)
	for _, item := range r.reindexed {
		e, ok := r.typeOf(item).h.(interface {
			split(Item) (from, to string, ok bool)
			waitIndexed(ctx context.Context, from, to string, maxWait time.Duration) error
		})
		if !ok {
			continue
		}
		from, to, ok := e.split(item)
		if !ok {
			continue
		}
		if err := e.waitIndexed(ctx, from, to, time.Until(deadline)); err != nil && !errors.Is(err, ErrNotVisible) {
			return err
		}
	}
	return nil
}
