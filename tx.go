package adjlist

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/send"
)

// Tx collects writes and condition checks to commit atomically with one
// TransactWriteItems: all of them happen, or none. Create it with [NewTx],
// add writes with the option [InTx] (users.Put(ctx, "ada", ada,
// adjlist.InTx(tx))) and checks with the handles' TxCheck, then
// [Tx.Commit]. Each write keeps its other [WriteOptions]. An invalid action
// (a bad id or option, a second action on one item, over 100 actions or
// 4 MB of items) is kept as the Tx's error and returned by Commit, which
// then sends nothing; a second identical check of an item is dropped. A Tx
// is not safe for concurrent use.
type Tx struct {
	t   *Table
	w   send.Write
	err error
	// failed are the actions whose condition failed in the last
	// cancellation, as OpError.Failed lists them.
	failed []*OpError
	// counts are the changes of [ItemCounter] counts added, by count
	// item: two writes moving one count make one action.
	counts map[Key]int64
}

// NewTx returns an empty transaction on t.
func NewTx(t *Table) *Tx {
	return &Tx{t: t, err: t.err}
}

// Len returns the number of actions added.
func (tx *Tx) Len() int { return tx.w.Len() }

// add records one action of size bytes on the item k ([send.Write.Add]);
// onFail is what its failed condition means, given the stored item.
func (tx *Tx) add(k Key, size int, a types.TransactWriteItem, onFail func(old Item) error) {
	if tx.err == nil {
		tx.err = tx.w.Add(k.PK, k.SK, size, a, onFail)
	}
}

// keySize is the size of an action that writes no item: its key.
func keySize(t *Table, k Key) int {
	return len(t.opts.PartitionKey) + len(k.PK) + len(t.opts.SortKey) + len(k.SK)
}

// fail is what a failure of w on the item k means, given the stored item:
// an *OpError naming op and k, or a *NodeNotFoundError as is.
func (tx *Tx) fail(op string, k Key, w *writeCond) func(Item) error {
	return func(old Item) error {
		err := w.Meaning(old, w.exists, w.missing)
		oe := &OpError{Op: op, Table: tx.t.name, PK: k.PK, SK: k.SK, Err: err}
		tx.failed = append(tx.failed, oe)
		var nnf *NodeNotFoundError
		if errors.As(err, &nnf) {
			return err
		}
		return oe
	}
}

// cond is the condition of an action: w's, built, or none; ok is false
// when tx has an error.
func (tx *Tx) cond(w *writeCond) (_ send.Cond, ok bool) {
	if tx.err != nil {
		return send.Cond{}, false
	}
	c, err := w.built()
	return c, !tx.setErr(err)
}

func (tx *Tx) put(op string, k Key, item Item, w *writeCond) {
	if tx.err != nil || tx.setErr(checkSize(item)) {
		return
	}
	if c, ok := tx.cond(w); ok {
		tx.add(k, ItemSize(item), send.TxPut(tx.t.tableName, item, c), tx.fail(op, k, w))
	}
}

func (tx *Tx) update(op string, it *itemType, kc *keyCtx, update Update, w *writeCond) {
	if tx.err != nil {
		return
	}
	k := Key{kc.PK, kc.SK}
	expr, _, err := tx.t.buildUpdate(it, kc, update, w)
	if tx.setErr(err) {
		return
	}
	u, values := expr.Update(), expr.Values()
	size := keySize(tx.t, k) + len(aws.ToString(u)) + ItemSize(values)
	c := send.Cond{Expr: expr.Condition(), Names: expr.Names(), Values: values}
	tx.add(k, size, send.TxUpdate(tx.t.tableName, tx.t.keyItem(k.PK, k.SK), u, c), tx.fail(op, k, w))
}

func (tx *Tx) del(op string, k Key, w *writeCond) {
	if c, ok := tx.cond(w); ok {
		tx.add(k, keySize(tx.t, k), send.TxDelete(tx.t.tableName, tx.t.keyItem(k.PK, k.SK), c), tx.fail(op, k, w))
	}
}

func (tx *Tx) check(op string, k Key, w *writeCond) {
	if c, ok := tx.cond(w); ok {
		tx.add(k, keySize(tx.t, k), send.TxCheck(tx.t.tableName, tx.t.keyItem(k.PK, k.SK), c), tx.fail(op, k, w))
	}
}

// setErr keeps err as the Tx's error unless it has one; it reports err != nil.
func (tx *Tx) setErr(err error) bool {
	if err != nil && tx.err == nil {
		tx.err = err
	}
	return err != nil
}

// sameTable records an error when a handle of another table joins tx.
func (tx *Tx) sameTable(t *Table) bool {
	if tx.err == nil && t != tx.t {
		tx.err = fmt.Errorf("%w: a transaction spans one Table value", ErrInvalidOption)
	}
	return tx.err == nil
}

// TxOptions configures [Tx.Commit].
type TxOptions struct {
	// Token is the ClientRequestToken: a repeated Commit with the same token
	// within 10 minutes of a successful one succeeds without writing again,
	// so a caller may retry a Commit whose outcome it did not learn. The
	// token is DynamoDB's for the account and Region, not the table's, and
	// is 1 to 36 characters (a longer one is [ErrInvalidOption] before any
	// request). Empty (the default): the SDK makes one per call, idempotent
	// across its own retries.
	Token string
	// ConflictRetries is how many times Commit tries again, after
	// [Options.BatchBackoff], when DynamoDB cancels the transaction only for
	// conflicts with other transactions or throttling. Default 0: a
	// conflict is returned as [ErrTxConflict].
	ConflictRetries int
}

// Commit runs the transaction with one TransactWriteItems request (more
// only with TxOptions.ConflictRetries). An invalid transaction fails before
// any request; an empty one does nothing. If DynamoDB cancels it, nothing
// is written and the error, an [*OpError] wrapping the SDK's
// *types.TransactionCanceledException, matches for each failed action what
// its failure means: [ErrExists] for a guarded put, [ErrNotFound] for a
// guarded update or delete or the check of an edge, child or entity, a
// [*NodeNotFoundError] ([ErrNodeNotFound]) for a node check,
// [ErrVersionConflict], [ErrConditionFailed] for a condition of the
// caller's, [ErrTxConflict] for a conflict. OpError.Failed lists the
// failed actions in order, each with its Op, keys and error. Check
// [ErrVersionConflict] first: the other failures may follow from the stale
// read. docs/writes.md has an example.
//
// The SDK's attempts share one ClientRequestToken (the SDK's or
// [TxOptions.Token]). A Commit that fails without a cancellation after an
// attempt whose outcome is unknown is [ErrOutcomeUnknown]: Commit again
// with the same Token within 10 minutes to apply it at most once. A token
// reused for another transaction is [ErrInvalidOption], wrapping
// *types.IdempotentParameterMismatchException.
func (tx *Tx) Commit(ctx context.Context, optFns ...func(*TxOptions)) (err error) {
	const op = "Tx.Commit"
	ctx, sp := tx.t.startSpan(ctx, op)
	defer sp.End(&err)
	var opts TxOptions
	if err := applyOptions(&opts, optFns); err != nil {
		return tx.t.opErr(op, "", "", err)
	}
	if tx.err != nil {
		return tx.t.opErr(op, "", "", tx.err)
	}
	if n := send.TokenLen(opts.Token); n > send.MaxToken {
		return tx.t.opErr(op, "", "", fmt.Errorf("%w: TxOptions.Token is %d characters; DynamoDB takes at most %d", ErrInvalidOption, n, send.MaxToken))
	}
	if tx.w.Len() == 0 {
		return nil
	}
	call := &send.Call{Context: ctx}
	causes, err, waitErr := tx.w.Commit(call, tx.t.client, opts.Token, opts.ConflictRetries, tx.t.opts.BatchBackoff, send.Watch(callOpts(ctx)), tx.reasons)
	if err == nil {
		return nil
	}
	joined := send.Join(isThrottlingError, causes, send.Mismatch(err), waitErr)
	if _, cancelled := cancelCodes(err); !cancelled {
		joined = call.Unknown(joined)
	}
	oe := &OpError{Op: op, Table: tx.t.name, Err: tx.t.throttled(joined, "", "", "", "")}
	if causes != nil {
		oe.Failed = tx.failed
	}
	return oe
}

// reasons maps a cancelled transaction's reasons to this package's errors
// ([send.Write.Reasons]) and *ThrottlingErrors, recording tx.failed.
func (tx *Tx) reasons(err error) (causes []error, retryable bool) {
	tx.failed = nil
	causes, retryable = tx.w.Reasons(err, transient)
	return append(causes, tx.t.throttledActions(err, tx.w.Key)...), retryable
}

// NodeNotFoundError reports that a transaction's check of a node item found
// none. It matches [ErrNodeNotFound] and [ErrNotFound] with errors.Is.
type NodeNotFoundError struct {
	// Side is "from" or "to" for the endpoints of [Edge.Put] with
	// [WriteOptions].CheckEnds, else "".
	Side string
	// Type and ID name the node, e.g. "CRS", "math204".
	Type, ID string
}

// Error names the missing node and its side.
func (e *NodeNotFoundError) Error() string {
	if e.Side == "" {
		return fmt.Sprintf("adjlist: node %s %q not found", e.Type, e.ID)
	}
	return fmt.Sprintf("adjlist: %s node %s %q not found", e.Side, e.Type, e.ID)
}

// Unwrap returns [ErrNodeNotFound].
func (e *NodeNotFoundError) Unwrap() error { return ErrNodeNotFound }
