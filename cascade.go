package adjlist

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/adjlist/adjlist/internal/counting"
	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/paging"
	"github.com/adjlist/adjlist/internal/send"
)

// Incoming is an edge kind [DeleteNode] follows backwards, on the inverted
// index, to find the edges into the node it deletes. *[Edge] implements it,
// and *[Collection] for a sharded collection's children
// ([CollectionOptions].Shards), which live outside their parent's partition
// and are then deleted with it. No other type can implement it. For a
// student:
//
//	mentors := adjlist.NewEdge[Mentoring](students, "MENTOR", students) // STU → STU
//	advises := adjlist.NewEdge[Advice](teachers, "ADVISES", students)   // TCH → STU
//	res, err := adjlist.DeleteNode(ctx, students, "a91", mentors, advises)
//
// An edge kind that ends or starts at a collection's children ([Endpoint])
// is followed by DeleteNode of their parent, and by [DeleteChild] of the
// child.
type Incoming interface {
	// incoming is the edges of this kind into to (a node id or a child's
	// ref), or why they cannot be read.
	incoming(to string) (edgeScan, error)
	// ends are the kind's label, source and target, and its error.
	ends() (label string, src, dst endpoint, err error)
}

// edgeScan is the edges of one kind into one target (on the index) or out
// of one source (on the table), read keys only.
type edgeScan struct {
	t    *Table
	keys queryKeys
	// parts are the partitions to read: keys.pk, or each shard's, read one
	// after the other so that every page is exactly one request.
	parts []string
	// split recognises the items to delete and parses their ends.
	split func(Item) (from, to string, ok bool)
}

func (e *edgeCore) ends() (label string, src, dst endpoint, err error) {
	return e.label, e.src, e.dst, e.err
}

// incoming is the reverse query of [Edge.To], keys only.
func (e *edgeCore) incoming(to string) (edgeScan, error) {
	s := edgeScan{t: e.t, split: e.split}
	if e.err != nil {
		return s, e.err
	}
	if err := e.t.errNoIndex(); err != nil {
		return s, fmt.Errorf("%w, so edges %s cannot be found", err, describeEdge(e))
	}
	sk, err := e.sortKey(to)
	if err != nil {
		return s, err
	}
	s.keys = e.reverseKeys(sk, e.sourcePrefix, false)
	s.parts = []string{s.keys.pk}
	if e.shards > 1 {
		s.parts = keycodec.ShardKeys(s.keys.pk, e.shards)
	}
	return s, nil
}

// outgoing is the forward query of [Edge.From], keys only.
func (e *edgeCore) outgoing(from string) (edgeScan, error) {
	s := edgeScan{t: e.t, split: e.split}
	if e.err != nil {
		return s, e.err
	}
	pk, err := e.sourceKey(from)
	if err != nil {
		return s, err
	}
	s.keys = queryKeys{pk: pk, skPrefix: e.prefix}
	s.parts = []string{pk}
	return s, nil
}

// pagers is one keys-only query per partition of s, skipping the item
// skip (a self-keyed node's item shares its index partition with the edges
// into it).
func (s edgeScan) pagers(op string, skip paging.Key, limit int32, consistent bool) []paging.Pager {
	ps := make([]paging.Pager, len(s.parts))
	for i, pk := range s.parts {
		k := s.keys
		k.pk, k.shardPKs = pk, nil
		ps[i] = keysPager(s.t, op, k, skip, s.split, limit, consistent)
	}
	return ps
}

// keysPager is the [paging.Pager] of a query of one partition projecting
// every key attribute of the table and index (a superset of its
// LastEvaluatedKey), so pages carry no data; it yields the items
// [paging.RefOf] keeps.
func keysPager(t *Table, op string, k queryKeys, skip paging.Key, split func(Item) (from, to string, ok bool), limit int32, consistent bool) paging.Pager {
	k.keysOnly = true
	q := newQuerySpec(t, op, k)
	qsLimit(&q, limit)
	if consistent {
		qsConsistentRead(&q)
	}
	return func(ctx context.Context, n *int, budget int, each func([]paging.Ref) error) (bool, error) {
		return paging.Pages(ctx, q.run.Client, q.run.In, n, budget, q.err, func(err error) error { return qsWrap(&q, err) }, func(item Item) (paging.Ref, bool) {
			return paging.RefOf(item, t.opts.PartitionKey, t.opts.SortKey, skip, split)
		}, each)
	}
}

// CascadeResult reports what one [DeleteNode], [DeleteChild] or
// [DeletePartition] call did. Counts are of delete requests DynamoDB
// processed, including deletes of items already gone.
type CascadeResult struct {
	// Attached counts the edges into and out of the node's children deleted
	// (phase 0).
	Attached int
	// Incoming counts the edges into the node deleted (phase 1), and those
	// into the children of collections nested under it.
	Incoming int
	// Partition counts the other items of the node's partition deleted
	// (phase 2: outgoing edges, children), and the items under nested
	// collections' children; for an entity, the other items of its
	// partition.
	Partition int
	// Node reports whether the node item itself (the child's, the
	// entity's) was deleted (phase 3); false when it was already gone.
	Node bool
	// Queries counts the Query requests made: one per page.
	Queries int
	// Batches counts the BatchWriteItem requests sent, up to 25 deletes each,
	// resends included.
	Batches int
	// Counted counts the TransactWriteItems requests sent, retries included:
	// one per deleted item that a write-time [ItemCounter] counts, deleted and
	// counted down together (about 4 write capacity units instead of 1).
	Counted int
	// Unwritten lists the keys of items that could not be deleted; the error
	// then matches [ErrUnprocessed] or wraps the SDK's error. Run the call
	// again to finish.
	Unwritten []Key
}

// DeleteNode, the node form of [DeletePartition], deletes node id with
// every edge into it of the kinds in incoming (found on the index), every
// item of its partition (outgoing edges of all labels, children) and,
// last, the node item. Given no kinds, it follows every kind the table
// records ([Table.Check]) that ends at node's type or at or from its
// collections' children, and its sharded collections; kinds passed narrow
// it to exactly those. For student "a91":
//
//	phase 0: per child of a collection with kinds attached ([Endpoint]) or
//	         collections nested: the edges into it and its own partition
//	phase 1: Query GSI1: GSI1PK = "STU#a91" AND begins_with(GSI1SK, "STU#"), per kind
//	phase 2: Query PK = "STU#a91" (strongly consistent)
//	phase 3: delete PK = "STU#a91", SK = "PROFILE"
//
// Every Query reads keys only, page by page, each page followed by its
// deletes: BatchWriteItem, 25 per request, up to 4 at once, unprocessed
// items resent as [Edge.DeleteMany] resends them. An item a write-time
// [ItemCounter] counts is deleted and counted down in one
// TransactWriteItems (CascadeResult.Counted). An incoming kind sharded over
// N partitions costs N Queries; a kind attached to children, one Query per
// child.
//
// The node item goes last, so DeleteNode is resumable and idempotent: run
// it again after an error to finish; on a node already deleted it deletes
// nothing and succeeds (CascadeResult.Node is false). It is not a
// transaction, and the index is eventually consistent: an edge written
// just before may be missed ([Edge.WaitIndexed]), and edges written during
// it or of kinds not followed are left dangling. docs/reads.md walks
// through a cascade.
//
// Errors, all [*OpError] with Op "DeleteNode" and the node's key, before
// any request: [ErrInvalidKey] for a bad id or handle; [ErrInvalidOption]
// for an incoming edge that ends neither at node's type nor at or from its
// collections' children, or is on another table, or when the table has no
// index ([Options.NoIndex]). After requests: [ErrUnprocessed] (keys in
// CascadeResult.Unwritten), the SDK's error (errors.As reaches it), or the
// context's error; the result reports what was done.
func DeleteNode[N any](ctx context.Context, node *Node[N], id string, incoming ...Incoming) (CascadeResult, error) {
	return node.head().delete(ctx, "DeleteNode", id, incoming)
}

// DeletePartition deletes the item that head's id heads with its item
// collection, every item of its partition ([PartitionHead]; id as
// [LoadPartition] takes it), and, for a node or a child, the edges into it
// of the kinds in incoming:
//
//   - *[Node]: id "a91", as [DeleteNode] deletes it;
//   - *[Collection]: id the child's ref, "ORG#acme#PROJ#p1"
//     ([Collection.Ref]), as [DeleteChild] deletes the child;
//   - *[Entity] whose sort key holds no id of its own: id the item's
//     partition key, its partition's other items (of every entity keyed
//     under the same partition key template), then the item.
//
// For a node or a child it sends DeleteNode's or DeleteChild's requests and
// returns their result. For entity ("ORG#{org}#PROJ#{proj}", "META") and
// id "ORG#acme#PROJ#p1":
//
//	phase 2: Query PK = "ORG#acme#PROJ#p1" (strongly consistent)
//	phase 3: delete PK = "ORG#acme#PROJ#p1", SK = "META"
//
// The Query reads keys only, page by page, each page followed by its
// deletes: BatchWriteItem, 25 per request, up to 4 at once, as DeleteNode
// sends them; an item a write-time [ItemCounter] counts in another
// partition is deleted and counted down in one TransactWriteItems
// (CascadeResult.Counted), and counts kept in the partition go with it.
// CascadeResult.Partition counts the other items deleted, Node whether the
// entity item was. The entity item goes last, so DeletePartition is
// resumable and idempotent as DeleteNode is: run it again after an error
// to finish; on a partition already deleted it deletes nothing and
// succeeds (CascadeResult.Node is false). Entities are not edge
// endpoints: no edge is followed into one.
//
// Errors, all [*OpError] with Op "DeletePartition", before any request:
// the handle's own error; [ErrInvalidKey] for a bad id (for an entity, one
// its partition key template cannot have spelled, "ORG#acme");
// [ErrInvalidOption] for an entity whose sort key holds an id of its own
// (it heads no partition), for incoming kinds given with an entity, and
// for kinds DeleteNode or DeleteChild refuses. After requests: the errors
// of DeleteNode, the result reporting what was done.
func DeletePartition[N any](ctx context.Context, head PartitionHead[N], id string, incoming ...Incoming) (CascadeResult, error) {
	return headSpec(head.partitionHead()).delete(ctx, "DeletePartition", id, incoming)
}

// delete is [DeletePartition] and [DeleteNode], op naming the call.
func (h headSpec) delete(ctx context.Context, op, id string, incoming []Incoming) (_ CascadeResult, err error) {
	ctx, sp := h.t.startSpan(ctx, op)
	defer sp.End(&err)
	pk, sk, _, err := h.keys(id, nil)
	var me *endpoint // an entity's: none, its cascade is its partition
	var it *itemType
	switch k := h.key.(type) {
	case *nodeCore:
		e := k.endpoint()
		me = &e
	case *collectionCore:
		e := k.endpoint()
		me, it = &e, &k.it
	default:
		if err == nil && len(incoming) > 0 {
			err = fmt.Errorf("%w: %s is no edge endpoint: no edge kind leads into it", ErrInvalidOption, h.name)
		}
	}
	if err != nil {
		return CascadeResult{}, h.t.opErr(op, pk, sk, err)
	}
	return h.t.deleteItem(ctx, op, me, it, id, pk, sk, incoming)
}

// countedKinds is the write-time counters by the record id of what they
// count.
func (t *Table) countedKinds() map[string][]*ItemCounter {
	m := map[string][]*ItemCounter{}
	for _, c := range t.recordedCounters() {
		if !c.stream {
			m[c.rid] = append(m[c.rid], c)
		}
	}
	return m
}

// deleteCounted deletes the counted item k and counts it down on each of
// counts in one TransactWriteItems ([counting.Delete]; the SDK's token
// makes its own retries idempotent); n counts the requests. A count whose
// count item is missing is left out and the rest sent again; with none
// left, deleted is false and the caller deletes the item plainly. A
// missing item is deleted already: deleted is true, nothing counted.
// Conflicts and throttling are retried as a batch's unprocessed items are
// ([Options.BatchBackoff], [Options.BatchMaxAttempts]).
func (t *Table) deleteCounted(ctx context.Context, op string, k Key, counts []counting.Counted, n *int) (deleted bool, err error) {
	for attempt := 1; len(counts) > 0; {
		in := &dynamodb.TransactWriteItemsInput{
			TransactItems: counting.Delete(t.tableName, t.opts.PartitionKey, t.keyItem(k.PK, k.SK), counts),
		}
		*n++
		_, err := t.client.TransactWriteItems(ctx, in, callOpts(ctx)...)
		if err == nil {
			return true, nil
		}
		codes, ok := cancelCodes(err)
		if !ok {
			return false, t.opErr(op, k.PK, k.SK, err)
		}
		if slices.Contains(codes, "ConditionalCheckFailed") {
			gone, keep := counting.Failed(codes, counts)
			if gone {
				return true, nil
			}
			if len(keep) == len(counts) { // a reason of no action: not sent again
				return false, t.opErr(op, k.PK, k.SK, err)
			}
			counts = keep
			continue
		}
		if !slices.ContainsFunc(codes, func(c string) bool { return !transient(c) }) && attempt < t.opts.BatchMaxAttempts {
			if werr := send.Wait(ctx, t.opts.BatchBackoff, attempt, err); werr != nil {
				return false, t.opErr(op, k.PK, k.SK, werr)
			}
			attempt++
			continue
		}
		return false, t.opErr(op, k.PK, k.SK, err)
	}
	return false, nil
}

// DeleteChild, the child form of [DeletePartition] (which takes the
// child's ref), deletes one child of a collection with every edge into it
// of the kinds in attached (found on the index), its own partition (its
// outgoing edges, keyed by its ref), the children of collections nested
// under it, to any depth, and, last, the child item. Given no kinds, it
// follows every kind the table records that ends at c's children. For
// project "2026-0042" of workspace "acme":
//
//	phase 1: Query GSI1: GSI1PK = "WS#acme#PROJ#2026-0042" AND begins_with(GSI1SK, "TAG#"), per kind
//	phase 2: Query PK = "WS#acme#PROJ#2026-0042" (strongly consistent)
//	phase 3: DeleteItem PK = "WS#acme", SK = "PROJ#2026-0042" (condition attribute_exists)
//
// It runs page by page, keeps counts exact and is resumable and idempotent
// as [DeleteNode] is; CascadeResult.Node reports whether the child item was
// deleted. With [CollectionOptions].Shards the child item is in its shard
// (PK "WS#acme#07").
//
// Errors, all [*OpError] with Op "DeleteChild", before any request:
// [ErrInvalidKey] for bad ids or handles; [ErrInvalidOption] when a kind
// neither ends nor starts at c's children, or is on another table. Then
// the errors of [DeleteNode].
func DeleteChild[C, P any](ctx context.Context, c *Collection[C, P], parentID, childID string, attached ...Incoming) (_ CascadeResult, err error) {
	return deleteChild(ctx, &c.collectionCore, parentID, childID, attached)
}

// deleteChild is [DeleteChild], compiled once.
func deleteChild(ctx context.Context, c *collectionCore, parentID, childID string, attached []Incoming) (_ CascadeResult, err error) {
	const op = "DeleteChild"
	ctx, sp := c.t.startSpan(ctx, op)
	defer sp.End(&err)
	pk, sk, err := c.key(parentID, childID)
	var ref string
	if err == nil {
		ref, err = c.refOf(parentID, childID)
	}
	if err != nil {
		return CascadeResult{}, c.t.opErr(op, pk, sk, err)
	}
	me := c.endpoint()
	return c.t.deleteItem(ctx, op, &me, &c.it, ref, pk, sk, attached)
}

// cascade is one [DeleteNode], [DeleteChild] or [DeletePartition] call;
// each page's deletes are sent before the next page is read.
type cascade struct {
	t       *Table
	op      string
	pk      string // the item's partition key, which errors without one name
	res     CascadeResult
	counted map[string][]*ItemCounter // [Table.countedKinds]
	// whole holds the partitions deleted whole: a count in one is not
	// counted down, since a decrement after it is gone would write it again.
	whole map[string]bool
}

// part is what a cascade deletes with one item before the item itself, in
// this order: the children of each of unders; the edges into to (a node id
// or a child's ref) of the kinds into, counted in *in; and, if out, the
// items of its own partition pk but skip (the node item), counted in *own.
type part struct {
	to, pk  string
	unders  []under
	into    []Incoming
	out     bool
	skip    paging.Key
	in, own *int
}

// under is a collection whose children go with their parent: each with
// part, and, if item, the child item, counted in *own. A node's own
// children (phase 0) leave their items to its partition's deletes.
type under struct {
	c    endpoint
	item bool
	part
}

// deleteItem is every cascade: item to of endpoint me, key pk, sk, with
// its part, then the item: a node item in a batch, if its partition's
// read met it; a child item (of type it) as [Table.delCounting] does. An
// entity (me nil) is a node without edges: its part is its partition.
func (t *Table) deleteItem(ctx context.Context, op string, me *endpoint, it *itemType, to, pk, sk string, kinds []Incoming) (CascadeResult, error) {
	cs := &cascade{t: t, op: op, pk: pk, counted: t.countedKinds(), whole: map[string]bool{}}
	p := part{pk: pk, out: true, skip: paging.Key{PK: pk, SK: sk}, own: &cs.res.Partition}
	var err error
	if me != nil {
		if p, err = cs.plan(*me, to, sk, kinds); err != nil {
			return cs.res, err
		}
	}
	found, err := cs.attached(ctx, p)
	if err != nil || me == nil || !me.isChild() {
		if found && err == nil {
			n := 0
			err = cs.delete(ctx, []paging.Key{p.skip}, &n)
			cs.res.Node = n == 1
		}
		return cs.res, err
	}
	err = t.delCounting(ctx, op, it, pk, sk)
	cs.res.Node = err == nil
	if errors.Is(err, ErrNotFound) {
		err = nil
	}
	return cs.res, err
}

// plan checks kinds (none: those the table records) before any request
// and returns the part of item to, with sort key sk, of endpoint me. A
// node's unders (phase 0) are its collections with nested collections or
// with kinds ending at or starting from their children.
func (cs *cascade) plan(me endpoint, to, sk string, kinds []Incoming) (part, error) {
	t := cs.t
	p := part{to: to, pk: to, out: true, in: &cs.res.Incoming, own: &cs.res.Partition}
	place := me.String()
	if me.isChild() {
		p.unders = cs.nested(me)
	} else {
		p.pk, p.skip, place = cs.pk, paging.Key{PK: cs.pk, SK: sk}, "node type "+me.typ
		for _, u := range cs.nested(me) {
			if len(cs.nested(u.c)) > 0 { // whatever the kinds given
				cs.attach(&p, u.c).out = true
			}
		}
	}
	cs.whole[p.pk] = true
	if len(kinds) == 0 {
		kinds = t.recordedIncoming(me)
	}
	seen := make(map[paging.Kind]bool, len(kinds))
	for i, in := range kinds {
		if in == nil {
			return p, t.opErr(cs.op, cs.pk, sk, fmt.Errorf("%w: edge kind %d is nil", ErrInvalidOption, i))
		}
		label, src, dst, err := in.ends()
		k := paging.Kind{Label: label, Src: src.String(), Dst: dst.String()}
		switch {
		case err != nil:
		case src.t != t:
			err = fmt.Errorf("%w: edge %s is on another table than %s", ErrInvalidOption, k, place)
		case seen[k]:
			continue
		case dst.same(me):
			if _, err = in.incoming(to); err == nil {
				seen[k] = true
				p.into = append(p.into, in)
				continue
			}
		case me.isChild():
			if src.same(me) {
				continue // its edges are in the child's partition, deleted anyway
			}
			err = fmt.Errorf("%w: edge %s neither ends nor starts at %s children", ErrInvalidOption, k, me)
		case dst.isChild() && dst.parent == me.typ || src.isChild() && src.parent == me.typ:
			if dst.isChild() && dst.parent == me.typ {
				if err = t.errNoIndex(); err != nil {
					break
				}
				u := cs.attach(&p, dst)
				u.into = append(u.into, in)
			}
			if src.isChild() && src.parent == me.typ {
				cs.attach(&p, src).out = true
			}
			seen[k] = true
			continue
		default:
			err = fmt.Errorf("%w: incoming edge %s does not end at node type %s", ErrInvalidOption, k, me.typ)
		}
		return p, t.opErr(cs.op, cs.pk, sk, err)
	}
	return p, nil
}

// attach is p's under of collection c, added empty if p has none.
func (cs *cascade) attach(p *part, c endpoint) *under {
	for i := range p.unders {
		if p.unders[i].c.same(c) {
			return &p.unders[i]
		}
	}
	p.unders = append(p.unders, under{c: c, part: part{in: &cs.res.Attached, own: &cs.res.Attached}})
	return &p.unders[len(p.unders)-1]
}

// nested is the children of every collection the table records under
// endpoint me, each with every recorded kind into it, its own partition
// and the child item.
func (cs *cascade) nested(me endpoint) []under {
	var out []under
	for _, r := range cs.t.recordedTypes() {
		if c, ok := r.h.(*collectionCore); ok && r.err == nil && c.parent.end.same(me) && c.parent.end.t == cs.t {
			n := c.endpoint()
			out = append(out, under{c: n, item: true, part: part{into: cs.t.recordedIncoming(n), out: true, in: &cs.res.Incoming, own: &cs.res.Partition}})
		}
	}
	return out
}

// attached deletes p; found reports whether its partition's read met
// p.skip.
func (cs *cascade) attached(ctx context.Context, p part) (found bool, err error) {
	for _, u := range p.unders {
		if err := cs.children(ctx, u, p.to); err != nil {
			return false, err
		}
	}
	for _, in := range p.into {
		s, err := in.incoming(p.to)
		if err != nil {
			return false, cs.t.opErr(cs.op, cs.pk, "", err)
		}
		for _, pg := range s.pagers(cs.op, p.skip, 0, false) {
			if _, err := cs.deletePages(ctx, pg, p.skip, p.in); err != nil {
				return false, err
			}
		}
	}
	if !p.out {
		return false, nil
	}
	cs.whole[p.pk] = true
	return cs.deletePages(ctx, keysPager(cs.t, cs.op, cs.t.partitionKeys(p.pk), paging.Key{}, nil, 0, true), p.skip, p.own)
}

// children deletes parent's children in u, page by page, each with what
// goes with it.
func (cs *cascade) children(ctx context.Context, u under, parent string) error {
	s, err := u.c.children(parent)
	if err != nil {
		return cs.t.opErr(cs.op, cs.pk, "", err)
	}
	nested := cs.nested(u.c)
	for _, pg := range s.pagers(cs.op, paging.Key{}, 0, true) {
		_, err := pg(ctx, &cs.res.Queries, 0, func(children []paging.Ref) error {
			for _, child := range children {
				p := u.part
				p.to, p.pk, p.unders = child.To, child.To, nested
				if _, err := cs.attached(ctx, p); err != nil {
					return err
				}
				if u.item {
					if err := cs.delete(ctx, []paging.Key{child.Key}, u.own); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// deletePages deletes pg's items but skip after each page, counting in
// *n; found reports whether it met skip.
func (cs *cascade) deletePages(ctx context.Context, pg paging.Pager, skip paging.Key, n *int) (found bool, err error) {
	_, err = pg(ctx, &cs.res.Queries, 0, func(refs []paging.Ref) error {
		keys := make([]paging.Key, 0, len(refs))
		for _, r := range refs {
			if r.Key == skip {
				found = true
			} else {
				keys = append(keys, r.Key)
			}
		}
		if len(keys) == 0 {
			return nil
		}
		return cs.delete(ctx, keys, n)
	})
	return found, err
}

// delete deletes keys in batches, counting in *n, but counted items one
// by one ([Table.deleteCounted]). A batch's error, which has no key of
// its own, names the cascade's item.
func (cs *cascade) delete(ctx context.Context, keys []paging.Key, n *int) error {
	t := cs.t
	reqs := make([]writeReq, 0, len(keys))
	whole := func(pk string) bool { return cs.whole[pk] }
	for _, k := range keys {
		key := Key(k)
		counts, err := t.countsOf(ctx, cs.counted, whole, key)
		if err != nil {
			err = t.opErr(cs.op, k.PK, k.SK, err)
		} else if len(counts) > 0 {
			var deleted bool
			if deleted, err = t.deleteCounted(ctx, cs.op, key, counts, &cs.res.Counted); deleted {
				*n++
				continue
			}
		}
		if err != nil {
			cs.res.Unwritten = append(cs.res.Unwritten, key)
			return err
		}
		reqs = append(reqs, t.deleteReq(key))
	}
	if len(reqs) == 0 {
		return nil
	}
	br, err := t.batchWrite(ctx, cs.op, reqs, nil)
	*n += br.Written
	cs.res.Batches += br.Requests
	cs.res.Unwritten = append(cs.res.Unwritten, br.Unwritten...)
	var oe *OpError
	if errors.As(err, &oe) && oe.PK == "" {
		oe.PK = cs.pk
	}
	return err
}

// incoming is the children of parent to in a sharded collection's
// shards; an unsharded collection's are in the parent's partition, which
// DeleteNode deletes anyway.
func (c *collectionCore) incoming(to string) (edgeScan, error) {
	s, err := c.children(to)
	if c.shards == 0 {
		s.parts = nil
	}
	return s, err
}

func (c *collectionCore) ends() (label string, src, dst endpoint, err error) {
	pn := c.parent.end
	return c.childType, pn, pn, c.err
}

// children lists parent's children, keys only, in the parent's
// partition or each shard; its ends are the parent id and the child's ref.
func (c *collectionCore) children(parent string) (edgeScan, error) {
	s := edgeScan{t: c.t}
	if c.err != nil {
		return s, c.err
	}
	pk, err := c.parentKey(parent)
	if err != nil {
		return s, err
	}
	s.keys = queryKeys{pk: pk, skPrefix: c.prefix}
	s.parts = []string{pk}
	if c.shards > 0 {
		s.parts = keycodec.ShardKeys(pk, c.shards)
	}
	s.split = func(item Item) (string, string, bool) {
		var ids [2]string
		if !c.t.parseItem(&c.it, keysOf(c.t, item), ids[:]) {
			return "", "", false
		}
		ref, err := c.refOf(ids[0], ids[1])
		return ids[0], ref, err == nil
	}
	return s, nil
}

// recordedIncoming lists the edge kinds t records ([Table.Check]) that a
// cascade of endpoint me follows when given none ([paging.Follows]).
func (t *Table) recordedIncoming(me endpoint) []Incoming {
	var out []Incoming
	noIndex := t.errNoIndex() != nil
	for _, r := range t.recordedTypes() {
		in, ok := r.h.(Incoming)
		if !ok || r.err != nil {
			continue
		}
		_, src, dst, err := in.ends()
		if err == nil && src.t == t && paging.Follows(me.end(), src.end(), dst.end(), r.collection, noIndex) {
			out = append(out, in)
		}
	}
	return out
}

// end is p as [paging.Follows] compares it.
func (p endpoint) end() paging.End { return paging.End{Type: p.typ, Parent: p.parent} }
