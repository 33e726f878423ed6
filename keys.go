package adjlist

import (
	"github.com/adjlist/adjlist/internal/errs"
	"github.com/adjlist/adjlist/internal/keycodec"
)

// DynamoDB's size limits for key attribute values, in UTF-8 bytes, on the
// table and on an index alike.
const (
	maxPartitionKeyLen = keycodec.MaxPartitionKeyLen // 2048
	maxSortKeyLen      = keycodec.MaxSortKeyLen      // 1024
)

// KeyError describes a key that adjlist refuses to build or parse: its Name
// (the node type, edge label or key attribute concerned, if known), ID (the
// offending id or key value as given, possibly invalid UTF-8) and Reason
// (e.g. "empty id"). It matches [ErrInvalidKey] with errors.Is. A write
// returns it before any request is sent; [Migrate] returns it for a stored
// key whose value it cannot read back (an index key holding a value kept
// only inside keys, written under another template), after walking the
// table. Its Error reads `adjlist: invalid key STU "a\x00": id contains a
// control character`.
type KeyError = errs.KeyError

// keyError is e, a refusal of the key codec, as this package reports
// it: a [*KeyError], or nil.
func keyError(e *keycodec.Error) error {
	if e == nil {
		return nil
	}
	return e
}

// checkName validates a programmer-chosen node type, edge label or item
// marker (see [NewNode] and [NewEdge] for the alphabet).
func checkName(kind, name string) error { return keyError(keycodec.CheckName(kind, name)) }

// checkID validates a user-supplied id before it is escaped
// (keycodec.CheckID).
func checkID(name, id string) error { return keyError(keycodec.CheckID(name, id)) }

// checkLen enforces DynamoDB's key size limit for attr on the built key.
func checkLen(name, attr, key string, limit int) error {
	return keyError(keycodec.CheckLen(name, attr, key, limit))
}

// checkKeys enforces DynamoDB's key size limits on an item's primary key
// everywhere it lands: on the table (pk up to maxPartitionKeyLen, sk up
// to maxSortKeyLen) and, on an index keyed on the table's sort key, in
// that index too, where every item's pk is an index sort key (so up to
// maxSortKeyLen as well).
func (t *Table) checkKeys(name, pk, sk string) error {
	if err := checkLen(name, "partition key", pk, maxPartitionKeyLen); err != nil {
		return err
	}
	if err := checkLen(name, "sort key", sk, maxSortKeyLen); err != nil {
		return err
	}
	if t.layout == sortKeyIndex {
		return checkLen(name, "index sort key", pk, maxSortKeyLen)
	}
	return nil
}

// checkIndexKeys enforces the limits on explicit index key values.
func checkIndexKeys(name, ipk, isk string) error {
	if err := checkLen(name, "index partition key", ipk, maxPartitionKeyLen); err != nil {
		return err
	}
	return checkLen(name, "index sort key", isk, maxSortKeyLen)
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
// key over 2048
// bytes. It makes no request.
func NodeKey(nodeType, id string) (string, error) {
	k, err := keycodec.NodeKey(nodeType, id, maxPartitionKeyLen)
	return k, keyError(err)
}

// ParseNodeKey splits a key made by [NodeKey] back into its node type and
// id: ParseNodeKey("STU#a91") returns "STU", "a91". It returns a
// [*KeyError] (errors.Is [ErrInvalidKey]) for a string NodeKey cannot have
// produced.
func ParseNodeKey(key string) (nodeType, id string, err error) {
	nodeType, id, e := keycodec.ParseNodeKey(key)
	return nodeType, id, keyError(e)
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
// 1024 bytes. It makes no request.
func EdgeKey(label, toType, toID string) (string, error) {
	k, err := keycodec.EdgeKey(label, toType, toID, maxSortKeyLen)
	return k, keyError(err)
}

// ParseEdgeKey splits a key made by [EdgeKey] back into its parts:
// ParseEdgeKey("ENROLL#CRS#math204") returns "ENROLL", "CRS", "math204".
// It returns a [*KeyError] (errors.Is [ErrInvalidKey]) for a string EdgeKey
// cannot have produced.
func ParseEdgeKey(sk string) (label, toType, toID string, err error) {
	label, toType, toID, e := keycodec.ParseEdgeKey(sk)
	return label, toType, toID, keyError(e)
}
