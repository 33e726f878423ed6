package ddbexpr

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCondInit: the guard, the version check and the caller's condition
// are ANDed in that order; the version written follows the action; a
// version the action cannot take is refused.
func TestCondInit(t *testing.T) {
	t.Parallel()
	user := expression.Name("status").Equal(expression.Value("A"))
	for _, tc := range []struct {
		name      string
		a         Action
		g         Guard
		version   string
		opt, data int64
		user      bool
		want      string // the built condition, "" for the guard alone or none
		next      int64
		guardOnly bool
		refused   bool
	}{
		{name: "create", a: Put, g: GuardAbsent, guardOnly: true},
		{name: "versioned create writes 1", a: Put, g: GuardAbsent, version: "v", next: 1, guardOnly: true},
		{name: "create with the caller's", a: Put, g: GuardAbsent, user: true, want: "(attribute_not_exists (#0)) AND (#1 = :0)"},
		{name: "replace expects the data's", a: Put, g: GuardNone, version: "v", data: 3, want: "#0 = :0", next: 4},
		{name: "replace of none", a: Put, g: GuardNone, version: "v", want: "attribute_not_exists (#0)", next: 1},
		{name: "replace, option over data", a: Put, g: GuardNone, version: "v", opt: 7, data: 3, want: "#0 = :0", next: 8},
		{name: "update", a: Update, g: GuardPresent, version: "v", opt: 2, want: "(attribute_exists (#0)) AND (#1 = :0)", next: 3},
		{name: "update, version and caller's", a: Update, g: GuardPresent, version: "v", opt: 2, user: true, want: "((attribute_exists (#0)) AND (#1 = :0)) AND (#2 = :1)", next: 3},
		{name: "delete writes none", a: Delete, g: GuardPresent, version: "v", opt: 2, want: "(attribute_exists (#0)) AND (#1 = :0)"},
		{name: "check without version", a: Check, g: GuardPresent, version: "v", guardOnly: true},
		{name: "unguarded caller's", a: Put, g: GuardNone, user: true, want: "#0 = :0"},
		{name: "negative", a: Update, g: GuardPresent, version: "v", opt: -1, refused: true},
		{name: "untracked", a: Update, g: GuardPresent, opt: 1, refused: true},
		{name: "version on a create", a: Put, g: GuardAbsent, version: "v", opt: 1, refused: true},
		{name: "update needs it", a: Update, g: GuardPresent, version: "v", refused: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var u expression.ConditionBuilder
			if tc.user {
				u = user
			}
			var c Cond
			err := c.Init("PK", tc.a, tc.g, tc.version, tc.opt, tc.data, u)
			if tc.refused {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.next, c.Next)
			assert.Equal(t, tc.guardOnly, c.GuardOnly())
			if tc.want == "" {
				assert.False(t, c.Expr.IsSet())
				return
			}
			e, err := expression.NewBuilder().WithCondition(c.Condition("PK")).Build()
			require.NoError(t, err)
			assert.Equal(t, tc.want, *e.Condition())
		})
	}
}

// TestCondition: the guard alone is built only when asked for, on the
// partition key named.
func TestCondition(t *testing.T) {
	t.Parallel()
	var c Cond
	require.NoError(t, c.Init("PK", Delete, GuardPresent, "", 0, 0, expression.ConditionBuilder{}))
	e, err := expression.NewBuilder().WithCondition(c.Condition("PK")).Build()
	require.NoError(t, err)
	assert.Equal(t, "attribute_exists (#0)", *e.Condition())
	assert.Equal(t, map[string]string{"#0": "PK"}, e.Names())
	require.NoError(t, c.Init("PK", Put, GuardNone, "", 0, 0, expression.ConditionBuilder{}))
	assert.False(t, c.Condition("PK").IsSet(), "an unversioned overwrite has no condition")
}

// TestClassify: what a failed condition means, from the stored item.
func TestClassify(t *testing.T) {
	t.Parallel()
	v := func(n string) Item { return Item{"v": &types.AttributeValueMemberN{Value: n}} }
	user := expression.Name("s").Equal(expression.Value(1))
	for _, tc := range []struct {
		name string
		a    Action
		g    Guard
		opt  int64
		user bool
		old  Item
		want Failure
	}{
		{"guard alone, create", Put, GuardAbsent, 0, false, nil, Exists},
		{"guard alone, update", Update, GuardPresent, 0, false, v("1"), Missing},
		{"create found an item", Put, GuardAbsent, 0, true, v("1"), Exists},
		{"update found none", Update, GuardPresent, 2, false, nil, Missing},
		{"stale version", Update, GuardPresent, 2, true, v("3"), VersionConflict},
		{"version holds, caller's failed", Update, GuardPresent, 2, true, v("2"), ConditionFailed},
		{"caller's failed on a create", Put, GuardAbsent, 0, true, nil, ConditionFailed},
		{"replace of a changed item", Put, GuardNone, 2, false, v("2"), VersionConflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var u expression.ConditionBuilder
			if tc.user {
				u = user
			}
			version := "v"
			if tc.opt == 0 {
				version = ""
			}
			var c Cond
			require.NoError(t, c.Init("PK", tc.a, tc.g, version, tc.opt, 0, u))
			assert.Equal(t, tc.want, c.Classify(tc.old))
		})
	}
}

// TestVersion: a version reads as 0 when absent or not a number, and the
// one a write puts goes into the item.
func TestVersion(t *testing.T) {
	t.Parallel()
	assert.Zero(t, VersionOf(Item{}, "v"))
	assert.Zero(t, VersionOf(Item{"v": &types.AttributeValueMemberS{Value: "3"}}, "v"))
	assert.Zero(t, VersionOf(Item{"v": &types.AttributeValueMemberN{Value: "1.5"}}, "v"))
	var c Cond
	require.NoError(t, c.Init("PK", Put, GuardNone, "v", 0, 41, expression.ConditionBuilder{}))
	item := Item{}
	c.SetVersion(item)
	assert.Equal(t, int64(42), VersionOf(item, "v"))
}
