package keycodec

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParts(t *testing.T) {
	lit := func(s string) Part { return Part{Kind: Lit, Text: s} }
	parts := []Part{lit("p#"), {Kind: Var, Text: "postID"}, lit("#"), {Kind: Var, Text: "status"}, lit("#"), {Kind: Self}}
	assert.Equal(t, "p#<postID>#<status>#<self>", String(parts))

	bound := ResolveVars(parts, []string{"postID"})
	assert.Equal(t, Part{Kind: Var, Text: "postID"}, parts[1], "the template is copied")
	assert.Equal(t, []Part{lit("p#"), {Kind: Field, Text: "postID"}, lit("#"), {Kind: Attr, Text: "status"}, lit("#"), {Kind: Self}}, bound)
	assert.Equal(t, []string{"status"}, Attrs(bound))

	self := []Part{lit("u#"), {Kind: Field, Text: "userID"}}
	assert.Equal(t, "p#<postID>#<status>#u#<userID>", String(WithSelf(bound, self)))
	assert.Equal(t, self, WithSelf(self, bound), "no Self: as it is")
	assert.Equal(t, []string{"postID", "userID"}, FieldNames(FieldNames(nil, bound), WithSelf(bound, self)))
	assert.True(t, Part{Kind: Source}.Variable())
	assert.False(t, Part{Kind: Lit, Text: "A"}.Variable())
}

func TestParseTemplate(t *testing.T) {
	for s, want := range map[string][]Part{
		"info":                    {{Kind: Lit, Text: "info"}},
		"{playerID}":              {{Kind: Var, Text: "playerID"}},
		"p#{postID}#u#{authorID}": {{Kind: Lit, Text: "p#"}, {Kind: Var, Text: "postID"}, {Kind: Lit, Text: "#u#"}, {Kind: Var, Text: "authorID"}},
		"u#{userID}#follower":     {{Kind: Lit, Text: "u#"}, {Kind: Var, Text: "userID"}, {Kind: Lit, Text: "#follower"}},
		"{a}x#{b}":                {{Kind: Var, Text: "a"}, {Kind: Lit, Text: "x#"}, {Kind: Var, Text: "b"}},
	} {
		got, err := ParseTemplate(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, got, s)
	}
}

func TestParseTemplateRefuses(t *testing.T) {
	for s, want := range map[string]string{
		"":            "empty",
		"a\x00":       "not valid UTF-8 text without control characters",
		"\xff":        "not valid UTF-8 text without control characters",
		"a{b":         "unbalanced braces",
		"a}b":         "unbalanced braces",
		"{a#b}":       "{a#b}: names are 1-64 ASCII letters, digits, '_', '-' or '.'",
		"{a}{b}":      "{b} follows {a} with no text between them",
		"{date}-{id}": "{id} follows {date} with no '#' between them, so a key could not be split back into them",
	} {
		_, err := ParseTemplate(s)
		assert.EqualError(t, err, want, "%q", s)
	}
}
