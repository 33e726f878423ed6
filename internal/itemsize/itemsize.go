// Package itemsize is DynamoDB's item size arithmetic, behind
// adjlist.ItemSize (whose doc states the rules) and the check every write
// makes against the 400 KB limit before it is sent.
package itemsize

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Of returns the size DynamoDB charges for item: for each attribute, the
// length of its name plus the size of its value.
func Of(item map[string]types.AttributeValue) int {
	n := 0
	for name, v := range item {
		n += len(name) + value(v)
	}
	return n
}

func value(v types.AttributeValue) int {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return number(v.Value)
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1
	case *types.AttributeValueMemberSS:
		return sum(v.Value, func(s string) int { return len(s) })
	case *types.AttributeValueMemberNS:
		return sum(v.Value, number)
	case *types.AttributeValueMemberBS:
		return sum(v.Value, func(b []byte) int { return len(b) })
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range v.Value {
			n += 1 + value(e)
		}
		return n
	case *types.AttributeValueMemberM:
		n := 3
		for k, e := range v.Value {
			n += 1 + len(k) + value(e)
		}
		return n
	}
	return 0
}

// sum is the size of a set: its members' sizes added.
func sum[E any](set []E, size func(E) int) int {
	n := 0
	for _, e := range set {
		n += size(e)
	}
	return n
}

// number is 1 byte plus one per two significant digits.
func number(s string) int {
	s = strings.TrimLeft(s, "+-")
	mant, _, _ := strings.Cut(strings.ToLower(s), "e")
	digits := strings.Replace(mant, ".", "", 1)
	digits = strings.TrimLeft(digits, "0")
	digits = strings.TrimRight(digits, "0")
	return 1 + (len(digits)+1)/2
}
