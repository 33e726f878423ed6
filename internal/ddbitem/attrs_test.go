package ddbitem

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
)

// TestString: only an S attribute is a string; any other, or none, is not.
func TestString(t *testing.T) {
	t.Parallel()
	item := map[string]types.AttributeValue{
		"s": &types.AttributeValueMemberS{Value: "a91"},
		"n": &types.AttributeValueMemberN{Value: "7"},
	}
	for _, tc := range []struct {
		name, want string
		ok         bool
	}{{"s", "a91", true}, {"n", "", false}, {"absent", "", false}} {
		got, ok := String(item, tc.name)
		assert.Equal(t, tc.want, got, tc.name)
		assert.Equal(t, tc.ok, ok, tc.name)
	}
}

func TestAttrsGet(t *testing.T) {
	t.Parallel()
	a := Attrs{{"GSI1PK", "x"}, {"GSI1SK", ""}}
	v, ok := a.Get("GSI1SK")
	assert.True(t, ok)
	assert.Empty(t, v)
	_, ok = a.Get("GSI2PK")
	assert.False(t, ok)
}
