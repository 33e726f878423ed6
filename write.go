package adjlist

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/adjlist/adjlist/internal/ddbexpr"
	"github.com/adjlist/adjlist/internal/send"
)

// WriteOptions configures one single-item write (Put, Replace, Update,
// Delete and TxCheck of nodes, edges, children and entities). The zero
// value adds nothing to the library's guard and sends the write at once.
// docs/writes.md describes conditions, versions, expiry and tokens.
type WriteOptions struct {
	// Tx, when set, adds the write to that transaction instead of sending it
	// (no request; a write keeping an [ItemCounter] still reads the item now),
	// with the same guard, condition, version and expiry; [Tx.Commit] sends
	// it with the others, all or none, and returns what its failure means
	// ([ErrExists], [ErrNotFound], [ErrConditionFailed],
	// [ErrVersionConflict]). The write itself returns the transaction's
	// invalid-action error so far in an [*OpError] (a bad id or option, a
	// second action on one item, a handle of another table, over 100 actions
	// or 4 MB), which Commit returns too, sending nothing; Update returns the
	// zero value of the data. TxCheck refuses it ([ErrInvalidOption]). Default
	// nil. [InTx] sets it.
	Tx *Tx

	// Condition, when set, is a condition of the caller's own (the SDK's
	// expression package) the stored item must meet, ANDed after the guard
	// and version check in one condition expression, e.g.
	// "(attribute_not_exists (#0)) AND (#1 = :0)". When it fails the write
	// returns [ErrConditionFailed], never the guard's [ErrExists] or
	// [ErrNotFound], and errors.As reaches the SDK's
	// *types.ConditionalCheckFailedException with the stored item in Item
	// (ReturnValuesOnConditionCheckFailure ALL_OLD). On a create it is
	// evaluated against no item. Default unset. [If] sets it.
	Condition expression.ConditionBuilder
	// Version is the item version the caller read, for a handle with
	// [Tracking.Version]: the write happens only if the stored item still has
	// it, else fails with [ErrVersionConflict], changing nothing. Update and
	// Delete require it; Replace and TxCheck take it optionally (Replace
	// otherwise expects the version in the data); creates, handles without
	// locking and negative values refuse it ([ErrInvalidOption], before any
	// request). Default 0. [IfVersion] sets it.
	Version int64
	// ExpiresAt, when non-zero, is the item's expiry, written by Put, Replace
	// and Update to the handle's [Tracking.Expiry] attribute in epoch seconds
	// (a Number), overriding [Tracking.Lifetime]. On a handle without
	// Tracking.Expiry it is [ErrInvalidOption], before any request. Default
	// zero: no expiry from this write. [Expires] sets it.
	ExpiresAt time.Time
	// Token, when set, makes the write exactly-once: it is sent as a
	// one-action TransactWriteItems with Token as ClientRequestToken, which
	// DynamoDB applies at most once per token within 10 minutes, so retries
	// with the same token after [ErrOutcomeUnknown] are safe. A token is 1 to
	// 36 characters, e.g. a request id; reusing it for a different request
	// within 10 minutes is [ErrInvalidOption] (errors.As reaches
	// *types.IdempotentParameterMismatchException). It costs twice a plain
	// write's capacity and Update then returns the zero value of the data.
	// Refused with [ErrInvalidOption] before any request: a longer token, with
	// [WriteOptions.Tx] (use [TxOptions.Token]), on TxCheck, and on a write
	// that reads the item first to keep an [ItemCounter]. Default "": a plain
	// PutItem, UpdateItem or DeleteItem.
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
	// child, Type is the child type and ID the ref), with [ErrExists],
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

// Tracking declares what a handle writes on its items besides their data;
// it is embedded in [NodeOptions], [EdgeOptions], [CollectionOptions] and
// [EntityOptions]. The zero value tracks nothing. Attribute names must
// differ from the table's key attributes and each other
// ([ErrInvalidOption] on every call, before any request).
type Tracking struct {
	// Version, when set, names a Number attribute for optimistic locking:
	// creates (Put, PutMany, in a [Tx] too) write 1; Replace writes the
	// expected version plus one, conditioned on the stored one
	// ([WriteOptions.Version], else the data's, else attribute_not_exists);
	// Update adds "SET version = :v+1" conditioned on "version = :v". A stale
	// version fails with [ErrVersionConflict], changing nothing. Reads expose
	// it through a data field of that name, e.g. Version int64
	// `dynamodbav:"version"`; updates may not name it ([ErrInvalidOption]);
	// bulk deletes and cascades do not check it. A retried update that cannot
	// tell its own write reports [ErrVersionConflict] with
	// [ErrOutcomeUnknown]. Default "": no locking.
	Version string

	// CreatedAt, when set, names a String attribute set to the time of
	// creation (UTC, from Clock) by creates, and by Replace when the data
	// carries none. Default "": not written. CreatedAt and UpdatedAt are
	// RFC 3339 in UTC with exactly three fractional digits, e.g.
	// "2026-11-23T04:05:06.789Z" (layout "2006-01-02T15:04:05.000Z"), so
	// that byte order is time order; time.Parse(time.RFC3339, s) reads
	// them.
	CreatedAt string
	// UpdatedAt, when set, names a String attribute set to the time of
	// every write but deletes, in the same request: puts write it in the
	// item, updates add "SET updatedAt = :now". Default "": not written.
	UpdatedAt string
	// Clock returns the time for CreatedAt, UpdatedAt and Lifetime.
	// Default time.Now; tests inject a fixed clock.
	Clock func() time.Time

	// Expiry, when set, names the Number attribute holding an item's expiry in
	// epoch seconds: the table's Time to Live attribute
	// ([CreateTableOptions].TimeToLive). Writes set it from
	// [WriteOptions.ExpiresAt] or Lifetime; a put or Replace with neither
	// writes the expiry the data holds (declare it on the data type, e.g. TTL
	// int64 `dynamodbav:"ttl,omitempty"`, to keep it across Get then Replace).
	// Default "": no expiry.
	Expiry string
	// Lifetime, with Expiry, gives every item put or created (not updated)
	// the expiry Clock() + Lifetime, unless [WriteOptions.ExpiresAt] is set.
	// Default 0.
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

// writeCond is one write's condition ([ddbexpr.Write]) and what each
// failure means.
type writeCond struct {
	ddbexpr.Write
	shared *send.Cond // the table's prebuilt Expr, for the guard alone
	// exists and missing are what a failed guard means (a create finding
	// an item; an update, delete or check finding none).
	exists, missing error
}

// newWriteCond fills w for action a under guard g; dataVersion is a put's
// data's version. The caller owns w, so a single write keeps it on its stack.
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
		case send.TokenLen(o.Token) > send.MaxToken:
			return fmt.Errorf("%w: WriteOptions.Token is %d characters; DynamoDB takes at most %d", ErrInvalidOption, send.TokenLen(o.Token), send.MaxToken)
		}
	}
	if err := w.Init(t.opts.PartitionKey, &tr.Tracking, a, g, o.ExpiresAt, o.Version, dataVersion, o.Condition); err != nil {
		return err
	}
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
	switch {
	case w.shared != nil:
		return *w.shared, nil
	case !w.Expr.IsSet():
		return send.Cond{}, nil
	}
	return newCondition(w.Expr)
}

// writeOptions applies optFns.
func writeOptions(optFns []func(*WriteOptions)) WriteOptions {
	var o WriteOptions
	if err := applyOptions(&o, optFns); err != nil {
		o.err = err
	}
	return o
}
