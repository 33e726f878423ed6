package keycodec

import (
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// held is a holder of date in index key attribute attr with template
// parts, as BindFields makes it.
func held(attr string, parts ...Part) holder {
	key := Compile(parts, Attrs(parts))
	return holder{attr: attr, parts: parts, key: key, at: key[slices.IndexFunc(key, func(p spelled) bool { return p.text == "date" })].field}
}

// TestUnreadable: a value kept only inside keys is unread when a key that
// holds it is present and none parses back; one read from any of its
// keys, held as an attribute, or in no key the item has, is not.
func TestUnreadable(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	d := Fields{KeyOnly: []KeyOnly{{name: "date", typ: "S", field: -1, holders: []holder{
		held("GSI1SK", Part{Kind: Lit, Text: "D#"}, Part{Kind: Attr, Text: "date"}),
		held("GSI2SK", Part{Kind: Attr, Text: "date"}),
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
		held("GSI1SK", Part{Kind: Attr, Text: "status"}, Part{Kind: Lit, Text: "#"}, Part{Kind: Attr, Text: "date"}),
		held("GSI2SK", Part{Kind: Attr, Text: "date"}),
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
