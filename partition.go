package adjlist

import (
	"context"
	"fmt"
)

// Target receives, during [LoadPartition], the items of one edge kind or
// child type, decoded into the slice it was made with: [Edge.Into] or
// [Collection.Into]. A zero Target is invalid.
type Target struct {
	t     *Table
	typ   string // the node type whose partitions hold the items
	kind  string
	err   error
	take  func(Item) (bool, error) // appends a matching item
	reset func()
}

// Into returns a [Target] that appends to *dst, in ascending sort key
// order, every edge of this kind that [LoadPartition] meets in the source
// node's partition. A nil dst is [ErrInvalidOption] when used.
func (e *Edge[E]) Into(dst *[]EdgeItem[E]) Target {
	tg := Target{t: e.t, typ: e.fromType, kind: "edge " + e.prefix, err: e.err}
	if dst == nil {
		tg.err = fmt.Errorf("%w: Into(nil)", ErrInvalidOption)
		return tg
	}
	tg.take = func(item Item) (bool, error) {
		v, ok, err := e.decode(item)
		if ok && err == nil {
			*dst = append(*dst, v)
		}
		return ok, err
	}
	tg.reset = func() { *dst = nil }
	return tg
}

// Into returns a [Target] that appends to *dst, in ascending sort key
// order, every child of this type that [LoadPartition] meets in the
// parent's partition. A nil dst is [ErrInvalidOption] when used.
func (c *Collection[P, C]) Into(dst *[]Child[C]) Target {
	tg := Target{t: c.t, typ: c.parent.typ, kind: "child " + c.prefix, err: c.err}
	if dst == nil {
		tg.err = fmt.Errorf("%w: Into(nil)", ErrInvalidOption)
		return tg
	}
	tg.take = func(item Item) (bool, error) {
		v, ok, err := c.decode(item)
		if ok && err == nil {
			*dst = append(*dst, v)
		}
		return ok, err
	}
	tg.reset = func() { *dst = nil }
	return tg
}

// Partition is a node's item and what [LoadPartition] did not hand to a
// target.
type Partition[N any] struct {
	ID   string // node id, e.g. "a91"
	Node N      // the node item's data
	// Other counts the items of the partition no target matched (other
	// edge labels, child types, foreign items); they are not decoded.
	Other int
}

// LoadPartition reads node id's whole partition (item collection) with one
// Query per page on the table, PK = "STU#a91" with no sort key condition,
// and decodes each item by the handle whose key shape it matches: the node
// item into Partition.Node, each edge kind and child type into the slice
// of its [Target]. For a student's profile, enrolments and notes in one
// read:
//
//	var courses []adjlist.EdgeItem[Enrollment]
//	var notes []adjlist.Child[Note]
//	p, err := adjlist.LoadPartition(ctx, students, "a91", enrolled.Into(&courses), studentNotes.Into(&notes))
//
// [LoadNode] and [Collection.Load] are the one-target cases. It returns
// [ErrNotFound] if the node item does not exist, [ErrInvalidKey] for a bad
// id, and [ErrInvalidOption] for a target of another table or node type,
// all before any request for the last two. Items whose data does not fit
// their type fail the read. With any error every target's slice is nil
// and the Partition is zero but for ID. Reads are eventually consistent.
func LoadPartition[N any](ctx context.Context, node *Node[N], id string, targets ...Target) (Partition[N], error) {
	const op = "LoadPartition"
	res := Partition[N]{ID: id}
	var err error
	for _, tg := range targets {
		switch {
		case err != nil:
		case tg.err != nil:
			err = tg.err
		case tg.take == nil:
			err = fmt.Errorf("%w: a zero Target", ErrInvalidOption)
		case tg.t != node.t || tg.typ != node.typ:
			err = fmt.Errorf("%w: %s is not in %s partitions", ErrInvalidOption, tg.kind, node.typ)
		}
	}
	res.Node, err = loadPartition(ctx, op, node, id, err, func(int) {}, func(item Item) error {
		for _, tg := range targets {
			if ok, err := tg.take(item); ok || err != nil {
				return err
			}
		}
		res.Other++
		return nil
	})
	if err != nil {
		for _, tg := range targets {
			if tg.reset != nil {
				tg.reset()
			}
		}
		return Partition[N]{ID: id}, err
	}
	return res, nil
}
