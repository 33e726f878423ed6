package keycodec

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseTemplate(t *testing.T) {
	for s, want := range map[string][]Part{
		"info":                    {{Text: "info"}},
		"{playerID}":              {{Text: "playerID", Variable: true}},
		"p#{postID}#u#{authorID}": {{Text: "p#"}, {Text: "postID", Variable: true}, {Text: "#u#"}, {Text: "authorID", Variable: true}},
		"u#{userID}#follower":     {{Text: "u#"}, {Text: "userID", Variable: true}, {Text: "#follower"}},
		"{a}x#{b}":                {{Text: "a", Variable: true}, {Text: "x#"}, {Text: "b", Variable: true}},
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
