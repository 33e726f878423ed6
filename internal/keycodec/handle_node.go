package keycodec

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
