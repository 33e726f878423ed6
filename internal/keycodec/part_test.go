package keycodec

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
	assert.False(t, Part{Kind: Const, Text: "A"}.Variable())
}
