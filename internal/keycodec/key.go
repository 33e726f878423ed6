package keycodec

import (
	"strings"
)

// Escape is id escaped, with one allocation: Escape("a#91") is "a%2391".
func Escape(id string) string {
	var b strings.Builder
	b.Grow(EscapedLen(id))
	AppendEscaped(&b, id)
	return b.String()
}

// ParseID reads back an id a key holds escaped. ok is false for anything
// CheckID would refuse or AppendEscaped cannot write, so that every id a
// key parses to names the item it was read from.
func ParseID(name, s string) (id string, ok bool) {
	if plainID(s) {
		return s, true // as Unescape and CheckID would find, in one pass
	}
	id, err := Unescape(s)
	return id, err == nil && CheckID(name, id) == nil
}

// plainID reports whether s is a non-empty id of printable ASCII without
// Sep or Esc: the common case, read without unescaping.
func plainID(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == Sep || c == Esc {
			return false
		}
	}
	return s != ""
}

// SortKeySpace is where node items of typ sit in their partition's sort
// key order: the marker, or for a self-keyed node "TYPE#". Escaped ids
// hold no '#', so two item types' keys meet only if their prefixes do: a
// handle whose prefix equals this space would read node items as its own.
func SortKeySpace(typ, marker string) string {
	if marker == "" {
		return typ + "#"
	}
	return marker
}
