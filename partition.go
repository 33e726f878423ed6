package adjlist

import (
	"context"
	"fmt"

	"github.com/adjlist/adjlist/internal/paging"
)

// Target receives the items of one item type during a read of several
// ([LoadPartition], [PagePartition], [Load], [PageIndex]), decoded into the
// slice it was made with by the type's handle: [Node.Into], [Edge.Into],
// [Collection.Into] or [Entity.Into]. Every read refuses a target of
// another table; LoadPartition and PagePartition also refuse one whose
// items are not in the node's partitions (another node type's edges or
// children, an entity's, a sharded collection's children): both
// [ErrInvalidOption], before any request. A zero Target is invalid
// ([ErrInvalidOption] when used).
type Target struct {
	t    *Table
	typ  string // the node type whose partitions hold the items
	kind string
	err  error
	into paging.Sink // the slice it fills; nil in a zero Target
	// sharded marks the children of a sharded collection, which are not
	// in their parent's partition.
	sharded bool
	// h is the handle of the items' type, whose keys Load judges.
	h typedHandle
}

// Into returns a [Target] that appends to *dst every edge of this kind
// that [LoadPartition] meets in the source node's partition (in ascending
// sort key order), or [Load] or [PageIndex] meets (in the read's order).
// A nil dst is [ErrInvalidOption] when used, and so is, for LoadPartition,
// an edge from a collection's children ([Endpoint]), which are in no node
// partition.
func (e *Edge[E]) Into(dst *[]EdgeItem[E]) Target {
	tg := into(e.t, e.src.String(), "edge "+e.prefix, e.err, dst, e.decode)
	tg.h = e
	return tg
}

// Into returns a [Target] that appends to *dst every child of this type
// that [LoadPartition] meets in the parent's partition (in ascending sort
// key order), or [Load] or [PageIndex] meets (in the read's order). A nil
// dst is [ErrInvalidOption] when used.
func (c *Collection[P, C]) Into(dst *[]Child[C]) Target {
	tg := into(c.t, c.parent.name(), "child "+c.prefix, c.err, dst, c.decode)
	tg.sharded, tg.h = c.shards > 0, c
	return tg
}

// into is the Target of items of node type typ's partitions that decode
// accepts, appended to *dst.
func into[T any](t *Table, typ, kind string, err error, dst *[]T, decode func(Item) (T, bool, error)) Target {
	tg := Target{t: t, typ: typ, kind: kind, err: err}
	if dst == nil {
		tg.err = fmt.Errorf("%w: Into(nil)", ErrInvalidOption)
		return tg
	}
	tg.into = &paging.Into[T]{Dst: dst, Decode: decode}
	return tg
}

// Partition is a node's item and what [LoadPartition] did not hand to a
// target.
type Partition[N any] struct {
	ID   string // node id, e.g. "a91"
	Node N      // the node item's data
	// Other counts the items of the partition no target matched (other
	// edge labels, child types, foreign items); they are not decoded.
	Other int
}

// LoadPartition reads node id's whole partition (item collection) with one
// Query per page on the table, PK = "STU#a91" with no sort key condition,
// and decodes each item by the handle whose key shape it matches: the node
// item into Partition.Node, each edge kind and child type into the slice
// of its [Target]. For a student's profile, enrolments and notes in one
// read:
//
//	var courses []adjlist.EdgeItem[Enrollment]
//	var notes []adjlist.Child[Note]
//	p, err := adjlist.LoadPartition(ctx, students, "a91", enrolled.Into(&courses), studentNotes.Into(&notes))
//
// [LoadNode] and [Collection.Load] are the one-target cases. It returns
// [ErrNotFound] if the node item does not exist, [ErrInvalidKey] for a bad
// id, and [ErrInvalidOption] for a target of another table or node type,
// all before any request for the last two. Items whose data does not fit
// their type fail the read. With any error every target's slice is nil
// and the Partition is zero but for ID. Reads are eventually consistent;
// for a strongly consistent read of the partition, or one with a sort key
// condition, or of a partition with no node item, read it with [Load]:
//
//	var me []adjlist.NodeItem[Student]
//	q := adjlist.AllTypes(enrolled.From("a91")).ConsistentRead() // PK = "STU#a91"
//	_, err := adjlist.Load(ctx, q, students.Into(&me), enrolled.Into(&courses), studentNotes.Into(&notes))
func LoadPartition[N any](ctx context.Context, node *Node[N], id string, targets ...Target) (_ Partition[N], err error) {
	const op = "LoadPartition"
	ctx, sp := node.t.startSpan(ctx, op)
	defer sp.end(&err)
	res := Partition[N]{ID: id}
	err = checkTargets(node, targets)
	d := newDealer(node.t, targets, &res.Other)
	res.Node, err = loadPartition(ctx, op, node, id, err, ReadOptions{}, func(int) {}, d.Deal)
	if err != nil {
		resetTargets(targets)
		return Partition[N]{ID: id}, err
	}
	return res, nil
}

// newDealer is the [paging.Dealer] of targets on t's items, counting the
// items none takes in *other.
func newDealer(t *Table, targets []Target, other *int) *paging.Dealer {
	skAttr := ""
	if t != nil { // a zero Query's
		skAttr = t.opts.SortKey
	}
	d := paging.NewDealer(skAttr, other)
	for _, tg := range targets {
		d.Add(tg.into, sortKeyLead(tg.h))
	}
	return d
}

// sortKeyLead is the text every table sort key of h's item type starts
// with: its sort key template's leading text ("ITEMS#" of
// "ITEMS#{itemID}", "ENROLL#" of "ENROLL#CRS#<to>", a node item's marker
// or "STU#"), which the handle's decoder requires of every item with a
// sort key that it takes; "" when the template starts with a field, or
// for no handle.
func sortKeyLead(h typedHandle) string {
	if h == nil {
		return ""
	}
	if sk := h.keyType().sk; len(sk) > 0 && !sk[0].Variable() {
		return sk[0].Text
	}
	return ""
}

// resetTargets empties every target's slice: a failed read leaves none
// partly filled.
func resetTargets(targets []Target) {
	for _, tg := range targets {
		if tg.into != nil {
			tg.into.Reset()
		}
	}
}

// PartitionPage is one page of a partition read by [PagePartition].
type PartitionPage[N any] struct {
	Partition[N]
	// HasNode reports whether the node item was on this page (it sorts
	// among the other items by its sort key, so on one page only).
	HasNode bool
	// Cursor resumes the read after this page, as [Page.Cursor] does; ""
	// when DynamoDB reports no more items.
	Cursor string
}

// PagePartition is [LoadPartition] one page at a time, for
// request/response handlers: exactly one Query (PK = "STU#a91", at most
// limit items evaluated, 0 for DynamoDB's 1 MB page), its items decoded
// into the targets' slices, and a cursor for the next page. cursor is ""
// for the first page or a PartitionPage.Cursor of the same read; one from
// another read is [ErrInvalidCursor], before any request. A missing node
// item is not an error here: HasNode says whether this page held it. Other
// errors are as LoadPartition's, with the same guarantee: every slice nil.
func PagePartition[N any](ctx context.Context, node *Node[N], id, cursor string, limit int32, targets ...Target) (_ PartitionPage[N], err error) {
	const op = "PagePartition"
	ctx, sp := node.t.startSpan(ctx, op)
	defer sp.end(&err)
	res := PartitionPage[N]{Partition: Partition[N]{ID: id}}
	fail := func(err error) (PartitionPage[N], error) {
		resetTargets(targets)
		return PartitionPage[N]{Partition: Partition[N]{ID: id}}, err
	}
	pk, sk, err := node.Key(id)
	if err == nil {
		err = checkTargets(node, targets)
	}
	if err != nil {
		return fail(node.t.opErr(op, pk, "", err))
	}
	// Every item goes to the node or a target as the Query decodes it; the
	// Query itself yields none. A decoding error stops the page.
	d := newDealer(node.t, targets, &res.Other)
	q := newQuery(node.t, op, queryKeys{pk: pk}, func(item Item) (Item, bool, error) {
		if s, _ := stringAttr(item, node.t.opts.SortKey); s == sk {
			res.HasNode = true
			return nil, false, node.t.unmarshalData(item, &res.Node)
		}
		return nil, false, d.Deal(item)
	}).Limit(limit)
	q.fetched = d.Fetched
	page, err := q.Page(ctx, cursor)
	if err != nil {
		return fail(err)
	}
	res.Cursor = page.Cursor
	return res, nil
}

// checkTargets refuses targets that cannot hold items of node's partitions.
func checkTargets[N any](node *Node[N], targets []Target) error {
	for _, tg := range targets {
		switch {
		case tg.err != nil:
			return tg.err
		case tg.into == nil:
			return fmt.Errorf("%w: a zero Target", ErrInvalidOption)
		case tg.t != node.t || tg.typ != node.typ:
			return fmt.Errorf("%w: %s is not in %s partitions", ErrInvalidOption, tg.kind, node.typ)
		case tg.sharded:
			return fmt.Errorf("%w: %s is sharded: its items are not in the %s partition (use Collection.Load or List)", ErrInvalidOption, tg.kind, node.typ)
		}
	}
	return nil
}

// partitionQuery is the Query of every item of partition pk, run page by
// page and never decoded, that LoadPartition, LoadNode and Collection.Load
// send (op); keyErr, if any, is its error.
func partitionQuery(t *Table, op, pk string, keyErr error) Query[Item] {
	if keyErr != nil {
		return errQuery[Item](t, op, keyErr)
	}
	return newQuery[Item](t, op, queryKeys{pk: pk}, nil)
}
