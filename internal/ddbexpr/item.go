// Package ddbexpr builds the DynamoDB expressions adjlist sends, with the
// SDK's expression builder: a query's key condition, filter and
// projection, built once per query shape and shared ([Shape]); an
// update's actions kept as data ([Op]); a write's condition and what its
// failure means ([Cond]); a handle's tracked attributes ([Tracking]); and
// the derived index keys an update makes stale ([DeriveUpdate]).
package ddbexpr

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// Item is an item as the SDK holds it.
type Item = map[string]types.AttributeValue
