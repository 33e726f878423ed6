package adjlist

import (
	"fmt"

	"github.com/adjlist/adjlist/internal/itemsize"
)

// MaxItemSize is DynamoDB's limit on one item: 400 KB, that is 409,600
// bytes, counting attribute names and values by [ItemSize]'s rules.
const MaxItemSize = 400 * 1024

// ItemSize returns the size DynamoDB charges against [MaxItemSize] for
// item: for each attribute, the UTF-8 length of its name plus the size of
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
func ItemSize(item Item) int { return itemsize.Of(item) }

// checkSize refuses an item over MaxItemSize before it is sent.
func checkSize(item Item) error {
	if n := ItemSize(item); n > MaxItemSize {
		return fmt.Errorf("%w: %d bytes, DynamoDB allows %d", ErrItemTooLarge, n, MaxItemSize)
	}
	return nil
}
