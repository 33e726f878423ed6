package adjlist

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
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
	// incoming returns the index partition holding the edges of this kind
	// into endpoint to (a node id or a child's ref), or the reason it
	// cannot be read.
	incoming(to string) (edgeScan, error)
	// ends are the kind's label, source and target, and the handle's
	// error.
	ends() (label string, src, dst endpoint, err error)
}

// edgeScan is the edges of one kind into one target (on the index) or out
// of one source (on the table), read keys only.
type edgeScan struct {
	t        *Table
	label    string
	src, dst endpoint
	prefix   string // the edges' sort key prefix, e.g. "ENROLL#CRS#"
	keys     queryKeys
	// parts lists the partitions to read: keys.pk alone, or for a sharded
	// edge ([EdgeOptions.Shards]) each shard's index partition, read one
	// after the other so that every page is exactly one request.
	parts []string
	// split recognises the items to delete and parses their ends.
	split func(Item) (from, to string, ok bool)
}

// describe names the edge kind for error messages, e.g. "ENROLL (STU → CRS)".
func (s edgeScan) describe() string {
	return paging.Kind{Label: s.label, Src: s.src.String(), Dst: s.dst.String()}.String()
}

func (e *edgeCore) ends() (label string, src, dst endpoint, err error) {
	return e.label, e.src, e.dst, e.err
}

// scan is an edgeScan of this kind, keys not yet set.
func (e *edgeCore) scan() edgeScan {
	return edgeScan{t: e.t, label: e.label, src: e.src, dst: e.dst, prefix: e.prefix, split: e.split}
}

// incoming implements [Incoming]: the reverse query of [Edge.To], keys
// only.
func (e *edgeCore) incoming(to string) (edgeScan, error) {
	s := e.scan()
	if e.err != nil {
		return s, e.err
	}
	if err := e.t.errNoIndex(); err != nil {
		return s, fmt.Errorf("%w, so edges %s cannot be found", err, s.describe())
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
	s := e.scan()
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

// pagers returns one keys-only query per partition of s, as
// [paging.Pager]s, yielding the edges of s's kind and skipping any item
// whose key is skip (the node item itself, where a self-keyed node shares
// its index partition with the edges into it); limit is [Query.Limit]'s.
func (s edgeScan) pagers(op string, skip paging.Key, limit int32, consistent bool) []paging.Pager {
	ps := make([]paging.Pager, len(s.parts))
	for i, pk := range s.parts {
		k := s.keys
		k.pk, k.shardPKs = pk, nil
		ps[i] = keysPager(s.t, op, k, skip, s.split, limit, consistent)
	}
	return ps
}

// keysPager is the [paging.Pager] of a query over one partition reading
// only key attributes: the same key condition and filter, plus a
// ProjectionExpression on every key attribute of the table and index (a
// superset of the query's LastEvaluatedKey), so pages carry no data. It
// yields the items [paging.RefOf] keeps; limit is [Query.Limit]'s, and a
// request's error is wrapped as [Query.Page] wraps it.
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

// CascadeResult reports what one [DeleteNode] or [DeleteChild] call did.
// Counts are of delete requests DynamoDB processed, including deletes of
// items already gone.
type CascadeResult struct {
	// Attached counts the edges into and out of the node's children deleted
	// (phase 0).
	Attached int
	// Incoming counts the edges into the node deleted (phase 1), and those
	// into the children of collections nested under it.
	Incoming int
	// Partition counts the other items of the node's partition deleted
	// (phase 2: outgoing edges, children), and the items under nested
	// collections' children.
	Partition int
	// Node reports whether the node item itself was deleted (phase 3); false
	// when it was already gone.
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

// DeleteNode deletes node id with every edge into it of the kinds in
// incoming (found on the index), every item of its partition (outgoing
// edges of all labels, children) and, last, the node item. Given no kinds,
// it follows every kind the table records ([Table.Check]) that ends at
// node's type or at or from its collections' children, and its sharded
// collections; kinds passed narrow it to exactly those. For student "a91":
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
func DeleteNode[N any](ctx context.Context, node *Node[N], id string, incoming ...Incoming) (_ CascadeResult, err error) {
	return deleteNode(ctx, &node.nodeCore, id, incoming)
}

// deleteNode is [DeleteNode] of nodes of any data.
func deleteNode(ctx context.Context, node *nodeCore, id string, incoming []Incoming) (_ CascadeResult, err error) {
	const op = "DeleteNode"
	ctx, sp := node.t.startSpan(ctx, op)
	defer sp.end(&err)
	var res CascadeResult
	pk, sk, err := node.key(id)
	if err != nil {
		return res, node.t.opErr(op, pk, sk, err)
	}
	if len(incoming) == 0 {
		incoming = node.t.recordedIncoming(node.endpoint())
	}

	// Every check before the first request.
	var (
		scans    = make([][]paging.Pager, 0, len(incoming))
		seen     = make(map[paging.Kind]bool, len(incoming))
		children []paging.Children // phase 0, one per collection
		of       []endpoint        // the collection of each
		me       = node.endpoint()
	)
	attach := func(c endpoint) *paging.Children {
		for i := range of {
			if of[i].same(c) {
				return &children[i]
			}
		}
		of = append(of, c)
		children = append(children, paging.Children{List: func() ([]paging.Pager, error) {
			list, err := c.children(id)
			if err != nil {
				return nil, node.t.opErr(op, pk, "", err)
			}
			return list.pagers(op, paging.Key{}, 0, true), nil
		}})
		return &children[len(children)-1]
	}
	cs := node.t.cascade(op, pk, pk)
	// The children of node's collections under which collections nest
	// go with everything under them, whatever the kinds given.
	for _, n := range node.t.collectionsUnder(me) {
		if under := node.t.subtree(op, cs, n.endpoint()); under.Under != nil {
			ce := attach(n.endpoint())
			ce.Out, ce.Under = true, under.Under
		}
	}
	for i, in := range incoming {
		k, src, dst, err := edgeKind(i, in, node.t, "node type "+node.typ)
		switch {
		case err != nil:
		case seen[k]:
			continue
		case dst.same(me):
			var s edgeScan
			if s, err = in.incoming(id); err == nil {
				seen[k] = true
				scans = append(scans, s.pagers(op, paging.Key{PK: pk, SK: sk}, 0, false))
				continue
			}
		case dst.isChild() && dst.parent == node.typ || src.isChild() && src.parent == node.typ:
			if dst.isChild() && dst.parent == node.typ {
				if err = node.t.errNoIndex(); err != nil {
					break
				}
				ce := attach(dst)
				ce.Into = append(ce.Into, attachedInto(op, node.t, pk, in))
			}
			if src.isChild() && src.parent == node.typ {
				attach(src).Out = true
			}
			seen[k] = true
			continue
		default:
			err = fmt.Errorf("%w: incoming edge %s does not end at node type %s", ErrInvalidOption, k, node.typ)
		}
		return res, node.t.opErr(op, pk, sk, err)
	}
	err = cs.DeleteNode(ctx, children, scans, paging.Key{PK: pk, SK: sk})
	return CascadeResult(cs.Result), err
}

// attachedInto is the kind in of edges into a collection's children as a
// cascade of node pk deletes them: the pagers of the edges into child ref.
func attachedInto(op string, t *Table, pk string, in Incoming) func(ref string) ([]paging.Pager, error) {
	return func(ref string) ([]paging.Pager, error) {
		s, err := in.incoming(ref)
		if err != nil {
			return nil, t.opErr(op, pk, "", err)
		}
		return s.pagers(op, paging.Key{}, 0, false), nil
	}
}

// cascade is the [paging.Cascade] of op on the node or child with partition
// key pk, deleting partition whole and every partition it pages through
// (a nested child's): its deletes go with [Table.batchWrite], their errors naming pk,
// but for items a counter kept at write time counts, each deleted and
// counted down in one transaction ([Table.deleteCounted]). A count kept in
// a partition the cascade deletes whole goes with it, not counted down: a
// decrement after its count item is gone would write it again.
func (t *Table) cascade(op, pk, whole string) *paging.Cascade[Key] {
	counted := t.countedKinds()
	var mu sync.Mutex
	wholes := map[string]bool{whole: true}
	isWhole := func(pk string) bool {
		mu.Lock()
		defer mu.Unlock()
		return wholes[pk]
	}
	cs := &paging.Cascade[Key]{}
	cs.Delete = func(ctx context.Context, keys []paging.Key) (send.Result[Key], error) {
		var res send.Result[Key]
		reqs := make([]writeReq, 0, len(keys))
		for _, k := range keys {
			key := itemKey{k.PK, k.SK}
			counts, err := t.countsOf(ctx, counted, isWhole, key)
			if err != nil {
				res.Unwritten = append(res.Unwritten, Key{k.PK, k.SK})
				return res, t.opErr(op, k.PK, k.SK, err)
			}
			if len(counts) > 0 {
				deleted, err := t.deleteCounted(ctx, op, key, counts, &cs.Counted)
				if err != nil {
					res.Unwritten = append(res.Unwritten, Key{k.PK, k.SK})
					return res, withPK(err, pk)
				}
				if deleted {
					res.Written++
					continue
				}
			}
			reqs = append(reqs, t.deleteReq(key))
		}
		if len(reqs) == 0 {
			return res, nil
		}
		br, err := t.batchWrite(ctx, op, reqs, nil)
		res.Written += br.Written
		res.Requests += br.Requests
		res.Unwritten = append(res.Unwritten, br.Unwritten...)
		return res, withPK(err, pk)
	}
	cs.Keys = func(pk string) paging.Pager {
		mu.Lock()
		wholes[pk] = true
		mu.Unlock()
		return keysPager(t, op, queryKeys{pk: pk}, paging.Key{}, nil, 0, true)
	}
	return cs
}

// countedKinds maps the record id of each item type that a counter kept
// at write time counts to those counters; nil when there is none.
func (t *Table) countedKinds() map[string][]*ItemCounter {
	var m map[string][]*ItemCounter
	for _, c := range t.recordedCounters() {
		if c.stream {
			continue
		}
		if m == nil {
			m = map[string][]*ItemCounter{}
		}
		m[c.rid] = append(m[c.rid], c)
	}
	return m
}

// deleteCounted deletes the counted item k and counts it down on each of
// counts in one TransactWriteItems ([counting.Delete]), with a
// ClientRequestToken of its own so that the SDK's retries of it are
// idempotent; n counts the requests. A count whose count item is missing
// is left out and the rest sent again; with none left, deleted is false
// and the caller deletes the item plainly. A missing item is deleted
// already: deleted is true, nothing counted. Conflicts and throttling are retried as a batch's unprocessed
// items are ([Options.BatchBackoff], [Options.BatchMaxAttempts]).
func (t *Table) deleteCounted(ctx context.Context, op string, k itemKey, counts []counting.Counted, n *int) (deleted bool, err error) {
	for attempt := 1; len(counts) > 0; {
		in := &dynamodb.TransactWriteItemsInput{
			TransactItems:      counting.Delete(t.tableName, t.opts.PartitionKey, t.keyItem(k.pk, k.sk), counts),
			ClientRequestToken: aws.String(txToken()),
		}
		*n++
		_, err := t.client.TransactWriteItems(ctx, in, callOpts(ctx)...)
		if err == nil {
			return true, nil
		}
		codes, ok := cancelCodes(err)
		if !ok {
			return false, t.opErr(op, k.pk, k.sk, err)
		}
		if slices.Contains(codes, "ConditionalCheckFailed") {
			gone, keep := counting.Failed(codes, counts)
			if gone {
				return true, nil
			}
			if len(keep) == len(counts) { // a reason of no action: not sent again
				return false, t.opErr(op, k.pk, k.sk, err)
			}
			counts = keep
			continue
		}
		if !slices.ContainsFunc(codes, func(c string) bool { return !transient(c) }) && attempt < t.opts.BatchMaxAttempts {
			if werr := send.Wait(ctx, t.opts.BatchBackoff, attempt, err); werr != nil {
				return false, t.opErr(op, k.pk, k.sk, werr)
			}
			attempt++
			continue
		}
		return false, t.opErr(op, k.pk, k.sk, err)
	}
	return false, nil
}

// txToken is a random ClientRequestToken: 32 hexadecimal digits.
func txToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// edgeKind names the i-th edge kind passed to a cascade of place (e.g.
// "node type STU") and returns its ends; a nil kind, a broken handle or
// one on another table than t is an error.
func edgeKind(i int, in Incoming, t *Table, place string) (paging.Kind, endpoint, endpoint, error) {
	if in == nil {
		return paging.Kind{}, endpoint{}, endpoint{}, fmt.Errorf("%w: edge kind %d is nil", ErrInvalidOption, i)
	}
	label, src, dst, err := in.ends()
	k := paging.Kind{Label: label, Src: src.String(), Dst: dst.String()}
	if err == nil && src.t != t {
		err = fmt.Errorf("%w: edge %s is on another table than %s", ErrInvalidOption, k, place)
	}
	return k, src, dst, err
}

// DeleteChild deletes one child of a collection with every edge into it of
// the kinds in attached (found on the index), its own partition (its
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

// deleteChild is [DeleteChild] of children of any data.
func deleteChild(ctx context.Context, c *collectionCore, parentID, childID string, attached []Incoming) (_ CascadeResult, err error) {
	const op = "DeleteChild"
	ctx, sp := c.t.startSpan(ctx, op)
	defer sp.end(&err)
	var res CascadeResult
	pk, sk, err := c.key(parentID, childID)
	if err != nil {
		return res, c.t.opErr(op, pk, sk, err)
	}
	ref, err := c.refOf(parentID, childID)
	if err != nil {
		return res, c.t.opErr(op, pk, sk, err)
	}
	me := c.endpoint()
	cs := c.t.cascade(op, pk, ref)
	ce := paging.Children{Out: true, Under: c.t.subtree(op, cs, me).Under}
	if len(attached) == 0 {
		attached = c.t.recordedIncoming(me)
	}
	for i, in := range attached {
		k, src, dst, err := edgeKind(i, in, c.t, me.String())
		switch {
		case err != nil:
		case dst.same(me):
			if _, err = in.incoming(ref); err == nil {
				ce.Into = append(ce.Into, attachedInto(op, c.t, pk, in))
				continue
			}
		case src.same(me):
			continue // its edges are in the child's partition, deleted anyway
		default:
			err = fmt.Errorf("%w: edge %s neither ends nor starts at %s children", ErrInvalidOption, k, me)
		}
		return res, c.t.opErr(op, pk, sk, err)
	}
	if err := cs.DeleteAttached(ctx, ce, ref, &cs.Incoming, &cs.Partition); err != nil {
		return CascadeResult(cs.Result), err
	}
	switch err := c.t.delCounting(ctx, op, &c.it, pk, sk); {
	case err == nil:
		cs.Node = true
	case !errors.Is(err, ErrNotFound):
		return CascadeResult(cs.Result), err
	}
	return CascadeResult(cs.Result), nil
}

// withPK names the node's partition key in a batch write's error, which
// has none of its own (a batch spans items).
func withPK(err error, pk string) error {
	var oe *OpError
	if errors.As(err, &oe) && oe.PK == "" {
		oe.PK = pk
	}
	return err
}

// incoming implements [Incoming]: the children of parent to in the shard
// partitions of a sharded collection, keys only. An unsharded collection's
// children are in the parent's partition, which DeleteNode deletes anyway:
// it has nothing to add.
func (c *collectionCore) incoming(to string) (edgeScan, error) {
	if c.shards == 0 {
		pn := c.parent.end
		return edgeScan{t: c.t, label: c.childType, src: pn, dst: pn, prefix: c.prefix}, c.err
	}
	return c.children(to)
}

func (c *collectionCore) ends() (label string, src, dst endpoint, err error) {
	pn := c.parent.end
	return c.childType, pn, pn, c.err
}

// children lists parent's children, keys only, in every partition they
// occupy: the parent's, or each shard. Its items' ends are the parent id
// and the child's ref.
func (c *collectionCore) children(parent string) (edgeScan, error) {
	pn := c.parent.end
	s := edgeScan{t: c.t, label: c.childType, src: pn, dst: pn, prefix: c.prefix}
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

// collection is a *[Collection] of any types, as a cascade walks the
// collections nested under an item type.
type collection interface {
	endpoint() endpoint
	children(parent string) (edgeScan, error)
	parentEnd() endpoint
}

func (c *collectionCore) parentEnd() endpoint { return c.parent.end }

// collectionsUnder lists the collections t records whose children hang
// under the items of endpoint me: a node type's collections, or those
// nested under a collection's children ([NewNestedCollection]).
func (t *Table) collectionsUnder(me endpoint) []collection {
	var out []collection
	for _, r := range t.recordedTypes() {
		if c, ok := r.h.(collection); ok && r.err == nil && c.parentEnd().same(me) && c.parentEnd().t == t {
			out = append(out, c)
		}
	}
	return out
}

// subtree is what a cascade deletes with each child of endpoint me (a
// collection's children): the edges into it of the kinds t records, its
// own partition, and, first, through Under (nil when no collection nests
// under me), each child of every collection nested under it with its
// own subtree, and the child item: counted in cs's Incoming (edges into
// them) and Partition (the rest).
func (t *Table) subtree(op string, cs *paging.Cascade[Key], me endpoint) paging.Children {
	ch := paging.Children{Out: true}
	for _, in := range t.recordedIncoming(me) {
		ch.Into = append(ch.Into, attachedInto(op, t, "", in))
	}
	nested := t.collectionsUnder(me)
	if len(nested) == 0 {
		return ch
	}
	ch.Under = func(ctx context.Context, ref string) error {
		for _, n := range nested {
			s, err := n.children(ref)
			if err != nil {
				return t.opErr(op, ref, "", err)
			}
			if err := cs.DeleteChildren(ctx, s.pagers(op, paging.Key{}, 0, true), t.subtree(op, cs, n.endpoint()), &cs.Incoming, &cs.Partition); err != nil {
				return err
			}
		}
		return nil
	}
	return ch
}
