package ddbexpr

import (
	"testing"
	"time"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNewTracking: names that are key attributes or given twice, a
// negative lifetime and a lifetime without an expiry are refused with
// errs.ErrInvalidOption.
func TestNewTracking(t *testing.T) {
	t.Parallel()
	isKey := func(name string) bool { return name == "PK" }
	for _, tc := range []struct {
		name     string
		n        Tracked
		lifetime time.Duration
		msg      string // "" accepted
	}{
		{name: "all", n: Tracked{Version: "v", CreatedAt: "c", UpdatedAt: "u", Expiry: "ttl"}, lifetime: time.Hour},
		{name: "key attribute", n: Tracked{UpdatedAt: "PK"}, msg: `adjlist: invalid option: Tracking.UpdatedAt "PK" is a key attribute`},
		{name: "twice", n: Tracked{Version: "x", Expiry: "x"}, msg: `adjlist: invalid option: Tracking.Version and Expiry are both "x"`},
		{name: "negative lifetime", n: Tracked{Expiry: "ttl"}, lifetime: -time.Second, msg: "adjlist: invalid option: Tracking.Lifetime -1s"},
		{name: "lifetime without expiry", lifetime: time.Hour, msg: "adjlist: invalid option: Tracking.Lifetime without Tracking.Expiry"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tr, err := NewTracking(tc.n, nil, tc.lifetime, isKey)
			assert.NotNil(t, tr.Clock, "a nil clock is time.Now")
			if tc.msg == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, errs.ErrInvalidOption)
			assert.EqualError(t, err, tc.msg)
		})
	}
}

// TestTrackingWrites: a put stamps the lifetime's expiry unless the write
// gives one; an update SETs updatedAt and only a given expiry; an expiry
// on a handle without the attribute is refused.
func TestTrackingWrites(t *testing.T) {
	t.Parallel()
	now := time.Unix(1700000000, 0)
	clock := func() time.Time { return now }
	tr, err := NewTracking(Tracked{UpdatedAt: "u", Expiry: "ttl"}, clock, time.Hour, func(string) bool { return false })
	require.NoError(t, err)
	item := Item{}
	require.NoError(t, tr.Stamp(item, true, time.Time{}))
	assert.Equal(t, &types.AttributeValueMemberN{Value: "1700003600"}, item["ttl"])
	require.NoError(t, tr.Stamp(item, true, time.Unix(1800000000, 0)))
	assert.Equal(t, &types.AttributeValueMemberN{Value: "1800000000"}, item["ttl"])

	sets, err := tr.UpdateSets(time.Time{})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"u": "2023-11-14T22:13:20.000Z"}, sets)
	sets, err = tr.UpdateSets(time.Unix(1800000000, 0))
	require.NoError(t, err)
	assert.Equal(t, int64(1800000000), sets["ttl"])

	var none Tracking
	require.ErrorIs(t, none.Stamp(Item{}, true, now), errs.ErrInvalidOption)
	require.NoError(t, none.Stamp(Item{}, true, time.Time{}))
	sets, err = none.UpdateSets(time.Time{})
	require.NoError(t, err)
	assert.Nil(t, sets)
	assert.True(t, tr.Maintained("u"))
	assert.False(t, tr.Maintained("ttl"), "updates may set the expiry")
}
