package keycodec

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHolderParse: a value kept only inside an index key parses back
// from a key that matches its template whole, and from no other: not
// from a key written under another template (a prefix added or removed,
// text after it), which a rewrite would otherwise lose or misread.
func TestHolderParse(t *testing.T) {
	lit := func(s string) Part { return Part{Kind: Lit, Text: s} }
	attr := func(s string) Part { return Part{Kind: Attr, Text: s} }
	for _, c := range []struct {
		name  string
		parts []Part
		shard bool
		key   string
		want  string // "" for none
	}{
		{"alone", []Part{attr("date")}, false, "2026-01-01", "2026-01-01"},
		{"escaped", []Part{attr("date")}, false, "a%23b", "a#b"},
		{"prefixed", []Part{lit("D#"), attr("date")}, false, "D#2026-01-01", "2026-01-01"},
		{"after another", []Part{attr("status"), lit("#"), attr("date")}, false, "open#2026-01-01", "2026-01-01"},
		{"before another", []Part{attr("date"), lit("#"), attr("status")}, false, "2026-01-01#open", "2026-01-01"},
		{"sharded", []Part{lit("D#"), attr("date")}, true, "D#2026-01-01#07", "2026-01-01"},
		{"prefix added", []Part{lit("D#"), attr("date")}, false, "2026-01-01", ""},
		{"prefix removed", []Part{attr("date")}, false, "D#2026-01-01", ""},
		{"text after", []Part{attr("date"), lit("#x")}, false, "2026-01-01#y", ""},
		{"a part more", []Part{attr("status"), lit("#"), attr("date")}, false, "2026-01-01", ""},
		{"a part less", []Part{attr("date")}, false, "open#2026-01-01", ""},
	} {
		h := holder{attr: "GSI1SK", parts: c.parts, shard: c.shard}
		got, ok := h.parse(Item{"GSI1SK": &types.AttributeValueMemberS{Value: c.key}}, "date", "S")
		assert.Equal(t, c.want != "", ok, c.name)
		assert.Equal(t, c.want, got, c.name)
	}
}

// TestUnreadable: a value kept only inside keys is unread when a key that
// holds it is present and none parses back; one read from any of its
// keys, held as an attribute, or in no key the item has, is not.
func TestUnreadable(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	d := Fields{KeyOnly: []KeyOnly{{name: "date", typ: "S", field: -1, holders: []holder{
		{attr: "GSI1SK", parts: []Part{{Kind: Lit, Text: "D#"}, {Kind: Attr, Text: "date"}}},
		{attr: "GSI2SK", parts: []Part{{Kind: Attr, Text: "date"}}},
	}}}}
	lost := func(attr, have, template string) *Error {
		return &Error{Name: attr, ID: have, Reason: "date is kept only inside this key, which its template " + template + " cannot parse back: rewriting the key would lose date"}
	}
	for _, c := range []struct {
		name string
		item Item
		want *Error // nil: read
	}{
		{"first parses", Item{"GSI1SK": s("D#2026-01-01"), "GSI2SK": s("D#2026-01-01")}, nil},
		{"second parses", Item{"GSI1SK": s("2026-01-01"), "GSI2SK": s("2026-01-01")}, nil},
		{"none parses", Item{"GSI1SK": s("2026-01-01"), "GSI2SK": s("E#2026-01-01")}, lost("GSI1SK", "2026-01-01", "D#<date>")},
		{"second alone, unparsed", Item{"GSI2SK": s("E#2026-01-01")}, lost("GSI2SK", "E#2026-01-01", "<date>")},
		{"an attribute", Item{"date": s("2026-01-01"), "GSI1SK": s("2026-01-01")}, nil},
		{"no key", Item{}, nil},
	} {
		c.item["PK"], c.item["SK"] = s("o#o1"), s("l#l1")
		err := d.Unreadable(c.item, "PK", "SK")
		if c.want == nil {
			assert.NoError(t, err, c.name)
			continue
		}
		var ue *UnreadError
		require.ErrorAs(t, err, &ue, c.name)
		assert.Equal(t, &UnreadError{PK: "o#o1", SK: "l#l1", Err: c.want}, ue, c.name)
	}
}

// TestUnwritten: a write of a value kept only inside index keys is
// refused only when it writes none of the keys that hold it; any one of
// them keeps the value (a read parses it back from whichever is there).
func TestUnwritten(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	d := Fields{KeyOnly: []KeyOnly{{name: "date", typ: "S", field: -1, holders: []holder{
		{attr: "GSI1SK", parts: []Part{{Kind: Attr, Text: "status"}, {Kind: Lit, Text: "#"}, {Kind: Attr, Text: "date"}}},
		{attr: "GSI2SK", parts: []Part{{Kind: Attr, Text: "date"}}},
	}}}}
	for _, c := range []struct {
		name    string
		item    Item
		refused bool
	}{
		{"both keys", Item{"date": s("2026-01-01"), "GSI1SK": s("open#2026-01-01"), "GSI2SK": s("2026-01-01")}, false},
		{"the first alone", Item{"date": s("2026-01-01"), "GSI1SK": s("open#2026-01-01")}, false},
		{"the second alone", Item{"date": s("2026-01-01"), "GSI2SK": s("2026-01-01")}, false},
		{"neither", Item{"date": s("2026-01-01")}, true},
		{"no value", Item{}, false},
	} {
		err := d.Unwritten(c.item)
		if c.refused {
			assert.ErrorContains(t, err, "(GSI1SK, GSI2SK: another of their values is empty): date would be lost", c.name)
		} else {
			assert.NoError(t, err, c.name)
		}
	}
}
