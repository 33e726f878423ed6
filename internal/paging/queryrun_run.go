package paging

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"golang.org/x/sync/errgroup"

	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/telemetry"
)

// Run is one run of a query, made per call on the stack. It is not
// generic: decode is the typed caller's closure that decodes and keeps an
// item.
type Run struct {
	Client dynamodb.QueryAPIClient
	In     dynamodb.QueryInput // the request; every use copies it
	// Fetched, if set, is told of each (shard's) page before decode
	// sees it ([Dealer.Fetched]).
	Fetched Fetcher
	PK      string // the partition key value (a sharded read's logical key)
	// Shards, if set, are a sharded read's partitions, merged by SKAttr.
	Shards []QueryShard
	SKAttr string
	// Excl, if set, is an SKAttr value not offered to decode: an
	// exclusive bound DynamoDB cannot apply.
	Excl   string
	Cursor Cursors // what Page's cursors carry and are checked against
}

// Fetcher is a [Dealer].
type Fetcher interface{ Fetched(items []Item) }

func (r *Run) take(decode func(Item) (bool, error), item Item) (bool, error) {
	if r.Excl != "" {
		if s, _ := ddbitem.String(item, r.SKAttr); s == r.Excl {
			return false, nil
		}
	}
	return decode(item)
}

func (r *Run) fetched(items []Item) {
	if r.Fetched != nil {
		r.Fetched.Fetched(items)
	}
}

// All yields every item, page by page (sharded: merged), until yield
// returns false; grow, if set, is handed an unsharded page's size first.
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

// Count counts the items decode accepts, shards in parallel.
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
