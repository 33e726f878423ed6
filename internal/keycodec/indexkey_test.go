package keycodec

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestIndexKey(t *testing.T) {
	parts := []Part{{Kind: Const, Text: "F"}, {Kind: Lit, Text: "#"}, {Kind: Field, Text: "followerID"},
		{Kind: Lit, Text: "#"}, {Kind: Attr, Text: "status"}, {Kind: Lit, Text: "#"}, {Kind: Target}}
	k := CompileIndexKey(parts, []string{"userID", "followerID"})
	c := &Ctx{Target: "CRS#m%2304", IDs: []string{"u1", "a#b"}}
	data := map[string]types.AttributeValue{"status": &types.AttributeValueMemberS{Value: "50%"}}

	key, ok, bad := k.Render(data, c)
	require.Nil(t, bad)
	assert.True(t, ok)
	assert.Equal(t, "F#a%23b#50%25#CRS#m%2304", key)

	data["status"] = &types.AttributeValueMemberN{Value: "12"}
	key, _, _ = k.Render(data, c)
	assert.Equal(t, "F#a%23b#12#CRS#m%2304", key)

	for _, missing := range []types.AttributeValue{nil, &types.AttributeValueMemberNULL{Value: true}, &types.AttributeValueMemberS{}} {
		data["status"] = missing
		_, ok, bad = k.Render(data, c)
		assert.False(t, ok)
		assert.Nil(t, bad)
	}
	data["status"] = &types.AttributeValueMemberS{Value: "a\x00"}
	_, _, bad = k.Render(data, c)
	require.NotNil(t, bad)
	assert.Equal(t, Error{Name: "status", ID: "a\x00", Reason: "id contains a control character"}, *bad.ID)
	data["status"] = &types.AttributeValueMemberBOOL{Value: true}
	_, _, bad = k.Render(data, c)
	require.NotNil(t, bad)
	assert.Equal(t, Refusal{Name: "status", Value: data["status"]}, *bad)

	prefixes := &Ctx{Self: "STU#", Target: "CRS#"}
	for _, tc := range []struct {
		parts  []Part
		prefix string
		exact  bool
	}{
		{parts, "F#", false},
		{[]Part{{Kind: Lit, Text: "ENROLL#"}, {Kind: Target}}, "ENROLL#CRS#", false},
		{[]Part{{Kind: Attr, Text: "at"}}, "", false},
		{[]Part{{Kind: Const, Text: "INFO"}}, "INFO", true},
	} {
		prefix, exact := StaticPrefix(tc.parts, prefixes)
		assert.Equal(t, [2]any{tc.prefix, tc.exact}, [2]any{prefix, exact}, String(tc.parts))
	}
}
