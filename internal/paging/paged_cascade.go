package paging

import (
	"context"

	"github.com/adjlist/adjlist/internal/send"
)

// Result counts what a cascade did: package adjlist's CascadeResult, K its
// Key.
type Result[K any] struct {
	Attached, Incoming, Partition int
	Node                          bool
	Queries, Batches, Counted     int
	Unwritten                     []K
}

// Cascade deletes page by page, each page's deletes sent before the next
// page is read, counting in Result. Delete and Keys are the table's.
type Cascade[K any] struct {
	Result[K]
	// Delete deletes the items with keys with BatchWriteItem; its error
	// names the cascade's node.
	Delete func(ctx context.Context, keys []Key) (send.Result[K], error)
	// Keys reads the keys of every item of partition pk, strongly
	// consistent, so that a resumed cascade sees every item still there.
	Keys func(pk string) Pager
}

// Children are the edge kinds attached to one collection's children that
// a cascade deletes.
type Children struct {
	// List lists the parent's children, strongly consistent: each Ref's
	// To is a child's ref. Its error is returned as it is.
	List func() ([]Pager, error)
	// Into has, per kind ending at the children, the pagers of the edges
	// into child ref (or the error, returned as it is).
	Into []func(ref string) ([]Pager, error)
	// Out says a kind starts at the children: each child's own partition
	// goes.
	Out bool
	// Under, if set, deletes what hangs under child ref (the collections
	// nested under the children), first.
	Under func(ctx context.Context, ref string) error
}

// DeleteNode deletes a node whose item has key self: phase 0, the edges
// attached to its children (children); phase 1, the edges into it, each
// kind's pagers in incoming; phase 2, the rest of its partition; phase 3,
// if phase 2 met it, the node item.
func (c *Cascade[K]) DeleteNode(ctx context.Context, children []Children, incoming [][]Pager, self Key) error {
	for _, ch := range children {
		if err := c.children(ctx, ch); err != nil {
			return err
		}
	}
	for _, ps := range incoming {
		if err := c.deleteAll(ctx, ps, &c.Incoming); err != nil {
			return err
		}
	}
	found := false
	err := c.deletePages(ctx, c.Keys(self.PK), func(r Ref) bool {
		if r.Key == self {
			found = true
			return false
		}
		return true
	}, &c.Partition)
	if err != nil || !found {
		return err
	}
	n := 0
	err = c.delete(ctx, []Key{self}, &n)
	c.Node = n == 1
	return err
}

// children deletes, for each child ch lists, page of children by page,
// the edges attached to it.
func (c *Cascade[K]) children(ctx context.Context, ch Children) error {
	list, err := ch.List()
	if err != nil {
		return err
	}
	return c.eachChild(ctx, list, ch, &c.Attached, &c.Attached, false)
}

// DeleteAttached deletes the edges attached to the child with ref ref: those
// into it of the kinds in ch.Into (counted in *into) and, if ch.Out, its
// own partition (counted in *out).
func (c *Cascade[K]) DeleteAttached(ctx context.Context, ch Children, ref string, into, out *int) error {
	if ch.Under != nil {
		if err := ch.Under(ctx, ref); err != nil {
			return err
		}
	}
	for _, kind := range ch.Into {
		ps, err := kind(ref)
		if err != nil {
			return err
		}
		if err := c.deleteAll(ctx, ps, into); err != nil {
			return err
		}
	}
	if !ch.Out {
		return nil
	}
	return c.deletePages(ctx, c.Keys(ref), func(Ref) bool { return true }, out)
}

// DeleteChildren deletes, page of list's children by page, what is
// attached to each child (as [Cascade.DeleteAttached], counted in *into
// and *out) and then the child item (counted in *out).
func (c *Cascade[K]) DeleteChildren(ctx context.Context, list []Pager, ch Children, into, out *int) error {
	return c.eachChild(ctx, list, ch, into, out, true)
}

// eachChild deletes, page of list's children by page, what is attached to
// each child and then, if item, the child item (counted in *out).
func (c *Cascade[K]) eachChild(ctx context.Context, list []Pager, ch Children, into, out *int, item bool) error {
	for _, p := range list {
		_, err := p(ctx, &c.Queries, 0, func(children []Ref) error {
			for _, child := range children {
				if err := c.DeleteAttached(ctx, ch, child.To, into, out); err != nil {
					return err
				}
				if item {
					if err := c.delete(ctx, []Key{child.Key}, out); err != nil {
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

// deleteAll deletes every item the pagers ps yield, one after the other,
// counting the deletes processed in *deleted.
func (c *Cascade[K]) deleteAll(ctx context.Context, ps []Pager, deleted *int) error {
	for _, p := range ps {
		if err := c.deletePages(ctx, p, func(Ref) bool { return true }, deleted); err != nil {
			return err
		}
	}
	return nil
}

// deletePages runs p page by page and deletes, after each page, the items
// del picks, counting the deletes processed in *deleted.
func (c *Cascade[K]) deletePages(ctx context.Context, p Pager, del func(Ref) bool, deleted *int) error {
	_, err := p(ctx, &c.Queries, 0, func(refs []Ref) error {
		keys := make([]Key, 0, len(refs))
		for _, r := range refs {
			if del(r) {
				keys = append(keys, r.Key)
			}
		}
		if len(keys) == 0 {
			return nil
		}
		return c.delete(ctx, keys, deleted)
	})
	return err
}

// delete deletes the items with keys, counting the batches sent, the
// keys left unwritten, and in *deleted the deletes processed.
func (c *Cascade[K]) delete(ctx context.Context, keys []Key, deleted *int) error {
	br, err := c.Delete(ctx, keys)
	*deleted += br.Written
	c.Batches += br.Requests
	c.Unwritten = append(c.Unwritten, br.Unwritten...)
	return err
}
