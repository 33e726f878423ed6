package walks

import (
	"context"
	"maps"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/ddbitem"
)

// swapResult is how one [Table.swap] transaction ended.
type swapResult int

const (
	swapDone    swapResult = iota
	swapChanged            // the item changed or is gone: read it again
	swapTaken              // the key that had to be free is not: a conflict
	swapBusy               // a transaction conflict or throttling: wait, read again
)

// move puts item at partition key home, with the derived attributes
// want, and deletes it at its old key, in one [Table.swap].
func (t *Table) move(ctx context.Context, api MigrateClient, typ *Spec, item map[string]types.AttributeValue, home string, want ddbitem.Attrs) (swapResult, error) {
	moved := maps.Clone(item)
	moved[t.PartitionKey] = t.Value(t.PartitionKey, home)
	for _, name := range typ.Owned {
		if v, ok := want.Get(name); ok {
			moved[name] = &types.AttributeValueMemberS{Value: v}
		} else {
			delete(moved, name)
		}
	}
	for _, name := range typ.Foreign {
		delete(moved, name)
	}
	return t.swap(ctx, api, moved, nil, item, typ.Feeds)
}

// swap deletes item, conditioned on [AsRead] with feeds, in one
// TransactWriteItems with a write at a key that must be free
// (attribute_not_exists(pk)): a Put of moved, or, with moved nil, a
// ConditionCheck that the item at key missing is still missing.
func (t *Table) swap(ctx context.Context, api MigrateClient, moved, missing, item map[string]types.AttributeValue, feeds []string) (swapResult, error) {
	free, err := expression.NewBuilder().WithCondition(expression.AttributeNotExists(expression.Name(t.PartitionKey))).Build()
	if err != nil {
		return 0, err
	}
	del, err := expression.NewBuilder().WithCondition(AsRead(t.PartitionKey, t.IsKey, item, feeds)).Build()
	if err != nil {
		return 0, err
	}
	first := types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: aws.String(t.Name), Key: missing,
		ConditionExpression: free.Condition(), ExpressionAttributeNames: free.Names()}}
	if moved != nil {
		first = types.TransactWriteItem{Put: &types.Put{TableName: aws.String(t.Name), Item: moved,
			ConditionExpression: free.Condition(), ExpressionAttributeNames: free.Names()}}
	}
	_, err = api.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{first,
		{Delete: &types.Delete{TableName: aws.String(t.Name), Key: t.key(item),
			ConditionExpression: del.Condition(), ExpressionAttributeNames: del.Names(), ExpressionAttributeValues: del.Values()}},
	}}, t.Options...)
	if err == nil {
		return swapDone, nil
	}
	codes, ok := t.Cancelled(err)
	if !ok {
		return 0, err
	}
	code := func(i int) string {
		if i < len(codes) {
			return codes[i]
		}
		return ""
	}
	switch {
	case code(1) == "ConditionalCheckFailed":
		return swapChanged, nil
	case code(0) == "ConditionalCheckFailed":
		return swapTaken, nil
	case !t.Transient(code(0)) || !t.Transient(code(1)):
		return 0, err
	}
	return swapBusy, nil
}
