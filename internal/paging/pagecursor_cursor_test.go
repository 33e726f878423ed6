package paging

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/internal/ddbexpr"
)

// TestOpen: a sealed cursor opens only with its own identity and key, and
// only as the exact string issued.
func TestOpen(t *testing.T) {
	t.Parallel()
	id := Identity{Index: "GSI1", Desc: true, Query: "fp"}
	key := []byte("secret")
	c := Cursor{Key: map[string]string{"PK": "USER#1", "SK": "ORDER#2"}}
	signed, err := Seal(c, id, key)
	require.NoError(t, err)
	plain, err := Seal(c, id, nil)
	require.NoError(t, err)

	got, err := Open(signed, id, key)
	require.NoError(t, err)
	assert.Equal(t, c.Key, got.Key)
	_, err = Open(plain, id, nil)
	require.NoError(t, err)

	payload, _, _ := strings.Cut(signed, ".")
	for _, tc := range []struct {
		name, s string
		id      Identity
		key     []byte
		why     string
	}{
		{"unsigned where a key is set", plain, id, key, "signature does not match"},
		{"signed where none is set", signed, id, nil, "signed, but the table has no CursorKey"},
		{"another key", signed, id, []byte("other"), "signature does not match"},
		{"padded", plain + "=", id, nil, "not canonical base64url"},
		{"newline", payload[:4] + "\n" + payload[4:], id, nil, "not canonical base64url"},
		{"another index", plain, Identity{Desc: true, Query: "fp"}, nil, "from another index"},
		{"other direction", plain, Identity{Index: "GSI1", Query: "fp"}, nil, "from the other direction"},
		{"sharded read", plain, Identity{Index: "GSI1", Desc: true, Sharded: true, Query: "fp"}, nil, "from a read with another number of shards"},
		{"another query", plain, Identity{Index: "GSI1", Desc: true, Query: "other"}, nil, "from another query"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Open(tc.s, tc.id, tc.key)
			require.EqualError(t, err, tc.why)
		})
	}
}

// TestStartKey: key text goes back to the attribute types it came from;
// no key is the start.
func TestStartKey(t *testing.T) {
	t.Parallel()
	lek := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "a"}, "n": &types.AttributeValueMemberN{Value: "12.5"}}
	strs, nums, err := KeyText(lek)
	require.NoError(t, err)
	start, err := StartKey(strs, nums, ddbexpr.NumberText)
	require.NoError(t, err)
	assert.Equal(t, lek, start)
	_, err = StartKey(nil, map[string]string{"n": "x"}, ddbexpr.NumberText)
	assert.EqualError(t, err, `n is a number, got "x"`)
	start, err = StartKey(nil, nil, ddbexpr.NumberText)
	require.NoError(t, err)
	assert.Nil(t, start)
}

// TestAfter: a shard's (or segment's) place after a page keeps each key
// attribute's type.
func TestAfter(t *testing.T) {
	t.Parallel()
	s, err := After(nil)
	require.NoError(t, err)
	assert.Equal(t, CursorShard{Done: true}, s)

	s, err = After(map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "a"}, "n": &types.AttributeValueMemberN{Value: "1"}})
	require.NoError(t, err)
	assert.Equal(t, CursorShard{Key: map[string]string{"PK": "a"}, Num: map[string]string{"n": "1"}}, s)

	_, err = After(map[string]types.AttributeValue{"b": &types.AttributeValueMemberB{Value: []byte("x")}})
	assert.EqualError(t, err, `adjlist: LastEvaluatedKey attribute "b" is *types.AttributeValueMemberB, want a string or number`)
}
