package adjlist

import (
	"context"
	"errors"
	"fmt"
	"maps"

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
		equalItems(ca.ExpressionAttributeValues, cb.ExpressionAttributeValues)
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
// means — [ErrEdgeExists] or [ErrExists] for a guarded put, [ErrNotFound]
// for a guarded update or delete, a [*NodeNotFoundError] (errors.Is
// [ErrNodeNotFound]) for a node check, [ErrVersionConflict] for a stale
// version, [ErrConditionFailed] for a condition of the caller's (told
// apart from the guard with the stored item each failed action returns,
// ALL_OLD), [ErrTxConflict] for a conflict — with the SDK's
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
		switch code := aws.ToString(r.Code); {
		case code == "ConditionalCheckFailed":
			retryable = false
			if i < len(tx.onFail) {
				causes = append(causes, tx.onFail[i](r.Item))
			}
		case code == "TransactionConflict":
			causes = append(causes, ErrTxConflict)
		case !transient(code):
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

// TxCheck adds to tx a check that node id's item exists (ConditionCheck
// "attribute_exists (#0)"), ANDed with a condition of the caller's ([If])
// and, on a handle with [Tracking.Version], the version given
// ([IfVersion], optional here). If the item is missing Commit fails with a
// [*NodeNotFoundError]; if the caller's condition fails, with
// [ErrConditionFailed]; if the version is stale, [ErrVersionConflict].
func (n *Node[N]) TxCheck(tx *Tx, id string, optFns ...func(*WriteOptions)) {
	if !tx.sameTable(n.t) {
		return
	}
	pk, sk, w, err := n.changeCond(actCheck, id, optFns)
	if tx.setErr(err) {
		return
	}
	w.missing = &NodeNotFoundError{Type: n.typ, ID: id}
	tx.check("Node.TxCheck", itemKey{pk, sk}, w)
}

// TxPut adds to tx the guarded create of node id's item, as [Node.Put]; an
// existing item makes Commit fail with [ErrExists].
func (n *Node[N]) TxPut(tx *Tx, id string, data N, optFns ...func(*WriteOptions)) {
	n.txPut(tx, "Node.TxPut", guardAbsent, id, data, optFns)
}

// TxReplace adds to tx the overwrite of node id's item, as [Node.Replace],
// with its options: a condition of the caller's ([ErrConditionFailed]) and
// the version check ([ErrVersionConflict]).
func (n *Node[N]) TxReplace(tx *Tx, id string, data N, optFns ...func(*WriteOptions)) {
	n.txPut(tx, "Node.TxReplace", guardNone, id, data, optFns)
}

func (n *Node[N]) txPut(tx *Tx, op string, g guardKind, id string, data N, optFns []func(*WriteOptions)) {
	if !tx.sameTable(n.t) {
		return
	}
	w := new(writeCond) // the Tx keeps it until Commit
	item, k, err := n.putItem(w, g, id, data, optFns)
	if tx.setErr(err) {
		return
	}
	tx.put(op, k, item, w)
}

// TxUpdate adds to tx the update of node id's existing item, as
// [Node.Update]: UpdateExpression with the derived index keys that follow
// from it and the version, condition "attribute_exists (#0)" ANDed with
// the version check and the caller's condition. A missing item makes
// Commit fail with [ErrNotFound]; bad updates are the Tx's error.
func (n *Node[N]) TxUpdate(tx *Tx, id string, update Update, optFns ...func(*WriteOptions)) {
	if !tx.sameTable(n.t) {
		return
	}
	pk, sk, w, err := n.changeCond(actUpdate, id, optFns)
	if tx.setErr(err) {
		return
	}
	tx.update("Node.TxUpdate", &n.it, n.keyCtx(pk, sk), update, w)
}

// TxDelete adds to tx the guarded delete of node id's item, as
// [Node.Delete]; a missing item makes Commit fail with [ErrNotFound].
func (n *Node[N]) TxDelete(tx *Tx, id string, optFns ...func(*WriteOptions)) {
	if !tx.sameTable(n.t) {
		return
	}
	pk, sk, w, err := n.changeCond(actDelete, id, optFns)
	if tx.setErr(err) {
		return
	}
	tx.del("Node.TxDelete", itemKey{pk, sk}, w)
}

// TxPut adds to tx the guarded put of the edge from → to, as [Edge.Put]; an
// existing edge makes Commit fail with [ErrEdgeExists], a failed condition
// of the caller's with [ErrConditionFailed].
func (e *Edge[E]) TxPut(tx *Tx, from, to string, data E, optFns ...func(*WriteOptions)) {
	e.txPut(tx, "Edge.TxPut", guardAbsent, from, to, data, optFns)
}

// TxReplace adds to tx the overwrite of the edge from → to, as
// [Edge.Replace].
func (e *Edge[E]) TxReplace(tx *Tx, from, to string, data E, optFns ...func(*WriteOptions)) {
	e.txPut(tx, "Edge.TxReplace", guardNone, from, to, data, optFns)
}

func (e *Edge[E]) txPut(tx *Tx, op string, g guardKind, from, to string, data E, optFns []func(*WriteOptions)) {
	if !tx.sameTable(e.t) {
		return
	}
	w := new(writeCond) // the Tx keeps it until Commit
	item, k, err := e.putItem(w, g, from, to, data, optFns)
	if tx.setErr(err) {
		return
	}
	tx.put(op, itemKey{k.pk, k.sk}, item, w)
}

// TxUpdate adds to tx the update of the existing edge from → to, as
// [Edge.Update]; a missing edge makes Commit fail with [ErrNotFound].
func (e *Edge[E]) TxUpdate(tx *Tx, from, to string, update Update, optFns ...func(*WriteOptions)) {
	if !tx.sameTable(e.t) {
		return
	}
	k, w, err := e.changeCond(actUpdate, from, to, optFns)
	if tx.setErr(err) {
		return
	}
	tx.update("Edge.TxUpdate", &e.it, e.keyCtx(k), update, w)
}

// TxDelete adds to tx the guarded delete of the edge from → to, as
// [Edge.Delete]; a missing edge makes Commit fail with [ErrNotFound].
func (e *Edge[E]) TxDelete(tx *Tx, from, to string, optFns ...func(*WriteOptions)) {
	if !tx.sameTable(e.t) {
		return
	}
	k, w, err := e.changeCond(actDelete, from, to, optFns)
	if tx.setErr(err) {
		return
	}
	tx.del("Edge.TxDelete", itemKey{k.pk, k.sk}, w)
}

// TxCheck adds to tx a check that the edge from → to exists (ConditionCheck
// "attribute_exists (#0)"), ANDed with a condition of the caller's ([If])
// and the version ([IfVersion], optional). A missing edge makes Commit
// fail with [ErrNotFound], a failed condition with [ErrConditionFailed], a
// stale version with [ErrVersionConflict].
func (e *Edge[E]) TxCheck(tx *Tx, from, to string, optFns ...func(*WriteOptions)) {
	if !tx.sameTable(e.t) {
		return
	}
	k, w, err := e.changeCond(actCheck, from, to, optFns)
	if tx.setErr(err) {
		return
	}
	tx.check("Edge.TxCheck", itemKey{k.pk, k.sk}, w)
}

// TxPut adds to tx the guarded put of a child, as [Collection.Put]; an
// existing child makes Commit fail with [ErrExists], a failed condition of
// the caller's with [ErrConditionFailed].
func (c *Collection[P, C]) TxPut(tx *Tx, parentID, childID string, data C, optFns ...func(*WriteOptions)) {
	c.txPut(tx, "Collection.TxPut", guardAbsent, parentID, childID, data, optFns)
}

// TxReplace adds to tx the overwrite of a child, as [Collection.Replace].
func (c *Collection[P, C]) TxReplace(tx *Tx, parentID, childID string, data C, optFns ...func(*WriteOptions)) {
	c.txPut(tx, "Collection.TxReplace", guardNone, parentID, childID, data, optFns)
}

func (c *Collection[P, C]) txPut(tx *Tx, op string, g guardKind, parentID, childID string, data C, optFns []func(*WriteOptions)) {
	if !tx.sameTable(c.t) {
		return
	}
	w := new(writeCond) // the Tx keeps it until Commit
	item, k, err := c.putItem(w, g, parentID, childID, data, optFns)
	if tx.setErr(err) {
		return
	}
	tx.put(op, k, item, w)
}

// TxUpdate adds to tx the update of an existing child, as
// [Collection.Update]; a missing child makes Commit fail with
// [ErrNotFound].
func (c *Collection[P, C]) TxUpdate(tx *Tx, parentID, childID string, update Update, optFns ...func(*WriteOptions)) {
	if !tx.sameTable(c.t) {
		return
	}
	pk, sk, w, err := c.changeCond(actUpdate, parentID, childID, optFns)
	if tx.setErr(err) {
		return
	}
	tx.update("Collection.TxUpdate", &c.it, c.keyCtx(pk, sk), update, w)
}

// TxDelete adds to tx the guarded delete of a child, as
// [Collection.Delete]; a missing child makes Commit fail with
// [ErrNotFound].
func (c *Collection[P, C]) TxDelete(tx *Tx, parentID, childID string, optFns ...func(*WriteOptions)) {
	if !tx.sameTable(c.t) {
		return
	}
	pk, sk, w, err := c.changeCond(actDelete, parentID, childID, optFns)
	if tx.setErr(err) {
		return
	}
	tx.del("Collection.TxDelete", itemKey{pk, sk}, w)
}

// TxCheck adds to tx a check that a child exists (ConditionCheck
// "attribute_exists (#0)"), ANDed with a condition of the caller's ([If])
// and the version ([IfVersion], optional). A missing child makes Commit
// fail with [ErrNotFound], a failed condition with [ErrConditionFailed], a
// stale version with [ErrVersionConflict].
func (c *Collection[P, C]) TxCheck(tx *Tx, parentID, childID string, optFns ...func(*WriteOptions)) {
	if !tx.sameTable(c.t) {
		return
	}
	pk, sk, w, err := c.changeCond(actCheck, parentID, childID, optFns)
	if tx.setErr(err) {
		return
	}
	tx.check("Collection.TxCheck", itemKey{pk, sk}, w)
}

// PutChecked creates the edge from → to only if both endpoint items exist
// (referential integrity), in one TransactWriteItems: a ConditionCheck
// attribute_exists(PK) on each endpoint's item (a node's item, or a child's
// item in its collection, e.g. PK = "WS#acme", SK = "PROJ#2026-0042" for
// the ref "WS#acme#PROJ#2026-0042") and the guarded put of the edge. It
// fails, writing nothing, with a [*NodeNotFoundError] naming the missing
// side ("from", "to"; errors.Is [ErrNodeNotFound]; for a child, Type is
// the child type and ID the ref),
// with [ErrEdgeExists], or both. For a self-loop (from and to are one node
// item) the node is checked once and a missing node is reported with Side
// "from". Pass TxOptions.Token to make a retried call idempotent.
func (e *Edge[E]) PutChecked(ctx context.Context, from, to string, data E, optFns ...func(*TxOptions)) error {
	tx := NewTx(e.t)
	if e.err != nil {
		tx.err = e.err
	}
	e.src.txCheck(tx, from, "from")
	e.dst.txCheck(tx, to, "to")
	e.TxPut(tx, from, to, data)
	return tx.Commit(ctx, optFns...)
}

// txCheck adds to tx a check that endpoint id's item exists: the node
// item, or the child item in its collection. It is [Node.TxCheck] with no
// options for an endpoint of either kind, whose [*NodeNotFoundError] names
// side.
func (p endpoint) txCheck(tx *Tx, id, side string) {
	pk, sk, err := p.item(id)
	var w *writeCond
	if err == nil {
		w, err = p.t.changeCond(&tracking{}, actCheck, nil)
	}
	if tx.setErr(err) {
		return
	}
	w.missing = p.missing(side, id)
	tx.check("Edge.PutChecked", itemKey{pk, sk}, w)
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
