package ddbexpr

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStamp: a create gets version 1 and both timestamps; a replace keeps
// a createdAt read and an untracked attribute is not written.
func TestStamp(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 4, 5, 6, 789e6, time.FixedZone("x", 3600))
	at := time.Unix(1800000000, 0)
	n := Tracked{Version: "v", CreatedAt: "c", UpdatedAt: "u", Expiry: "ttl"}
	clock := func() time.Time { return now }
	item := Item{}
	tr := Tracking{Tracked: n, Clock: clock}
	require.NoError(t, tr.Stamp(item, true, at))
	assert.Equal(t, Item{
		"v":   &types.AttributeValueMemberN{Value: "1"},
		"c":   &types.AttributeValueMemberS{Value: "2026-11-23T03:05:06.789Z"},
		"u":   &types.AttributeValueMemberS{Value: "2026-11-23T03:05:06.789Z"},
		"ttl": &types.AttributeValueMemberN{Value: "1800000000"},
	}, item)

	read := &types.AttributeValueMemberS{Value: "2020-01-01T00:00:00.000Z"}
	item = Item{"c": read}
	tr = Tracking{Tracked: Tracked{CreatedAt: "c"}, Clock: clock}
	require.NoError(t, tr.Stamp(item, false, time.Time{}))
	assert.Equal(t, Item{"c": read}, item)
}
