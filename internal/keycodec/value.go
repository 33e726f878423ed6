package keycodec

import (
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

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
// as a write renders it ([IndexKey.Render]): [Value], then [AttrText]. err
// is the encoder's; bad and present are AttrText's.
func ValueText(enc *attributevalue.Encoder, name string, v any) (text string, present bool, bad *Refusal, err error) {
	av, err := Value(enc, v)
	if err != nil {
		return "", false, nil, err
	}
	text, present, bad = AttrText(name, av)
	return text, present, bad, nil
}
