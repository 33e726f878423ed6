package adjlist

import (
	"context"
	"slices"

	"github.com/adjlist/adjlist/internal/send"
)

// batchGet reads the items of keys with [send.BatchGet]; items that do not
// exist are absent from the result.
func (t *Table) batchGet(ctx context.Context, op string, keys []Key, o ReadOptions) (map[Key]Item, error) {
	if o.err != nil {
		return nil, t.opErr(op, "", "", o.err)
	}
	found, at, err := send.BatchGet(ctx, t.batcher(ctx), keys, o.consistentRead(), func(k Key) Item { return t.keyItem(k.PK, k.SK) }, t.keyOf)
	if err != nil {
		return nil, t.opErr(op, at.PK, at.SK, t.throttled(err, "", "", "", "")) // of no one key
	}
	return found, nil
}

// keyOf is item's primary key, "" for an attribute missing.
func (t *Table) keyOf(item Item) Key {
	pk, _ := t.keyText(item, t.opts.PartitionKey)
	sk, _ := t.keyText(item, t.opts.SortKey)
	return Key{pk, sk}
}

// batcher is the table as [send.BatchGet] and [send.BatchWrite] send to it.
func (t *Table) batcher(ctx context.Context) *send.Table {
	return &send.Table{Client: t.client, Name: t.name, Backoff: t.opts.BatchBackoff, MaxAttempts: t.opts.BatchMaxAttempts, Opts: callOpts(ctx)}
}

// getMany reads n items with batchGet and returns one R per item found,
// in order, made by mk(i) with the item's data decoded into data(&r) with
// its key's ids (an Entity's): an item asked for twice comes twice. With
// any error it returns nil.
func getMany[R any](ctx context.Context, h handle, op string, n int, keyOf func(i int) (keyed, error), optFns []func(*ReadOptions), mk func(i int) R, data func(r *R) any) (_ []R, err error) {
	t := h.t
	ctx, sp := t.startSpan(ctx, op)
	defer sp.End(&err)
	keys := make([]Key, n)
	var ids [][]string
	if h.it.data != nil {
		ids = make([][]string, n)
	}
	for i := range n {
		k, err := keyOf(i)
		if err != nil {
			return nil, t.opErr(op, k.kc.PK, k.kc.SK, err)
		}
		keys[i] = k.key()
		if ids != nil {
			ids[i] = k.kc.IDs
		}
	}
	found, err := t.batchGet(ctx, op, keys, readOptions(optFns))
	if err != nil {
		return nil, err
	}
	out := make([]R, 0, n)
	for i, k := range keys {
		item, ok := found[k]
		if !ok {
			continue
		}
		var kids []string
		if ids != nil {
			kids = ids[i]
		}
		out = append(out, mk(i))
		if err := t.decodeData(h.it, kids, item, data(&out[len(out)-1])); err != nil {
			return nil, t.opErr(op, k.PK, k.SK, err)
		}
	}
	return out, nil
}

// Hydrate returns edges with their data read from the table. Use it after a
// reverse read on a KEYS_ONLY (or INCLUDE) index, which returns endpoint ids
// without the edge's data. It makes one BatchGetItem per 100 distinct
// edges (eventually consistent reads unless optFns ask for strongly
// consistent ones, [Consistent]), resending unprocessed keys after
// [Options.BatchBackoff], at most [Options.BatchMaxAttempts] requests per
// batch. The result keeps the input's order; an edge deleted since it was
// listed is left out.
//
// Bad ids give [ErrInvalidKey] before any request. Keys still unprocessed
// after the last attempt give [ErrUnprocessed]; SDK errors are wrapped.
func (e *Edge[E]) Hydrate(ctx context.Context, edges []EdgeItem[E], optFns ...func(*ReadOptions)) ([]EdgeItem[E], error) {
	keyOf := func(i int) (keyed, error) { return e.keyed(edges[i].From, edges[i].To) }
	return getMany(ctx, e.handle(), "Edge.Hydrate", len(edges), keyOf, optFns,
		func(i int) EdgeItem[E] { return EdgeItem[E]{From: edges[i].From, To: edges[i].To} },
		func(r *EdgeItem[E]) any { return &r.Data })
}

// GetMany reads the items of the nodes ids as [Edge.Hydrate] reads edges:
// one BatchGetItem per 100 distinct ids, e.g. the profiles of a course's
// students after [Edge.To]. Like every verb that reads several items it
// returns the handle's item type, [NodeItem]: in the order of ids, ids
// with no item left out, and an id given twice returned twice. With any
// error the result is nil.
func (n *Node[N]) GetMany(ctx context.Context, ids []string, optFns ...func(*ReadOptions)) ([]NodeItem[N], error) {
	keyOf := func(i int) (keyed, error) { return n.keyed(ids[i]) }
	return getMany(ctx, n.handle(), "Node.GetMany", len(ids), keyOf, optFns,
		func(i int) NodeItem[N] { return NodeItem[N]{ID: ids[i]} },
		func(r *NodeItem[N]) any { return &r.Data })
}

// GetMany reads many children (only Parent and ID are read from each) as
// [Edge.Hydrate] reads edges: one BatchGetItem per 100 distinct keys. Like
// every verb that reads several items it returns the handle's item type,
// [Child]: in the order of children with Data filled in, children with no
// item left out, and one given twice returned twice. With any error the
// result is nil.
func (c *Collection[C, P]) GetMany(ctx context.Context, children []Child[C], optFns ...func(*ReadOptions)) ([]Child[C], error) {
	keyOf := func(i int) (keyed, error) { return c.keyed(children[i].Parent, children[i].ID) }
	return getMany(ctx, c.handle(), "Collection.GetMany", len(children), keyOf, optFns,
		func(i int) Child[C] { return Child[C]{Parent: children[i].Parent, ID: children[i].ID} },
		func(r *Child[C]) any { return &r.Data })
}

// GetMany reads the items with ids as [Edge.Hydrate] reads edges: one
// BatchGetItem per 100 distinct keys. Like every verb that reads several
// items it returns the handle's item type, [EntityItem]: in the order of
// ids, ids with no item left out, and ids given twice returned twice.
// With any error the result is nil.
func (e *Entity[T]) GetMany(ctx context.Context, ids []IDs, optFns ...func(*ReadOptions)) ([]EntityItem[T], error) {
	keyOf := func(i int) (keyed, error) { return e.keyed(ids[i]) }
	return getMany(ctx, e.handle(), "Entity.GetMany", len(ids), keyOf, optFns,
		func(i int) EntityItem[T] { return EntityItem[T]{IDs: slices.Clone(ids[i])} },
		func(r *EntityItem[T]) any { return &r.Data })
}
