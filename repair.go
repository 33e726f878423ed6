package adjlist

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// RepairOptions configures [Repair]. The zero value repairs what is
// derivable and deletes nothing.
type RepairOptions struct {
	// DeleteDangling deletes the edges of [FindingDanglingEdge] and the
	// children of [FindingOrphan] whose missing item is still missing.
	// Default false: they are left as they are, in RepairResult.Left.
	DeleteDangling bool
	// DeleteUnknown deletes the items of [FindingUnknownItem] and
	// [FindingUndecodable] that are still so. Default false: left.
	DeleteUnknown bool
}

// RepairResult is what [Repair] did with each finding.
type RepairResult struct {
	// Repaired are the findings fixed by a write.
	Repaired []Finding
	// Left are the findings Repair cannot decide (a bad version; a
	// dangling edge, orphan, unknown or undecodable item not asked to be
	// deleted): nothing was written for them.
	Left []Finding
	// Gone are the findings that no longer held when read again (the item
	// deleted or already fixed by someone else, the missing item
	// created): nothing was written for them.
	Gone []Finding
	// Retried counts the writes that met a concurrent change and were
	// computed again from a fresh read.
	Retried int
}

// RepairClient is the subset of the DynamoDB API that [Repair] uses; a
// *dynamodb.Client satisfies it.
type RepairClient interface {
	MigrateClient
	DeleteItem(ctx context.Context, params *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
}

// Repair fixes the findings of [Verify] on t's table that are derivable
// from the model, one by one, each from a fresh strongly consistent read
// and with a conditional write that loses no concurrent update:
//
//   - index keys ([FindingIndexKeyMissing], [FindingIndexKeyStale],
//     [FindingIndexKeyExtra]): one UpdateItem per item that SETs and
//     REMOVEs its derived attributes, conditioned on the item being as
//     read, recomputed from a new read when that fails (as [Migrate],
//     which it shares: a child stored under another shard layout is also
//     moved);
//   - counters ([FindingCounterMismatch]): the edges are counted on the
//     index (Query), and one UpdateItem SETs the count, conditioned on the
//     stored count being the one read (or the aggregate absent), so that a
//     concurrent [Counter.Put] or [Counter.Delete] makes it count again.
//     The index is eventually consistent: an edge written within the
//     index's propagation delay (typically under a second) before the count
//     may be missed, so repair counters of a table whose counted edges are
//     quiet, and run Verify again;
//   - with [RepairOptions].DeleteDangling, a dangling edge or an orphan is
//     deleted in one TransactWriteItems with a ConditionCheck that the
//     missing item is still missing and a Delete conditioned on the item
//     being as read; with DeleteUnknown, an unknown or undecodable item is
//     deleted with a DeleteItem conditioned on it being as read. Deleting
//     a counted edge leaves its [Counter]'s count as it is (a count kept
//     from a stream follows the delete on its own; one kept at write time
//     is then one too high): Verify finds it, and Repair fixes it.
//
// What it cannot decide ([FindingBadVersion], and the deletes not asked
// for) is left untouched, in RepairResult.Left; a finding that no longer
// holds when read again, in Gone. A finding on an item changed on each of
// 10 attempts, or an SDK error, stops Repair with an [*OpError] (Op
// "Repair") and the result so far. The counting Query goes through the
// table's own client; everything else through api. Run [Verify] again to
// confirm. An invalid model ([Table.Check]) fails before any request.
func Repair(ctx context.Context, api RepairClient, t *Table, findings []Finding, optFns ...func(*RepairOptions)) (res RepairResult, err error) {
	const op = "Repair"
	ctx, sp := t.startSpan(ctx, op)
	defer sp.end(&err)
	var opts RepairOptions
	for _, fn := range optFns {
		fn(&opts)
	}
	spec := t.scanSpec()
	if spec.err != nil {
		return res, &OpError{Op: op, Table: t.name, Err: spec.err}
	}
	v := newVerifier(t, 0)
	// The findings of one item are repaired by one write.
	done := map[itemKey]bool{}
	for _, f := range findings {
		out, retried, err := v.repair(ctx, api, spec, opts, done, f)
		res.Retried += retried
		switch {
		case err != nil:
			return res, t.opErr(op, f.Key.PK, f.Key.SK, err)
		case out == repaired:
			res.Repaired = append(res.Repaired, f)
		case out == left:
			res.Left = append(res.Left, f)
		default:
			res.Gone = append(res.Gone, f)
		}
	}
	return res, nil
}

// outcome is what Repair did with one finding.
type outcome int

const (
	gone     outcome = iota // no longer true when read again
	repaired                // fixed by a write
	left                    // not Repair's to decide
)

// repair repairs one finding; done holds the items whose index keys were
// rewritten already.
func (v *verifier) repair(ctx context.Context, api RepairClient, spec scanSpec, opts RepairOptions, done map[itemKey]bool, f Finding) (outcome, int, error) {
	k := itemKey{f.Key.PK, f.Key.SK}
	did := func(ok bool, err error) (outcome, int, error) {
		if ok {
			return repaired, 0, err
		}
		return gone, 0, err
	}
	switch f.Kind {
	case FindingIndexKeyMissing, FindingIndexKeyStale, FindingIndexKeyExtra:
		if done[k] {
			return repaired, 0, nil
		}
		item, err := v.read(ctx, api, k)
		if err != nil {
			return gone, 0, err
		}
		s, ok := spec.of(item)
		if item == nil || !ok {
			return gone, 0, nil
		}
		m, err := s.migrateItem(ctx, api, item)
		done[k] = m.rewrote || m.moved
		out, _, err := did(done[k], err)
		return out, m.retried, err
	case FindingCounterMismatch:
		fixed, retried, err := v.repairCount(ctx, api, f)
		out, _, err := did(fixed, err)
		return out, retried, err
	case FindingDanglingEdge, FindingOrphan:
		if !opts.DeleteDangling {
			return left, 0, nil
		}
		return did(v.deleteDangling(ctx, api, f))
	case FindingUnknownItem, FindingUndecodable:
		if !opts.DeleteUnknown {
			return left, 0, nil
		}
		return did(v.deleteUnknown(ctx, api, f))
	}
	return left, 0, nil
}

// repairCount sets a counter's aggregate to the edges counted.
func (v *verifier) repairCount(ctx context.Context, api MigrateClient, f Finding) (fixed bool, retried int, err error) {
	i := -1
	for j, c := range v.counters {
		if "counter "+c.name == f.Type {
			i = j
		}
	}
	if i < 0 {
		return false, 0, fmt.Errorf("%w: %s is not a counter the table records", ErrInvalidOption, f.Type)
	}
	c, k := v.counters[i], itemKey{f.Key.PK, f.Key.SK}
	t := v.t
	for attempt := 0; attempt < maxMigrateAttempts; attempt++ {
		item, err := v.read(ctx, api, k)
		if err != nil {
			return false, retried, err
		}
		n, err := c.recount(ctx, k)
		if err != nil {
			return false, retried, err
		}
		stored := ""
		if item != nil {
			stored = countOf(item)
		}
		want := strconv.FormatInt(n, 10)
		if stored == want || stored == "" && n == 0 {
			return false, retried, nil
		}
		cond := expression.AttributeNotExists(expression.Name(t.opts.PartitionKey))
		if item != nil {
			cond = expression.Name("count").Equal(expression.Value(avValue{item["count"]}))
			if item["count"] == nil {
				cond = expression.AttributeNotExists(expression.Name("count"))
			}
		}
		e, err := expression.NewBuilder().WithCondition(cond).
			WithUpdate(expression.Set(expression.Name("count"), expression.Value(n)).Set(expression.Name("counter"), expression.Value(c.name))).Build()
		if err != nil {
			return false, retried, err
		}
		_, err = api.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: t.tableName, Key: t.keyItem(k.pk, k.sk),
			UpdateExpression: e.Update(), ConditionExpression: e.Condition(),
			ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values()}, callOpts(ctx)...)
		if err == nil {
			return true, retried, nil
		}
		if !IsConditionFailed(err) {
			return false, retried, err
		}
		retried++
	}
	return false, retried, fmt.Errorf("adjlist: counter %v changed on every one of %d writes", k, maxMigrateAttempts)
}

// deleteDangling deletes a dangling edge or an orphan if the item it
// needs is still missing and it is as read.
func (v *verifier) deleteDangling(ctx context.Context, api MigrateClient, f Finding) (bool, error) {
	t := v.t
	k, missing := itemKey{f.Key.PK, f.Key.SK}, itemKey{f.Missing.PK, f.Missing.SK}
	for attempt := 0; attempt < maxMigrateAttempts; attempt++ {
		item, err := v.read(ctx, api, k)
		if err != nil || item == nil {
			return false, err
		}
		r, ok := v.typeOf(item)
		if !ok || r.refs == nil || !containsRef(r.refs(item), missing) {
			return false, nil
		}
		absent, err := expression.NewBuilder().WithCondition(expression.AttributeNotExists(expression.Name(t.opts.PartitionKey))).Build()
		if err != nil {
			return false, err
		}
		del, err := expression.NewBuilder().WithCondition(asRead(t, item, nil)).Build()
		if err != nil {
			return false, err
		}
		_, err = api.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{ConditionCheck: &types.ConditionCheck{TableName: t.tableName, Key: t.keyItem(missing.pk, missing.sk),
				ConditionExpression: absent.Condition(), ExpressionAttributeNames: absent.Names()}},
			{Delete: &types.Delete{TableName: t.tableName, Key: t.keyItem(k.pk, k.sk),
				ConditionExpression: del.Condition(), ExpressionAttributeNames: del.Names(), ExpressionAttributeValues: del.Values()}},
		}}, callOpts(ctx)...)
		if err == nil {
			return true, nil
		}
		codes, ok := cancelCodes(err)
		switch {
		case !ok:
			return false, err
		case len(codes) > 0 && codes[0] == "ConditionalCheckFailed":
			return false, nil // the missing item exists now
		case len(codes) > 1 && codes[1] == "ConditionalCheckFailed":
			continue // changed since read: read again
		case len(codes) > 1 && transient(codes[0]) && transient(codes[1]):
			delay, err := t.opts.BatchBackoff.BackoffDelay(attempt+1, ErrTxConflict)
			if err == nil {
				err = sleep(ctx, delay)
			}
			if err != nil {
				return false, err
			}
		default:
			return false, err
		}
	}
	return false, fmt.Errorf("adjlist: item %v changed on every one of %d writes", k, maxMigrateAttempts)
}

// deleteUnknown deletes an unknown or undecodable item if it still is
// one and is as read.
func (v *verifier) deleteUnknown(ctx context.Context, api RepairClient, f Finding) (bool, error) {
	t := v.t
	k := itemKey{f.Key.PK, f.Key.SK}
	for attempt := 0; attempt < maxMigrateAttempts; attempt++ {
		item, err := v.read(ctx, api, k)
		if err != nil || item == nil {
			return false, err
		}
		_, _, found := v.inspect(item)
		if !slices.ContainsFunc(found, func(g Finding) bool { return g.Kind == f.Kind }) {
			return false, nil
		}
		del, err := expression.NewBuilder().WithCondition(asRead(t, item, nil)).Build()
		if err != nil {
			return false, err
		}
		_, err = api.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: t.tableName, Key: t.keyItem(k.pk, k.sk),
			ConditionExpression: del.Condition(), ExpressionAttributeNames: del.Names(), ExpressionAttributeValues: del.Values()}, callOpts(ctx)...)
		if err == nil {
			return true, nil
		}
		if !IsConditionFailed(err) {
			return false, err
		}
	}
	return false, fmt.Errorf("adjlist: item %v changed on every one of %d writes", k, maxMigrateAttempts)
}

func containsRef(refs []itemRef, k itemKey) bool {
	return slices.ContainsFunc(refs, func(r itemRef) bool { return r.key == k })
}
