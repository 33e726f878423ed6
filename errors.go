package adjlist

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Sentinel errors, matched with errors.Is. Errors returned by this package
// wrap them, usually inside an [*OpError].
var (
	// ErrInvalidKey reports an id, name or key that cannot form a valid
	// DynamoDB key: empty, not UTF-8, too long, or not produced by this
	// package's codec. Detected before any request is sent; see [KeyError].
	ErrInvalidKey = errs.ErrInvalidKey

	// ErrKeyAttribute reports item data (a node's, an edge's, a child's or
	// an entity's) that would write or update one of the table's key
	// attributes, e.g. a struct field tagged `dynamodbav:"PK"`. Keys are
	// derived from ids, and an entity's from its key fields, never written
	// as data. Detected before any request is sent.
	ErrKeyAttribute = errs.ErrKeyAttribute

	// ErrItemTooLarge reports an item over DynamoDB's 400 KB limit, sized
	// by [ItemSize]. Detected before any request is sent.
	ErrItemTooLarge = errs.ErrItemTooLarge

	// ErrNotFound reports that the item asked for does not exist. A
	// delete whose SDK retry finds no item after an earlier attempt of the
	// same call whose outcome is unknown (its answer lost) deleted it
	// itself and succeeds instead.
	ErrNotFound = errs.ErrNotFound

	// ErrExists reports that a guarded create (the Put of every handle,
	// [Node.Put], alone or via [Tx.Commit]) found its item present
	// (attribute_not_exists failed); the item is unchanged. It also unwraps to
	// the SDK's *types.ConditionalCheckFailedException or, in a transaction,
	// *types.TransactionCanceledException, and wins over a failed condition
	// of the caller's.
	ErrExists = errs.ErrExists

	// ErrConditionFailed reports that the caller's own condition on a write
	// ([If]) evaluated false while the library's guard held: nothing was
	// written. errors.As reaches the SDK's
	// *types.ConditionalCheckFailedException (its Item the stored item) or,
	// in a transaction, *types.TransactionCanceledException.
	ErrConditionFailed = errs.ErrConditionFailed

	// ErrVersionConflict reports a write on a handle with optimistic
	// locking ([Tracking.Version]) whose expected version is not the
	// stored one: another writer got there first. Nothing was written;
	// read the item again and retry. The SDK's exception, reachable with
	// errors.As, holds the stored item.
	ErrVersionConflict = errs.ErrVersionConflict

	// ErrOutcomeUnknown reports a write that failed after some attempt of it
	// ended without a definite answer (a 5xx, a connection reset or timeout
	// after sending, a lost response), so it may have been applied: read the
	// item, or send it again with the same [WriteOptions.Token] or
	// [TxOptions.Token]. It wraps the call's other error. When it does not
	// hold, nothing was written, but for the read that follows a counted
	// Update's transaction ([ItemCounter] with GroupBy): an error of that
	// read comes after the update was applied. A transaction's
	// cancellation answers for every attempt and is never
	// ErrOutcomeUnknown. docs/writes.md ("Errors") explains it.
	ErrOutcomeUnknown = errs.ErrOutcomeUnknown

	// ErrInvalidCursor reports a page cursor that is malformed or belongs to
	// another query (another partition, index or direction).
	ErrInvalidCursor = errs.ErrInvalidCursor

	// ErrIndexConsistentRead reports a request for a strongly consistent read
	// on a global secondary index, which DynamoDB does not support. Detected
	// before any request is sent.
	ErrIndexConsistentRead = errs.ErrIndexConsistentRead

	// ErrUnprocessed reports keys or items that a batch call still left
	// unprocessed after [Options.BatchMaxAttempts] requests; nothing is
	// dropped silently.
	ErrUnprocessed = errs.ErrUnprocessed

	// ErrNotVisible reports that [Edge.WaitIndexed] gave up before the
	// index showed the edge.
	ErrNotVisible = errs.ErrNotVisible

	// ErrNodeNotFound reports that a transaction's check of a node item
	// found none; see [NodeNotFoundError]. It also matches [ErrNotFound].
	ErrNodeNotFound = errs.ErrNodeNotFound

	// ErrTxConflict reports a transaction cancelled because another
	// transaction was changing the same items; see
	// [TxOptions.ConflictRetries].
	ErrTxConflict = errs.ErrTxConflict

	// ErrTxLimit reports a transaction DynamoDB would refuse: more than
	// 100 actions, more than 4 MB of items, or two actions
	// on one item. Detected before any request is sent.
	ErrTxLimit = errs.ErrTxLimit

	// ErrDuplicateKey reports an item that appears twice in one bulk write.
	// Detected before any request is sent.
	ErrDuplicateKey = errs.ErrDuplicateKey

	// ErrInvalidOption reports an option value that cannot work, such as a
	// negative limit or an empty table name. Detected before any request is
	// sent.
	ErrInvalidOption = errs.ErrInvalidOption
)

// OpError records a failed operation with the table and key it concerned.
// Err is the cause: one of this package's sentinels, a [*KeyError], an error
// from attributevalue or expression, or the SDK's error (reachable with
// errors.As, e.g. *types.ConditionalCheckFailedException or
// smithy.APIError), or several of them joined. When DynamoDB throttled
// the request, Err is a [*ThrottlingError] around the SDK's error (for a
// transaction, one of the errors joined), for errors.As.
type OpError struct {
	// Op names the operation, e.g. "Edge.Put", or "Edge.From" for a run
	// of the query [Edge.From] built.
	Op string
	// Table is the DynamoDB table name.
	Table string
	// PK and SK are the key values of the item, or the partition key value
	// (and sort key prefix) of a query; empty when not yet known.
	PK, SK string
	// Index is the secondary index read, if any.
	Index string
	// Err is the underlying error.
	Err error
	// Failed, for a transaction DynamoDB cancelled ([Tx.Commit], and
	// the calls that commit one: [Edge.Put] with CheckEnds, [Edge.Move], a
	// write counted by an [ItemCounter]), lists the actions whose condition
	// failed, in the order added: each an *OpError naming its write (Op,
	// e.g. "Node.Update"), its item's PK and SK, and in Err its own error
	// ([ErrVersionConflict], [ErrNotFound], a [*NodeNotFoundError], ...),
	// to tell which action failed for which reason. nil for any other
	// error.
	Failed []*OpError
}

// Error formats the operation, table, index and keys, then the cause.
func (e *OpError) Error() string { return e.format(e.Err.Error()) }

// format is Error with the cause's text given (a span's, trace.go).
func (e *OpError) format(cause string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "adjlist: %s %s", e.Op, e.Table)
	if e.Index != "" {
		fmt.Fprintf(&b, " index %s", e.Index)
	}
	if e.PK != "" {
		fmt.Fprintf(&b, " %q", e.PK)
	}
	if e.SK != "" {
		fmt.Fprintf(&b, " %q", e.SK)
	}
	b.WriteString(": ")
	b.WriteString(strings.TrimPrefix(cause, "adjlist: "))
	return b.String()
}

// Unwrap returns the underlying error.
func (e *OpError) Unwrap() error { return e.Err }

// isConditionFailed reports whether err says that a condition expression
// evaluated false, alone or as a cancelled transaction's reason.
func isConditionFailed(err error) bool {
	var ccf *types.ConditionalCheckFailedException
	codes, _ := cancelCodes(err)
	return errors.As(err, &ccf) || slices.Contains(codes, "ConditionalCheckFailed")
}

// cancelCodes returns a cancelled transaction's reason codes, one per
// action ("" or "None" for one that did not fail); ok is false otherwise.
func cancelCodes(err error) (codes []string, ok bool) {
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		return nil, false
	}
	codes = make([]string, len(tce.CancellationReasons))
	for i, r := range tce.CancellationReasons {
		codes[i] = aws.ToString(r.Code)
	}
	return codes, true
}

// transient reports whether a cancellation reason code is one a retry may
// clear: none, a conflict with another transaction, or throttling. Tx
// and Migrate's moves both judge a cancellation by it.
func transient(code string) bool {
	switch code {
	case "", "None", "TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded":
		return true
	}
	return false
}
