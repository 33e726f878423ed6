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

// moveResult is how one move transaction ended.
type moveResult int

const (
	moveDone    moveResult = iota
	moveChanged            // the old item changed or is gone: read it again
	moveTaken              // an item is at the new key: a conflict
	moveBusy               // a transaction conflict or throttling: wait, read again
)

// move puts item at partition key home, with the derived attributes
// want, and deletes it at its old key, in one transaction: the Put
// conditioned on attribute_not_exists(pk), the Delete on [AsRead].
func (t *Table) move(ctx context.Context, api MigrateClient, typ *Spec, item map[string]types.AttributeValue, home string, want ddbitem.Attrs) (moveResult, error) {
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
	put, err := expression.NewBuilder().WithCondition(expression.AttributeNotExists(expression.Name(t.PartitionKey))).Build()
	if err != nil {
		return 0, err
	}
	del, err := expression.NewBuilder().WithCondition(AsRead(t.PartitionKey, t.IsKey, item, typ.Feeds)).Build()
	if err != nil {
		return 0, err
	}
	_, err = api.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(t.Name), Item: moved,
			ConditionExpression: put.Condition(), ExpressionAttributeNames: put.Names()}},
		{Delete: &types.Delete{TableName: aws.String(t.Name), Key: t.key(item),
			ConditionExpression: del.Condition(), ExpressionAttributeNames: del.Names(), ExpressionAttributeValues: del.Values()}},
	}}, t.Options...)
	if err == nil {
		return moveDone, nil
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
		return moveChanged, nil
	case code(0) == "ConditionalCheckFailed":
		return moveTaken, nil
	case !t.Transient(code(0)) || !t.Transient(code(1)):
		return 0, err
	}
	return moveBusy, nil
}
