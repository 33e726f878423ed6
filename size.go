package adjlist

import (
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// maxItemSize is DynamoDB's limit on one item: 400 KB, counted by
// [ItemSize]'s rules.
const maxItemSize = 400 * 1024

// ItemSize returns the size in bytes DynamoDB charges against its 400 KB
// (409,600 bytes) item limit for item: for each attribute, the UTF-8 length of its name plus the size of
// its value, where
//
//   - a string or binary value counts its length in bytes;
//   - a number counts 1 byte plus 1 per two significant digits (leading and
//     trailing zeros trimmed);
//   - a boolean or null counts 1 byte;
//   - a set counts the sum of its elements;
//   - a list or map counts 3 bytes, plus 1 byte and the size of each
//     element (and, in a map, the length of each key).
//
// Strings, binaries and booleans are exact; numbers and documents follow
// the rules AWS documents and may be off by a few bytes.
func ItemSize(item Item) int {
	n := 0
	for name, v := range item {
		n += len(name) + valueSize(v)
	}
	return n
}

// checkSize refuses an item over maxItemSize before it is sent.
func checkSize(item Item) error {
	if n := ItemSize(item); n > maxItemSize {
		return fmt.Errorf("%w: %d bytes, DynamoDB allows %d", ErrItemTooLarge, n, maxItemSize)
	}
	return nil
}

// valueSize is the size of one attribute value, by [ItemSize]'s rules.
func valueSize(v types.AttributeValue) int {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return numberSize(v.Value)
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1
	case *types.AttributeValueMemberSS:
		return sumSize(v.Value, func(s string) int { return len(s) })
	case *types.AttributeValueMemberNS:
		return sumSize(v.Value, numberSize)
	case *types.AttributeValueMemberBS:
		return sumSize(v.Value, func(b []byte) int { return len(b) })
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range v.Value {
			n += 1 + valueSize(e)
		}
		return n
	case *types.AttributeValueMemberM:
		n := 3
		for k, e := range v.Value {
			n += 1 + len(k) + valueSize(e)
		}
		return n
	}
	return 0
}

// sumSize is the size of a set: its members' sizes added.
func sumSize[E any](set []E, size func(E) int) int {
	n := 0
	for _, e := range set {
		n += size(e)
	}
	return n
}

// numberSize is 1 byte plus one per two significant digits.
func numberSize(s string) int {
	s = strings.TrimLeft(s, "+-")
	mant, _, _ := strings.Cut(strings.ToLower(s), "e")
	digits := strings.Replace(mant, ".", "", 1)
	digits = strings.TrimLeft(digits, "0")
	digits = strings.TrimRight(digits, "0")
	return 1 + (len(digits)+1)/2
}
