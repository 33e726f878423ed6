// Package ddbexpr provides the DynamoDB expressions adjlist sends, built
// with the SDK's expression builder.
//
// Reads: a query's key condition (partition key, and the sort key
// condition kept inside an item type's prefix, [CmpOp]; on a native
// index, the typed values of its key attributes), the label filter, the
// projection, and a template per query shape, built once and shared, so
// that a query makes only its values map ([Shape]).
//
// Writes: an update's actions, kept as data ([Op]) and rendered on a
// fresh builder per request; the condition of a write ([Cond]): the guard
// on the partition key, the optimistic-locking version check and the
// caller's conditions, ANDed in that order, and what its failure means
// given the stored item; a handle's Tracking ([Tracking]: the version,
// timestamps and expiry of an item being put, an update's SETs); an
// update checked and assembled ([Write]), with the derived index keys it
// makes stale ([DeriveUpdate]).
//
// Package adjlist's Query, Update, WriteOptions and handles hold the
// data and state the promises; this package knows only attribute names,
// strings, items, values and key templates (internal/keycodec).
// [Cond.Init]'s errors only say why a write is refused; Tracking and
// Write wrap theirs in [errs.ErrInvalidOption] or [errs.ErrKeyAttribute].
package ddbexpr

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// Item is an item as the SDK holds it.
type Item = map[string]types.AttributeValue
