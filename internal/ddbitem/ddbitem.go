// Package ddbitem is what adjlist and its commands know of an item's
// attributes: comparison as DynamoDB does ([Equal]), derived key
// attributes ([Attrs]), the attributes a Go type marshals to ([Of]).
package ddbitem

import (
	"maps"
	"reflect"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Equal reports whether two items hold the same attributes and values;
// set members compare in any order, as DynamoDB keeps none.
func Equal(a, b map[string]types.AttributeValue) bool { return maps.EqualFunc(a, b, EqualValue) }

// EqualValue is [Equal] of two attribute values.
func EqualValue(a, b types.AttributeValue) bool {
	switch a := a.(type) {
	case *types.AttributeValueMemberM:
		b, ok := b.(*types.AttributeValueMemberM)
		return ok && Equal(a.Value, b.Value)
	case *types.AttributeValueMemberL:
		b, ok := b.(*types.AttributeValueMemberL)
		return ok && slices.EqualFunc(a.Value, b.Value, EqualValue)
	case *types.AttributeValueMemberSS:
		b, ok := b.(*types.AttributeValueMemberSS)
		return ok && sameSet(a.Value, b.Value)
	case *types.AttributeValueMemberNS:
		b, ok := b.(*types.AttributeValueMemberNS)
		return ok && sameSet(a.Value, b.Value)
	case *types.AttributeValueMemberBS:
		b, ok := b.(*types.AttributeValueMemberBS)
		return ok && sameSet(byteStrings(a.Value), byteStrings(b.Value))
	}
	return reflect.DeepEqual(a, b)
}

func sameSet(a, b []string) bool {
	return len(a) == len(b) && slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

func byteStrings(bs [][]byte) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = string(b)
	}
	return out
}

// ValidIndexName reports whether s follows DynamoDB's naming rule for
// indexes: 3 to 255 ASCII letters, digits, '_', '-' or '.'.
func ValidIndexName(s string) bool {
	if len(s) < 3 || len(s) > 255 {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}
