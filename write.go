package adjlist

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/ddbexpr"
	"github.com/adjlist/adjlist/internal/send"
)

// WriteOptions configures one write of one item: the optFns of every
// single-item write of nodes, edges, children and entities (Put, Replace,
// Update, Delete) and of TxCheck.
// The zero value adds nothing to the library's own guard and sends the
// write at once.
type WriteOptions struct {
	// Tx, when set, adds the write to that transaction instead of sending
	// it: no request is made (ctx is not used; but a write that reads the
	// item first to keep an [ItemCounter] reads it now) and [Tx.Commit] sends it
	// with the transaction's other actions, all or none. The action is
	// the write's own, with the same guard, condition, version and expiry,
	// e.g. for Put the guarded create:
	//
	//	tx := adjlist.NewTx(table)
	//	users.Put(ctx, "ada", ada, adjlist.InTx(tx))
	//	follows.Put(ctx, "ada", "bob", since, adjlist.InTx(tx))
	//	err := tx.Commit(ctx)
	//
	// What the action's failure means ([ErrExists], [ErrEdgeExists],
	// [ErrNotFound], [ErrConditionFailed], [ErrVersionConflict]) is then
	// Commit's error. The write returns the transaction's error so far,
	// in an [*OpError] naming the write (and its keys when the error is
	// its own): an invalid action, this one or an earlier one (a bad id
	// or option, a second action on one item, a handle of another table,
	// more than 100 actions or 4 MB of items), which Commit
	// returns too, sending nothing. Update, with no stored item to return, returns
	// the zero value of the data (an edge's or child's ids as given). A
	// handle's TxCheck takes its Tx as its first argument and refuses this
	// field ([ErrInvalidOption]). Default nil: the write is sent at once.
	// [InTx] sets it.
	Tx *Tx

	// Condition, when set, is a condition of the caller's own, built with
	// the SDK's expression package, that the stored item must meet for the
	// write to happen. It is ANDed after the library's guard and the
	// version check, in one condition expression built by
	// expression.NewBuilder, e.g. for an edge:
	//
	//	(attribute_not_exists (#0)) AND (#1 = :0)
	//
	// (#0 the partition key, #1 and :0 the caller's name and value). When
	// it fails, the write returns [ErrConditionFailed], never the guard's
	// [ErrExists], [ErrEdgeExists] or [ErrNotFound], and errors.As reaches
	// the SDK's *types.ConditionalCheckFailedException, whose Item holds the
	// stored item (ReturnValuesOnConditionCheckFailure ALL_OLD): no second
	// read. A condition on a create is evaluated against no item (the
	// guard requires there is none), so only conditions that hold for a
	// missing item, such as attribute_not_exists, can pass there. Default:
	// unset, no condition of the caller's. [If] sets it.
	Condition expression.ConditionBuilder
	// Version is the version of the item the caller read, for a handle
	// with optimistic locking ([Tracking.Version]): the write happens only
	// if the stored item still has it (the condition "version = :v",
	// version the attribute's name), and otherwise fails with
	// [ErrVersionConflict], changing nothing. Update and Delete require
	// it (non-zero), in a [Tx] too; Update then writes it plus one.
	// Replace takes it optionally: unset, it expects the
	// version in the data (the value read) and, with none there, that no
	// version is stored; either way it writes the expected version plus
	// one. TxCheck takes it optionally. Creates (Put) refuse it, as
	// they always write version 1, and so do handles without locking; a
	// negative Version is refused too (all [ErrInvalidOption], before any
	// request). Default 0. [IfVersion] sets it.
	Version int64
	// ExpiresAt, when non-zero, is the item's expiry, written to the
	// handle's [Tracking.Expiry] attribute in epoch seconds (a Number, as
	// DynamoDB's Time to Live requires) by Put, Replace and Update, in
	// the same request or transaction action; it overrides
	// [Tracking.Lifetime]. On a handle without Tracking.Expiry it is
	// refused with [ErrInvalidOption] before any request. Default: zero,
	// no expiry from this write. [Expires] sets it.
	ExpiresAt time.Time
	// Token, when set, makes the write exactly-once: it is sent as a
	// TransactWriteItems of this one action with Token as its
	// ClientRequestToken, so DynamoDB applies it at most once per token
	// within 10 minutes, and the SDK's retries, and a retry of the call
	// with the same token after [ErrOutcomeUnknown], are safe (a repeat of
	// an applied write succeeds without writing again). After 10 minutes
	// the token is forgotten and the write may apply again. The same token
	// with a different request within 10 minutes fails with
	// [ErrInvalidOption], and errors.As reaches the SDK's
	// *types.IdempotentParameterMismatchException. A token is DynamoDB's
	// for the account and Region, 1 to 36 characters, e.g. a request id.
	// The write keeps its guard, condition, version and expiry, and what
	// their failure means; it costs a transaction's write capacity (twice
	// a plain write's), and Update returns the zero value of the data (a
	// transaction returns no item). Refused with [ErrInvalidOption]
	// before any request: a longer token, a token with [WriteOptions.Tx]
	// (give [TxOptions.Token] to Commit instead), on TxCheck, and on a
	// write that reads the item first to keep an [ItemCounter]. Default "":
	// the write is a plain PutItem, UpdateItem or DeleteItem, and a retry
	// of it by the SDK may apply it again after another caller changed the
	// item in between (a create after another's delete, a delete after
	// another's create), reporting success.
	Token string
	// CheckEnds, on [Edge.Put], creates the edge only if both endpoint
	// items exist (referential integrity), in one TransactWriteItems: a
	// ConditionCheck attribute_exists(PK) on each endpoint's item (a
	// node's item, or a child's item in its collection, e.g. PK =
	// "WS#acme", SK = "PROJ#2026-0042" for the ref
	// "WS#acme#PROJ#2026-0042") and the guarded put of the edge; with
	// [WriteOptions.Tx], the checks and the put join that transaction. It
	// fails, writing nothing, with a [*NodeNotFoundError] naming the
	// missing side ("from", "to"; errors.Is [ErrNodeNotFound]; for a
	// child, Type is the child type and ID the ref), with [ErrEdgeExists],
	// or both. For a self-loop the node is checked once and a missing node
	// is reported with Side "from". Token, when set, is the transaction's
	// ClientRequestToken. Any other write refuses it ([ErrInvalidOption]).
	// Default false: Put checks nothing but the edge itself.
	CheckEnds bool

	err error // a nil option function, refused by the write before any request
}

// InTx returns a write option that adds the write to tx instead of
// sending it (see [WriteOptions.Tx]). A nil tx is refused: the write
// returns [ErrInvalidOption] and sends nothing.
func InTx(tx *Tx) func(*WriteOptions) {
	return func(o *WriteOptions) {
		if tx == nil && o.err == nil {
			o.err = errNilTx
		}
		o.Tx = tx
	}
}

var errNilTx = fmt.Errorf("%w: InTx given a nil Tx", ErrInvalidOption)

// Expires returns a write option that gives the item the expiry at (see
// [WriteOptions.ExpiresAt]).
func Expires(at time.Time) func(*WriteOptions) {
	return func(o *WriteOptions) { o.ExpiresAt = at }
}

// Unexpired returns the filter that leaves out items whose expiry
// attribute name holds an epoch-seconds time at or before now: DynamoDB
// deletes expired items only eventually (typically within a few days), and
// until then reads return them. Pass it to [Query.Filter], e.g.
//
//	posts.List("ada").Filter(adjlist.Unexpired("expiresAt", now))
//
// which sends the filter expression
//
//	(attribute_not_exists (#0)) OR (#0 > :0)
//
// with #0 = expiresAt and :0 = now in epoch seconds: items without an
// expiry are kept. The filtered-out items are still read and billed, and
// [Query.Limit] counts them. A cursor binds the filter's values, so use one
// now for every page of a listing (e.g. the time the listing started,
// carried beside the cursor).
func Unexpired(name string, now time.Time) expression.ConditionBuilder {
	n := expression.Name(name)
	return expression.AttributeNotExists(n).Or(n.GreaterThan(expression.Value(now.Unix())))
}

// TimeFormat is the layout of the timestamps [Tracking] writes: RFC 3339 in
// UTC with exactly three fractional digits, e.g.
// "2026-11-23T04:05:06.789Z", so that byte order is time order (as sort
// keys and index keys compare).
const TimeFormat = ddbexpr.TimeFormat

// If returns a write option that adds cond, built with the SDK's
// expression package, to the write's condition (see
// [WriteOptions.Condition]); several If options are ANDed in order.
func If(cond expression.ConditionBuilder) func(*WriteOptions) {
	return func(o *WriteOptions) {
		if o.Condition.IsSet() {
			o.Condition = o.Condition.And(cond)
		} else {
			o.Condition = cond
		}
	}
}

// IfVersion returns a write option that makes the write conditional on the
// stored item's version being v, the one read (see [WriteOptions.Version]).
func IfVersion(v int64) func(*WriteOptions) {
	return func(o *WriteOptions) { o.Version = v }
}

// Tracking declares what a handle writes on its items besides their data.
// It is embedded in [NodeOptions], [EdgeOptions], [CollectionOptions] and
// [EntityOptions]; the zero value tracks nothing. Attribute names must differ from the
// table's key attributes and from each other ([ErrInvalidOption] on every
// call, before any request).
type Tracking struct {
	// Version, when set, turns on optimistic locking: it names a Number
	// attribute that every write through the handle maintains. A create
	// ([Node.Put], [Edge.Put], [Collection.Put], [Entity.Put], in a [Tx]
	// too, and bulk PutMany) writes 1. Replace ([Node.Replace], [Edge.Replace],
	// [Collection.Replace]) writes the version it expects
	// plus one, conditioned on the stored version being the expected one:
	// [WriteOptions.Version] if set, else the version attribute in the
	// data (the value read), and with none, on there being no stored
	// version (attribute_not_exists(version)). Update adds
	// "SET version = :v+1" conditioned on "version = :v", the
	// [WriteOptions.Version] read, which Update and Delete require. A stale
	// version fails with [ErrVersionConflict] and changes nothing; a
	// transaction with a stale action writes nothing. Reads expose the
	// version through the data: give the data type a field with the
	// attribute's name, e.g. Version int64 `dynamodbav:"version"`.
	// Updates may not name the attribute ([ErrInvalidOption]). Bulk
	// deletes and cascades do not check it. A write whose response was
	// lost after DynamoDB applied it and that the SDK retried succeeds:
	// a put (the stored item is the one written), a delete (no item
	// left), an update whose stored item holds the version it writes and
	// every value it sets; an update the stored item cannot show (an ADD,
	// SetTo, a nested path) reports [ErrVersionConflict] with
	// [ErrOutcomeUnknown]: read the item again to see. Default "": no locking.
	Version string

	// CreatedAt, when set, names a String attribute set to the time of
	// the write ([TimeFormat], UTC, from Clock) when the item is created:
	// by creates ([Node.Put], [Edge.Put], [Collection.Put], [Entity.Put],
	// in a [Tx] too, and PutMany), and by Replace when the data carries no value
	// for it (a read-modify-replace keeps the value read). Updates leave it.
	// Default "": not written.
	CreatedAt string
	// UpdatedAt, when set, names a String attribute set to the time of
	// every write but deletes, in the same request: puts write it in the
	// item, updates add "SET updatedAt = :now". Default "": not written.
	UpdatedAt string
	// Clock returns the time for CreatedAt, UpdatedAt and Lifetime.
	// Default time.Now; tests inject a fixed clock.
	Clock func() time.Time

	// Expiry, when set, names the Number attribute that holds an item's
	// expiry in epoch seconds: the table's Time to Live attribute
	// ([CreateTableOptions].TimeToLive), which DynamoDB uses to delete
	// expired items, eventually. Writes set it from
	// [WriteOptions.ExpiresAt] or Lifetime. A put or Replace with
	// neither writes the expiry the data holds: a data type that declares
	// the attribute (TTL int64 `dynamodbav:"ttl,omitempty"`) keeps the
	// expiry read across Get then Replace; one that does not stores the
	// item without one. Default "": no expiry.
	Expiry string
	// Lifetime, with Expiry, gives every item put or created through the
	// handle (not updated) the expiry Clock() + Lifetime, unless the write
	// sets [WriteOptions.ExpiresAt]. Default 0: no expiry unless given.
	Lifetime time.Duration
}

// tracking is a handle's Tracking, checked ([ddbexpr.Tracking]).
type tracking struct{ ddbexpr.Tracking }

// newTracking checks o's attribute names against t's keys and each other.
func (t *Table) newTracking(o Tracking) (tracking, error) {
	n := ddbexpr.Tracked{Version: o.Version, CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt, Expiry: o.Expiry}
	tr, err := ddbexpr.NewTracking(n, o.Clock, o.Lifetime, t.isKeyAttr)
	return tracking{tr}, err
}

// guardKind is the library's own condition on a write.
type guardKind = ddbexpr.Guard

const (
	guardNone    = ddbexpr.GuardNone    // an overwrite: Replace
	guardAbsent  = ddbexpr.GuardAbsent  // attribute_not_exists(PK): a create
	guardPresent = ddbexpr.GuardPresent // attribute_exists(PK): update, delete, check
)

// action is the kind of a write, for the version rules.
type action = ddbexpr.Action

const (
	actUpdate = ddbexpr.Update
	actDelete = ddbexpr.Delete
	actCheck  = ddbexpr.Check
)

// writeCond is the condition of one write ([ddbexpr.Write]: the
// library's guard, the version check, the caller's condition, an update's
// SETs for the tracking) and what each failure means.
type writeCond struct {
	ddbexpr.Write
	// shared is a prebuilt condition used instead of building Expr (the
	// guard alone, the common case).
	shared *condition
	// exists and missing are what a failed guard means (a create finding
	// an item; an update, delete or check finding none).
	exists, missing error
}

// newWriteCond fills w with the condition of action a with guard g by a
// handle with tracking tr; dataVersion is the version in a put's data. The
// caller owns w, so that a single write keeps it on its stack.
func (t *Table) newWriteCond(w *writeCond, tr *tracking, a action, g guardKind, o *WriteOptions, dataVersion int64) error {
	*w = writeCond{}
	if o.err != nil {
		return o.err
	}
	if o.CheckEnds {
		return fmt.Errorf("%w: WriteOptions.CheckEnds is Edge.Put's", ErrInvalidOption)
	}
	if o.Token != "" {
		switch {
		case o.Tx != nil:
			return fmt.Errorf("%w: WriteOptions.Token on a write in a Tx: give TxOptions.Token to Commit", ErrInvalidOption)
		case a == actCheck:
			return fmt.Errorf("%w: WriteOptions.Token on a TxCheck", ErrInvalidOption)
		case len(o.Token) > send.MaxToken:
			return fmt.Errorf("%w: WriteOptions.Token is %d characters; DynamoDB takes at most %d", ErrInvalidOption, len(o.Token), send.MaxToken)
		}
	}
	if err := w.Init(t.opts.PartitionKey, &tr.Tracking, a, g, o.ExpiresAt, o.Version, dataVersion, o.Condition); err != nil {
		return err
	}
	// The guard alone is the table's prebuilt condition (shared).
	switch {
	case !w.GuardOnly():
	case g == guardAbsent:
		w.shared = &t.absent
	case g == guardPresent:
		w.shared = &t.present
	}
	return nil
}

// built is the condition as request fields, or nil fields with none.
func (w *writeCond) built() (send.Cond, error) {
	c := w.shared
	if c == nil {
		if !w.Expr.IsSet() {
			return send.Cond{}, nil
		}
		built, err := newCondition(w.Expr)
		if err != nil {
			return send.Cond{}, err
		}
		c = &built
	}
	return send.Cond{Expr: c.expr, Names: c.names, Values: c.values}, nil
}

// putCond is the condition of the put of item under guard g by a handle
// tracking tr, with the options o: a failed guard means exists (a create
// finding an item). It writes the version put, if any, into item.
func (t *Table) putCond(w *writeCond, tr *tracking, g guardKind, o *WriteOptions, exists error, item Item) error {
	if err := t.newWriteCond(w, tr, ddbexpr.Put, g, o, ddbexpr.VersionOf(item, tr.Version)); err != nil {
		return err
	}
	w.exists = exists
	w.SetVersion(item)
	return nil
}

// changeCond is the condition of an update, delete or check (a) of an item
// by a handle tracking tr, with the options o (nil: none): the guard
// attribute_exists, whose failure means [ErrNotFound].
func (t *Table) changeCond(tr *tracking, a action, o *WriteOptions) (*writeCond, error) {
	if o == nil {
		o = new(WriteOptions)
	}
	w := new(writeCond)
	if err := t.newWriteCond(w, tr, a, guardPresent, o, 0); err != nil {
		return nil, err
	}
	w.missing = ErrNotFound
	return w, nil
}

// tokened sends the write a of the item (pk, sk) under w as a one-action
// TransactWriteItems with token ([WriteOptions.Token], [send.Tokened]).
func (t *Table) tokened(ctx context.Context, op, pk, sk string, a types.TransactWriteItem, w *writeCond, token string) error {
	if err := send.Tokened(ctx, t.client, a, token, &w.Cond, w.exists, w.missing, callOpts(ctx)); err != nil {
		return t.opErr(op, pk, sk, err)
	}
	return nil
}

// putTokened is the put of item under w with token.
func (t *Table) putTokened(ctx context.Context, op, pk, sk string, item Item, w *writeCond, token string) error {
	err := checkSize(item)
	var c send.Cond
	if err == nil {
		c, err = w.built()
	}
	if err != nil {
		return t.opErr(op, pk, sk, err)
	}
	return t.tokened(ctx, op, pk, sk, send.TxPut(t.tableName, item, send.Cond(c)), w, token)
}

// updateTokened is the update of the item kc under w with token.
func (t *Table) updateTokened(ctx context.Context, op string, it *itemType, kc *keyCtx, update Update, w *writeCond, token string) error {
	expr, _, err := t.buildUpdate(it, kc, update, w)
	if err != nil {
		return t.opErr(op, kc.PK, kc.SK, err)
	}
	c := send.Cond{Expr: expr.Condition(), Names: expr.Names(), Values: expr.Values()}
	return t.tokened(ctx, op, kc.PK, kc.SK, send.TxUpdate(t.tableName, t.keyItem(kc.PK, kc.SK), expr.Update(), c), w, token)
}

// delTokened is the delete of the item (pk, sk) under w with token.
func (t *Table) delTokened(ctx context.Context, op, pk, sk string, w *writeCond, token string) error {
	c, err := w.built()
	if err != nil {
		return t.opErr(op, pk, sk, err)
	}
	return t.tokened(ctx, op, pk, sk, send.TxDelete(t.tableName, t.keyItem(pk, sk), send.Cond(c)), w, token)
}

// writeOptions applies optFns.
func writeOptions(optFns []func(*WriteOptions)) WriteOptions {
	var o WriteOptions
	if err := applyOptions(&o, optFns); err != nil {
		o.err = err
	}
	return o
}
