package paged

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/adjlist/adjlist/internal/telemetry"
)

// Partition reads a whole partition, the Query in, with the SDK's
// paginator on c, with ctx's usage and tracing middleware on every
// request. The item whose sort key (attribute skAttr) is nodeSK goes to
// node, every other to each, after grow has been told how many items the
// page holds (so that results grow once per page). It stops at the first
// error of node or each, returned as itemErr; err is a request's. found
// reports whether the node item was met.
func Partition(ctx context.Context, c dynamodb.QueryAPIClient, in dynamodb.QueryInput, skAttr, nodeSK string, node, each func(Item) error, grow func(n int)) (found bool, itemErr, err error) {
	pages := dynamodb.NewQueryPaginator(c, &in)
	for pages.HasMorePages() {
		out, err := pages.NextPage(ctx, telemetry.CallOpts(ctx)...)
		if err != nil {
			return found, nil, err
		}
		grow(len(out.Items))
		for _, item := range out.Items {
			if str(item, skAttr) == nodeSK {
				itemErr, found = node(item), true
			} else {
				itemErr = each(item)
			}
			if itemErr != nil {
				return found, itemErr, nil
			}
		}
	}
	return found, nil, nil
}

// Into is what a target of a read of several item types does: take
// appends to *dst each item decode accepts (ok), and reset empties *dst.
func Into[T any](dst *[]T, decode func(Item) (T, bool, error)) (take func(Item) (ok bool, err error), reset func()) {
	take = func(item Item) (bool, error) {
		v, ok, err := decode(item)
		if ok && err == nil {
			*dst = append(*dst, v)
		}
		return ok, err
	}
	return take, func() { *dst = nil }
}
