package adjlist

import (
	"context"
	"errors"
	"fmt"
)

// Incoming is a kind of edge that [DeleteNode] follows backwards, on the
// inverted index, to find the edges that point at the node it deletes.
// *[Edge] implements it for every data type E; its only method is
// unexported, so no other type can. *[Collection] implements it too, for
// the children of a sharded collection ([CollectionOptions].Shards), which
// live outside their parent's partition: passed to DeleteNode, they are
// deleted with their parent (and counted in CascadeResult.Incoming). Pass the edge handles whose target type
// is the deleted node's type, e.g. for a student:
//
//	mentors := adjlist.NewEdge[Mentoring](students, "MENTOR", students) // STU → STU
//	advises := adjlist.NewEdge[Advice](teachers, "ADVISES", students)   // TCH → STU
//	res, err := adjlist.DeleteNode(ctx, students, "a91", mentors, advises)
type Incoming interface {
	// incoming returns the index partition holding the edges of this kind
	// into node to, or the reason it cannot be read.
	incoming(to string) (edgeScan, error)
}

// edgeScan is the edges of one kind into one target (on the index) or out
// of one source (on the table), read keys only.
type edgeScan struct {
	t        *Table
	label    string
	fromType string
	toType   string
	prefix   string // the edges' sort key prefix, e.g. "ENROLL#CRS#"
	keys     queryKeys
	// parts lists the partitions to read: keys.pk alone, or for a sharded
	// edge ([EdgeOptions.Shards]) each shard's index partition, read one
	// after the other so that every page is exactly one request.
	parts []string
	// split, if set, recognises the items to delete instead of the edge
	// key shape (a sharded collection's children).
	split func(Item) (from, to string, ok bool)
}

// describe names the edge kind for error messages, e.g. "ENROLL (STU → CRS)".
func (s edgeScan) describe() string {
	label := s.label
	if label == "" {
		label = "(unlabelled)"
	}
	return fmt.Sprintf("%s (%s → %s)", label, s.fromType, s.toType)
}

// incoming implements [Incoming]: the reverse query of [Edge.To], keys
// only.
func (e *Edge[E]) incoming(to string) (edgeScan, error) {
	s := edgeScan{t: e.t, label: e.label, fromType: e.fromType, toType: e.toType, prefix: e.prefix}
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
	s.keys = e.reverseKeys(sk, e.fromType+"#", false)
	s.parts = []string{s.keys.pk}
	if e.shards > 1 {
		s.parts = shardKeys(s.keys.pk, e.shards)
	}
	return s, nil
}

// outgoing is the forward query of [Edge.From], keys only.
func (e *Edge[E]) outgoing(from string) (edgeScan, error) {
	s := edgeScan{t: e.t, label: e.label, fromType: e.fromType, toType: e.toType, prefix: e.prefix}
	if e.err != nil {
		return s, e.err
	}
	pk, err := NodeKey(e.fromType, from)
	if err != nil {
		return s, err
	}
	s.keys = queryKeys{pk: pk, skPrefix: e.prefix}
	s.parts = []string{pk}
	return s, nil
}

// edgeRef is an edge read keys only: its primary key and, decoded from it,
// its endpoint ids.
type edgeRef struct {
	key      itemKey
	from, to string
}

// queries returns one keys-only query per partition of s, yielding the
// edges of s's kind and skipping any item whose key is skip (the node item
// itself, where a self-keyed node shares its index partition with the
// edges into it).
func (s edgeScan) queries(op string, skip itemKey) []Query[edgeRef] {
	qs := make([]Query[edgeRef], len(s.parts))
	for i, pk := range s.parts {
		k := s.keys
		k.pk, k.shardPKs = pk, nil
		qs[i] = keysQuery(s.t, op, k, func(item Item, k itemKey) (edgeRef, bool) {
			split := s.split
			if split == nil {
				split = func(item Item) (string, string, bool) { return s.t.splitKeys(item, s.fromType, s.prefix) }
			}
			from, to, ok := split(item)
			if !ok || k == skip {
				return edgeRef{}, false
			}
			return edgeRef{key: k, from: from, to: to}, true
		})
	}
	return qs
}

// keysQuery is [newQuery] over one partition
// reading only key attributes: the same key condition and filter, plus a
// ProjectionExpression on every key attribute of the table and index (a
// superset of the query's LastEvaluatedKey), so pages carry no data and
// cursors still work. keep picks the items to yield.
func keysQuery[T any](t *Table, op string, k queryKeys, keep func(item Item, k itemKey) (T, bool)) Query[T] {
	k.keysOnly = true
	return newQuery(t, op, k, func(item Item) (T, bool, error) {
		var ik itemKey
		ik.pk, _ = stringAttr(item, t.opts.PartitionKey)
		ik.sk, _ = stringAttr(item, t.opts.SortKey)
		v, ok := keep(item, ik)
		return v, ok, nil
	})
}

// CascadeResult reports what one [DeleteNode] call did. Counts are of
// delete requests DynamoDB processed; deleting an item that was already
// gone (an index entry not yet caught up, a concurrent delete) counts too.
type CascadeResult struct {
	// Incoming counts the edges into the node deleted (phase 1).
	Incoming int
	// Partition counts the other items of the node's partition deleted:
	// its outgoing edges of every label and its children (phase 2).
	Partition int
	// Node reports whether the node item itself was deleted (phase 3). It
	// is false when the partition held no node item, e.g. on a second run.
	Node bool
	// Queries counts the Query requests made: one per page.
	Queries int
	// Batches counts the BatchWriteItem requests sent, up to 25 deletes
	// each, resends of unprocessed items included.
	Batches int
	// Unwritten lists the keys of items that could not be deleted; the
	// error then matches [ErrUnprocessed] or wraps the SDK's error. Run
	// DeleteNode again to finish.
	Unwritten []Key
}

// DeleteNode deletes node id together with every edge into it of the kinds
// listed in incoming, every item of its partition (outgoing edges of all
// labels, children of item collections) and, last, the node item itself.
// For a student of the students↔courses model with mentors and notes:
//
//	phase 1, for each incoming kind, on the index, keys only:
//	  Query GSI1: GSI1PK = "STU#a91" AND begins_with(GSI1SK, "STU#"),
//	              filter begins_with(SK, "MENTOR#STU#")
//	  → BatchWriteItem deletes of PK = "STU#b30", SK = "MENTOR#STU#a91", ...
//	phase 2, on the table, strongly consistent, keys only:
//	  Query: PK = "STU#a91"
//	  → BatchWriteItem deletes of SK = "ENROLL#CRS#math204", "NOTE#0001", ...
//	phase 3: BatchWriteItem delete of PK = "STU#a91", SK = "PROFILE"
//
// An incoming edge sharded over N index partitions ([EdgeOptions.Shards])
// costs N Queries per cascade at least, one shard after the other.
//
// Each phase runs page by page: one Query per page (ProjectionExpression on
// the key attributes, so no data is read back), then that page's
// deletes with BatchWriteItem, 25 per request, up to 4 requests at once,
// unprocessed items resent with [Options.BatchBackoff], at most
// [Options.BatchMaxAttempts] requests per batch (as [Edge.DeleteMany]).
// Memory stays bounded by a page, whatever the node's degree.
//
// The order makes the cascade resumable and idempotent. Edges into the
// node live in other partitions and can only be found through the index,
// so they go first; the node item goes last, so as long as any work
// remains, the node item is still there, marking the node as
// half-deleted. DeleteNode stops at the first failure; running it again,
// after a crash or an error, finishes the work, and running it on a node
// already deleted sends the Queries, deletes nothing and succeeds
// (CascadeResult.Node is false).
//
// Consistency: the index is eventually consistent, so on real DynamoDB an
// edge into the node written a moment before DeleteNode may be missed (and
// one already deleted may be listed and deleted again, harmlessly). Call
// [Edge.WaitIndexed] for edges just written, or run DeleteNode again. Edges
// written concurrently with the cascade, and edges of kinds not listed in
// incoming, are left dangling. DeleteNode is not a transaction: readers
// may see the node with some of its edges gone.
//
// Errors, all [*OpError] with Op "DeleteNode" and the node's key:
// [ErrInvalidKey] for a bad id (or a bad edge or node handle);
// [ErrInvalidOption] when an incoming edge does not end at node's type, is
// on another table, or the table has no index ([Options.NoIndex]). These
// come before any request. After requests have been sent: [ErrUnprocessed]
// with the keys in CascadeResult.Unwritten, the SDK's error (errors.As
// reaches it), or the context's error; the result then reports what was
// done so far.
func DeleteNode[N any](ctx context.Context, node *Node[N], id string, incoming ...Incoming) (CascadeResult, error) {
	const op = "DeleteNode"
	var res CascadeResult
	pk, sk, err := node.Key(id)
	if err != nil {
		return res, node.t.opErr(op, pk, sk, err)
	}
	self := itemKey{pk, sk}

	// Every check before the first request.
	type kind struct{ label, fromType string }
	scans := make([]edgeScan, 0, len(incoming))
	seen := make(map[kind]bool, len(incoming))
	for i, in := range incoming {
		var s edgeScan
		err := fmt.Errorf("%w: incoming edge %d is nil", ErrInvalidOption, i)
		if in != nil {
			s, err = in.incoming(id)
		}
		switch {
		case err != nil:
		case s.t != node.t:
			err = fmt.Errorf("%w: incoming edge %s is on another table than node type %s", ErrInvalidOption, s.describe(), node.typ)
		case s.toType != node.typ:
			err = fmt.Errorf("%w: incoming edge %s does not end at node type %s", ErrInvalidOption, s.describe(), node.typ)
		}
		if err != nil {
			return res, node.t.opErr(op, pk, sk, err)
		}
		if k := (kind{s.label, s.fromType}); !seen[k] {
			seen[k] = true
			scans = append(scans, s)
		}
	}

	// Phase 1: edges into the node, through the index.
	for _, s := range scans {
		for _, q := range s.queries(op, self) {
			n, err := deletePages(ctx, op, node.t, pk, q, func(e edgeRef) (itemKey, bool) { return e.key, true }, &res)
			res.Incoming += n
			if err != nil {
				return res, err
			}
		}
	}

	// Phase 2: the rest of the node's partition, read strongly consistent so
	// that a resumed cascade sees every item still there.
	found := false
	all := keysQuery(node.t, op, queryKeys{pk: pk}, func(_ Item, k itemKey) (itemKey, bool) { return k, true }).ConsistentRead()
	n, err := deletePages(ctx, op, node.t, pk, all, func(k itemKey) (itemKey, bool) {
		if k == self {
			found = true
			return k, false
		}
		return k, true
	}, &res)
	res.Partition += n
	if err != nil || !found {
		return res, err
	}

	// Phase 3: the node item, last.
	br, err := node.t.batchWrite(ctx, op, []writeReq{node.t.deleteReq(self)}, nil)
	res.Batches += br.Requests
	res.Node = br.Written == 1
	res.Unwritten = append(res.Unwritten, br.Unwritten...)
	return res, withPK(err, pk)
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

// deletePages runs q page by page and deletes, after each page, the keys
// that del picks from its items. It returns how many deletes were
// processed and adds the requests and unwritten keys to res; pk is the
// deleted node's key, for errors.
func deletePages[T any](ctx context.Context, op string, t *Table, pk string, q Query[T], del func(T) (itemKey, bool), res *CascadeResult) (int, error) {
	deleted := 0
	cursor := ""
	for {
		res.Queries++
		page, err := q.Page(ctx, cursor)
		if err != nil {
			return deleted, err
		}
		reqs := make([]writeReq, 0, len(page.Items))
		for _, v := range page.Items {
			if k, ok := del(v); ok {
				reqs = append(reqs, t.deleteReq(k))
			}
		}
		if len(reqs) > 0 {
			br, err := t.batchWrite(ctx, op, reqs, nil)
			res.Batches += br.Requests
			deleted += br.Written
			res.Unwritten = append(res.Unwritten, br.Unwritten...)
			if err != nil {
				return deleted, withPK(err, pk)
			}
		}
		if page.Cursor == "" {
			return deleted, nil
		}
		cursor = page.Cursor
	}
}

// incoming implements [Incoming]: the children of parent to in the shard
// partitions of a sharded collection, keys only. An unsharded collection's
// children are in the parent's partition, which DeleteNode deletes anyway:
// it has nothing to add.
func (c *Collection[P, C]) incoming(to string) (edgeScan, error) {
	s := edgeScan{t: c.t, label: c.childType, fromType: c.parent.typ, toType: c.parent.typ, prefix: c.prefix}
	if c.err != nil {
		return s, c.err
	}
	pk, _, err := c.parent.Key(to)
	if err != nil || c.shards == 0 {
		return s, err
	}
	s.keys = queryKeys{pk: pk, skPrefix: c.prefix}
	s.parts = shardKeys(pk, c.shards)
	s.split = func(item Item) (string, string, bool) {
		v, ok, _ := c.decode(keysOf(c.t, item))
		return v.Parent, v.ID, ok
	}
	return s, nil
}
