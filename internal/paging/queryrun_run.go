package paging

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"golang.org/x/sync/errgroup"

	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/telemetry"
)

// Run is one run of a query: its request, its partitions and how its
// items are decoded. Package adjlist's Query makes one per call, on the
// stack. It is not generic: decode, a closure of the typed caller that
// decodes an item and keeps it (appends it to the caller's slice, or
// holds it for the next yield).
type Run struct {
	Client dynamodb.QueryAPIClient
	In     dynamodb.QueryInput // the request; every use copies it
	// Fetched, when set, is told of the items of each page as the page
	// arrives, before decode sees any of them (on a sharded read, each
	// shard's page): a read of several item types sizes its slices so
	// ([Dealer.Fetched]).
	Fetched Fetcher
	PK      string // the partition key value (a sharded read's logical key)
	// Shards, when set, are the partitions of a sharded read, merged in
	// the order of sort key attribute SKAttr.
	Shards []QueryShard
	SKAttr string
	// Excl, if set, is a value of SKAttr whose item decode is not
	// offered: an exclusive bound DynamoDB cannot apply itself.
	Excl   string
	Cursor Cursors // what Page's cursors carry and are checked against
}

// Fetcher is told of each page's items: a [Dealer].
type Fetcher interface{ Fetched(items []Item) }

// take is decode of item, false for the item Excl excludes.
func (r *Run) take(decode func(Item) (bool, error), item Item) (bool, error) {
	if r.Excl != "" {
		if s, _ := ddbitem.String(item, r.SKAttr); s == r.Excl {
			return false, nil
		}
	}
	return decode(item)
}

// takeAll hands each of items to decode, stopping at its first error.
func (r *Run) takeAll(decode func(Item) (bool, error), items []Item) error {
	for _, item := range items {
		if _, err := r.take(decode, item); err != nil {
			return err
		}
	}
	return nil
}

// fetched hands a page's items to Fetched, if set.
func (r *Run) fetched(items []Item) {
	if r.Fetched != nil {
		r.Fetched.Fetched(items)
	}
}

// All yields every item of the query, page by page (a sharded read's
// merged), until yield returns false; grow, if not nil, is handed each
// page's size first on an unsharded read (so that the caller grows its
// slice once per page). It returns the error that stopped it.
func (r *Run) All(ctx context.Context, decode func(Item) (bool, error), grow func(n int), yield func() bool) error {
	if r.Shards != nil {
		return r.allMerged(ctx, decode, yield)
	}
	in := r.In
	pages := dynamodb.NewQueryPaginator(r.Client, &in)
	for pages.HasMorePages() {
		out, err := pages.NextPage(ctx, telemetry.CallOpts(ctx)...)
		if err != nil {
			return err
		}
		r.fetched(out.Items)
		if grow != nil {
			grow(len(out.Items))
		}
		for _, item := range out.Items {
			ok, err := r.take(decode, item)
			if err != nil {
				return err
			}
			if ok && !yield() {
				return nil
			}
		}
	}
	return nil
}

// Count runs the query to the end (every shard in parallel) and counts
// the items decode accepts.
func (r *Run) Count(ctx context.Context, decode func(Item) (bool, error)) (int, error) {
	if r.Shards == nil {
		n := 0
		err := r.All(ctx, decode, nil, func() bool { n++; return true })
		return n, err
	}
	counts := make([]int, len(r.Shards))
	var g errgroup.Group
	for i := range r.Shards {
		g.Go(func() (err error) {
			one := *r
			one.In, one.Shards = r.shardInput(i), nil
			counts[i], err = one.Count(ctx, decode)
			return err
		})
	}
	err := g.Wait()
	total := 0
	for _, n := range counts {
		total += n
	}
	return total, err
}
