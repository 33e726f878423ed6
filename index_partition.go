package adjlist

import (
	"context"
	"fmt"
)

// Into returns a [Target] that appends to *dst, in the read's order, every
// node item of this type that [PageIndex] meets. A nil dst is
// [ErrInvalidOption] when used.
func (n *Node[N]) Into(dst *[]NodeItem[N]) Target {
	return into(n.t, n.typ, "node "+n.typ, n.err, dst, n.decodeItem)
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

// PageIndex reads one page of the index partition that q reads, decoding
// every item into the [Target] of its type: the mixed read of an
// overloaded index, where several item types share one partition. With
// nodes and children both keyed STATUS#<status> in GSI2:
//
//	var spaces []adjlist.NodeItem[Workspace]
//	var projs []adjlist.Child[Project]
//	p, err := adjlist.PageIndex(ctx, projects.ByIndex("GSI2", "ACTIVE").Limit(50), "",
//		workspaces.Into(&spaces), projects.Into(&projs))
//
// is one Query (GSI2PK = "STATUS#ACTIVE"), items in the index's sort key
// order dealt to the slices. q is any [Query] made by a handle's ByIndex
// (or a table read); its key condition, filter, projection, limit and
// direction are the read's, so a sort key template that starts with its
// item type's constant prefix limits the read to that type: give the item
// types that share a partition sort keys that start with data (a date) or
// a shared constant. A sharded query reads every shard, merged. cursor is
// "" for the first page or an IndexPage.Cursor of the same read (else
// [ErrInvalidCursor], before any request). An invalid q or target fails
// before any request ([ErrInvalidOption], q's own error); an item whose
// data does not fit its type fails the read. With any error every
// target's slice is nil.
func PageIndex[T any](ctx context.Context, q Query[T], cursor string, targets ...Target) (_ IndexPage, err error) {
	ctx, sp := q.startSpan(ctx, "PageIndex")
	defer sp.end(&err)
	var res IndexPage
	fail := func(err error) (IndexPage, error) {
		resetTargets(targets)
		return IndexPage{}, err
	}
	if err := checkMixedTargets(q.t, targets); err != nil {
		return fail(q.wrap(err))
	}
	mixed := retype(q, func(item Item) (Item, bool, error) {
		return nil, false, dispatch(targets, item, &res.Other)
	})
	mixed.op = "PageIndex"
	page, err := mixed.Page(ctx, cursor)
	if err != nil {
		return fail(err)
	}
	res.Cursor = page.Cursor
	return res, nil
}

// retype is q decoding with decode instead (LessThan's bound still
// skipped).
func retype[T, U any](q Query[T], decode func(Item) (U, bool, error)) Query[U] {
	u := Query[U]{querySpec: q.querySpec, decode: decode}
	if q.excl != "" {
		u.decode = excluding(decode, q.skAttr, q.excl)
	}
	return u
}

// AllTypes returns the query over the whole partition that q reads, on
// the table or on q's index, with every item type in it: the same
// partition key (every shard of a sharded read), without q's item type
// sort key prefix, condition or filter, yielding raw items. Run it with
// [Load] or [PageIndex], which decode each item into the slice of the
// [Target] whose type it is, or narrow it first: its sort key conditions
// ([Query.BeginsWith], [Query.Between], [Query.LessThan], [Query.Equal],
// ...) take whole sort key values, every '#' in them a separator and the
// text between written as ids are ('%' → "%25"; the range values of
// [Query]), so one read can span several item types (BeginsWith("ALERT")
// reads "ALERT1#…" to "ALERT4#…"), e.g. in the AWS gaming profile design
// (PK = "player001"):
//
//	adjlist.AllTypes(items.List("player001"))                       // PK = "player001": the whole profile
//	adjlist.AllTypes(items.List("player001")).BeginsWith("ITEMS#")  // AND begins_with(SK, "ITEMS#")
//
// and on an index, a parent and its children that share an index
// partition: AllTypes(projects.ByIndex("GSI2", "acme")). q's
// ConsistentRead and Limit are kept; its direction, filter and projection
// are not. q's error, if any, is the new query's.
func AllTypes[T any](q Query[T]) Query[Item] {
	const op = "AllTypes"
	if q.err != nil {
		return errQuery[Item](q.t, op, q.err)
	}
	k := q.keys
	k.skPrefix, k.skExact, k.filterPrefix, k.keysOnly, k.freeSK = "", false, "", false, true
	k.skRest, k.everySep = nil, k.native == nil
	k.kind = "" // every type in the partition
	if nk := k.native; nk != nil {
		whole := nativeKeys{eq: nk.eq[:nk.pkN], pkN: nk.pkN, next: nk.next}
		if nk.pkN < len(nk.eq) { // q fixed sort attributes: free the first
			next := q.t.meta[k.index].ix.SortAttributes[0]
			whole.next = &next
		}
		k.native = &whole
		k.freeSK = whole.next != nil
	}
	all := newQuery(q.t, op, k, rawItem)
	all.wraps = q.op
	all.in.Limit, all.in.ConsistentRead = q.in.Limit, q.in.ConsistentRead
	return all
}

// rawItem is the decoder of a Query[Item]: every item, as it is.
func rawItem(item Item) (Item, bool, error) { return item, true, nil }

// Loaded is what [Load] did not hand to a target.
type Loaded struct {
	// Other counts the items no target took (types without a target,
	// foreign items); they are not decoded.
	Other int
}

// Load runs q to the end, one Query request per page, and decodes each
// item into the slice of the first target whose item type it is: several
// item types in one read, each typed, e.g. the AWS social network's user,
// whose "info" and "count" items share PK = "u#12345":
//
//	var info []adjlist.EntityItem[UserInfo]
//	var counts []adjlist.EntityItem[UserCounts]
//	res, err := adjlist.Load(ctx, adjlist.AllTypes(users.List("12345")), users.Into(&info), userCounts.Into(&counts))
//
// is one Query (PK = "u#12345"). q is any query ([AllTypes]' usually,
// or a handle's own read); targets come from the handles' Into
// ([Entity.Into], [Node.Into], [Edge.Into], [Collection.Into]); items no
// target takes are counted in Loaded.Other. [PageIndex] is the same read
// one page at a time. A target of another table, a zero or nil one
// ([ErrInvalidOption]), or q's own error fail before any request; an item
// whose data does not fit its type fails the read. With any error every target's slice is
// nil.
func Load[T any](ctx context.Context, q Query[T], targets ...Target) (Loaded, error) {
	ctx, sp := q.startSpan(ctx, "Load")
	res, err := load(ctx, q, targets)
	return res, sp.done(err)
}

// load is Load within its span.
func load[T any](ctx context.Context, q Query[T], targets []Target) (Loaded, error) {
	var res Loaded
	if err := checkMixedTargets(q.t, targets); err != nil {
		resetTargets(targets)
		return res, q.wrap(err)
	}
	mixed := retype(q, func(item Item) (Item, bool, error) {
		return nil, false, dispatch(targets, item, &res.Other)
	})
	mixed.op = "Load"
	for _, err := range mixed.All(ctx) {
		if err != nil {
			resetTargets(targets)
			return Loaded{}, err
		}
	}
	return res, nil
}

// checkMixedTargets refuses targets that cannot take items of t.
func checkMixedTargets(t *Table, targets []Target) error {
	for _, tg := range targets {
		switch {
		case tg.err != nil:
			return tg.err
		case tg.take == nil:
			return fmt.Errorf("%w: a zero Target", ErrInvalidOption)
		case tg.t != t:
			return fmt.Errorf("%w: %s is of another table", ErrInvalidOption, tg.kind)
		}
	}
	return nil
}
