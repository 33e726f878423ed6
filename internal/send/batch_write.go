package send

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"golang.org/x/sync/errgroup"
)

// MaxWrite is DynamoDB's limit on requests in one BatchWriteItem.
const MaxWrite = 25

// Result is what a Write did: package adjlist's BulkResult, K its Key.
type Result[K any] struct {
	Written   int
	Requests  int
	Unwritten []K
}

// BatchWrite sends reqs with BatchWriteItem, MaxWrite per request on up
// to workers goroutines, resending the unprocessed per tb; progress, if
// set, is called after each chunk, never concurrently. keyOf is a
// request's key (K the caller's type).
//
// Two requests on one key fail with errs.ErrDuplicateKey before any
// request: DynamoDB refuses them in one request, and across requests the
// outcome would depend on timing. Otherwise the error joins each failed
// chunk's (the SDK's, or errs.ErrUnprocessed), its keys in res.Unwritten;
// a failed request one of whose attempts may have been applied wraps
// errs.ErrOutcomeUnknown.
func BatchWrite[K comparable](ctx context.Context, tb *Table, reqs []types.WriteRequest, workers int, progress func(written, total int), keyOf func(Item) K) (res Result[K], at K, err error) {
	seen := make(map[K]bool, len(reqs))
	for _, r := range reqs {
		k := keyOf(writeItem(r))
		if seen[k] {
			return res, k, fmt.Errorf("%w: the item appears twice", errs.ErrDuplicateKey)
		}
		seen[k] = true
	}

	var (
		mu   sync.Mutex
		errs []error
		g    errgroup.Group
	)
	g.SetLimit(workers)
	for start := 0; start < len(reqs); start += MaxWrite {
		chunk := reqs[start:min(start+MaxWrite, len(reqs))]
		g.Go(func() error {
			left, requests, err := writeChunk(ctx, tb, chunk, keyOf)
			mu.Lock()
			defer mu.Unlock()
			res.Requests += requests
			res.Written += len(chunk) - len(left)
			res.Unwritten = append(res.Unwritten, left...)
			if err != nil {
				errs = append(errs, err)
			}
			if progress != nil {
				progress(res.Written, len(reqs))
			}
			return nil
		})
	}
	_ = g.Wait() // the goroutines report through errs
	return res, at, errors.Join(errs...)
}

func writeChunk[K comparable](ctx context.Context, tb *Table, chunk []types.WriteRequest, keyOf func(Item) K) (left []K, requests int, err error) {
	pending := chunk
	opts := Watch(slices.Clip(tb.Opts)) // tb.Opts is every worker's
	for attempt := 1; ; attempt++ {
		// Each request its own Call: a failed one whose attempt may have
		// been applied is errs.ErrOutcomeUnknown.
		call := &Call{Context: ctx}
		out, err := tb.Client.BatchWriteItem(call, &dynamodb.BatchWriteItemInput{
			RequestItems: map[string][]types.WriteRequest{tb.Name: pending},
		}, opts...)
		if err != nil {
			return keys(pending, keyOf), attempt, call.Unknown(err)
		}
		pending = out.UnprocessedItems[tb.Name]
		if len(pending) == 0 {
			return nil, attempt, nil
		}
		if attempt >= tb.MaxAttempts {
			return keys(pending, keyOf), attempt, fmt.Errorf("%w: %d of %d items after %d requests", errs.ErrUnprocessed, len(pending), len(chunk), attempt)
		}
		if err := Wait(ctx, tb.Backoff, attempt, nil); err != nil {
			return keys(pending, keyOf), attempt, err
		}
	}
}

func keys[K any](reqs []types.WriteRequest, keyOf func(Item) K) []K {
	out := make([]K, len(reqs))
	for i, r := range reqs {
		out[i] = keyOf(writeItem(r))
	}
	return out
}

func writeItem(r types.WriteRequest) Item {
	switch {
	case r.PutRequest != nil:
		return r.PutRequest.Item
	case r.DeleteRequest != nil:
		return r.DeleteRequest.Key
	}
	return nil
}
