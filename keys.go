package adjlist

import (
	"github.com/adjlist/adjlist/internal/errs"
	"github.com/adjlist/adjlist/internal/keycodec"
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

// checkName validates a programmer-chosen node type, edge label or item
// marker (see [NewNode] and [NewEdge] for the alphabet).
func checkName(kind, name string) error { return errs.Key(keycodec.CheckName(kind, name)) }

// checkID validates a user-supplied id before it is escaped
// (keycodec.CheckID).
func checkID(name, id string) error { return errs.Key(keycodec.CheckID(name, id)) }

// checkLen enforces DynamoDB's key size limit for attr on the built key.
func checkLen(name, attr, key string, limit int) error {
	return errs.Key(keycodec.CheckLen(name, attr, key, limit))
}

// checkKeys enforces DynamoDB's key size limits on an item's primary key
// everywhere it lands: on an index keyed on the table's sort key, pk is an
// index sort key too.
func (t *Table) checkKeys(name, pk, sk string) error {
	if err := checkLen(name, "partition key", pk, keycodec.MaxPartitionKeyLen); err != nil {
		return err
	}
	if err := checkLen(name, "sort key", sk, keycodec.MaxSortKeyLen); err != nil {
		return err
	}
	if t.layout == sortKeyIndex {
		return checkLen(name, "index sort key", pk, keycodec.MaxSortKeyLen)
	}
	return nil
}

// Key returns the primary key of the edge from → to, e.g. ("STU#a91",
// "ENROLL#CRS#math204"): the source's key, then label, target type and
// target id. Ids are escaped as [Node.Key] escapes them. Bad ids or a key
// over DynamoDB's limits give a [*KeyError] (errors.Is [ErrInvalidKey]),
// and a bad handle its own error, with pk and sk "" as with [Node.Key].
// It makes no request.
func (e *Edge[E]) Key(from, to string) (pk, sk string, err error) {
	k, err := e.keyed(from, to)
	return whole(k.kc.PK, k.kc.SK, err)
}
