package keycodec

import (
	"slices"
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

// TestParseOnePass: Parse's one-pass reading of text and '#'-bounded ids
// agrees with match's search of an id's ends, on the ids it reads too,
// for every spelling shape (ids at the end, before '#' text, before other
// text, next to each other, refs, shard suffixes, attributes) and keys
// that parse, that do not, and whose ids the given ids contradict.
func TestParseOnePass(t *testing.T) {
	child := &Ref{Spelling: Text("ORG#").Then(ID(0, "id"), Text("#PROJ#"), ID(1, "child")), Name: "PROJ"}
	spellings := []Spelling{
		Text("STU#").Then(ID(0, "from")),
		Text("ENROLL#CRS#").Then(ID(1, "to")),
		Text("p#").Then(ID(1, "post"), Text("#u#"), ID(0, "author")),
		ID(0, "a").Then(Text("#"), ID(1, "b")),
		ID(0, "a").Then(Text("-x#"), ID(1, "b")),
		ID(0, "a").Then(ID(1, "b")),
		Text("T#").Then(ID(0, "a"), ShardSuffix(0, 4)),
		Text("T#").Then(ID(0, "a"), Text("#"), Digits()),
		RefField(0, child).Then(Text("#ITEM#"), ID(1, "item")),
		Text("S#").Then(Spelling{{kind: attr, text: "status", field: 1}}, Text("#"), ID(0, "id")),
		Text("META"),
		ID(0, "a"),
	}
	keys := []string{
		"", "#", "STU#", "STU#a91", "STU#a%2391", "STU#a#91", "STU#a%2", "ENROLL#CRS#math204", "ENROLL#CRS#",
		"p#x#u#y", "p#a%23b#u#50%25", "p#x#u#", "p#x#u#a#b", "p#%2#u#y", "a#b", "a#b#c", "#b", "a#", "a-x#b", "a-x#",
		"ab", "T#a", "T#a#03", "T#a#3", "T#a#b", "T#a#", "ORG#o#PROJ#p#ITEM#i", "ORG#o#PROJ#p#03#ITEM#i", "ORG#o#ITEM#i",
		"S#open#x", "S##x", "S#open#", "META", "META#", "x\x01y", "a b",
	}
	givens := [][]string{nil, {"", ""}, {"a", ""}, {"", "b"}, {"a91", "math204"}, {"o#PROJ#p", ""}, {"ORG#o#PROJ#p", "i"}}
	for i, s := range spellings {
		for _, key := range keys {
			for _, given := range givens {
				var got, want []string
				if given != nil {
					got, want = slices.Clone(given), slices.Clone(given)
				}
				ok, wantOK := s.Parse(key, got), s.match(key, want, false)
				require.Equal(t, wantOK, ok, "spelling %d, key %q, ids %q", i, key, given)
				if ok {
					assert.Equal(t, want, got, "spelling %d, key %q, ids %q", i, key, given)
				}
			}
		}
	}
}

// TestParseBacktracks: an id read with the wrong end, and the ids it set
// further on, are forgotten before the next end is tried ("1x2y3x4" is
// a = "1", b = "2", c = "3x4", found after "1x2y3" for a failed).
func TestParseBacktracks(t *testing.T) {
	s := ID(0, "a").Then(Text("x"), ID(1, "b"), Text("y"), ID(2, "c"))
	ids := make([]string, 3)
	require.True(t, s.Parse("1x2y3x4", ids))
	assert.Equal(t, []string{"1", "2", "3x4"}, ids)
	assert.True(t, s.Matches("1x2y3x4", false))
	given := []string{"", "2", ""}
	require.True(t, s.Parse("1x2y3x4", given))
	assert.Equal(t, []string{"1", "2", "3x4"}, given)
}
