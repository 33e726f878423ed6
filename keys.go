package adjlist

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/adjlist/adjlist/internal/keycodec"
)

// DynamoDB's size limits for key attribute values, in UTF-8 bytes.
const (
	// MaxPartitionKeyLen is the largest partition key value DynamoDB accepts:
	// 2048 bytes. It applies to the table's partition key and to an index's.
	MaxPartitionKeyLen = 2048
	// MaxSortKeyLen is the largest sort key value DynamoDB accepts: 1024
	// bytes. It applies to the table's sort key and to an index's.
	MaxSortKeyLen = 1024
)

// KeyError describes a key that adjlist refuses to build or parse. It matches
// [ErrInvalidKey] with errors.Is. It is returned before any request is sent.
type KeyError struct {
	// Name is the node type, edge label or key attribute concerned, if known.
	Name string
	// ID is the offending id or key value, as given (it may be invalid UTF-8).
	ID string
	// Reason says what is wrong, e.g. "empty id".
	Reason string
}

// Error says which name and id were refused, and why.
func (e *KeyError) Error() string {
	if e.Name == "" {
		return fmt.Sprintf("adjlist: invalid key %q: %s", e.ID, e.Reason)
	}
	return fmt.Sprintf("adjlist: invalid key %s %q: %s", e.Name, e.ID, e.Reason)
}

// Unwrap returns [ErrInvalidKey].
func (e *KeyError) Unwrap() error { return ErrInvalidKey }

// checkName validates a programmer-chosen node type, edge label or item
// marker (see [NewNode] and [NewEdge] for the alphabet).
func checkName(kind, name string) error {
	if !keycodec.ValidName(name) {
		return &KeyError{Name: kind, ID: name, Reason: "names are 1-64 ASCII letters, digits, '_', '-' or '.'"}
	}
	return nil
}

// checkID validates a user-supplied id before it is escaped.
// Ids may not contain control characters (C0: U+0000-U+001F, DEL U+007F,
// C1: U+0080-U+009F). DynamoDB would store them, but a NUL or an escape
// sequence in a key is never a real identifier: it truncates C strings,
// rewrites terminals and hides in logs, so it is refused as hostile input.
func checkID(name, id string) error {
	switch {
	case id == "":
		return &KeyError{Name: name, ID: id, Reason: "empty id"}
	case !utf8.ValidString(id):
		return &KeyError{Name: name, ID: id, Reason: "id is not valid UTF-8"}
	case hasControl(id):
		return &KeyError{Name: name, ID: id, Reason: "id contains a control character"}
	}
	return nil
}

// hasControl reports whether the valid UTF-8 string s holds a C0 or C1
// control character or DEL.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || (c == 0xc2 && i+1 < len(s) && s[i+1] < 0xa0) {
			return true
		}
	}
	return false
}

// checkLen enforces DynamoDB's key size limit for attr on the built key.
func checkLen(name, attr, key string, limit int) error {
	if len(key) > limit {
		return &KeyError{Name: name, ID: key, Reason: fmt.Sprintf("%s value is %d bytes, DynamoDB allows %d", attr, len(key), limit)}
	}
	return nil
}

// checkKeys enforces DynamoDB's key size limits on an item's primary key
// everywhere it lands: on the table (pk up to [MaxPartitionKeyLen], sk up
// to [MaxSortKeyLen]) and, on an index keyed on the table's sort key, in
// that index too, where every item's pk is an index sort key (so up to
// MaxSortKeyLen as well).
func (t *Table) checkKeys(name, pk, sk string) error {
	if err := checkLen(name, "partition key", pk, MaxPartitionKeyLen); err != nil {
		return err
	}
	if err := checkLen(name, "sort key", sk, MaxSortKeyLen); err != nil {
		return err
	}
	if t.layout == sortKeyIndex {
		return checkLen(name, "index sort key", pk, MaxSortKeyLen)
	}
	return nil
}

// checkIndexKeys enforces the limits on explicit index key values.
func checkIndexKeys(name, ipk, isk string) error {
	if err := checkLen(name, "index partition key", ipk, MaxPartitionKeyLen); err != nil {
		return err
	}
	return checkLen(name, "index sort key", isk, MaxSortKeyLen)
}

// joinKey builds prefix + "#" ... + escaped id with one allocation.
func joinKey(id string, names ...string) string {
	n := keycodec.EscapedLen(id)
	for _, s := range names {
		n += len(s) + 1
	}
	var b strings.Builder
	b.Grow(n)
	for _, s := range names {
		b.WriteString(s)
		b.WriteByte(keycodec.Sep)
	}
	keycodec.AppendEscaped(&b, id)
	return b.String()
}

// NodeKey returns the key of a node: nodeType + "#" + escaped id. It is the
// partition key of the node's item collection and the value an edge stores
// to point at the node, e.g.
//
//	NodeKey("STU", "a91")   == "STU#a91"
//	NodeKey("CRS", "x#1%")  == "CRS#x%231%25"
//
// The id may be any non-empty valid UTF-8 string without control
// characters (U+0000-U+001F, U+007F-U+009F). '%' and '#' in it are
// percent-encoded ("%25", "%23"); every other byte is kept, so the key of an
// id without them is the id itself behind the prefix and sorts in the id's
// byte order. Because an escaped id never contains '#', distinct (type, id)
// pairs give distinct keys and no key falls inside another type's
// begins_with range ("STU#").
//
// NodeKey returns a [*KeyError] (errors.Is [ErrInvalidKey]) for an invalid
// nodeType, an empty or non-UTF-8 id, an id with a control character, or a
// key over [MaxPartitionKeyLen]
// bytes. It makes no request.
func NodeKey(nodeType, id string) (string, error) {
	if err := checkName("node type", nodeType); err != nil {
		return "", err
	}
	if err := checkID(nodeType, id); err != nil {
		return "", err
	}
	k := joinKey(id, nodeType)
	if err := checkLen(nodeType, "partition key", k, MaxPartitionKeyLen); err != nil {
		return "", err
	}
	return k, nil
}

// ParseNodeKey splits a key made by [NodeKey] back into its node type and
// id: ParseNodeKey("STU#a91") returns "STU", "a91". It returns a
// [*KeyError] (errors.Is [ErrInvalidKey]) for a string NodeKey cannot have
// produced.
func ParseNodeKey(key string) (nodeType, id string, err error) {
	nodeType, rest, ok := strings.Cut(key, string(keycodec.Sep))
	if !ok || checkName("node type", nodeType) != nil {
		return "", "", &KeyError{ID: key, Reason: "not a node key (TYPE#id)"}
	}
	id, ok = parseID(nodeType, rest)
	if !ok {
		return "", "", &KeyError{Name: nodeType, ID: key, Reason: "malformed id"}
	}
	return nodeType, id, nil
}

// parseID reads back an id that a key holds escaped, s: the inverse of
// the escaping for the ids [checkID] accepts. ok is false for anything
// else (a raw '#', a malformed escape, an empty id, or one no call would
// take, with a control character), so that every id a key parses to names
// the item it was read from. It is the one parser of ids in keys.
func parseID(name, s string) (id string, ok bool) {
	id, err := keycodec.Unescape(s)
	return id, err == nil && checkID(name, id) == nil
}

// EdgeKey returns the sort key of an edge item in its source node's
// partition: label + "#" + toType + "#" + escaped toID, e.g.
//
//	EdgeKey("ENROLL", "CRS", "math204") == "ENROLL#CRS#math204"
//
// toID is escaped as in [NodeKey]. The forward listing of an edge queries
// begins_with(SK, "ENROLL#CRS#"), which ends with the separator, so no id
// can reach into it from another label, type or id.
//
// EdgeKey returns a [*KeyError] (errors.Is [ErrInvalidKey]) for an invalid
// label or toType, an empty or non-UTF-8 toID, or a key over
// [MaxSortKeyLen] bytes. It makes no request.
func EdgeKey(label, toType, toID string) (string, error) {
	if err := checkName("edge label", label); err != nil {
		return "", err
	}
	if err := checkName("node type", toType); err != nil {
		return "", err
	}
	if err := checkID(toType, toID); err != nil {
		return "", err
	}
	k := joinKey(toID, label, toType)
	if err := checkLen(label, "sort key", k, MaxSortKeyLen); err != nil {
		return "", err
	}
	return k, nil
}

// ParseEdgeKey splits a key made by [EdgeKey] back into its parts:
// ParseEdgeKey("ENROLL#CRS#math204") returns "ENROLL", "CRS", "math204".
// It returns a [*KeyError] (errors.Is [ErrInvalidKey]) for a string EdgeKey
// cannot have produced.
func ParseEdgeKey(sk string) (label, toType, toID string, err error) {
	label, rest, ok := strings.Cut(sk, string(keycodec.Sep))
	if !ok || checkName("edge label", label) != nil {
		return "", "", "", &KeyError{ID: sk, Reason: "not an edge key (LABEL#TYPE#id)"}
	}
	toType, toID, err = ParseNodeKey(rest)
	if err != nil {
		return "", "", "", &KeyError{Name: label, ID: sk, Reason: "not an edge key (LABEL#TYPE#id)"}
	}
	return label, toType, toID, nil
}
