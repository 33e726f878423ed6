package adjlist

import (
	"fmt"
	"strings"

	"github.com/adjlist/adjlist/internal/send"
)

// ThrottlingError reports a request DynamoDB throttled, with what
// DynamoDB and adjlist know of where: the table or index, DynamoDB's
// reason and, when the request was for one partition, its key and the
// item type. errors.As finds it inside the [*OpError] of any call whose
// request was throttled past the SDK's retries, and it wraps the SDK's
// error, so errors.As still reaches *types.ProvisionedThroughputExceededException,
// *types.RequestLimitExceeded, *types.ThrottlingException or
// *types.TransactionCanceledException. A hot partition (one partition key
// value over the 3,000 read or 1,000 write units a second a partition
// serves) is spread by [EdgeOptions].Shards or [CollectionOptions].Shards,
// not by more capacity; docs/operations.md ("Throttling") shows it in use.
type ThrottlingError struct {
	// Reason is DynamoDB's throttling reason, ResourceType +
	// OperationType + LimitType: Table or Index; Read or Write;
	// KeyRangeThroughputExceeded (a hot partition),
	// ProvisionedThroughputExceeded, AccountLimitExceeded or
	// MaxOnDemandThroughputExceeded. E.g.
	// "IndexReadKeyRangeThroughputExceeded",
	// "TableWriteMaxOnDemandThroughputExceeded". When DynamoDB lists
	// several reasons it is the first (the SDK's exception has them all);
	// when it gives none, the error's code
	// ("ProvisionedThroughputExceededException", "RequestLimitExceeded",
	// "ThrottlingException") or, for an action of a cancelled
	// transaction, its cancellation code ("ThrottlingError",
	// "ProvisionedThroughputExceeded").
	Reason string
	// Resource is the ARN of the throttled table or index as DynamoDB
	// gave it with Reason, e.g.
	// "arn:aws:dynamodb:eu-west-1:123456789012:table/school/index/GSI1";
	// empty when it gave none.
	Resource string
	// Table is the table's name.
	Table string
	// Index is the secondary index throttled: the one Resource names,
	// else, when DynamoDB names none, the index the request read (a
	// query of [Edge.To] or ByIndex); empty for the table itself or when
	// not known (a write throttled without a reason).
	Index string
	// PK is the partition key value the request was for: the item's for
	// a single-item request or a transaction's action, the partition
	// read for a query (on an index, the index partition: "CRS#math204"
	// for [Edge.To]; a sharded read's key without its shard suffix).
	// Empty for a batch request, which spans partitions.
	PK string
	// ItemType names the item type the request was for as [Table.TypeOf]
	// and [Describe] do ("edge ENROLL (STU → CRS)", "node STU"): the
	// item's for a single-item request or a transaction's action, the
	// type a handle's query reads. Empty when the table records no type
	// for the key, or the request spans types (a batch, [AllTypes],
	// [LoadNode]).
	ItemType string
	// HotPartition is true when DynamoDB throttled one partition key
	// value (a KeyRangeThroughputExceeded Reason): the case
	// [EdgeOptions].Shards and [CollectionOptions].Shards are for.
	HotPartition bool
	// Err is the SDK's error.
	Err error
}

// Error names the reason and what is known of where, then the SDK's
// error.
func (e *ThrottlingError) Error() string {
	cause := ""
	if e.Err != nil {
		cause = e.Err.Error()
	}
	return e.format(cause)
}

// format is Error with the SDK error's text given (a span's, trace.go).
func (e *ThrottlingError) format(cause string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "adjlist: throttled (%s) on %s", e.Reason, e.Table)
	if e.Index != "" {
		fmt.Fprintf(&b, " index %s", e.Index)
	}
	if e.PK != "" {
		fmt.Fprintf(&b, " partition %q", e.PK)
	}
	if e.ItemType != "" {
		fmt.Fprintf(&b, " (%s)", e.ItemType)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(cause)
	}
	return b.String()
}

// Unwrap returns the SDK's error.
func (e *ThrottlingError) Unwrap() error { return e.Err }

// isHot reports whether reason is a KeyRangeThroughputExceeded one.
func isHot(reason string) bool { return strings.HasSuffix(reason, "KeyRangeThroughputExceeded") }

// isThrottlingError is send.IsMapped: a *ThrottlingError already says
// where, and send.Of does not look inside it.
func isThrottlingError(err error) bool { _, ok := err.(*ThrottlingError); return ok }

// throttled returns err inside a *ThrottlingError when err reports
// throttling and holds none yet: sk is empty for a partition's request, and
// kind, the item type, when "" is named from pk and sk.
func (t *Table) throttled(err error, pk, sk, index, kind string) error {
	w, ok := send.Of(err, isThrottlingError)
	if !ok {
		return err
	}
	te := &ThrottlingError{Reason: w.Reason, Resource: w.Resource, Table: t.name, Index: index, PK: pk, HotPartition: isHot(w.Reason), Err: err}
	if w.Table != "" {
		te.Table, te.Index = w.Table, w.Index
	}
	if kind != "" {
		te.ItemType = t.typeName(kind)
	}
	if te.ItemType == "" && pk != "" && sk != "" {
		te.ItemType, _ = t.TypeOf(t.keyItem(pk, sk))
	}
	return te
}

// typeName is the recorded name of an itemType's kind, as [Table.TypeOf]
// names it, e.g. "edge ENROLL (STU → CRS)".
func (t *Table) typeName(kind string) string {
	for _, r := range t.recordedTypes() {
		if r.id == kind || r.Name == kind {
			return r.Name
		}
	}
	return kind
}

// throttledActions returns a *ThrottlingError for each action of a
// cancelled transaction that DynamoDB throttled, naming its item's
// partition and type from key.
func (t *Table) throttledActions(err error, key func(i int) Item) []error {
	codes, _ := cancelCodes(err)
	var out []error
	for i, code := range codes {
		if !send.Code(code) {
			continue
		}
		te := &ThrottlingError{Reason: code, Table: t.name, HotPartition: isHot(code), Err: err}
		if k := key(i); k != nil {
			te.PK, _ = t.keyText(k, t.opts.PartitionKey)
			sk, _ := t.keyText(k, t.opts.SortKey)
			te.ItemType, _ = t.TypeOf(t.keyItem(te.PK, sk))
		}
		out = append(out, te)
	}
	return out
}
