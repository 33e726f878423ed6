package ddbexpr

import (
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TimeFormat is the layout of the timestamps a handle writes (adjlist's
// Tracking): RFC 3339 in UTC with three fractional digits, so that byte
// order is time order.
const TimeFormat = "2006-01-02T15:04:05.000Z"

// Tracked names the attributes a handle writes on its items besides their
// data; "" is one it does not write.
type Tracked struct {
	Version, CreatedAt, UpdatedAt, Expiry string
}

// Stamp writes what n tracks into an item being put, at time now: version
// 1 on a create, createdAt on a create or when the item has none (a
// read-modify-replace keeps the value read), updatedAt, and the expiry at
// in epoch seconds unless at is zero.
func Stamp(item Item, n Tracked, create bool, now, at time.Time) {
	if n.Version != "" && create {
		item[n.Version] = &types.AttributeValueMemberN{Value: "1"}
	}
	if n.CreatedAt != "" {
		if v, has := item[n.CreatedAt].(*types.AttributeValueMemberS); create || !has || v.Value == "" {
			item[n.CreatedAt] = &types.AttributeValueMemberS{Value: now.UTC().Format(TimeFormat)}
		}
	}
	if n.UpdatedAt != "" {
		item[n.UpdatedAt] = &types.AttributeValueMemberS{Value: now.UTC().Format(TimeFormat)}
	}
	if !at.IsZero() {
		item[n.Expiry] = &types.AttributeValueMemberN{Value: strconv.FormatInt(at.Unix(), 10)}
	}
}
