package adjlist

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
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
// add actions with the handles' Tx methods ([Edge.TxPut], [Edge.TxDelete],
// [Node.TxPut], [Node.TxCheck], [Collection.TxPut], [Collection.TxDelete]),
// then [Tx.Commit]. An invalid action (a bad id, a second action on one
// item, more than [MaxTxActions] actions or [MaxTxSize] bytes) is kept as
// the Tx's error and returned by Commit, which then sends nothing. The one
// exception: a second check of an item for the same condition (two
// [Node.TxCheck] of one node) is dropped, not an error, so it is sent
// once. A Tx is not safe for concurrent use.
type Tx struct {
	t     *Table
	items []types.TransactWriteItem
	// onFail[i] is what a failed condition of action i means.
	onFail []error
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
func (tx *Tx) add(k itemKey, size int, item types.TransactWriteItem, onFail error) {
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
// condition (both built from one of the table's shared conditions). Two
// such checks on one item ask the same question, so the second is dropped
// rather than sent as a second action on the item, which DynamoDB refuses.
func sameCheck(a, b types.TransactWriteItem) bool {
	return a.ConditionCheck != nil && b.ConditionCheck != nil &&
		a.ConditionCheck.ConditionExpression == b.ConditionCheck.ConditionExpression
}

// keySize is the size of an action that writes no item: its key.
func keySize(t *Table, k itemKey) int {
	return len(t.opts.PartitionKey) + len(k.pk) + len(t.opts.SortKey) + len(k.sk)
}

func (tx *Tx) put(k itemKey, item Item, guard bool, onFail error) {
	if tx.err != nil {
		return
	}
	if err := checkSize(item); err != nil {
		tx.err = err
		return
	}
	p := &types.Put{TableName: aws.String(tx.t.name), Item: item}
	if guard {
		p.ConditionExpression = tx.t.absent.expr
		p.ExpressionAttributeNames = tx.t.absent.names
		p.ExpressionAttributeValues = tx.t.absent.values
	}
	tx.add(k, ItemSize(item), types.TransactWriteItem{Put: p}, onFail)
}

func (tx *Tx) del(k itemKey, onFail error) {
	tx.add(k, keySize(tx.t, k), types.TransactWriteItem{Delete: &types.Delete{
		TableName:                 aws.String(tx.t.name),
		Key:                       tx.t.keyItem(k.pk, k.sk),
		ConditionExpression:       tx.t.present.expr,
		ExpressionAttributeNames:  tx.t.present.names,
		ExpressionAttributeValues: tx.t.present.values,
	}}, onFail)
}

func (tx *Tx) check(k itemKey, cond condition, onFail error) {
	tx.add(k, keySize(tx.t, k), types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{
		TableName:                 aws.String(tx.t.name),
		Key:                       tx.t.keyItem(k.pk, k.sk),
		ConditionExpression:       cond.expr,
		ExpressionAttributeNames:  cond.names,
		ExpressionAttributeValues: cond.values,
	}}, onFail)
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
	// so a caller may retry a Commit whose outcome it did not learn. Empty
	// (the default): the SDK makes one per call, idempotent across its own
	// retries.
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
// means — [ErrEdgeExists] for a guarded put, [ErrNotFound] for a guarded
// delete, a [*NodeNotFoundError] (errors.Is [ErrNodeNotFound]) for a node
// check, [ErrTxConflict] for a conflict — with the SDK's
// *types.TransactionCanceledException. An invalid transaction (see [Tx])
// fails before any request; an empty one does nothing.
func (tx *Tx) Commit(ctx context.Context, optFns ...func(*TxOptions)) error {
	const op = "Tx.Commit"
	var opts TxOptions
	for _, fn := range optFns {
		fn(&opts)
	}
	if tx.err != nil {
		return tx.t.opErr(op, "", "", tx.err)
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
			return tx.t.opErr(op, "", "", errors.Join(append(causes, err)...))
		}
		delay, derr := tx.t.opts.BatchBackoff.BackoffDelay(attempt, err)
		if derr == nil {
			derr = sleep(ctx, delay)
		}
		if derr != nil {
			return tx.t.opErr(op, "", "", errors.Join(append(causes, err, derr)...))
		}
	}
}

// reasons maps a cancelled transaction's reasons, which come in the order
// of its actions, to this package's errors. retryable is true when every
// reason is a conflict or throttling.
func (tx *Tx) reasons(err error) (causes []error, retryable bool) {
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		return nil, false
	}
	retryable = true
	for i, r := range tce.CancellationReasons {
		switch code := aws.ToString(r.Code); code {
		case "", "None":
		case "ConditionalCheckFailed":
			retryable = false
			if i < len(tx.onFail) {
				causes = append(causes, tx.onFail[i])
			}
		case "TransactionConflict":
			causes = append(causes, ErrTxConflict)
		case "ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded":
		default:
			retryable = false
		}
	}
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

// TxCheck adds to tx a check that node id's item exists
// (ConditionCheck attribute_exists(PK)); if it does not, Commit fails with
// a [*NodeNotFoundError].
func (n *Node[N]) TxCheck(tx *Tx, id string) {
	n.txCheck(tx, id, "")
}

func (n *Node[N]) txCheck(tx *Tx, id, side string) {
	if !tx.sameTable(n.t) {
		return
	}
	pk, sk, err := n.Key(id)
	if err != nil {
		tx.err = err
		return
	}
	tx.check(itemKey{pk, sk}, n.t.present, &NodeNotFoundError{Side: side, Type: n.typ, ID: id})
}

// TxPut adds to tx an unguarded put of node id's item, as [Node.Put].
func (n *Node[N]) TxPut(tx *Tx, id string, data N) {
	if !tx.sameTable(n.t) {
		return
	}
	item, k, err := n.item(id, data)
	if err != nil {
		tx.err = err
		return
	}
	tx.put(k, item, false, nil)
}

// TxPut adds to tx the guarded put of the edge from → to, as [Edge.Put]; an
// existing edge makes Commit fail with [ErrEdgeExists].
func (e *Edge[E]) TxPut(tx *Tx, from, to string, data E) {
	if !tx.sameTable(e.t) {
		return
	}
	item, k, err := e.item(from, to, data)
	if err != nil {
		tx.err = err
		return
	}
	tx.put(itemKey{k.pk, k.sk}, item, true, e.opErr("Edge.TxPut", k, ErrEdgeExists))
}

// TxDelete adds to tx the guarded delete of the edge from → to; a missing
// edge makes Commit fail with [ErrNotFound].
func (e *Edge[E]) TxDelete(tx *Tx, from, to string) {
	if !tx.sameTable(e.t) {
		return
	}
	k, err := e.keys(from, to)
	if err != nil {
		tx.err = err
		return
	}
	tx.del(itemKey{k.pk, k.sk}, e.opErr("Edge.TxDelete", k, ErrNotFound))
}

// TxPut adds to tx the guarded put of a child, as [Collection.Put]; an
// existing child makes Commit fail with [ErrExists].
func (c *Collection[P, C]) TxPut(tx *Tx, parentID, childID string, data C) {
	if !tx.sameTable(c.t) {
		return
	}
	item, k, err := c.item(parentID, childID, data)
	if err != nil {
		tx.err = err
		return
	}
	tx.put(k, item, true, c.t.opErr("Collection.TxPut", k.pk, k.sk, ErrExists))
}

// TxDelete adds to tx the guarded delete of a child; a missing child makes
// Commit fail with [ErrNotFound].
func (c *Collection[P, C]) TxDelete(tx *Tx, parentID, childID string) {
	if !tx.sameTable(c.t) {
		return
	}
	pk, sk, err := c.Key(parentID, childID)
	if err != nil {
		tx.err = err
		return
	}
	tx.del(itemKey{pk, sk}, c.t.opErr("Collection.TxDelete", pk, sk, ErrNotFound))
}

// PutChecked creates the edge from → to only if both endpoint nodes' items
// exist (referential integrity), in one TransactWriteItems: a
// ConditionCheck attribute_exists(PK) on each node item and the guarded put
// of the edge. It fails, writing nothing, with a [*NodeNotFoundError]
// naming the missing side ("from", "to"; errors.Is [ErrNodeNotFound]),
// with [ErrEdgeExists], or both. For a self-loop (from and to are one node
// item) the node is checked once and a missing node is reported with Side
// "from". Pass TxOptions.Token to make a retried call idempotent.
func (e *Edge[E]) PutChecked(ctx context.Context, from, to string, data E, optFns ...func(*TxOptions)) error {
	tx := NewTx(e.t)
	if e.err != nil {
		tx.err = e.err
	}
	fromNode := &Node[struct{}]{t: e.t, typ: e.fromType, marker: e.fromMarker}
	toNode := &Node[struct{}]{t: e.t, typ: e.toType, marker: e.toMarker}
	fromNode.txCheck(tx, from, "from")
	toNode.txCheck(tx, to, "to")
	e.TxPut(tx, from, to, data)
	return tx.Commit(ctx, optFns...)
}

// Move replaces the edge from → to by newFrom → newTo carrying data, in one
// TransactWriteItems: the guarded delete of the old edge and the guarded
// put of the new one, so readers never see both or neither. It fails,
// changing nothing, with [ErrNotFound] if the old edge is missing and
// [ErrEdgeExists] if the new one exists; moving an edge onto itself is
// [ErrTxLimit] (two actions on one item), before any request.
func (e *Edge[E]) Move(ctx context.Context, from, to, newFrom, newTo string, data E, optFns ...func(*TxOptions)) error {
	tx := NewTx(e.t)
	if e.err != nil {
		tx.err = e.err
	}
	e.TxDelete(tx, from, to)
	e.TxPut(tx, newFrom, newTo, data)
	return tx.Commit(ctx, optFns...)
}
