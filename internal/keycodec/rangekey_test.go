package keycodec

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPastPrefix: the least string after every key with the prefix, valid
// UTF-8.
func TestPastPrefix(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]string{"PROJ#": "PROJ$", "v": "w", "é": "ê", "a\u00bf": "a\u00c0",
		"x\ud7ff": "x\ue000", "a\U0010FFFF": "b"} {
		got := PastPrefix(p)
		assert.Equal(t, want, got, "%q", p)
		assert.True(t, utf8.ValidString(got))
		assert.Greater(t, got, p+"\U0010FFFF")
	}
}

// TestRangeKeyRests: range values read after the prefix each query
// builds, the rest of the compiled key telling separators from ids: one
// id, an Entity's fields after the given ids, a child endpoint's ref
// (nested too), an index key's node keys, and every '#' (AllTypes).
func TestRangeKeyRests(t *testing.T) {
	t.Parallel()
	proj := &Ref{Spelling: Text("WS#").Then(ID(0, "WS"), Text("#PROJ#"), ID(1, "PROJ"))}
	task := &Ref{Spelling: RefField(0, proj).Then(Text("#TASK#"), ID(1, "TASK"))}
	entity := func(tmpl string, fields ...string) Spelling {
		parts, err := ParseTemplate(tmpl)
		require.NoError(t, err)
		parts, err = TableKey(parts)
		require.NoError(t, err)
		return Compile(parts, fields)
	}
	sk := entity("u#{a}#v{b}#{c}", "a", "b", "c")
	edge := Parts{Prefixes: &Ctx{Self: "ENROLL#WS#", Source: "STU#", Target: "WS#"},
		Ends: &Ends{Src: End{Type: "STU", Key: Text("STU#").Then(ID(0, "STU"))}, Dst: End{Type: "PROJ", Parent: "WS", Key: RefField(0, proj)}}}
	index, err := ParseTemplate("{@source}#at#{when}%#{n}")
	require.NoError(t, err)
	index = ResolveVars(index, nil)
	self, err := ParseTemplate("{@self}#{n}")
	require.NoError(t, err)
	for name, c := range map[string]struct {
		p, v  string
		rest  Spelling
		every bool
		want  string
	}{
		"one id":             {"CRS#", "a#b%", Text("CRS#").Then(ID(0, "CRS")).Rest(0), false, "CRS#a%23b%25"},
		"text only":          {"X", "a#b", Text("X").Rest(0), false, "Xa%23b"},
		"entity first field": {"u#", "1#v2%#c#d", sk.Rest(0), false, "u#1#v2%25#c%23d"},
		"entity short value": {"u#", "1#v2%", sk.Rest(0), false, "u#1#v2%25"},
		"entity after ids":   {"u#1#", "v2%#x", sk.Rest(1), false, "u#1#v2%25#x"},
		"entity last field":  {"u#1#v2%#", "c#d", sk.Rest(2), false, "u#1#v2%#c%23d"},
		"entity every field": {"u#1#v2%#c", "x", sk.Rest(3), false, "u#1#v2%#cx"},
		"child ref":          {"WS#", "a%#PROJ#p#1", RefField(0, proj).Rest(0), false, "WS#a%25#PROJ#p%231"},
		"nested child ref":   {"WS#", "a#PROJ#p#TASK#t#1", RefField(0, task).Rest(0), false, "WS#a#PROJ#p#TASK#t%231"},
		"edge from child":    {"ENROLL#WS#", "a#PROJ#p", edge.Ends.Dst.Key.Rest(0), false, "ENROLL#WS#a#PROJ#p"},
		"index child self":   {"ENROLL#WS#", "a#PROJ#p#x#y", edge.IndexRest(Compile(ResolveVars(self, nil), []string{"n"})), false, "ENROLL#WS#a#PROJ#p#x%23y"},
		"index source":       {"STU#", "s#at#20%#1#2", edge.IndexRest(Compile(index, []string{"when", "n"})), false, "STU#s#at#20%#1%232"},
		"every":              {"P#", "a%#b#c", nil, true, "P#a%25#b#c"},
		"every with a rest":  {"u#", "1#v2%#c#d", sk.Rest(0), true, "u#1#v2%25#c#d"},
	} {
		assert.Equal(t, c.want, RangeKey(c.p, c.v, c.rest, c.every), name)
	}
}
