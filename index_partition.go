package adjlist

import (
	"context"
	"fmt"

	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/modeldoc"
)

// Into returns a [Target] that appends to *dst, in the read's order, every
// node item of this type that [Load] or [PageIndex] meets. A nil dst is
// [ErrInvalidOption] when used.
func (n *Node[N]) Into(dst *[]NodeItem[N]) Target {
	return into(n.t, n.typ, "node "+n.typ, n.err, dst, n.decodeAt, &n.nodeCore)
}

// IndexPage is one page of a mixed read of an index partition
// ([PageIndex]).
type IndexPage struct {
	// Other counts the items of the page no target took (item types not
	// asked for, foreign items); they are not decoded.
	Other int
	// Cursor resumes the read after this page, as [Page.Cursor] does; ""
	// when DynamoDB reports no more items.
	Cursor string
}

// PageIndex reads one page of the index partition q reads, decoding each
// item into the [Target] of its type: the mixed read of an overloaded
// index. With nodes and children both keyed STATUS#<status> in GSI2:
//
//	var spaces []adjlist.NodeItem[Workspace]
//	var projs []adjlist.Child[Project]
//	p, err := adjlist.PageIndex(ctx, projects.ByIndex("GSI2", "ACTIVE").Limit(50), "",
//		workspaces.Into(&spaces), projects.Into(&projs))
//
// is one Query (GSI2PK = "STATUS#ACTIVE"), in the index's sort key order.
// q's key condition, filter, projection, limit and direction are the
// read's, so a sort key template starting with its type's constant prefix
// limits the read to that type. A sharded query reads every shard, merged.
// cursor is "" or an IndexPage.Cursor of the same read (else
// [ErrInvalidCursor]). An invalid q or target ([ErrInvalidOption], q's own
// error) or a target q never matches (ErrInvalidOption, as for [Load])
// fails before any request; an item whose data does not fit its type fails the read. With
// any error every target's slice is nil.
func PageIndex[T any](ctx context.Context, q Query[T], cursor string, targets ...Target) (IndexPage, error) {
	res := IndexPage{Cursor: cursor}
	if err := readTypes(ctx, q.querySpec, "PageIndex", &res.Cursor, targets, &res.Other); err != nil {
		return IndexPage{}, err
	}
	return res, nil
}

// readTypes is [Load] (page nil) and [PageIndex], for any T.
func readTypes(ctx context.Context, q querySpec, op string, page *string, targets []Target, other *int) (err error) {
	ctx, sp := qsStartSpan(&q, ctx, op)
	defer sp.End(&err)
	if err = checkMixedTargets(&q, targets); err != nil {
		err = qsWrap(&q, err) // naming q's op
	} else {
		d := newDealer(q.t, targets, other)
		q.op, q.run.Fetched = op, d
		deal := func(item Item) (bool, error) { return false, d.Deal(item) }
		if page != nil {
			*page, err = qsPage(&q, ctx, *page, deal, func(int) {})
		} else {
			err = qsAll(&q, ctx, deal, nil, func() bool { return true })
		}
	}
	if err != nil {
		resetTargets(targets)
	}
	return err
}

// AllTypes returns the query over the whole partition q reads, on the
// table or q's index (every shard of a sharded read), without q's item
// type's sort key prefix, condition or filter, yielding raw items for
// [Load] or [PageIndex]. Its sort key conditions take whole sort key
// values, each '#' a separator and the text between escaped as ids are,
// so one read can span item types. In the AWS gaming profile design:
//
//	adjlist.AllTypes(items.List("player001"))                       // PK = "player001": the whole profile
//	adjlist.AllTypes(items.List("player001")).BeginsWith("ITEMS#")  // AND begins_with(SK, "ITEMS#")
//
// q's Limit is kept; its direction, filter and projection are not. q's
// error, if any, is the new query's. optFns are read options for [Load]
// and [PageIndex], which have none of their own: [Consistent] for a
// strongly consistent read (refused on a global secondary index with
// [ErrIndexConsistentRead] before any request).
func AllTypes[T any](q Query[T], optFns ...func(*ReadOptions)) Query[Item] {
	all := allTypes(&q.querySpec)
	qsRead(&all.querySpec, optFns)
	return all
}

// allTypes is [AllTypes], for any T.
func allTypes(q *querySpec) Query[Item] {
	const op = "AllTypes"
	if q.err != nil {
		return Query[Item]{querySpec: errSpec(q.t, op, q.err)}
	}
	k := q.keys
	k.skPrefix, k.skExact, k.filterPrefix, k.keysOnly, k.freeSK = "", false, "", false, true
	k.sourceFilter, k.sourceExact = "", false
	k.skRest, k.everySep = nil, k.native == nil
	k.kind = "" // every type in the partition
	if nk := k.native; nk != nil {
		whole := nativeKeys{eq: nk.eq[:nk.pkN], pkN: nk.pkN, next: nk.next, tableKeys: nk.tableKeys}
		if nk.pkN < len(nk.eq) { // q fixed sort attributes: free the first
			next := q.t.meta[k.index].ix.SortAttributes[0]
			whole.next = &next
		}
		k.native = &whole
		k.freeSK = whole.next != nil
		k.everySep = whole.keyText(q.t)
	}
	all := Query[Item]{querySpec: newQuerySpec(q.t, op, k), decode: rawItem}
	all.wraps = q.op
	all.run.In.Limit = q.run.In.Limit
	return all
}

// rawItem is the decoder of a Query[Item]: every item, as it is.
func rawItem(item Item) (Item, bool, error) { return item, true, nil }

// Load runs q to the end, one Query request per page, and decodes each
// item into the slice of the first target of its type, e.g. the AWS social
// network's user, whose "info" and "count" items share PK = "u#12345":
//
//	var info []adjlist.EntityItem[UserInfo]
//	var counts []adjlist.EntityItem[UserCounts]
//	other, err := adjlist.Load(ctx, adjlist.AllTypes(users.List("12345")), users.Into(&info), userCounts.Into(&counts))
//
// is one Query (PK = "u#12345"); other counts the items no target took
// (types without a target, foreign items), which are not decoded. [PageIndex] is the same read a page at a time. A target of
// another table, a zero or nil one, a target whose items q's key
// condition never matches (all [ErrInvalidOption], in an [*OpError] naming
// q's Op and Index), or q's own error fail before any request; an item
// whose data does not fit its type fails the read. With any error every
// target's slice is nil.
//
// A target is never matched when its item type's partition key cannot
// spell the partition q reads (one of them, on a sharded read), or its sort
// key cannot begin with q's item type prefix, e.g. shipments.Into (SK
// "SHIP#<id>") with orders.List("12345") (PK = "USER#12345" AND
// begins_with(SK, "ORDER#")), where AllTypes(orders.List("12345")) was
// meant. A range condition ([Query.Between], ...) refuses no target, nor
// does a read of a native index (its keys are data) or a target whose item
// type was declared again since.
func Load[T any](ctx context.Context, q Query[T], targets ...Target) (other int, err error) {
	if err := readTypes(ctx, q.querySpec, "Load", nil, targets, &other); err != nil {
		return 0, err
	}
	return other, nil
}

// checkMixedTargets refuses targets of another table, and those whose
// items q's key condition never matches.
func checkMixedTargets(q *querySpec, targets []Target) error {
	for _, tg := range targets {
		switch {
		case tg.err != nil:
			return tg.err
		case tg.into == nil:
			return fmt.Errorf("%w: a zero Target", ErrInvalidOption)
		case tg.t != q.t:
			return fmt.Errorf("%w: %s is of another table", ErrInvalidOption, tg.kind)
		}
		if q.err != nil {
			continue // the query's own error comes first, when run
		}
		if reach := qsReaches(q, tg); reach != keycodec.Reachable {
			return unreachable(q, tg.kind, reach == keycodec.OtherPartition)
		}
	}
	return nil
}

// unreachable is the error of a target whose items q's key condition
// never matches: never in q's partitions (partition), or excluded by its
// sort key prefix.
func unreachable(q *querySpec, target string, partition bool) error {
	if partition {
		where := "the table"
		if q.keys.index != "" {
			where = "index " + q.keys.index
		}
		return fmt.Errorf("%w: target %s: %s reads partitions of %s that never hold its items", ErrInvalidOption, target, q.op, where)
	}
	return fmt.Errorf("%w: target %s: the sort key prefix of %s never matches its items; AllTypes(q) reads every item type of the partition", ErrInvalidOption, target, q.op)
}

// qsReaches judges whether q's key condition can match an item of tg's
// type, from its keys in the table or q's index as [Model] draws them.
func qsReaches(q *querySpec, tg Target) keycodec.Reach {
	if tg.h == nil || q.keys.native != nil {
		return keycodec.Reachable // a native index's keys are data
	}
	r, ok := q.t.recordOf(tg.h)
	if !ok || r.err != nil {
		return keycodec.Reachable // declared again since: not judged
	}
	k, ok := r.reach[q.keys.index]
	if !ok {
		k = q.t.reachKeys(q.keys.index, tg.h)
	}
	if !k.in {
		return keycodec.OtherPartition
	}
	hq := keycodec.Query{PK: q.keys.pk, ShardPKs: q.keys.shardPKs, SKPrefix: q.skPrefix, Exact: q.keys.skExact}
	return hq.Reaches(k.pk, k.sk)
}

// reachKeys are an item type's keys in one index ("": the table) as
// [keycodec.Query.Reaches] reads them; in is false when its items are
// never in the index.
type reachKeys struct {
	pk, sk keycodec.Spelling
	in     bool
}

func (t *Table) reachKeys(index string, h typedHandle) reachKeys {
	pk, sk, in := t.keyFormats(index, h.keyType())
	if !in {
		return reachKeys{}
	}
	return reachKeys{modeldoc.Spelling(pk), modeldoc.Spelling(sk), true}
}

// recordOf returns the record of the handle h, if t records it (a type
// declared again is recorded with its last handle).
func (t *Table) recordOf(h typedHandle) (recorded, bool) {
	t.reg.mu.Lock()
	defer t.reg.mu.Unlock()
	for _, r := range t.reg.types {
		if any(r.h) == any(h) {
			return r, true
		}
	}
	return recorded{}, false
}

// typedHandle is a handle whose items a read of several types judges by
// their keys.
type typedHandle interface{ keyType() *itemType }

func (n *nodeCore) keyType() *itemType       { return &n.it }
func (e *edgeCore) keyType() *itemType       { return &e.it }
func (c *collectionCore) keyType() *itemType { return &c.it }
func (e *entityCore) keyType() *itemType     { return &e.it }

// keyFormats are it's keys in index ("": the table) as Describe draws
// them (sk nil: the index has no sort key); in is false when its items
// are never in the index.
func (t *Table) keyFormats(index string, it *itemType) (pk, sk []modeldoc.Part, in bool) {
	f := it.formats()
	if index == "" {
		return f.PK, f.SK, true
	}
	if t.layout != noIndex && index == t.opts.Index {
		switch t.layout {
		case sortKeyIndex:
			return f.SK, f.PK, true // every item, keyed the other way round
		case sortKeyOnlyIndex:
			return f.SK, nil, true // every item, by its sort key alone
		}
		if it.edge == nil {
			return nil, nil, false // explicit keys: edges only
		}
		if it.edge.shards > 1 {
			return modeldoc.Join(f.Target, modeldoc.ShardPart("from", it.edge.shards)), f.PK, true
		}
		return f.Target, f.PK, true
	}
	b, ok := it.indexIn(index)
	if !ok {
		return nil, nil, false
	}
	pk = f.PK // a local index's partition is the table's
	if !b.Local {
		pk = f.Render(b.PK, b.Shards)
	}
	if b.SKAttr != "" {
		sk = f.Render(b.SK, 0)
	}
	return pk, sk, true
}
