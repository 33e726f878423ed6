// Package writeexpr builds the expressions of adjlist's single-item
// writes with the SDK's expression package: an update's actions, kept as
// data ([Op]) and rendered on a fresh builder per request, and the
// condition of a write ([Cond]): the guard on the partition key, the
// optimistic-locking version check and the caller's conditions, ANDed in
// that order, and what its failure means given the stored item. It checks
// a handle's Tracking and writes what it tracks ([Tracking]: the version,
// timestamps and expiry of an item being put, an update's SETs), and
// checks and assembles an update ([Write]).
//
// Package adjlist's Update, WriteOptions and handles hold the data and
// state the promises; this package knows only attribute names, items and
// values. [Cond.Init]'s errors only say why a write is refused; Tracking
// and Write wrap theirs in [errs.ErrInvalidOption] or
// [errs.ErrKeyAttribute].
package writeexpr

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// Item is an item as the SDK holds it.
type Item = map[string]types.AttributeValue
