package ddbexpr

import (
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTemplateIsTheBuild: a template's strings, names and values for one
// query are those the SDK's builder makes for that query directly, for
// every sort key condition, with and without the label filter and a
// keys-only projection; a second query of the shape reuses the template.
func TestTemplateIsTheBuild(t *testing.T) {
	t.Parallel()
	keyAttrs := []string{"PK", "SK", "GSI1PK", "GSI1SK"}
	for _, s := range []Shape{
		{PKAttr: "PK", SKAttr: "SK"},
		{PKAttr: "PK", SKAttr: "SK", HasSK: true},
		{PKAttr: "PK", SKAttr: "SK", HasSK: true, SKExact: true, KeysOnly: true},
		{PKAttr: "PK", SKAttr: "SK", HasSK: true, Op: Between},
		{PKAttr: "PK", SKAttr: "SK", HasSK: true, Op: BeginsWith},
		{Index: "GSI1", PKAttr: "GSI1PK", SKAttr: "GSI1SK", HasSK: true, HasFilter: true, Op: GT},
		{Index: "GSI1", PKAttr: "GSI1PK", SKAttr: "GSI1SK", HasSK: true, Op: GE, KeysOnly: true},
		{Index: "GSI1", PKAttr: "GSI1PK", SKAttr: "GSI1SK", Op: LT},
		{Index: "GSI1", PKAttr: "GSI1PK", SKAttr: "GSI1SK", Op: LE},
		{Index: "GSI1", PKAttr: "GSI1PK", SKAttr: "GSI1SK", Op: EQ, HasFilter: true},
	} {
		var cache sync.Map
		tpl, err := Cached(&cache, s, "SK", keyAttrs)
		require.NoError(t, err)
		label := ""
		if s.HasFilter {
			label = "EDGE#"
		}
		want, err := Finish(expression.NewBuilder().WithKeyCondition(s.KeyCondition("USER#1", "ORDER#a", "ORDER#b")), "SK", label, nil, keyAttrs, s.KeysOnly, nil)
		require.NoError(t, err)
		assert.Equal(t, want.KeyCondition(), tpl.KeyCond, "%+v", s)
		assert.Equal(t, want.Filter(), tpl.Filter, "%+v", s)
		assert.Equal(t, want.Projection(), tpl.Proj, "%+v", s)
		assert.Equal(t, want.Names(), tpl.Names, "%+v", s)
		assert.Equal(t, want.Values(), tpl.Values("USER#1", "ORDER#a", "ORDER#b", label), "%+v", s)
		again, err := Cached(&cache, s, "SK", keyAttrs)
		require.NoError(t, err)
		assert.Same(t, tpl, again)
	}
}
