package paging

import (
	"context"
	"slices"

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

// Into is what a target of a read of several item types fills: *Dst,
// to which Take appends each item Decode accepts.
type Into[T any] struct {
	Dst    *[]T
	Decode func(Item) (T, bool, error)
}

// Take appends item, decoded, to *Dst if Decode accepts it (ok).
func (s *Into[T]) Take(item Item) (ok bool, err error) {
	v, ok, err := s.Decode(item)
	if ok && err == nil {
		*s.Dst = append(*s.Dst, v)
	}
	return ok, err
}

// Grow makes room in *Dst for n more items, so that a page's items are
// appended without growing it again.
func (s *Into[T]) Grow(n int) { *s.Dst = slices.Grow(*s.Dst, n) }

// Reset empties *Dst.
func (s *Into[T]) Reset() { *s.Dst = nil }
