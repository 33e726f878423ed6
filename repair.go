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
	// still undecodable. A node or child deleted so leaves the edges and
	// children that hang off it dangling, for the next [Verify] to report and
	// DeleteDangling to delete. Default false: left.
	DeleteUndecodable bool
}

// RepairResult is what [Repair] did with each finding.
type RepairResult struct {
	// Repaired are the findings fixed by a write.
	Repaired []Finding
	// Left are the findings Repair cannot decide (a bad version or
	// expiry; an undeclared attribute; a key mismatch; a misplaced item
	// whose key another item holds; a dangling edge, orphan, unknown or
	// undecodable item not asked to be deleted): nothing was written for
	// them.
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

// Repair fixes the findings of [Verify] that the model can derive, each
// from a fresh strongly consistent read and with a write conditioned on the
// item being as read (recomputed on a concurrent change, up to 10
// attempts), in three rounds:
//
//  1. index keys ([FindingIndexKeyMissing], [FindingIndexKeyStale],
//     [FindingIndexKeyExtra]): one UpdateItem per item, as [Migrate]; and
//     [FindingMisplaced] items moved as Migrate moves them, one
//     TransactWriteItems each;
//  2. counts ([FindingCounterMismatch]): the edges counted on the index
//     (Query, after waiting up to 5 s in all for edges round 1 re-indexed),
//     then one UpdateItem SETs the count, conditioned on the count read;
//  3. deletes asked for by [RepairOptions]: a dangling edge or orphan in one
//     TransactWriteItems with a ConditionCheck that its missing item is
//     still missing; an unknown or undecodable item with a conditional
//     DeleteItem. A counted edge deleted here leaves a write-time count one
//     too high, for the next Verify to find.
//
// What it cannot decide is left untouched, in RepairResult.Left; a finding
// that no longer holds, in Gone. Run Verify again to confirm; the index is
// eventually consistent, so repair counts of a table whose counted edges
// are quiet. The counting Query goes through t's client, everything else
// through api. An item changed on every attempt, or an SDK error, stops
// Repair with an [*OpError] (Op "Repair") and the result so far. An invalid
// model ([Table.Check]'s error: [ErrInvalidKey] or [ErrInvalidOption]), a
// nil table, client or option function, and counter findings on a table
// without a client ([ErrInvalidOption]) fail before any request.
func Repair(ctx context.Context, api Client, t *Table, findings []Finding, optFns ...func(*RepairOptions)) (res RepairResult, err error) {
	const op = "Repair"
	if t == nil {
		return res, &OpError{Op: op, Err: errNilTable}
	}
	ctx, sp := t.startSpan(ctx, op)
	defer sp.End(&err)
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
	r := &repairer{verifier: newVerifier(ctx, t, 0), api: api, spec: spec, opts: opts,
		done: map[Key]bool{}, counted: map[Key]bool{}}
	for _, f := range findings {
		if f.Kind == FindingCounterMismatch {
			r.counted[f.Key] = true
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
	spec scanSpec
	opts RepairOptions
	done map[Key]bool // index keys rewritten already
	// counted holds the aggregates of counter findings; reindexed the
	// counted edges towards them whose index keys round 1 rewrote.
	counted   map[Key]bool
	reindexed []Item
}

// repair repairs one finding; index keys and moves as Migrate does.
func (r *repairer) repair(ctx context.Context, f Finding) (walks.Outcome, int, error) {
	k, key := f.Key, walks.Key(f.Key)
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
		m, err := r.mt.Migrate(ctx, r.api, &s.Spec, item)
		r.done[k] = m.Rewrote || m.Moved
		if m.Rewrote {
			r.noteReindexed(item)
		}
		if m.Conflict != nil {
			return walks.Left, m.Retried, err
		}
		return walks.Did(r.done[k]), m.Retried, err
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
		ok, err := walks.Delete(ctx, r.api, r.mt, key, (*walks.Key)(&f.Missing), func(item Item) bool {
			vt := r.typeOf(item)
			return vt != nil && vt.refs != nil && containsRef(vt.refs(item, nil), f.Missing)
		})
		return walks.Did(ok), 0, err
	case FindingUnknownItem, FindingUndecodable:
		if f.Kind == FindingUnknownItem && !r.opts.DeleteUnknown || f.Kind == FindingUndecodable && !r.opts.DeleteUndecodable {
			return walks.Left, 0, nil
		}
		ok, err := walks.Delete(ctx, r.api, r.mt, key, nil, func(item Item) bool {
			_, found := r.inspect(item)
			return slices.ContainsFunc(found, func(g walks.Finding) bool { return g.Kind == walks.Kind(f.Kind) })
		})
		return walks.Did(ok), 0, err
	}
	return walks.Left, 0, nil
}

// noteReindexed keeps item, just re-indexed, if it is counted towards an
// aggregate of a counter finding.
func (r *repairer) noteReindexed(item Item) {
	vt := r.typeOf(item)
	if vt == nil {
		return
	}
	for _, c := range vt.counts {
		if agg, ok, err := r.counters[c].target(item); ok && err == nil && r.counted[agg] {
			r.reindexed = append(r.reindexed, item)
			return
		}
	}
}

// awaitIndexed waits, repairIndexWait at most in all, until the index
// lists each edge in r.reindexed; one still not listed is counted as the
// index has it.
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
