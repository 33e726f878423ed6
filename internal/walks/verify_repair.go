package walks

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
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
		del, err := expression.NewBuilder().WithCondition(AsRead(t.PartitionKey, t.IsKey, item, nil)).Build()
		if err != nil {
			return false, err
		}
		name := aws.String(t.Name)
		if missing == nil {
			_, err = api.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: name, Key: t.Item(k.PK, k.SK),
				ConditionExpression: del.Condition(), ExpressionAttributeNames: del.Names(), ExpressionAttributeValues: del.Values()}, t.Options...)
			if err == nil || !t.ConditionFailed(err) {
				return err == nil, err
			}
			continue
		}
		absent, err := expression.NewBuilder().WithCondition(expression.AttributeNotExists(expression.Name(t.PartitionKey))).Build()
		if err != nil {
			return false, err
		}
		_, err = api.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{ConditionCheck: &types.ConditionCheck{TableName: name, Key: t.Item(missing.PK, missing.SK),
				ConditionExpression: absent.Condition(), ExpressionAttributeNames: absent.Names()}},
			{Delete: &types.Delete{TableName: name, Key: t.Item(k.PK, k.SK),
				ConditionExpression: del.Condition(), ExpressionAttributeNames: del.Names(), ExpressionAttributeValues: del.Values()}},
		}}, t.Options...)
		if err == nil {
			return true, nil
		}
		codes, ok := t.Cancelled(err)
		switch {
		case !ok:
			return false, err
		case len(codes) > 0 && codes[0] == "ConditionalCheckFailed":
			return false, nil // the missing item exists now
		case len(codes) > 1 && codes[1] == "ConditionalCheckFailed":
			continue // changed since read: read again
		case len(codes) > 1 && t.Transient(codes[0]) && t.Transient(codes[1]):
			if err := t.Wait(ctx, attempt+1); err != nil {
				return false, err
			}
		default:
			return false, err
		}
	}
	return false, Exhausted("item", k)
}
