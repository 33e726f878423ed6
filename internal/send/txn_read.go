package send

import (
	"context"
	"fmt"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Read is the reads of one TransactGetItems, each with the function that
// fills its result. The zero Read is ready.
type Read struct {
	gets  []types.TransactGetItem
	fills []func(Item) error // nil item: not found
	seen  map[key]bool
}

// Len is the number of reads added.
func (r *Read) Len() int { return len(r.gets) }

// Add appends the read of item (pk, sk), key attributes keyItem; an item
// read twice or past MaxActions is errs.ErrTxLimit, adding nothing.
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

// Key is read i's key (nil past the last), which a throttling error names.
func (r *Read) Key(i int) Item {
	if i >= len(r.gets) {
		return nil
	}
	return r.gets[i].Get.Key
}

// Run sends the reads with one TransactGetItems and fills each, stopping
// at the first error.
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
