package walks

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Reader reads one item; the table's client, or Repair's.
type Reader interface {
	GetItem(ctx context.Context, params *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
}

// RepairClient is the part of the DynamoDB API Repair's writes use.
type RepairClient interface {
	MigrateClient
	DeleteItem(ctx context.Context, params *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
}

// Round is Repair's round for kind k: index keys first, so that counts
// are taken from a complete index; then counts; then deletes.
func Round(k Kind) int {
	switch k {
	case IndexKeyMissing, IndexKeyStale, IndexKeyExtra, Misplaced:
		return 0
	case CounterMismatch:
		return 1
	}
	return 2
}

// Outcome is what Repair did with one finding.
type Outcome int

// The outcomes of a finding.
const (
	Gone     Outcome = iota // no longer true when read again
	Repaired                // fixed by a write
	Left                    // not Repair's to decide
)

// Did is Repaired when a write fixed the finding, else Gone.
func Did(ok bool) Outcome {
	if ok {
		return Repaired
	}
	return Gone
}

// Read is the item at k, strongly consistent; nil when there is none.
func Read(ctx context.Context, api Reader, t *Table, k Key) (Item, error) {
	out, err := api.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(t.Name), Key: t.Item(k.PK, k.SK), ConsistentRead: aws.Bool(true)}, t.Options...)
	if err != nil {
		return nil, err
	}
	return out.Item, nil
}

// Delete deletes the item at k if it is still what the finding said
// (still): with missing, if the item at missing is still missing, in one
// TransactWriteItems of a ConditionCheck of missing and a Delete
// conditioned on k as read; else with one DeleteItem conditioned on it.
func Delete(ctx context.Context, api RepairClient, t *Table, k Key, missing *Key, still func(Item) bool) (bool, error) {
	for attempt := 0; attempt < MaxAttempts; attempt++ {
		item, err := Read(ctx, api, t, k)
		if err != nil || item == nil {
			return false, err
		}
		if !still(item) {
			return false, nil
		}
		if missing != nil {
			res, err := t.swap(ctx, api, nil, t.Item(missing.PK, missing.SK), item, nil)
			switch {
			case err != nil || res == swapTaken: // taken: the missing item exists now
				return false, err
			case res == swapDone:
				return true, nil
			case res == swapBusy:
				if err := t.Wait(ctx, attempt+1); err != nil {
					return false, err
				}
			}
			continue // changed since read: read again
		}
		del, err := expression.NewBuilder().WithCondition(AsRead(t.PartitionKey, t.IsKey, item, nil)).Build()
		if err != nil {
			return false, err
		}
		_, err = api.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(t.Name), Key: t.Item(k.PK, k.SK),
			ConditionExpression: del.Condition(), ExpressionAttributeNames: del.Names(), ExpressionAttributeValues: del.Values()}, t.Options...)
		if err == nil || !t.ConditionFailed(err) {
			return err == nil, err
		}
	}
	return false, Exhausted("item", k)
}
