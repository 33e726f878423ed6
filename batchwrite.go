package adjlist

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/send"
)

// BulkOptions configures bulk writes (PutMany and DeleteMany of [Node],
// [Edge], [Collection] and [Entity]). A field no option function sets
// keeps its default.
type BulkOptions struct {
	// Workers is how many BatchWriteItem requests may be in flight at once.
	// Default 4; below 1 is [ErrInvalidOption], before any request.
	Workers int
	// Progress, if set, is called after each batch of up to 25 items with
	// the number of items written so far and the total. Calls do not
	// overlap.
	Progress func(written, total int)
}

// BulkResult reports what a bulk write did.
type BulkResult struct {
	// Written counts the items written (put or deleted).
	Written int
	// Requests counts the BatchWriteItem requests sent, resends of
	// unprocessed items included.
	Requests int
	// Unwritten lists the keys of the items not written: left unprocessed
	// by DynamoDB after [Options.BatchMaxAttempts] requests, or in a batch
	// whose request failed (perhaps written after all when the error
	// matches [ErrOutcomeUnknown]). Nothing is dropped silently: write
	// these again.
	Unwritten []Key
}

// writeReq is one put or delete of a bulk write.
type writeReq struct {
	key Key
	req types.WriteRequest
}

// batchWrite sends reqs with [send.BatchWrite], which refuses duplicate
// keys before any request.
func (t *Table) batchWrite(ctx context.Context, op string, reqs []writeReq, optFns []func(*BulkOptions)) (BulkResult, error) {
	opts := BulkOptions{Workers: 4}
	if err := applyOptions(&opts, optFns); err != nil {
		return BulkResult{}, t.opErr(op, "", "", err)
	}
	if opts.Workers < 1 {
		return BulkResult{}, t.opErr(op, "", "", fmt.Errorf("%w: Workers %d", ErrInvalidOption, opts.Workers))
	}
	wrs := make([]types.WriteRequest, len(reqs))
	for i, r := range reqs {
		wrs[i] = r.req
	}
	res, at, err := send.BatchWrite(ctx, t.batcher(ctx), wrs, opts.Workers, opts.Progress, t.keyOf)
	if err != nil {
		err = t.opErr(op, at.PK, at.SK, err)
	}
	return BulkResult(res), err
}

// deleteReq is the delete of the item k.
func (t *Table) deleteReq(k Key) writeReq {
	return writeReq{key: k, req: types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: t.keyItem(k.PK, k.SK)}}}
}

// sizedPutReq is the put of item with key k; err is the error of building it.
func sizedPutReq(item Item, k Key, err error) (writeReq, error) {
	if err == nil {
		err = checkSize(item)
	}
	if err != nil {
		return writeReq{key: k}, err
	}
	return writeReq{key: k, req: types.WriteRequest{PutRequest: &types.PutRequest{Item: item}}}, nil
}

// bulk writes n items made by req, every one before any request, so one
// bad item fails the call unsent; with an error req's writeReq holds only
// the key the error names.
func bulk(ctx context.Context, t *Table, it *itemType, op string, n int, req func(i int) (writeReq, error), optFns []func(*BulkOptions)) (_ BulkResult, err error) {
	ctx, sp := t.startSpan(ctx, op)
	defer sp.End(&err)
	if cs := t.countersOf(it); len(cs) > 0 { // a batch cannot keep counts true
		return BulkResult{}, t.opErr(op, "", "", fmt.Errorf("%w: %s has counter %s, which a batch write cannot keep: write the items one by one or in a Tx", ErrInvalidOption, it.kind, cs[0].name))
	}
	reqs := make([]writeReq, n)
	for i := range reqs {
		r, err := req(i)
		if err != nil {
			return BulkResult{}, t.opErr(op, r.key.PK, r.key.SK, err)
		}
		reqs[i] = r
	}
	return t.batchWrite(ctx, op, reqs, optFns)
}

// PutMany writes many edges with BatchWriteItem: 25 per request, up to
// BulkOptions.Workers requests at once, unprocessed items resent after
// [Options.BatchBackoff], at most [Options.BatchMaxAttempts] requests per
// batch. Every edge is validated first (ids, key attributes, 400 KB,
// duplicates: [ErrDuplicateKey]); one bad edge fails the call before any
// request.
//
// Batch writes carry no condition: an existing edge is overwritten, not
// refused, and on a handle with [Tracking] every edge is written as
// created: version 1 whatever was stored, CreatedAt and UpdatedAt now,
// the expiry from Lifetime. When duplicates must be refused, use [Edge.Put] per edge or a
// [Tx] of up to 100 [Edge.Put] given [InTx]. What could not be written is listed in
// BulkResult.Unwritten, and the error then matches [ErrUnprocessed] or
// wraps the SDK's error.
func (e *Edge[E]) PutMany(ctx context.Context, edges []EdgeItem[E], optFns ...func(*BulkOptions)) (BulkResult, error) {
	return bulk(ctx, e.t, &e.it, "Edge.PutMany", len(edges), func(i int) (writeReq, error) {
		v := edges[i]
		k, err := e.keyed(v.From, v.To)
		return sizedPutReq(e.handle().item(&k, err, v.Data, true, nil))
	}, optFns)
}

// DeleteMany deletes many edges (only From and To are read) with
// BatchWriteItem, as [Edge.PutMany] writes them. Deleting an edge that does
// not exist is not an error. Bad ids or duplicates fail before any request.
func (e *Edge[E]) DeleteMany(ctx context.Context, edges []EdgeItem[E], optFns ...func(*BulkOptions)) (BulkResult, error) {
	return bulk(ctx, e.t, &e.it, "Edge.DeleteMany", len(edges), func(i int) (writeReq, error) {
		v := edges[i]
		k, err := e.keyed(v.From, v.To)
		return e.handle().deleteReq(&k, err)
	}, optFns)
}

// PutMany writes many children with BatchWriteItem, as [Edge.PutMany]
// writes edges: existing children are overwritten.
func (c *Collection[C, P]) PutMany(ctx context.Context, children []Child[C], optFns ...func(*BulkOptions)) (BulkResult, error) {
	return bulk(ctx, c.t, &c.it, "Collection.PutMany", len(children), func(i int) (writeReq, error) {
		v := children[i]
		k, err := c.keyed(v.Parent, v.ID)
		return sizedPutReq(c.handle().item(&k, err, v.Data, true, nil))
	}, optFns)
}

// PutMany writes many node items with BatchWriteItem, as [Edge.PutMany]
// writes edges: existing items are overwritten.
func (n *Node[N]) PutMany(ctx context.Context, nodes []NodeItem[N], optFns ...func(*BulkOptions)) (BulkResult, error) {
	return bulk(ctx, n.t, &n.it, "Node.PutMany", len(nodes), func(i int) (writeReq, error) {
		v := nodes[i]
		k, err := n.keyed(v.ID)
		return sizedPutReq(n.handle().item(&k, err, v.Data, true, nil))
	}, optFns)
}

// DeleteMany deletes the node items of ids with BatchWriteItem, as
// [Edge.DeleteMany] deletes edges; versions are not checked, and edges and
// children are not touched (see [DeleteNode]).
func (n *Node[N]) DeleteMany(ctx context.Context, ids []string, optFns ...func(*BulkOptions)) (BulkResult, error) {
	return bulk(ctx, n.t, &n.it, "Node.DeleteMany", len(ids), func(i int) (writeReq, error) {
		k, err := n.keyed(ids[i])
		return n.handle().deleteReq(&k, err)
	}, optFns)
}

// DeleteMany deletes many children (only Parent and ID are read) with
// BatchWriteItem, as [Edge.DeleteMany] deletes edges.
func (c *Collection[C, P]) DeleteMany(ctx context.Context, children []Child[C], optFns ...func(*BulkOptions)) (BulkResult, error) {
	return bulk(ctx, c.t, &c.it, "Collection.DeleteMany", len(children), func(i int) (writeReq, error) {
		v := children[i]
		k, err := c.keyed(v.Parent, v.ID)
		return c.handle().deleteReq(&k, err)
	}, optFns)
}

// PutMany writes many items of the entity (IDs and Data of each) with
// BatchWriteItem, as [Edge.PutMany] writes edges, e.g. the fan-out of a
// post to its author's followers' timelines.
func (e *Entity[T]) PutMany(ctx context.Context, items []EntityItem[T], optFns ...func(*BulkOptions)) (BulkResult, error) {
	return bulk(ctx, e.t, &e.it, "Entity.PutMany", len(items), func(i int) (writeReq, error) {
		v := items[i]
		return sizedPutReq(e.handle().item(&keyed{kc: keyCtx{IDs: v.IDs}}, nil, v.Data, true, nil))
	}, optFns)
}

// DeleteMany deletes the items with ids with BatchWriteItem, as
// [Edge.DeleteMany] deletes edges.
func (e *Entity[T]) DeleteMany(ctx context.Context, ids []IDs, optFns ...func(*BulkOptions)) (BulkResult, error) {
	return bulk(ctx, e.t, &e.it, "Entity.DeleteMany", len(ids), func(i int) (writeReq, error) {
		v := ids[i]
		k, err := e.keyed(v)
		return e.handle().deleteReq(&k, err)
	}, optFns)
}
