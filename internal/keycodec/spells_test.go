package keycodec

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSpells(t *testing.T) {
	// "STU#" then an id, "#", then any text: a student's enrollment key.
	pat := []Part{{Kind: Lit, Text: "STU#"}, {Kind: Field, Text: "id"}, {Kind: Lit, Text: "#"}, {Kind: Var}}
	for _, c := range []struct {
		v      string
		prefix bool
		want   bool
	}{
		{"STU#ada#CRS#1", false, true},
		{"STU#ada#", false, false}, // Var is never empty
		{"STU#a#b#c", false, true}, // the id ends at its first '#'
		{"STU##x", false, false},   // the id is never empty
		{"CRS#ada#x", false, false},
		{"ST", true, true},
		{"STU#ada", true, true},
		{"STX", true, false},
		{"", true, true},
	} {
		assert.Equal(t, c.want, Spells(pat, c.v, c.prefix), "%q prefix=%v", c.v, c.prefix)
	}
	ctx := &Ctx{}
	got := KeyPattern([]Part{{Kind: Lit, Text: "ORDER#"}, {Kind: Attr, Text: "date"}, {Kind: Field, Text: "n"}}, ctx)
	assert.Equal(t, []Part{{Kind: Lit, Text: "ORDER#"}, {Kind: Field, Text: "date"}, {Kind: Var}}, got)
}
