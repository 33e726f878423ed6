package adjlist

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/paging"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Target receives the items of one item type during a read of several
// ([LoadPartition], [PagePartition], [Load], [PageIndex]), decoded into the
// slice it was made with: [Node.Into], [Edge.Into], [Collection.Into] or
// [Entity.Into]. A target of another table, a zero Target, and for
// LoadPartition and PagePartition one whose items are not in the head's
// partitions, are [ErrInvalidOption], before any request.
type Target struct {
	t    *Table
	typ  string // the node type whose partitions hold the items
	kind string
	err  error
	into paging.Sink // the slice it fills; nil in a zero Target
	h    typedHandle // the items' type, whose keys Load judges
}

// Into returns a [Target] that appends to *dst every edge of this kind
// that [LoadPartition] meets in the source node's partition (in ascending
// sort key order), or [Load] or [PageIndex] meets (in the read's order).
// A nil dst is [ErrInvalidOption] when used, and so is, for LoadPartition
// of a node, an edge from a collection's children ([Endpoint]), which is in
// the child's partition: LoadPartition of the [Collection] reads it.
func (e *Edge[E]) Into(dst *[]EdgeItem[E]) Target {
	return into(e.t, e.src.String(), "edge "+e.prefix, e.err, dst, e.decodeAt, &e.edgeCore)
}

// Into returns a [Target] that appends to *dst every child of this type
// that [LoadPartition] meets in the parent's partition (in ascending sort
// key order), or [Load] or [PageIndex] meets (in the read's order). A nil
// dst is [ErrInvalidOption] when used.
func (c *Collection[C, P]) Into(dst *[]Child[C]) Target {
	return into(c.t, c.parent.name(), "child "+c.prefix, c.err, dst, c.decodeAt, &c.collectionCore)
}

// into is the Target of the items of h's type that decode accepts, in
// node type typ's partitions.
func into[T any](t *Table, typ, kind string, err error, dst *[]T, decode func(Item, types.AttributeValue) (T, bool, error), h typedHandle) Target {
	tg := Target{t: t, typ: typ, kind: kind, err: err, h: h}
	if dst == nil {
		tg.err = fmt.Errorf("%w: Into(nil)", ErrInvalidOption)
		return tg
	}
	tg.into = &paging.Into[T]{Dst: dst, Decode: decode}
	return tg
}

// Partition is the item heading a partition and what [LoadPartition]
// did not hand to a target.
type Partition[N any] struct {
	ID   string // the head's id as given, e.g. "a91"
	Node N      // the head item's data: the node's, the child's, the entity item's
	// Other counts the items of the partition no target matched (other
	// edge labels, child types, foreign items); they are not decoded.
	Other int
}

// PartitionHead is an item type whose items each head a partition,
// read with [LoadPartition] and [PagePartition] and deleted with
// [DeletePartition]:
//
//   - *[Node]: id is the node id, "a91"; the partition is the node's,
//     PK = "STU#a91", with its item, its edges and its children.
//   - *[Collection]: id is the child's ref, "ORG#acme#PROJ#p1"
//     ([Collection.Ref]); the partition is the ref's, with the edges from
//     the child and the children of collections nested under it
//     ([NewNestedCollection]). The child's own item is in its parent's
//     partition: it is read with one GetItem.
//   - *[Entity] whose sort key holds no id of its own (an entity
//     "ORG#{org}#PROJ#{proj}", "META"): id is the item's partition key,
//     "ORG#acme#PROJ#p1" (ids escaped as [Entity.Key] writes them); the
//     partition holds the item and the items of entities keyed under the
//     same partition key template. Another entity is [ErrInvalidOption]
//     when used.
//
// Its only method is unexported, so no other type implements it.
type PartitionHead[N any] interface {
	partitionHead() partitionHead[N]
}

// partitionHead is a headSpec whose head's data is an N.
type partitionHead[N any] headSpec

// headSpec is how a read of a partition finds its head.
type headSpec struct {
	t   *Table
	err error
	// key gives the head item's keys and its partition's for an id; an
	// interface, not a closure, so that a read allocates none.
	key interface {
		headKey(id string) (pk, sk, partition string, err error)
	}
	apart bool   // the head item is not in its partition (a child's)
	name  string // the head's type in messages: "STU", "ORG/PROJ", "entity project"
	// shape is an entity's [pkShape], its targets' too; other heads'
	// targets are of node type name.
	shape string
}

func (n *Node[N]) partitionHead() partitionHead[N] { return partitionHead[N](n.head()) }

func (n *nodeCore) head() headSpec { return headSpec{t: n.t, err: n.err, name: n.typ, key: n} }

func (n *nodeCore) headKey(id string) (string, string, string, error) {
	pk, sk, err := n.key(id)
	return pk, sk, pk, err
}

func (c *Collection[C, P]) partitionHead() partitionHead[C] {
	return partitionHead[C](c.head())
}

func (c *collectionCore) head() headSpec {
	return headSpec{t: c.t, err: c.err, name: c.endpoint().String(), apart: true, key: c}
}

func (c *collectionCore) headKey(ref string) (string, string, string, error) {
	parentID, childID, err := c.parseRef(ref)
	if err != nil {
		return "", "", "", err
	}
	pk, sk, err := c.key(parentID, childID)
	return pk, sk, ref, err
}

func (e *Entity[T]) partitionHead() partitionHead[T] { return partitionHead[T](e.head()) }

func (e *entityCore) head() headSpec {
	h := headSpec{t: e.t, err: e.err, name: "entity " + e.name, key: e}
	if h.err != nil {
		return h
	}
	if _, exact := e.it.keys.sk.Prefix(slices.Repeat([]string{"x"}, e.pkN)); !exact {
		h.err = fmt.Errorf("%w: entity %s heads no partition: its sort key %s holds ids of its own", ErrInvalidOption, e.name, keycodec.String(e.it.sk))
		return h
	}
	h.shape = pkShape(&e.it)
	return h
}

func (e *entityCore) headKey(pk string) (string, string, string, error) {
	ids := make([]string, len(e.fields))
	if !e.it.keys.pk.Parse(pk, ids) {
		return "", "", "", fmt.Errorf("%w: %q is not a partition key of entity %s (%s)", ErrInvalidKey, pk, e.name, keycodec.String(e.it.pk))
	}
	pk, sk, err := e.key(ids...)
	return pk, sk, pk, err
}

// holds reports whether tg's items are in h's partitions.
func (h *headSpec) holds(tg Target) bool {
	if h.shape != "" {
		return tg.typ == "" && tg.h != nil && pkShape(tg.h.keyType()) == h.shape
	}
	return tg.typ == h.name
}

// pkShape is it's partition key template with its ids numbered rather
// than named: two item types with the same shape share partitions.
func pkShape(it *itemType) string {
	ids := make([]string, len(it.keys.fields))
	for i := range ids {
		ids[i] = fmt.Sprintf("<%d>", i)
	}
	return it.keys.pk.Render(ids)
}

// LoadPartition reads the whole partition that the item head's id heads
// (its item collection; see [PartitionHead]) with one Query per page on
// the table, PK = "STU#a91" with no sort key condition, and decodes each
// item by the handle whose key shape it matches: the head item into
// Partition.Node, each edge kind, child type or entity into the slice of
// its [Target]. For a student's profile, enrolments and notes in one
// read:
//
//	var courses []adjlist.EdgeItem[Enrollment]
//	var notes []adjlist.Child[Note]
//	p, err := adjlist.LoadPartition(ctx, students, "a91", enrolled.Into(&courses), studentNotes.Into(&notes))
//
// and for a project (a child of an organisation) with its issues (a
// nested collection), one GetItem of the project and the Query of PK =
// "ORG#acme#PROJ#p1":
//
//	ref, _ := projects.Ref("acme", "p1")
//	p, err := adjlist.LoadPartition(ctx, projects, ref, issues.Into(&list))
//
// [LoadNode] and [Collection.Load] are the one-target cases. It returns
// [ErrNotFound] if the head item does not exist; before any request,
// [ErrInvalidKey] for a bad id and [ErrInvalidOption] for a target of another table or whose items
// are not in the head's partitions (another node type's edges or
// children, a sharded collection's children) or an entity that heads no
// partition. Items whose data
// does not fit their type fail the read. With any error every target's
// slice is nil and the Partition is zero but for ID. Reads are eventually
// consistent; for a strongly consistent read of the partition, or one with
// a sort key condition, or of a partition with no head item, read it with
// [Load]:
//
//	var me []adjlist.NodeItem[Student]
//	q := adjlist.AllTypes(enrolled.From("a91"), adjlist.Consistent) // PK = "STU#a91"
//	_, err := adjlist.Load(ctx, q, students.Into(&me), enrolled.Into(&courses), studentNotes.Into(&notes))
func LoadPartition[N any](ctx context.Context, head PartitionHead[N], id string, targets ...Target) (Partition[N], error) {
	res := Partition[N]{ID: id}
	if _, err := headSpec(head.partitionHead()).read(ctx, "LoadPartition", id, nil, 0, ReadOptions{}, targets, &res.Other, &res.Node); err != nil {
		return Partition[N]{ID: id}, err
	}
	return res, nil
}

// read reads the partition id heads, the head item's data decoded into
// out (a pointer to an N) and the others dealt to targets or counted in
// *other: the whole partition (ErrNotFound without the head item), or
// with page set one page of at most limit items after *page, which it
// sets to the next. With any error every target's slice is nil.
func (h headSpec) read(ctx context.Context, op, id string, page *string, limit int32, o ReadOptions, targets []Target, other *int, out any) (hasNode bool, err error) {
	ctx, sp := h.t.startSpan(ctx, op)
	defer sp.End(&err)
	defer func() {
		if err != nil {
			resetTargets(targets)
		}
	}()
	pk, sk, part, err := h.keys(id, targets)
	if err = cmp.Or(err, o.err); err != nil {
		return false, h.t.opErr(op, part, "", err)
	}
	q := partitionSpec(h.t, op, part, nil)
	qsLimit(&q, limit)
	if o.ConsistentRead {
		qsConsistentRead(&q)
	}
	d := newDealer(h.t, targets, other)
	q.run.Fetched = d
	if h.apart && (page == nil || *page == "") && q.err == nil {
		// A child's item is in its parent's partition: a first page
		// finds it missing without failing.
		item, err := h.t.getItem(ctx, op, pk, sk, o)
		switch {
		case err == nil:
			hasNode = true
			if err := h.t.unmarshalData(item, out); err != nil {
				return false, h.t.opErr(op, pk, sk, err)
			}
		case page == nil || !errors.Is(err, ErrNotFound):
			return false, err
		}
	}
	decode := func(item Item) (bool, error) {
		av := item[h.t.opts.SortKey] // looked up once for the head check and the dealer
		if !h.apart && ddbitem.StringOf(av) == sk {
			hasNode = true
			return false, h.t.unmarshalData(item, out)
		}
		return false, d.DealAt(item, av)
	}
	none := func(int) {} // the dealer grows the targets' slices
	if page != nil {
		*page, err = qsPage(&q, ctx, *page, decode, none)
	} else if err = qsAll(&q, ctx, decode, none, func() bool { return true }); err == nil && !hasNode {
		err = h.t.opErr(op, pk, sk, ErrNotFound)
	}
	return hasNode, err
}

// keys are the head item's keys and its partition's for id, the targets
// checked.
func (h *headSpec) keys(id string, targets []Target) (pk, sk, partition string, err error) {
	if h.err != nil {
		return "", "", "", h.err
	}
	if pk, sk, partition, err = h.key.headKey(id); err == nil {
		err = h.check(targets)
	}
	return pk, sk, partition, err
}

// newDealer deals t's items to targets, counting in *other those none
// takes.
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

// sortKeyLead is the leading text of h's sort key template ("ITEMS#" of
// "ITEMS#{itemID}"), which h's decoder requires of every item it takes;
// "" when the template starts with a field, or for no handle.
func sortKeyLead(h typedHandle) string {
	if h == nil {
		return ""
	}
	if sk := h.keyType().sk; len(sk) > 0 && !sk[0].Variable() {
		return sk[0].Text
	}
	return ""
}

// resetTargets empties every target's slice: a failed read fills none.
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
// into the targets' slices, and a cursor for the next page; for a
// [Collection]'s child, whose item is in its parent's partition, the
// first page (cursor "") also reads the child's item with one GetItem.
// cursor is "" for the first page or a PartitionPage.Cursor of the same
// read; one from another read is [ErrInvalidCursor], before any request.
// A missing head item is not an error here: HasNode says whether this
// page held it. Other errors are as LoadPartition's, with the same
// guarantee: every slice nil.
func PagePartition[N any](ctx context.Context, head PartitionHead[N], id, cursor string, limit int32, targets ...Target) (PartitionPage[N], error) {
	res := PartitionPage[N]{Partition: Partition[N]{ID: id}, Cursor: cursor}
	var err error
	res.HasNode, err = headSpec(head.partitionHead()).read(ctx, "PagePartition", id, &res.Cursor, limit, ReadOptions{}, targets, &res.Other, &res.Node)
	if err != nil {
		return PartitionPage[N]{Partition: Partition[N]{ID: id}}, err
	}
	return res, nil
}

// check refuses targets that cannot hold items of h's partitions.
func (h *headSpec) check(targets []Target) error {
	for _, tg := range targets {
		switch {
		case tg.err != nil:
			return tg.err
		case tg.into == nil:
			return fmt.Errorf("%w: a zero Target", ErrInvalidOption)
		case tg.t != h.t || !h.holds(tg):
			return fmt.Errorf("%w: %s is not in %s partitions", ErrInvalidOption, tg.kind, h.name)
		case tg.h.keyType().shards > 0: // a sharded collection's children
			return fmt.Errorf("%w: %s is sharded: its items are not in the %s partition (use Collection.Load or List)", ErrInvalidOption, tg.kind, h.name)
		}
	}
	return nil
}

// partitionSpec is the query of every item of partition pk, or keyErr.
func partitionSpec(t *Table, op, pk string, keyErr error) querySpec {
	if keyErr != nil {
		return errSpec(t, op, keyErr)
	}
	return newQuerySpec(t, op, t.partitionKeys(pk))
}

// partitionKeys are the keys of a read of the whole table partition pk
// (number text on a table keyed on a number).
func (t *Table) partitionKeys(pk string) queryKeys {
	return queryKeys{pk: pk, pkNum: t.numKey(t.opts.PartitionKey)}
}
