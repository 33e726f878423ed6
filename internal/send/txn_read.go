package send

import (
	"context"
	"fmt"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Read is the reads of one TransactGetItems, in order, each with the
// function that fills in its result. The zero Read is empty and ready.
type Read struct {
	gets  []types.TransactGetItem
	fills []func(Item) error // decode an item into its result; nil item: not found
	seen  map[key]bool
}

// Len returns the number of reads added.
func (r *Read) Len() int { return len(r.gets) }

// Add appends the read of the item (pk, sk) of table, whose key
// attributes are keyItem, to be filled by fill. It fails with errs.ErrTxLimit,
// adding nothing, for an item read twice or past MaxActions reads.
func (r *Read) Add(table *string, pk, sk string, keyItem Item, fill func(Item) error) error {
	k := key{pk, sk}
	switch {
	case r.seen[k]:
		return fmt.Errorf("%w: the item %q %q read twice", errs.ErrTxLimit, pk, sk)
	case len(r.gets) == MaxActions:
		return fmt.Errorf("%w: more than %d reads", errs.ErrTxLimit, MaxActions)
	}
	if r.seen == nil {
		r.seen = map[key]bool{}
	}
	r.seen[k] = true
	r.gets = append(r.gets, types.TransactGetItem{Get: &types.Get{TableName: table, Key: keyItem}})
	r.fills = append(r.fills, fill)
	return nil
}

// Key returns the key of read i's item, nil past the last read: what the
// error of a throttled read names.
func (r *Read) Key(i int) Item {
	if i >= len(r.gets) {
		return nil
	}
	return r.gets[i].Get.Key
}

// Run sends the reads with one TransactGetItems and fills each: with its
// item, or nil when the item does not exist. It returns the SDK's error,
// or the first error of a fill.
func (r *Read) Run(ctx context.Context, client ReadClient, opts []func(*dynamodb.Options)) error {
	out, err := client.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: r.gets}, opts...)
	if err != nil {
		return err
	}
	for i, fill := range r.fills {
		var item Item
		if i < len(out.Responses) {
			item = out.Responses[i].Item
		}
		if err := fill(item); err != nil {
			return err
		}
	}
	return nil
}
