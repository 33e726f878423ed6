package walks

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/ddbexpr"
	"github.com/adjlist/adjlist/internal/ddbitem"
)

// MaxAttempts bounds the writes of one item that keeps changing.
const MaxAttempts = 10

// MigrateClient is the part of the DynamoDB API a rewrite uses.
type MigrateClient interface {
	GetItem(ctx context.Context, params *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	UpdateItem(ctx context.Context, params *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	TransactWriteItems(ctx context.Context, params *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error)
}

// Table is what a rewrite needs of the table, and adjlist's judgement of
// errors.
type Table struct {
	Name         string
	ddbitem.Keys // the table's key attributes and their types
	// IsKey reports whether an attribute is a key (the table's, the
	// index's, a derived one): AsRead compares the others.
	IsKey func(name string) bool
	Enc   *attributevalue.Encoder // encodes derived values as item data
	// Wait waits before a swap's attempt (from 1) after a transaction
	// conflict or throttling.
	Wait func(ctx context.Context, attempt int) error
	// ConditionFailed, Cancelled and Transient judge the SDK's errors: a
	// failed condition, a cancellation's reason codes, and a reason code a
	// retry may clear.
	ConditionFailed func(error) bool
	Cancelled       func(error) (codes []string, ok bool)
	Transient       func(code string) bool
	Options         []func(*dynamodb.Options) // of every request
}

// Key is an item's primary key ([ddbitem.Key]).
type Key = ddbitem.Key

// Conflict is an item not moved because another was at its home.
type Conflict struct{ From, To Key }

// MigrateOutcome is what [Table.Migrate] did with one item.
type MigrateOutcome struct {
	Matched        bool // the item is of the type
	Rewrote, Moved bool
	Conflict       *Conflict
	Retried        int // writes computed again after a fresh read
}

// Migrate gives item the derived attributes typ wants, in place (one
// UpdateItem) or by a move to its home (one TransactWriteItems), each
// conditioned on the item as read, else read again and computed again,
// up to [MaxAttempts] times; a deleted item is passed over. An item
// already as it should be gets no write.
func (t *Table) Migrate(ctx context.Context, api MigrateClient, typ *Spec, item map[string]types.AttributeValue) (o MigrateOutcome, err error) {
	var k Key
	k.PK, _ = t.Text(item, t.PartitionKey)
	k.SK, _ = t.Text(item, t.SortKey)
	for attempt := 0; attempt < MaxAttempts; attempt++ {
		want, ok, err := typ.Derive(item, nil)
		if o.Matched = ok; !ok || err != nil {
			return o, err
		}
		home := ""
		if typ.Home != nil {
			if home, err = typ.Home(item); err != nil {
				return o, err
			}
		}
		if home != "" && home != k.PK {
			res, err := t.move(ctx, api, typ, item, home, want)
			switch {
			case err != nil:
				return o, err
			case res == swapDone:
				o.Moved = true
				return o, nil
			case res == swapTaken:
				o.Conflict = &Conflict{From: k, To: Key{PK: home, SK: k.SK}}
				return o, nil
			case res == swapBusy:
				if err := t.Wait(ctx, attempt+1); err != nil {
					return o, err
				}
			}
		} else {
			upd, changed, err := t.staleUpdate(item, want, typ.Owned, typ.Foreign)
			if err != nil || !changed {
				return o, err
			}
			e, err := expression.NewBuilder().WithUpdate(upd).WithCondition(AsRead(t.PartitionKey, t.IsKey, item, typ.Feeds)).Build()
			if err != nil {
				return o, err
			}
			_, err = api.UpdateItem(ctx, &dynamodb.UpdateItemInput{
				TableName: aws.String(t.Name), Key: t.key(item),
				UpdateExpression: e.Update(), ConditionExpression: e.Condition(),
				ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values(),
			}, t.Options...)
			if err == nil {
				o.Rewrote = true
				return o, nil
			}
			if !t.ConditionFailed(err) {
				return o, err
			}
		}
		// Changed (or deleted) since it was read: read it again.
		o.Retried++
		if item, err = Read(ctx, api, t, k); err != nil || item == nil {
			return o, err
		}
	}
	return o, Exhausted("item", k)
}

// AsRead is the condition that item is stored as it was read: it exists
// (attribute_exists(pk)), every attribute isKey does not name is equal,
// and those of feeds that were absent are still absent.
func AsRead(pk string, isKey func(name string) bool, item map[string]types.AttributeValue, feeds []string) expression.ConditionBuilder {
	cond := expression.AttributeExists(expression.Name(pk))
	for name, av := range item {
		if !isKey(name) {
			cond = cond.And(expression.Name(name).Equal(expression.Value(ddbexpr.AV{V: av})))
		}
	}
	for _, name := range feeds {
		if item[name] == nil {
			cond = cond.And(expression.AttributeNotExists(expression.Name(name)))
		}
	}
	return cond
}

// Exhausted is the error of a write of what (an item, a counter) at key
// that met a change on each of its attempts.
func Exhausted(what string, key Key) error {
	return fmt.Errorf("adjlist: %s %v changed on every one of %d writes", what, key, MaxAttempts)
}

// staleUpdate is the update that gives item exactly the derived
// attributes want among owned, and none of foreign; changed is false when
// item has them.
func (t *Table) staleUpdate(item map[string]types.AttributeValue, want ddbitem.Attrs, owned, foreign []string) (upd expression.UpdateBuilder, changed bool, err error) {
	for _, name := range owned {
		have, has := item[name].(*types.AttributeValueMemberS)
		w, should := want.Get(name)
		switch {
		case should && (!has || have.Value != w):
			av, err := t.Enc.Encode(w)
			if err != nil {
				return upd, false, err
			}
			upd, changed = upd.Set(expression.Name(name), expression.Value(ddbexpr.AV{V: av})), true
		case !should && item[name] != nil:
			upd, changed = upd.Remove(expression.Name(name)), true
		}
	}
	for _, name := range foreign {
		if item[name] != nil {
			upd, changed = upd.Remove(expression.Name(name)), true
		}
	}
	return upd, changed, nil
}

// key is item's primary key.
func (t *Table) key(item map[string]types.AttributeValue) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{t.PartitionKey: item[t.PartitionKey], t.SortKey: item[t.SortKey]}
}
