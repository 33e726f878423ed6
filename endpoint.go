package adjlist

import (
	"fmt"
	"strings"

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
// an edge into a node stores the node key:
//
//	tagged := adjlist.NewEdge[Tagging](tags, "TAGGED", projects) // TAG → child PROJ of WS
//	PK     = "TAG#go"
//	SK     = "TAGGED#WS#acme#PROJ#2026-0042"   label + "#" + the child's ref
//	GSI1PK = "WS#acme#PROJ#2026-0042"          the child's ref: its own index partition
//	GSI1SK = "TAG#go"
//
// and an edge from a child lives in a partition of its own, keyed by the
// ref (the child item stays in its parent's collection):
//
//	tags := adjlist.NewEdge[Tagging](projects, "HAS", tagNodes)  // child PROJ of WS → TAG
//	PK     = "WS#acme#PROJ#2026-0042"          SK = "HAS#TAG#go"
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
	err    error
	// item is the primary key of the endpoint's own item: the node item,
	// or the child item in its (possibly sharded) collection.
	item func(id string) (pk, sk string, err error)
	// children lists a parent's children of a child endpoint (nil for a
	// node endpoint), keys only, for the cascades.
	children func(parentID string) (edgeScan, error)
}

func (n *Node[N]) endpoint() endpoint {
	return endpoint{t: n.t, typ: n.typ, marker: n.marker, rid: n.recordID(), err: n.err, item: n.Key}
}

func (c *Collection[P, C]) endpoint() endpoint {
	return endpoint{t: c.t, typ: c.childType, parent: c.parent.typ, rid: c.it.kind, err: c.err, children: c.children,
		item: func(ref string) (string, string, error) {
			p, ch, err := c.ParseRef(ref)
			if err != nil {
				return "", "", err
			}
			return c.Key(p, ch)
		}}
}

// isChild reports whether the endpoint is a collection's children.
func (p endpoint) isChild() bool { return p.parent != "" }

// key is the key the edge stores for endpoint id: the node key
// "CRS#math204", or the child's ref itself once checked.
func (p endpoint) key(id string) (string, error) {
	if !p.isChild() {
		return NodeKey(p.typ, id)
	}
	if _, _, err := splitRef(p.parent, p.typ, id); err != nil {
		return "", err
	}
	return id, nil
}

// parse is the id of the endpoint whose key is key: the node id, or the
// ref; ok is false for a key of another type.
func (p endpoint) parse(key string) (id string, ok bool) {
	if !p.isChild() {
		typ, id, err := ParseNodeKey(key)
		return id, err == nil && typ == p.typ
	}
	_, _, err := splitRef(p.parent, p.typ, key)
	return key, err == nil
}

// keyPrefix is what every key of the endpoint starts with, "CRS#" or, for
// children, their parent's "WS#".
func (p endpoint) keyPrefix() string {
	if p.isChild() {
		return p.parent + "#"
	}
	return p.typ + "#"
}

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

// spelling is the key an edge stores for the endpoint, its id field
// named side: a node key "CRS#<to>", or a child's ref
// "WS#<to parent>#PROJ#<to>".
func (p endpoint) spelling(side string) spelling {
	if p.isChild() {
		return spelling{{Kind: keycodec.Lit, Text: p.parent + "#"}, {Kind: keycodec.Field, Text: side + " parent"}, {Kind: keycodec.Lit, Text: "#" + p.typ + "#"}, {Kind: keycodec.Field, Text: side}}
	}
	return spelling{{Kind: keycodec.Lit, Text: p.typ + "#"}, {Kind: keycodec.Field, Text: side}}
}

// missing is the error of a PutChecked whose endpoint item is absent.
func (p endpoint) missing(side, id string) error {
	return &NodeNotFoundError{Side: side, Type: p.typ, ID: id}
}

// Ref returns the ref of a child, the key an edge stores to point at it
// ([Endpoint]): the parent's node key and the child's,
//
//	projects.Ref("acme", "2026-0042") == "WS#acme#PROJ#2026-0042"
//
// with both ids escaped as in [NodeKey], so any ids give a ref that
// [Collection.ParseRef] splits back. It is the same with or without
// [CollectionOptions].Shards: a ref names the child, not its partition.
// Errors match [ErrInvalidKey] (an empty, non-UTF-8 or control-character
// id, a ref over [MaxPartitionKeyLen] bytes) or the handle's own error.
// It makes no request.
func (c *Collection[P, C]) Ref(parentID, childID string) (string, error) {
	if c.err != nil {
		return "", c.err
	}
	if err := checkID(c.parent.typ, parentID); err != nil {
		return "", err
	}
	if err := checkID(c.childType, childID); err != nil {
		return "", err
	}
	ref := joinKey(parentID, c.parent.typ) + "#" + joinKey(childID, c.childType)
	return ref, checkLen(c.childType, "partition key", ref, MaxPartitionKeyLen)
}

// ParseRef splits a ref made by [Collection.Ref] back into the parent and
// child ids: ParseRef("WS#acme#PROJ#2026-0042") returns "acme",
// "2026-0042". It returns a [*KeyError] (errors.Is [ErrInvalidKey]) for a
// string that is not a ref of this collection's types. It makes no
// request.
func (c *Collection[P, C]) ParseRef(ref string) (parentID, childID string, err error) {
	if c.err != nil {
		return "", "", c.err
	}
	return splitRef(c.parent.typ, c.childType, ref)
}

// splitRef parses "PARENT#parentID#CHILD#childID" for the given types:
// two node keys, each parsed as ParseNodeKey does.
func splitRef(parentType, childType, ref string) (parentID, childID string, err error) {
	bad := &KeyError{Name: childType, ID: ref, Reason: fmt.Sprintf("not a ref of a %s child of %s (%s#<id>#%s#<id>)", childType, parentType, parentType, childType)}
	// The parent's key ends at the separator after its escaped id.
	n := len(parentType) + 1
	i := strings.IndexByte(ref[min(n, len(ref)):], keycodec.Sep)
	if len(ref) > MaxPartitionKeyLen || !strings.HasPrefix(ref, parentType+"#") || i < 0 {
		return "", "", bad
	}
	pt, parentID, perr := ParseNodeKey(ref[:n+i])
	ct, childID, cerr := ParseNodeKey(ref[n+i+1:])
	if perr != nil || cerr != nil || pt != parentType || ct != childType {
		return "", "", bad
	}
	return parentID, childID, nil
}

// txCheck adds to tx a check that endpoint id's item exists: the node
// item, or the child item in its collection. It is [Node.TxCheck] with no
// options for an endpoint of either kind, whose [*NodeNotFoundError] names
// side.
func (p endpoint) txCheck(tx *Tx, id, side string) {
	pk, sk, err := p.item(id)
	var w *writeCond
	if err == nil {
		w, err = p.t.changeCond(&tracking{}, actCheck, nil)
	}
	if tx.setErr(err) {
		return
	}
	w.missing = p.missing(side, id)
	tx.check("Edge.PutChecked", itemKey{pk, sk}, w)
}
