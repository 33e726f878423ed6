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
func PageIndex[T any](ctx context.Context, q Query[T], cursor string, targets ...Target) (IndexPage, error) {
	var res IndexPage
	fail := func(err error) (IndexPage, error) {
		resetTargets(targets)
		return IndexPage{}, err
	}
	for _, tg := range targets {
		switch {
		case tg.err != nil:
			return fail(q.wrap(tg.err))
		case tg.take == nil:
			return fail(q.wrap(fmt.Errorf("%w: a zero Target", ErrInvalidOption)))
		case tg.t != q.t:
			return fail(q.wrap(fmt.Errorf("%w: %s is of another table", ErrInvalidOption, tg.kind)))
		}
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
