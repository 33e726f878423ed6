package keycodec

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSpelling(t *testing.T) {
	parts, err := ParseTemplate("p#{postID}#u#{authorID}")
	require.NoError(t, err)
	s := Compile(parts, []string{"authorID", "postID"})

	assert.Equal(t, "p#a%23b#u#50%25", s.Render([]string{"50%", "a#b"}))
	prefix, exact := s.Prefix([]string{"50%"})
	assert.Equal(t, "p#", prefix, "the first field, postID, has no id")
	assert.False(t, exact)
	prefix, exact = s.Prefix([]string{"50%", "a#b"})
	assert.Equal(t, [2]any{"p#a%23b#u#50%25", true}, [2]any{prefix, exact})

	ids := make([]string, 2)
	require.True(t, s.Parse("p#a%23b#u#50%25", ids))
	assert.Equal(t, []string{"50%", "a#b"}, ids)
	assert.False(t, s.Parse("p#x#u#50%25", ids), "postID already holds another id")
	for _, key := range []string{"p#x#u#", "p#x#u#a#b", "p#%2#u#y", "q#x#u#y", "p#x#u#\x01"} {
		assert.False(t, s.Parse(key, make([]string, 2)), "%q", key)
	}
	// A ref holds Seps: its end is where the rest (a shard suffix) reads.
	child := &Ref{Spelling: Text("ORG#").Then(ID(0, "id"), Text("#PROJ#"), ID(1, "child")), Name: "PROJ"}
	nested := RefField(0, child).Then(ShardSuffix(1, 4))
	for key, want := range map[string]string{"ORG#a#PROJ#b%23c#03": "ORG#a#PROJ#b%23c", "ORG#a#PROJ#b": "ORG#a#PROJ#b", "ORG#a#PROJ#b#3": "", "ORG#a#b#03": ""} {
		ids := make([]string, 2)
		assert.Equal(t, want != "", nested.Parse(key, ids), "%q", key)
		if want != "" {
			assert.Equal(t, want, ids[0], "%q", key)
		}
	}
}

func TestTableKey(t *testing.T) {
	parts, err := TableKey([]Part{{Kind: Lit, Text: "P"}, {Kind: Lit, Text: "#"}, {Kind: Var, Text: "id"}})
	require.NoError(t, err)
	assert.Equal(t, []Part{{Kind: Lit, Text: "P"}, {Kind: Lit, Text: "#"}, {Kind: Field, Text: "id"}}, parts)

	_, err = TableKey([]Part{{Kind: Lit, Text: "P#"}, {Kind: Attr, Text: "status"}})
	assert.EqualError(t, err, "a table key holds text and {fields} only")
	_, err = TableKey([]Part{{Kind: Var, Text: "date"}, {Kind: Lit, Text: "-x#"}, {Kind: Var, Text: "id"}})
	assert.EqualError(t, err, "{date} must be followed by '#' or end the key, so that it parses back")
}
