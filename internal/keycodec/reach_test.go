package keycodec

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMatchesPinned pins what Spelling.Matches answers, each row of a kind
// of part: an id (or attribute) is a non-empty run without '#' that
// ParseID accepts; a ref is a key of its own spelling, its end tried
// longest first; a prefix may end inside any part. These rows were
// Spells' over patterns: the decisions are "id not validly escaped" and
// "id with a control character" (false: no key the library writes holds
// them, as Parse refuses them), and a node key's "any text" part is now
// the node key's own spelling (a ref), so its rows read refs.
func TestMatchesPinned(t *testing.T) {
	t.Parallel()
	node := Text("STU#").Then(ID(0, "id"))
	child := Text("WS#").Then(ID(0, "id"), Text("#PROJ#"), ID(1, "child"))
	crs := &Ref{Spelling: Text("CRS#").Then(ID(0, "id")), Name: "CRS"}
	enrolment := Text("STU#").Then(ID(0, "id"), Text("#"), RefField(1, crs))
	self := Text("ENROLL#").Then(RefField(0, &Ref{Spelling: child, Name: "PROJ"}), Text("#at#"), ID(1, "a"))
	for _, c := range []struct {
		name   string
		s      Spelling
		v      string
		prefix bool
		want   bool
	}{
		{"node key", node, "STU#ada", false, true},
		{"escaped id", node, "STU#a%23b", false, true},
		{"id not validly escaped", node, "STU#a%2", false, false},
		{"id with a control character", node, "STU#a\x01", false, false},
		{"empty id", node, "STU#", false, false},
		{"id ends at '#'", node, "STU#a#b", false, false},
		{"other type", node, "CRS#a", false, false},
		{"longer text", Text("STU#"), "STU#a", false, false},
		{"child ref", child, "WS#acme#PROJ#p1", false, true},
		{"child ref missing its id", child, "WS#acme#PROJ#", false, false},
		{"a ref holds '#'", self, "ENROLL#WS#acme#PROJ#p1#at#2026", false, true},
		{"a ref's end tried longest first", self, "ENROLL#WS#x#PROJ#y#at#z", false, true},
		{"a ref is a key of its spelling", self, "ENROLL#WS#x#at#y#at#z", false, false},
		{"a ref never empty", self, "ENROLL#WS##at#z", false, false},
		{"attr ends at '#'", self, "ENROLL#WS#x#PROJ#y#at#y#z", false, false},
		{"prefix inside text", self, "ENROLL#W", true, true},
		{"prefix inside a ref", self, "ENROLL#WS#acme#PR", true, true},
		{"prefix at a part's end", node, "STU#", true, true},
		{"prefix inside an id", node, "STU#ad", true, true},
		{"prefix inside an escape", node, "STU#a%2", true, true},
		{"prefix of another type", node, "CRS#", true, false},
		{"prefix longer than the key", node, "STU#a#b", true, false},
		{"empty prefix", node, "", true, true},
		{"empty spelling", nil, "", false, true},
		{"enrolment", enrolment, "STU#ada#CRS#1", false, true},
		{"enrolment without its ref", enrolment, "STU#ada#", false, false},
		{"the id ends at its first '#'", enrolment, "STU#a#CRS#b", false, true},
		{"the id is never empty", enrolment, "STU##CRS#x", false, false},
		{"enrolment of another type", enrolment, "CRS#ada#CRS#x", false, false},
		{"enrolment prefix inside text", enrolment, "ST", true, true},
		{"enrolment prefix inside an id", enrolment, "STU#ada", true, true},
		{"enrolment prefix of other text", enrolment, "STX", true, false},
		{"enrolment empty prefix", enrolment, "", true, true},
	} {
		assert.Equal(t, c.want, c.s.Matches(c.v, c.prefix), c.name)
	}
}

// TestMatchesShards: a shard suffix is "#" and two digits or none, the
// end of the key; a model's shard part (Digits) is two digits, always.
func TestMatchesShards(t *testing.T) {
	t.Parallel()
	suffix := Text("WS#").Then(ID(0, "id"), ShardSuffix(0, 4))
	drawn := Text("WS#").Then(ID(0, "id"), Text("#"), Digits())
	for _, c := range []struct {
		s      Spelling
		v      string
		prefix bool
		want   bool
	}{
		{suffix, "WS#a#03", false, true},
		{suffix, "WS#a", false, true},
		{suffix, "WS#a#3", false, false},
		{suffix, "WS#a#033", false, false},
		{suffix, "WS#a#0", true, true},
		{drawn, "WS#a#03", false, true},
		{drawn, "WS#a", false, false},
		{drawn, "WS#a#3", false, false},
		{drawn, "WS#a#0", true, true},
		{drawn, "WS#a#0x", true, false},
	} {
		assert.Equal(t, c.want, c.s.Matches(c.v, c.prefix), "%q prefix=%v", c.v, c.prefix)
	}
}

// TestReachesPinned pins Query.Reaches over the partition (one, or any
// shard) and the sort key prefix (exact or not, unjudged for nil sk).
func TestReachesPinned(t *testing.T) {
	t.Parallel()
	pk := Text("STU#").Then(ID(0, "id"))
	sk := Text("ENROLL#CRS#").Then(ID(1, "to"))
	for _, c := range []struct {
		name string
		q    Query
		sk   Spelling
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
