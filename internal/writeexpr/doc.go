// Package writeexpr builds the expressions of adjlist's single-item
// writes with the SDK's expression package: an update's actions, kept as
// data ([Op]) and rendered on a fresh builder per request, and the
// condition of a write ([Cond]): the guard on the partition key, the
// optimistic-locking version check and the caller's conditions, ANDed in
// that order, and what its failure means given the stored item. It also
// writes the version and timestamps a handle tracks into an item being put
// ([Stamp]).
//
// Package adjlist's Update, WriteOptions and handles hold the data and
// state the promises; this package knows only attribute names, items and
// values. Its errors only say why a write is refused: the root package
// wraps every one in adjlist.ErrInvalidOption.
package writeexpr

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// Item is an item as the SDK holds it.
type Item = map[string]types.AttributeValue
