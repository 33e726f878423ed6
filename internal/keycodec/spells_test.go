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

// TestSpellsPinned pins what the pattern matcher answers today, each row
// of a kind of part: a Var takes any text, '#'s included, trying every
// end; a Field or Attr ends at its first '#' and is not checked as an
// escaped id; a prefix may end inside any part.
func TestSpellsPinned(t *testing.T) {
	t.Parallel()
	lit := func(s string) Part { return Part{Kind: Lit, Text: s} }
	id, attr, anyText := Part{Kind: Field, Text: "id"}, Part{Kind: Attr, Text: "a"}, Part{Kind: Var}
	node := []Part{lit("STU#"), id}
	child := []Part{lit("WS#"), id, lit("#PROJ#"), id}
	self := []Part{lit("ENROLL#WS#"), anyText, lit("#at#"), attr}
	for _, c := range []struct {
		name   string
		pat    []Part
		v      string
		prefix bool
		want   bool
	}{
		{"node key", node, "STU#ada", false, true},
		{"escaped id", node, "STU#a%23b", false, true},
		{"id not checked as escaped", node, "STU#a%2", false, true},
		{"id with a control character", node, "STU#a\x01", false, true},
		{"empty id", node, "STU#", false, false},
		{"id ends at '#'", node, "STU#a#b", false, false},
		{"other type", node, "CRS#a", false, false},
		{"longer text", []Part{lit("STU#")}, "STU#a", false, false},
		{"child ref", child, "WS#acme#PROJ#p1", false, true},
		{"child ref missing its id", child, "WS#acme#PROJ#", false, false},
		{"any text holds '#'", self, "ENROLL#WS#acme#PROJ#p1#at#2026", false, true},
		{"any text, last '#at#' tried first", self, "ENROLL#WS#x#at#y#at#z", false, true},
		{"any text never empty", self, "ENROLL#WS##at#z", false, false},
		{"attr ends at '#'", self, "ENROLL#WS#x#at#y#z", false, false},
		{"prefix inside text", self, "ENROLL#W", true, true},
		{"prefix inside any text", self, "ENROLL#WS#acme#PR", true, true},
		{"prefix at a part's end", node, "STU#", true, true},
		{"prefix inside an id", node, "STU#ad", true, true},
		{"prefix of another type", node, "CRS#", true, false},
		{"prefix longer than the key", node, "STU#a#b", true, false},
		{"empty prefix", node, "", true, true},
		{"empty pattern", nil, "", false, true},
	} {
		assert.Equal(t, c.want, Spells(c.pat, c.v, c.prefix), c.name)
	}
}

// TestReachesPinned pins Query.Reaches over the partition (one, or any
// shard) and the sort key prefix (exact or not, unjudged for nil sk).
func TestReachesPinned(t *testing.T) {
	t.Parallel()
	pk := []Part{{Kind: Lit, Text: "STU#"}, {Kind: Field, Text: "id"}}
	sk := []Part{{Kind: Lit, Text: "ENROLL#CRS#"}, {Kind: Field, Text: "to"}}
	for _, c := range []struct {
		name string
		q    Query
		sk   []Part
		want Reach
	}{
		{"its partition and prefix", Query{PK: "STU#a", SKPrefix: "ENROLL#"}, sk, Reachable},
		{"no prefix", Query{PK: "STU#a"}, sk, Reachable},
		{"other partition", Query{PK: "CRS#a", SKPrefix: "ENROLL#"}, sk, OtherPartition},
		{"other prefix", Query{PK: "STU#a", SKPrefix: "FOLLOW#"}, sk, OtherSortKeys},
		{"sort key unjudged", Query{PK: "STU#a", SKPrefix: "FOLLOW#"}, nil, Reachable},
		{"exact value", Query{PK: "STU#a", SKPrefix: "ENROLL#CRS#m", Exact: true}, sk, Reachable},
		{"exact value that is a prefix only", Query{PK: "STU#a", SKPrefix: "ENROLL#CRS#", Exact: true}, sk, OtherSortKeys},
		{"a shard is its partition", Query{PK: "X", ShardPKs: []string{"CRS#a", "STU#a"}}, sk, Reachable},
		{"no shard is its partition", Query{PK: "STU#a", ShardPKs: []string{"CRS#a", "CRS#b"}}, sk, OtherPartition},
	} {
		assert.Equal(t, c.want, c.q.Reaches(pk, c.sk), c.name)
	}
}
