package paging

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/adjlist/adjlist/internal/ddbexpr"
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
	// Fetched, when set, is handed the items of each page as the page
	// arrives, before decode sees any of them (on a sharded read, each
	// shard's page): a read of several item types sizes its slices with
	// it.
	Fetched func(items []Item)
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
		r.Fetched(items)
	}
}

// All yields every item of the query, page by page (a sharded read's
// merged), until yield returns false; it returns the error that stopped
// it.
func (r *Run) All(ctx context.Context, decode func(Item) (bool, error), yield func() bool) error {
	if r.Shards != nil {
		return r.allMerged(ctx, decode, yield)
	}
	return EachPage(ctx, r.Client, r.In, func(out *dynamodb.QueryOutput) (bool, error) {
		r.fetched(out.Items)
		for _, item := range out.Items {
			ok, err := r.take(decode, item)
			if err != nil {
				return false, err
			}
			if ok && !yield() {
				return false, nil
			}
		}
		return true, nil
	})
}

// Collect runs an unsharded query to the end, handing each page's size
// to grow (for the caller to grow its slice once per page) before
// decode sees the page's items.
func (r *Run) Collect(ctx context.Context, decode func(Item) (bool, error), grow func(n int)) error {
	return EachPage(ctx, r.Client, r.In, func(out *dynamodb.QueryOutput) (bool, error) {
		r.fetched(out.Items)
		grow(len(out.Items))
		err := r.takeAll(decode, out.Items)
		return err == nil, err
	})
}

// Count runs the query with e, its keys-only expressions, to the end
// (every shard in parallel, summed) and counts the items decode accepts.
func (r *Run) Count(ctx context.Context, e ddbexpr.Exprs, decode func(Item) (bool, error)) (int, error) {
	if r.Shards != nil {
		return r.countMerged(ctx, e, decode)
	}
	return r.count(ctx, e, r.PK, decode)
}

// count runs one partition's query (partition key value pk) to the end
// with e and counts the items decode accepts.
func (r *Run) count(ctx context.Context, e ddbexpr.Exprs, pk string, decode func(Item) (bool, error)) (int, error) {
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
			ok, err := r.take(decode, item)
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
