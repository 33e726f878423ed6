package adjlist

import (
	"github.com/adjlist/adjlist/internal/keycodec"
)

// Endpoint is what an edge can join ([NewEdge]): the nodes of one type
// (*[Node]) or the children of one item collection (*[Collection]). Its
// only method is unexported, so no other type implements it.
//
// An edge names a node endpoint by its id ("math204") and a child
// endpoint by its ref, the child's full key: the parent's node key and the
// child's, "WS#acme#PROJ#2026-0042" ([Collection.Ref]). Each end of an
// edge item holds that key, so an edge into a child stores the ref where
// an edge into a node stores the node key, and an edge from a child lives
// in a partition of its own, keyed by the ref; docs/modelling.md
// ("Children as edge endpoints") shows the items.
//
// A ref parses back into both ids because escaped ids never hold '#'
// ([Collection.ParseRef]); it must fit each key it lands in, as a node key
// must: the sort key of an edge into the child (1,024 bytes with the
// label) and the index partition key (2,048 bytes).
type Endpoint interface {
	endpoint() endpoint
}

// endpoint is one end of an edge kind.
type endpoint struct {
	t      *Table
	typ    string // the node type "CRS", or the child type "PROJ"
	parent string // a child endpoint's parent node type "WS"; "" for nodes
	marker string // a node endpoint's item marker ("" self-keyed)
	rid    string // the record id of the endpoint's own items' type
	// ref is a child endpoint's ref spelling; nil for nodes.
	ref *keycodec.Ref
	err error
	// item is the primary key of the endpoint's own item, in a sharded
	// collection too.
	item func(id string) (pk, sk string, err error)
	// children lists a parent's children of a child endpoint (nil for a
	// node endpoint), keys only, for the cascades.
	children func(parentID string) (edgeScan, error)
}

func (n *nodeCore) endpoint() endpoint {
	return endpoint{t: n.t, typ: n.typ, marker: n.marker, rid: n.recordID(), err: n.err, item: n.key}
}

func (c *collectionCore) endpoint() endpoint {
	return endpoint{t: c.t, typ: c.childType, parent: c.parent.name(), rid: c.it.kind, ref: c.ref, err: c.err, children: c.children,
		item: func(ref string) (string, string, error) {
			p, ch, err := c.parseRef(ref)
			if err != nil {
				return "", "", err
			}
			return c.key(p, ch)
		}}
}

// spell is how the endpoint's keys are spelled.
func (p endpoint) spell() keycodec.End {
	return keycodec.End{Type: p.typ, Parent: p.parent, Key: p.keySpelling(0)}
}

// keySpelling is the key an edge stores for the endpoint's id at field:
// "CRS#{id}", or a child's ref.
func (p endpoint) keySpelling(field int) keycodec.Spelling {
	if p.isChild() {
		return keycodec.RefField(field, p.ref)
	}
	return nodeSpelling(p.typ, field)
}

// isChild reports whether the endpoint is a collection's children.
func (p endpoint) isChild() bool { return p.parent != "" }

// same reports whether p and q are the same endpoint type.
func (p endpoint) same(q endpoint) bool { return p.typ == q.typ && p.parent == q.parent }

// String names the endpoint in messages and models: "CRS", or "WS/PROJ"
// for the PROJ children of WS nodes.
func (p endpoint) String() string {
	if p.isChild() {
		return p.parent + "/" + p.typ
	}
	return p.typ
}

// Ref returns the ref of a child, the key an edge stores to point at it
// ([Endpoint]): the parent's node key and the child's,
//
//	projects.Ref("acme", "2026-0042") == "WS#acme#PROJ#2026-0042"
//
// with both ids escaped as in [Node.Key], so any ids give a ref that
// [Collection.ParseRef] splits back. It is the same with or without
// [CollectionOptions].Shards: a ref names the child, not its partition.
// Errors match [ErrInvalidKey] (an empty, non-UTF-8 or control-character
// id, a ref over 2048 bytes) or the handle's own error.
// It makes no request.
func (c *Collection[C, P]) Ref(parentID, childID string) (string, error) {
	return c.refOf(parentID, childID)
}

// refOf is [Collection.Ref].
func (c *collectionCore) refOf(parentID, childID string) (string, error) {
	if c.err != nil {
		return "", c.err
	}
	return c.ref.Spelling.Key([]string{parentID, childID}, c.childType, "partition key", keycodec.MaxPartitionKeyLen)
}

// ParseRef splits a ref made by [Collection.Ref] back into the parent and
// child ids: ParseRef("WS#acme#PROJ#2026-0042") returns "acme",
// "2026-0042". It returns a [*KeyError] (errors.Is [ErrInvalidKey]) for a
// string that is not a ref of this collection's types. It makes no
// request.
func (c *Collection[C, P]) ParseRef(ref string) (parentID, childID string, err error) {
	return c.parseRef(ref)
}

// parseRef is [Collection.ParseRef].
func (c *collectionCore) parseRef(ref string) (parentID, childID string, err error) {
	if c.err != nil {
		return "", "", c.err
	}
	var ids [2]string
	if err := c.ref.Parse(ref, ids[:]); err != nil {
		return "", "", err
	}
	return ids[0], ids[1], nil
}

// txCheck adds to tx a check that endpoint id's item exists, as
// [Node.TxCheck] with no options, whose [*NodeNotFoundError] names side.
func (p endpoint) txCheck(tx *Tx, id, side string) {
	pk, sk, err := p.item(id)
	w, err := handle{t: p.t, tr: &tracking{}}.change(actCheck, err, &NodeNotFoundError{Side: side, Type: p.typ, ID: id}, nil)
	if tx.setErr(err) {
		return
	}
	tx.check("Edge.Put", Key{pk, sk}, w)
}
