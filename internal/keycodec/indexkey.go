package keycodec

import (
	"fmt"
	"strings"

	"github.com/adjlist/adjlist/internal/errs"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Ctx is what index key templates may name: an item's node keys (an
// item type's: their prefixes "STU#"), its table key (which picks its
// shard), an Entity's key fields with their ids.
type Ctx struct {
	Self, Source, Target, Parent string
	PK, SK                       string
	Fields, IDs                  []string
}

// Node is the node key of kind k (Self for any other kind).
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

// AttrText is data attribute name's value av as key text: a string
// escaped, a number as it is; present is false for a missing, NULL or
// empty value. Other types are errs.ErrInvalidOption.
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
		return Escape(v.Value), true, nil
	case *types.AttributeValueMemberN:
		return v.Value, true, nil
	default:
		return "", false, fmt.Errorf("%w: attribute %q feeds an index key and is %T; want a string or number", errs.ErrInvalidOption, name, av)
	}
}

// StaticPrefix is what a key template holds for every item with node key
// prefixes c: its leading text and a leading node key's type prefix
// ("ENROLL#" of ENROLL#<enrolledOn>). exact: the template is text only.
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

// Value is Go value v as a write stores it, encoded with enc, the
// table's encoder (nil: the SDK's default). Every key value a call is
// given goes through it (and [ValueText]), so that it reaches the key a
// write made of the same value: under EncodeTime to epoch seconds a
// time.Time is N "1767323045" in item and query alike.
func Value(enc *attributevalue.Encoder, v any) (types.AttributeValue, error) {
	if enc == nil {
		return attributevalue.Marshal(v)
	}
	return enc.Encode(v)
}

// ValueText is [Value], then [AttrText].
func ValueText(enc *attributevalue.Encoder, name string, v any) (text string, present bool, err error) {
	av, err := Value(enc, v)
	if err != nil {
		return "", false, err
	}
	return AttrText(name, av)
}
