package adjlist

import (
	"context"
	"slices"

	"github.com/adjlist/adjlist/internal/send"
)

// batchGet reads the items of keys with [send.BatchGet]; items that do not
// exist are absent from the result.
func (t *Table) batchGet(ctx context.Context, op string, keys []itemKey, o ReadOptions) (map[itemKey]Item, error) {
	if o.err != nil {
		return nil, t.opErr(op, "", "", o.err)
	}
	found, at, err := send.BatchGet(ctx, t.batcher(ctx), keys, o.consistentRead(), func(k itemKey) Item { return t.keyItem(k.pk, k.sk) }, t.keyOf)
	if err != nil {
		return nil, t.opErr(op, at.pk, at.sk, t.throttled(err, "", "", "", "")) // of no one key
	}
	return found, nil
}

// keyOf is item's primary key, "" for an attribute missing.
func (t *Table) keyOf(item Item) itemKey {
	pk, _ := t.keyText(item, t.opts.PartitionKey)
	sk, _ := t.keyText(item, t.opts.SortKey)
	return itemKey{pk, sk}
}

// batcher is the table as [send.BatchGet] and [send.BatchWrite] send to it.
func (t *Table) batcher(ctx context.Context) *send.Table {
	return &send.Table{Client: t.client, Name: t.name, Backoff: t.opts.BatchBackoff, MaxAttempts: t.opts.BatchMaxAttempts, Opts: callOpts(ctx)}
}

// getMany reads n items with batchGet and hands each one found, in order,
// to each with its key's ids (an Entity's; nil for other types), for
// [Table.decodeData]: an item asked for twice is handed twice. With an
// error each may have been called for some items.
func getMany(ctx context.Context, h handle, op string, n int, keyOf func(i int) (keyed, error), optFns []func(*ReadOptions), each func(i int, item Item, ids []string) error) (err error) {
	t := h.t
	ctx, sp := t.startSpan(ctx, op)
	defer sp.end(&err)
	keys := make([]itemKey, n)
	var ids [][]string
	if h.it.data != nil {
		ids = make([][]string, n)
	}
	for i := range n {
		k, err := keyOf(i)
		if err != nil {
			return t.opErr(op, k.kc.PK, k.kc.SK, err)
		}
		keys[i] = k.key()
		if ids != nil {
			ids[i] = k.kc.IDs
		}
	}
	found, err := t.batchGet(ctx, op, keys, readOptions(optFns))
	if err != nil {
		return err
	}
	for i, k := range keys {
		item, ok := found[k]
		if !ok {
			continue
		}
		var kids []string
		if ids != nil {
			kids = ids[i]
		}
		if err := each(i, item, kids); err != nil {
			return t.opErr(op, k.pk, k.sk, err)
		}
	}
	return nil
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
	out := make([]EdgeItem[E], 0, len(edges))
	keyOf := func(i int) (keyed, error) { return e.keyed(edges[i].From, edges[i].To) }
	err := getMany(ctx, e.handle(), "Edge.Hydrate", len(edges), keyOf, optFns, func(i int, item Item, ids []string) error {
		out = append(out, EdgeItem[E]{From: edges[i].From, To: edges[i].To})
		return e.t.decodeData(&e.it, ids, item, &out[len(out)-1].Data)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// GetMany reads the items of the nodes ids as [Edge.Hydrate] reads edges:
// one BatchGetItem per 100 distinct ids, e.g. the profiles of a course's
// students after [Edge.To]. Like every verb that reads several items it
// returns the handle's item type, [NodeItem]: in the order of ids, ids
// with no item left out, and an id given twice returned twice. With any
// error the result is nil.
func (n *Node[N]) GetMany(ctx context.Context, ids []string, optFns ...func(*ReadOptions)) ([]NodeItem[N], error) {
	out := make([]NodeItem[N], 0, len(ids))
	keyOf := func(i int) (keyed, error) { return n.keyed(ids[i]) }
	err := getMany(ctx, n.handle(), "Node.GetMany", len(ids), keyOf, optFns, func(i int, item Item, kids []string) error {
		out = append(out, NodeItem[N]{ID: ids[i]})
		return n.t.decodeData(&n.it, kids, item, &out[len(out)-1].Data)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// GetMany reads many children (only Parent and ID are read from each) as
// [Edge.Hydrate] reads edges: one BatchGetItem per 100 distinct keys. Like
// every verb that reads several items it returns the handle's item type,
// [Child]: in the order of children with Data filled in, children with no
// item left out, and one given twice returned twice. With any error the
// result is nil.
func (c *Collection[C, P]) GetMany(ctx context.Context, children []Child[C], optFns ...func(*ReadOptions)) ([]Child[C], error) {
	out := make([]Child[C], 0, len(children))
	keyOf := func(i int) (keyed, error) { return c.keyed(children[i].Parent, children[i].ID) }
	err := getMany(ctx, c.handle(), "Collection.GetMany", len(children), keyOf, optFns, func(i int, item Item, ids []string) error {
		out = append(out, Child[C]{Parent: children[i].Parent, ID: children[i].ID})
		return c.t.decodeData(&c.it, ids, item, &out[len(out)-1].Data)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// GetMany reads the items with ids as [Edge.Hydrate] reads edges: one
// BatchGetItem per 100 distinct keys. Like every verb that reads several
// items it returns the handle's item type, [EntityItem]: in the order of
// ids, ids with no item left out, and ids given twice returned twice.
// With any error the result is nil.
func (e *Entity[T]) GetMany(ctx context.Context, ids []IDs, optFns ...func(*ReadOptions)) ([]EntityItem[T], error) {
	out := make([]EntityItem[T], 0, len(ids))
	keyOf := func(i int) (keyed, error) { return e.keyed(ids[i]) }
	err := getMany(ctx, e.handle(), "Entity.GetMany", len(ids), keyOf, optFns, func(i int, item Item, kids []string) error {
		out = append(out, EntityItem[T]{IDs: slices.Clone(ids[i])})
		return e.t.decodeData(&e.it, kids, item, &out[len(out)-1].Data)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
