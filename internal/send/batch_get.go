package send

import (
	"context"
	"fmt"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// MaxGet is DynamoDB's limit on keys in one BatchGetItem request.
const MaxGet = 100

// BatchGet reads the items with keys (K the caller's key type; keyItem a
// key's attributes, keyOf an item's key) with BatchGetItem, MaxGet
// distinct keys per request (DynamoDB refuses duplicates), resending the
// unprocessed per tb. Missing items are absent from found. Keys still
// unprocessed wrap errs.ErrUnprocessed; on error found is nil and at the
// failed chunk's last key when it was full, else the zero K.
func BatchGet[K comparable](ctx context.Context, tb *Table, keys []K, consistent *bool, keyItem func(K) Item, keyOf func(Item) K) (found map[K]Item, at K, err error) {
	found = make(map[K]Item, len(keys))
	seen := make(map[K]bool, len(keys))
	var chunk []Item
	for _, k := range keys {
		if seen[k] {
			continue
		}
		seen[k] = true
		chunk = append(chunk, keyItem(k))
		if len(chunk) == MaxGet {
			if err := getChunk(ctx, tb, chunk, consistent, found, keyOf); err != nil {
				return nil, k, err
			}
			chunk = chunk[:0]
		}
	}
	if len(chunk) > 0 {
		if err := getChunk(ctx, tb, chunk, consistent, found, keyOf); err != nil {
			return nil, at, err
		}
	}
	return found, at, nil
}

func getChunk[K comparable](ctx context.Context, tb *Table, keys []Item, consistent *bool, found map[K]Item, keyOf func(Item) K) error {
	pending := keys
	for attempt := 1; ; attempt++ {
		out, err := tb.Client.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{
			RequestItems: map[string]types.KeysAndAttributes{tb.Name: {Keys: pending, ConsistentRead: consistent}},
		}, tb.Opts...)
		if err != nil {
			return err
		}
		for _, item := range out.Responses[tb.Name] {
			found[keyOf(item)] = item
		}
		pending = out.UnprocessedKeys[tb.Name].Keys
		if len(pending) == 0 {
			return nil
		}
		if attempt >= tb.MaxAttempts {
			return fmt.Errorf("%w: %d of %d keys after %d requests", errs.ErrUnprocessed, len(pending), len(keys), attempt)
		}
		if err := Wait(ctx, tb.Backoff, attempt, nil); err != nil {
			return err
		}
	}
}
