package ddbitem

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// Key is one item's primary key as text: its partition and sort key
// values (a number key's decimal text). The root package's Key mirrors it
// for its own documentation; paging and walks alias it.
type Key struct{ PK, SK string }

// Keys are a table's key attributes and types ("" is S), which spell
// every request's key.
type Keys struct {
	PartitionKey, SortKey         string
	PartitionKeyType, SortKeyType types.ScalarAttributeType
}

// Number reports whether name is a key attribute of type N.
func (k Keys) Number(name string) bool {
	return name == k.PartitionKey && k.PartitionKeyType == types.ScalarAttributeTypeN ||
		name == k.SortKey && k.SortKeyType == types.ScalarAttributeTypeN
}

// Value is key attribute name's value of key text s.
func (k Keys) Value(name, s string) types.AttributeValue {
	if k.Number(name) {
		return &types.AttributeValueMemberN{Value: s}
	}
	return &types.AttributeValueMemberS{Value: s}
}

// Item is the primary key whose key texts are pk and sk, as a request's
// Key, e.g. {"id": N 42, "sk": S "order"} on a table keyed id N, sk S.
func (k Keys) Item(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{k.PartitionKey: k.Value(k.PartitionKey, pk), k.SortKey: k.Value(k.SortKey, sk)}
}

// Text is key attribute item[name] as key text.
func (k Keys) Text(item map[string]types.AttributeValue, name string) (string, bool) {
	return k.TextOf(name, item[name]) // one map lookup: every read item comes here twice
}

// TextOf is [Keys.Text] of key attribute name's value av, looked up
// already.
func (k Keys) TextOf(name string, av types.AttributeValue) (string, bool) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value, true
	case *types.AttributeValueMemberN:
		if k.Number(name) {
			return v.Value, true
		}
	}
	return "", false
}
