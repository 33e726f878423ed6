package ddbexpr

import (
	"testing"
	"time"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWriteUpdate: an update's actions are checked, then get the version
// and the tracking's SETs in name order, and build with the condition;
// the caller's actions are not changed.
func TestWriteUpdate(t *testing.T) {
	t.Parallel()
	enc := attributevalue.NewEncoder()
	isKey := func(name string) bool { return name == "PK" }
	tr, err := NewTracking(Tracked{Version: "v", UpdatedAt: "u", Expiry: "ttl"}, func() time.Time { return time.Unix(0, 0) }, 0, isKey)
	require.NoError(t, err)
	var w Write
	require.NoError(t, w.Init("PK", &tr, Update, GuardPresent, time.Unix(10, 0), 2, 0, expression.ConditionBuilder{}))
	ops := []Op{{Kind: OpSet, Path: "status", Value: "A"}}
	all, err := w.UpdateOps(ops, enc, isKey, []string{"org"})
	require.NoError(t, err)
	assert.Len(t, ops, 1)
	assert.Equal(t, []string{"status", "v", "ttl", "u"}, []string{all[0].Path, all[1].Path, all[2].Path, all[3].Path})
	expr, err := w.BuildUpdate("PK", all, enc)
	require.NoError(t, err)
	assert.Equal(t, "(attribute_exists (#0)) AND (#1 = :0)", *expr.Condition())

	for _, tc := range []struct {
		name string
		ops  []Op
		want error
	}{
		{"empty", nil, errs.ErrInvalidOption},
		{"key attribute", []Op{{Kind: OpRemove, Path: "PK"}}, errs.ErrKeyAttribute},
		{"held by the keys", []Op{{Kind: OpSet, Path: "org", Value: "x"}}, errs.ErrKeyAttribute},
		{"maintained", []Op{{Kind: OpSet, Path: "u", Value: "x"}}, errs.ErrInvalidOption},
	} {
		_, err := w.UpdateOps(tc.ops, enc, isKey, []string{"org"})
		require.ErrorIs(t, err, tc.want, tc.name)
	}
	require.ErrorIs(t, w.Init("PK", &tr, Delete, GuardPresent, time.Unix(10, 0), 2, 0, expression.ConditionBuilder{}), errs.ErrInvalidOption)
}
