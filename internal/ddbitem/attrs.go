package ddbitem

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// String is item's attribute name if it is a string.
func String(item map[string]types.AttributeValue, name string) (string, bool) {
	s, ok := item[name].(*types.AttributeValueMemberS)
	if !ok {
		return "", false
	}
	return s.Value, true
}

// StringOf is av's string, "" if av is not one: [String] of an
// attribute looked up already.
func StringOf(av types.AttributeValue) string {
	if s, ok := av.(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

// Attr is a derived key attribute and the value an item should carry.
type Attr struct{ Name, Value string }

// Attrs are an item's derived key attributes: a handful, in a slice
// reused from item to item.
type Attrs []Attr

// Get is the value of attribute name.
func (a Attrs) Get(name string) (value string, ok bool) {
	for _, x := range a {
		if x.Name == name {
			return x.Value, true
		}
	}
	return "", false
}
