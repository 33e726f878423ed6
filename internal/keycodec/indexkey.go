package keycodec

import (
	"fmt"
	"strings"

	"github.com/adjlist/adjlist/internal/errs"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Ctx is what an item's index key templates may name: the node keys it
// has (or, for an item type, their static prefixes: "STU#",
// "ENROLL#CRS#"), its table key (which picks its shard), and an Entity's
// key fields with their ids.
type Ctx struct {
	Self, Source, Target, Parent string
	PK, SK                       string
	Fields, IDs                  []string
}

// Node is the node key of kind k (Self for any kind but Source, Target
// and Parent).
func (c *Ctx) Node(k Kind) string {
	switch k {
	case Source:
		return c.Source
	case Target:
		return c.Target
	case Parent:
		return c.Parent
	}
	return c.Self
}

// AttrText is data attribute name's text in a key, av: a string escaped,
// a number as it is; present is false for a missing, NULL or empty value.
// A string CheckID refuses is its *Error, a value neither a string nor a
// number errs.ErrInvalidOption.
func AttrText(name string, av types.AttributeValue) (text string, present bool, err error) {
	switch v := av.(type) {
	case nil, *types.AttributeValueMemberNULL:
		return "", false, nil
	case *types.AttributeValueMemberS:
		if v.Value == "" {
			return "", false, nil
		}
		if err := CheckID(name, v.Value); err != nil {
			return "", false, err
		}
		return Join(v.Value), true, nil
	case *types.AttributeValueMemberN:
		return v.Value, true, nil
	default:
		return "", false, fmt.Errorf("%w: attribute %q feeds an index key and is %T; want a string or number", errs.ErrInvalidOption, name, av)
	}
}

// StaticPrefix is the part of a key template that is the same for every
// item of a type with node key prefixes c: its leading text, and the type
// prefix of a leading node key ("STU#"), e.g. "ENROLL#" for
// ENROLL#<enrolledOn>, or "" when the template starts with a data
// attribute. exact reports a template of text only, whose value is the
// prefix.
func StaticPrefix(parts []Part, c *Ctx) (prefix string, exact bool) {
	var b strings.Builder
	for _, p := range parts {
		switch p.Kind {
		case Lit:
			b.WriteString(p.Text)
			continue
		case Self, Source, Target, Parent:
			b.WriteString(c.Node(p.Kind))
		}
		return b.String(), false
	}
	return b.String(), true
}

// Value is Go value v as a write stores it: encoded with enc, the table's
// encoder (adjlist's Options.EncoderOptions), which encodes every item's
// data and every Update value; nil enc is the SDK's default one. It is
// the one way a value a call is given for a key (ByIndex's values, range
// values, a native index's key values) becomes an attribute value, and
// [ValueText] the one way it becomes key text, so that the call reaches
// the key a write made of the same value: with EncodeTime set to epoch
// seconds, a time.Time is N "1767323045" in the item and in the query
// alike, never the default encoder's S "2026-01-02T03:04:05Z".
func Value(enc *attributevalue.Encoder, v any) (types.AttributeValue, error) {
	if enc == nil {
		return attributevalue.Marshal(v)
	}
	return enc.Encode(v)
}

// ValueText is Go value v's text where a key holds data attribute name,
// as a write renders it ([Spelling.Value]): [Value], then [AttrText].
func ValueText(enc *attributevalue.Encoder, name string, v any) (text string, present bool, err error) {
	av, err := Value(enc, v)
	if err != nil {
		return "", false, err
	}
	return AttrText(name, av)
}
