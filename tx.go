package adjlist

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/ddbitem"
)

// DynamoDB's limits on one TransactWriteItems request.
const (
	// MaxTxActions is the most actions one transaction may hold: 100.
	MaxTxActions = 100
	// MaxTxSize is the most bytes of items one transaction may write: 4 MB,
	// sized by [ItemSize].
	MaxTxSize = 4 * 1024 * 1024
)

// Tx collects writes and condition checks to commit atomically with one
// TransactWriteItems: all of them happen, or none. Create it with [NewTx],
// add actions with the handles' Tx methods ([Node.TxPut], [Node.TxReplace],
// [Node.TxUpdate], [Node.TxDelete], [Node.TxCheck], and the same for
// [Edge] and [Collection]), then [Tx.Commit]. Each action takes the same
// [WriteOptions] as its single-item form: a condition of the caller's,
// ANDed after the library's guard, and a version on handles with
// optimistic locking. An invalid action (a bad id, a bad option, a second
// action on one item, more than [MaxTxActions] actions or [MaxTxSize]
// bytes) is kept as the Tx's error and returned by Commit, which then
// sends nothing. The one exception: a second check of an item for the same
// condition (two [Node.TxCheck] of one node) is dropped, not an error, so
// it is sent once. A Tx is not safe for concurrent use.
type Tx struct {
	t     *Table
	items []types.TransactWriteItem
	// onFail[i] is what a failed condition of action i means, given the
	// stored item (the cancellation reason's Item, ALL_OLD).
	onFail []func(old Item) error
	// seen maps each item's key to the index of its action.
	seen map[itemKey]int
	size int
	err  error
}

// NewTx returns an empty transaction on t.
func NewTx(t *Table) *Tx {
	return &Tx{t: t, seen: map[itemKey]int{}, err: t.err}
}

// Len returns the number of actions added.
func (tx *Tx) Len() int { return len(tx.items) }

// add records one action on the item with key k, checking DynamoDB's limits
// as it goes.
func (tx *Tx) add(k itemKey, size int, item types.TransactWriteItem, onFail func(Item) error) {
	if tx.err != nil {
		return
	}
	if i, ok := tx.seen[k]; ok {
		if sameCheck(tx.items[i], item) {
			return // the item is checked already, for the same condition
		}
		tx.err = fmt.Errorf("%w: two actions on the item %q %q", ErrTxLimit, k.pk, k.sk)
		return
	}
	switch {
	case len(tx.items) == MaxTxActions:
		tx.err = fmt.Errorf("%w: more than %d actions", ErrTxLimit, MaxTxActions)
	case tx.size+size > MaxTxSize:
		tx.err = fmt.Errorf("%w: more than %d bytes", ErrTxLimit, MaxTxSize)
	default:
		tx.seen[k] = len(tx.items)
		tx.size += size
		tx.items = append(tx.items, item)
		tx.onFail = append(tx.onFail, onFail)
	}
}

// sameCheck reports whether two actions are condition checks with the same
// condition: the same expression, names and values. Two such checks on
// one item ask the same question, so the second is dropped rather than
// sent as a second action on the item, which DynamoDB refuses.
func sameCheck(a, b types.TransactWriteItem) bool {
	ca, cb := a.ConditionCheck, b.ConditionCheck
	return ca != nil && cb != nil && aws.ToString(ca.ConditionExpression) == aws.ToString(cb.ConditionExpression) &&
		maps.Equal(ca.ExpressionAttributeNames, cb.ExpressionAttributeNames) &&
		ddbitem.Equal(ca.ExpressionAttributeValues, cb.ExpressionAttributeValues)
}

// keySize is the size of an action that writes no item: its key.
func keySize(t *Table, k itemKey) int {
	return len(t.opts.PartitionKey) + len(k.pk) + len(t.opts.SortKey) + len(k.sk)
}

// fail returns what the failure of w on the item k of action op means, as
// an *OpError naming them, given the stored item; a *NodeNotFoundError is
// returned as is.
func (tx *Tx) fail(op string, k itemKey, w *writeCond) func(Item) error {
	return func(old Item) error {
		err := w.classify(old)
		var nnf *NodeNotFoundError
		if errors.As(err, &nnf) {
			return err
		}
		return tx.t.opErr(op, k.pk, k.sk, err)
	}
}

// condFields are the condition of an action: w's, built, or none.
func (tx *Tx) condFields(w *writeCond) (c condition, ok bool) {
	if tx.err != nil {
		return c, false
	}
	c, err := w.built()
	return c, !tx.setErr(err)
}

func (tx *Tx) put(op string, k itemKey, item Item, w *writeCond) {
	if tx.err != nil {
		return
	}
	if tx.setErr(checkSize(item)) {
		return
	}
	c, ok := tx.condFields(w)
	if !ok {
		return
	}
	p := &types.Put{TableName: aws.String(tx.t.name), Item: item}
	if c.expr != nil {
		p.ConditionExpression = c.expr
		p.ExpressionAttributeNames = c.names
		p.ExpressionAttributeValues = c.values
		p.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	}
	tx.add(k, ItemSize(item), types.TransactWriteItem{Put: p}, tx.fail(op, k, w))
}

func (tx *Tx) update(op string, it *itemType, kc *keyCtx, update Update, w *writeCond) {
	if tx.err != nil {
		return
	}
	k := itemKey{kc.pk, kc.sk}
	expr, err := tx.t.buildUpdate(it, kc, update, w)
	if tx.setErr(err) {
		return
	}
	size := keySize(tx.t, k) + len(aws.ToString(expr.Update())) + ItemSize(expr.Values())
	tx.add(k, size, types.TransactWriteItem{Update: &types.Update{
		TableName:                           aws.String(tx.t.name),
		Key:                                 tx.t.keyItem(k.pk, k.sk),
		UpdateExpression:                    expr.Update(),
		ConditionExpression:                 expr.Condition(),
		ExpressionAttributeNames:            expr.Names(),
		ExpressionAttributeValues:           expr.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}}, tx.fail(op, k, w))
}

func (tx *Tx) del(op string, k itemKey, w *writeCond) {
	c, ok := tx.condFields(w)
	if !ok {
		return
	}
	tx.add(k, keySize(tx.t, k), types.TransactWriteItem{Delete: &types.Delete{
		TableName:                           aws.String(tx.t.name),
		Key:                                 tx.t.keyItem(k.pk, k.sk),
		ConditionExpression:                 c.expr,
		ExpressionAttributeNames:            c.names,
		ExpressionAttributeValues:           c.values,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}}, tx.fail(op, k, w))
}

func (tx *Tx) check(op string, k itemKey, w *writeCond) {
	c, ok := tx.condFields(w)
	if !ok {
		return
	}
	tx.add(k, keySize(tx.t, k), types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{
		TableName:                           aws.String(tx.t.name),
		Key:                                 tx.t.keyItem(k.pk, k.sk),
		ConditionExpression:                 c.expr,
		ExpressionAttributeNames:            c.names,
		ExpressionAttributeValues:           c.values,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}}, tx.fail(op, k, w))
}

// setErr keeps err, when not nil, as the Tx's error unless it has one
// already, and reports whether err was not nil.
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

// maxTxToken is the longest ClientRequestToken DynamoDB accepts.
const maxTxToken = 36

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
// only with TxOptions.ConflictRetries). If DynamoDB cancels it, nothing is
// written and the error joins, for each failed action, what its failure
// means — [ErrEdgeExists] or [ErrExists] for a guarded put, [ErrNotFound]
// for a guarded update or delete, a [*NodeNotFoundError] (errors.Is
// [ErrNodeNotFound]) for a node check, [ErrVersionConflict] for a stale
// version, [ErrConditionFailed] for a condition of the caller's (told
// apart from the guard with the stored item each failed action returns,
// ALL_OLD), [ErrTxConflict] for a conflict — with the SDK's
// *types.TransactionCanceledException. An invalid transaction (see [Tx])
// fails before any request; an empty one does nothing.
func (tx *Tx) Commit(ctx context.Context, optFns ...func(*TxOptions)) (err error) {
	const op = "Tx.Commit"
	ctx, sp := tx.t.startSpan(ctx, op)
	defer sp.end(&err)
	var opts TxOptions
	if err := applyOptions(&opts, optFns); err != nil {
		return tx.t.opErr(op, "", "", err)
	}
	if tx.err != nil {
		return tx.t.opErr(op, "", "", tx.err)
	}
	if len(opts.Token) > maxTxToken {
		return tx.t.opErr(op, "", "", fmt.Errorf("%w: TxOptions.Token is %d characters; DynamoDB takes at most %d", ErrInvalidOption, len(opts.Token), maxTxToken))
	}
	if len(tx.items) == 0 {
		return nil
	}
	in := &dynamodb.TransactWriteItemsInput{TransactItems: tx.items}
	if opts.Token != "" {
		in.ClientRequestToken = aws.String(opts.Token)
	}
	for attempt := 1; ; attempt++ {
		_, err := tx.t.client.TransactWriteItems(ctx, in, callOpts(ctx)...)
		if err == nil {
			return nil
		}
		causes, retryable := tx.reasons(err)
		if !retryable || attempt > opts.ConflictRetries {
			return tx.t.opErr(op, "", "", joinCauses(causes, err))
		}
		delay, derr := tx.t.opts.BatchBackoff.BackoffDelay(attempt, err)
		if derr == nil {
			derr = sleep(ctx, delay)
		}
		if derr != nil {
			return tx.t.opErr(op, "", "", joinCauses(causes, err, derr))
		}
	}
}

// reasons maps a cancelled transaction's reasons, which come in the order
// of its actions, to this package's errors: a *ThrottlingError for each
// action DynamoDB throttled. retryable is true when every reason is a
// conflict or throttling.
func (tx *Tx) reasons(err error) (causes []error, retryable bool) {
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		return nil, false
	}
	retryable = true
	for i, r := range tce.CancellationReasons {
		switch code := aws.ToString(r.Code); {
		case code == "ConditionalCheckFailed":
			retryable = false
			if i < len(tx.onFail) {
				causes = append(causes, tx.onFail[i](r.Item))
			}
		case code == "TransactionConflict":
			causes = append(causes, ErrTxConflict)
		case throttleCode(code):
		case !transient(code):
			retryable = false
		}
	}
	causes = append(causes, tx.t.throttledActions(err, func(i int) Item {
		if i >= len(tx.items) {
			return nil
		}
		switch a := tx.items[i]; {
		case a.Put != nil:
			return a.Put.Item
		case a.Update != nil:
			return a.Update.Key
		case a.Delete != nil:
			return a.Delete.Key
		case a.ConditionCheck != nil:
			return a.ConditionCheck.Key
		}
		return nil
	})...)
	return causes, retryable
}

// NodeNotFoundError reports that a transaction's check of a node item found
// none. It matches [ErrNodeNotFound] and [ErrNotFound] with errors.Is.
type NodeNotFoundError struct {
	// Side is "from" or "to" for the endpoints of [Edge.PutChecked], else "".
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
