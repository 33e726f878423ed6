package paging

import (
	"context"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/adjlist/adjlist/internal/ddbexpr"
	"github.com/adjlist/adjlist/internal/telemetry"
)

// Run is one run of a query: its request, its partitions and how its
// items become T. Package adjlist's Query makes one per call, on the
// stack.
type Run[T any] struct {
	Client dynamodb.QueryAPIClient
	In     dynamodb.QueryInput // the request; every use copies it
	// Decode turns an item into T; false skips it, an item of another
	// access pattern sharing the partition.
	Decode func(Item) (T, bool, error)
	// Fetched, when set, is handed the items of each page as the page
	// arrives, before Decode sees any of them (on a sharded read, each
	// shard's page): a read of several item types sizes its slices with
	// it.
	Fetched func(items []Item)
	PK      string // the partition key value (a sharded read's logical key)
	// Shards, when set, are the partitions of a sharded read, merged in
	// the order of sort key attribute SKAttr.
	Shards []QueryShard
	SKAttr string
	Cursor Cursors // what Page's cursors carry and are checked against
}

// EachPage runs in to the end with the SDK's Query paginator, handing
// each page to page until it returns false or an error.
func EachPage(ctx context.Context, c dynamodb.QueryAPIClient, in dynamodb.QueryInput, page func(*dynamodb.QueryOutput) (bool, error)) error {
	pages := dynamodb.NewQueryPaginator(c, &in)
	for pages.HasMorePages() {
		out, err := pages.NextPage(ctx, telemetry.CallOpts(ctx)...)
		if err != nil {
			return err
		}
		if more, err := page(out); !more || err != nil {
			return err
		}
	}
	return nil
}

// AppendDecoded appends the items decode accepts, decoded, to dst,
// growing it once for the page rather than once per item.
func AppendDecoded[T any](dst []T, items []Item, decode func(Item) (T, bool, error)) ([]T, error) {
	dst = slices.Grow(dst, len(items))
	for _, item := range items {
		v, ok, err := decode(item)
		if err != nil {
			return dst, err
		}
		if ok {
			dst = append(dst, v)
		}
	}
	return dst, nil
}

// fetched hands a page's items to Fetched, if set.
func (r *Run[T]) fetched(items []Item) {
	if r.Fetched != nil {
		r.Fetched(items)
	}
}

// All yields every item of the query, page by page (a sharded read's
// merged), until yield returns false; it returns the error that stopped
// it.
func (r *Run[T]) All(ctx context.Context, yield func(T, error) bool) error {
	if r.Shards != nil {
		return r.allMerged(ctx, yield)
	}
	return EachPage(ctx, r.Client, r.In, func(out *dynamodb.QueryOutput) (bool, error) {
		r.fetched(out.Items)
		for _, item := range out.Items {
			v, ok, err := r.Decode(item)
			if err != nil {
				return false, err
			}
			if ok && !yield(v, nil) {
				return false, nil
			}
		}
		return true, nil
	})
}

// Collect runs an unsharded query to the end and returns its items.
func (r *Run[T]) Collect(ctx context.Context) ([]T, error) {
	var items []T
	err := EachPage(ctx, r.Client, r.In, func(out *dynamodb.QueryOutput) (bool, error) {
		var err error
		r.fetched(out.Items)
		items, err = AppendDecoded(items, out.Items, r.Decode)
		return err == nil, err
	})
	if err != nil {
		return nil, err
	}
	return items, nil
}

// Count runs the query with e, its keys-only expressions, to the end
// (every shard in parallel, summed) and counts the items Decode accepts.
func (r *Run[T]) Count(ctx context.Context, e ddbexpr.Exprs) (int, error) {
	if r.Shards != nil {
		return r.countMerged(ctx, e)
	}
	return r.count(ctx, e, r.PK)
}

// count runs one partition's query (partition key value pk) to the end
// with e and counts the items Decode accepts.
func (r *Run[T]) count(ctx context.Context, e ddbexpr.Exprs, pk string) (int, error) {
	var err error
	in := r.In
	in.KeyConditionExpression, in.FilterExpression, in.ProjectionExpression = e.KeyCond, e.Filter, e.Proj
	in.ExpressionAttributeNames = e.Names
	if in.ExpressionAttributeValues, err = e.Values(pk); err != nil {
		return 0, err
	}
	n := 0
	err = EachPage(ctx, r.Client, in, func(out *dynamodb.QueryOutput) (bool, error) {
		r.fetched(out.Items)
		for _, item := range out.Items {
			_, ok, err := r.Decode(item)
			if err != nil {
				return false, err
			}
			if ok {
				n++
			}
		}
		return true, nil
	})
	return n, err
}
