// Package itemreq sends adjlist's conditional single-item writes
// (PutItem, UpdateItem, DeleteItem) and reads a failed condition: each
// asks for the stored item (ALL_OLD) and wraps the SDK's error in what
// the write's condition makes of it ([writeexpr.Cond.Meaning]). Package
// adjlist's handles build the item, key and condition, and wrap what
// these return in their *OpError.
package itemreq

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/attempt"
	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/writeexpr"
)

// Item is an item, or its key, as the SDK holds it.
type Item = map[string]types.AttributeValue

// Client is what the writes need of the table's DynamoDB client.
type Client interface {
	PutItem(ctx context.Context, params *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	UpdateItem(ctx context.Context, params *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	DeleteItem(ctx context.Context, params *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
}

// Cond is a write's condition built as request fields; a nil Expr is none.
type Cond struct {
	Expr   *string
	Names  map[string]string
	Values map[string]types.AttributeValue
}

// Put writes item to table with one PutItem under c, w built, if any,
// asking for the stored item when it fails (ALL_OLD).
//
// A failed create, or a failed put without a condition of the caller's,
// whose stored item is exactly the one being written is a success only
// when an earlier attempt of the call may have been applied
// (internal/attempt): its outcome was unknown (a 5xx, a reset
// connection), so it must have written the item. Otherwise, after a
// throttled (4xx) attempt too, it is another writer's item, and reported.
// (An overwrite's own condition may fail on an item that merely looks the
// same, so it is reported.) Otherwise the failure is what w makes of it
// (exists for a failed create, ErrVersionConflict, ErrConditionFailed),
// wrapping the SDK's error, whose Item holds the stored item.
func Put(ctx context.Context, client Client, table *string, item Item, c Cond, w *writeexpr.Cond, exists error, opts []func(*dynamodb.Options)) error {
	call := &attempt.Put{Context: ctx, In: dynamodb.PutItemInput{TableName: table, Item: item}}
	in := &call.In
	if c.Expr != nil {
		in.ConditionExpression = c.Expr
		in.ExpressionAttributeNames = c.Names
		in.ExpressionAttributeValues = c.Values
		in.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
		opts = attempt.Watch(opts)
		ctx = call
	}
	_, err := client.PutItem(ctx, in, opts...)
	if err == nil {
		return nil
	}
	// Only on failure: errors.As's target escapes to the heap.
	var ccf *types.ConditionalCheckFailedException
	if c.Expr != nil && errors.As(err, &ccf) {
		if (!w.User || w.Guard == writeexpr.GuardAbsent) && call.MaybeApplied() && ddbitem.Equal(ccf.Item, item) {
			return nil
		}
		return fmt.Errorf("%w: %w", w.Meaning(ccf.Item, exists, nil), err)
	}
	return err
}

// Update applies expr (an update, and w's condition) to the item key of
// table with one UpdateItem and returns the item as stored afterwards
// (ALL_NEW); a failed condition is what w makes of it with the stored
// item (ALL_OLD): missing for a missing item.
func Update(ctx context.Context, client Client, table *string, key Item, expr expression.Expression, w *writeexpr.Cond, missing error, opts []func(*dynamodb.Options)) (Item, error) {
	res, err := client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                           table,
		Key:                                 key,
		UpdateExpression:                    expr.Update(),
		ConditionExpression:                 expr.Condition(),
		ExpressionAttributeNames:            expr.Names(),
		ExpressionAttributeValues:           expr.Values(),
		ReturnValues:                        types.ReturnValueAllNew,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}, opts...)
	if err != nil {
		return nil, failure(err, w, missing)
	}
	return res.Attributes, nil
}

// Delete removes the item key of table with one DeleteItem under c, w
// built; a failed condition is what w makes of it with the stored item
// (ALL_OLD): missing for a missing item.
func Delete(ctx context.Context, client Client, table *string, key Item, c Cond, w *writeexpr.Cond, missing error, opts []func(*dynamodb.Options)) error {
	_, err := client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:                           table,
		Key:                                 key,
		ConditionExpression:                 c.Expr,
		ExpressionAttributeNames:            c.Names,
		ExpressionAttributeValues:           c.Values,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}, opts...)
	return failure(err, w, missing)
}

// failure is err wrapped in what w makes of its failed condition, given
// the stored item the SDK's exception holds; any other err as it is.
func failure(err error, w *writeexpr.Cond, missing error) error {
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		return err
	}
	return fmt.Errorf("%w: %w", w.Meaning(ccf.Item, nil, missing), err)
}
