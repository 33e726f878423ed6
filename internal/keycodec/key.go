package keycodec

import (
	"strings"
)

// Join builds names joined by Sep, then Sep and id escaped, with one
// allocation: Join("a91", "STU") is "STU#a91".
func Join(id string, names ...string) string {
	n := EscapedLen(id)
	for _, s := range names {
		n += len(s) + 1
	}
	var b strings.Builder
	b.Grow(n)
	for _, s := range names {
		b.WriteString(s)
		b.WriteByte(Sep)
	}
	AppendEscaped(&b, id)
	return b.String()
}

// ParseID reads back an id that a key holds escaped, s: the inverse of
// the escaping for the ids CheckID accepts. ok is false for anything else
// (a raw '#', a malformed escape, an empty id, or one no call would take,
// with a control character), so that every id a key parses to names the
// item it was read from. It is the one parser of ids in keys.
func ParseID(name, s string) (id string, ok bool) {
	if plainID(s) {
		return s, true // as Unescape and CheckID would find, in one pass
	}
	id, err := Unescape(s)
	return id, err == nil && CheckID(name, id) == nil
}

// plainID reports whether s is a non-empty id of printable ASCII without
// Sep or Esc: one that its key holds as it is and CheckID accepts, the
// common case ParseID reads without unescaping.
func plainID(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == Sep || c == Esc {
			return false
		}
	}
	return s != ""
}

// SortKeySpace is where node items of typ sit in their partition's sort
// key order: the exact marker, or for a self-keyed node the prefix
// "TYPE#" (its sort key is its node key). Every key the codec builds is a
// prefix of names ending in '#' followed by an escaped id, which holds no
// '#', so two item types' keys can be equal only if their prefixes are: a
// handle whose prefix equals this space would read node items as its own.
func SortKeySpace(typ, marker string) string {
	if marker == "" {
		return typ + "#"
	}
	return marker
}
