package send

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/ddbexpr"
	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/errs"
)

// Put writes item with one PutItem under c (w built). A failed condition
// (not the caller's) that finds exactly item stored (ALL_OLD) is a success
// only after an unknown outcome: else the item is another writer's.
func Put(ctx context.Context, client ItemClient, table *string, item Item, c Cond, w *ddbexpr.Cond, exists error, opts []func(*dynamodb.Options)) error {
	call := &inCall[dynamodb.PutItemInput]{Call: Call{Context: ctx}, in: dynamodb.PutItemInput{TableName: table, Item: item}}
	in := &call.in
	if c.Expr != nil {
		in.ConditionExpression = c.Expr
		in.ExpressionAttributeNames = c.Names
		in.ExpressionAttributeValues = c.Values
		in.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	}
	_, err := client.PutItem(call, in, Watch(opts)...)
	if err == nil {
		return nil
	}
	// Only on failure: errors.As's target escapes to the heap.
	var ccf *types.ConditionalCheckFailedException
	if c.Expr != nil && errors.As(err, &ccf) {
		if (!w.User || w.Guard == ddbexpr.GuardAbsent) && call.MaybeApplied() && ddbitem.Equal(ccf.Item, item) {
			return nil
		}
		err = fmt.Errorf("%w: %w", w.Meaning(ccf.Item, exists, nil), err)
	}
	return call.Unknown(err)
}

// inCall is a Call and its request's input in one allocation.
type inCall[In any] struct {
	Call
	in In
}

// Update applies expr with one UpdateItem and returns the item after
// (ALL_NEW); with resend false it is not retried after an unknown outcome.
// A versioned update failing after one on an item at the version it
// writes, showing its values, was its own attempt: a success.
func Update(ctx context.Context, client ItemClient, table *string, key Item, expr expression.Expression, w *ddbexpr.Cond, missing error, shows func(Item) bool, resend bool, opts []func(*dynamodb.Options)) (Item, error) {
	call := &inCall[dynamodb.UpdateItemInput]{Call: Call{Context: ctx}, in: dynamodb.UpdateItemInput{
		TableName:                           table,
		Key:                                 key,
		UpdateExpression:                    expr.Update(),
		ConditionExpression:                 expr.Condition(),
		ExpressionAttributeNames:            expr.Names(),
		ExpressionAttributeValues:           expr.Values(),
		ReturnValues:                        types.ReturnValueAllNew,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}}
	if resend {
		opts = Watch(opts)
	} else {
		opts = Once(&call.Call, opts)
	}
	res, err := client.UpdateItem(call, &call.in, opts...)
	if err == nil {
		return res.Attributes, nil
	}
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		if call.MaybeApplied() && shows != nil && w.Checked && w.Next > 0 &&
			ddbexpr.VersionOf(ccf.Item, w.Version) == w.Next && shows(ccf.Item) {
			return ccf.Item, nil
		}
		err = fmt.Errorf("%w: %w", w.Meaning(ccf.Item, nil, missing), err)
	}
	return nil, call.Unknown(err)
}

// Delete removes the item key with one DeleteItem under c (w built);
// finding none after an unknown outcome, it deleted it itself.
func Delete(ctx context.Context, client ItemClient, table *string, key Item, c Cond, w *ddbexpr.Cond, missing error, opts []func(*dynamodb.Options)) error {
	call := &inCall[dynamodb.DeleteItemInput]{Call: Call{Context: ctx}, in: dynamodb.DeleteItemInput{
		TableName:                           table,
		Key:                                 key,
		ConditionExpression:                 c.Expr,
		ExpressionAttributeNames:            c.Names,
		ExpressionAttributeValues:           c.Values,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}}
	_, err := client.DeleteItem(call, &call.in, Watch(opts)...)
	if err == nil {
		return nil
	}
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		if call.MaybeApplied() && w.Classify(ccf.Item) == ddbexpr.Missing {
			return nil
		}
		err = fmt.Errorf("%w: %w", w.Meaning(ccf.Item, nil, missing), err)
	}
	return call.Unknown(err)
}

// Tokened sends action as a one-action TransactWriteItems with token:
// applied at most once per token (10 minutes), so retries are safe and a
// cancellation is definite (a retry of an applied one would succeed).
func Tokened(ctx context.Context, client WriteClient, action types.TransactWriteItem, token string, w *ddbexpr.Cond, exists, missing error, opts []func(*dynamodb.Options)) error {
	call := &inCall[dynamodb.TransactWriteItemsInput]{Call: Call{Context: ctx}, in: dynamodb.TransactWriteItemsInput{
		TransactItems:      []types.TransactWriteItem{action},
		ClientRequestToken: &token,
	}}
	_, err := client.TransactWriteItems(call, &call.in, Watch(opts)...)
	if err == nil {
		return nil
	}
	var tce *types.TransactionCanceledException
	if errors.As(err, &tce) {
		if len(tce.CancellationReasons) > 0 && aws.ToString(tce.CancellationReasons[0].Code) == "ConditionalCheckFailed" {
			return fmt.Errorf("%w: %w", w.Meaning(tce.CancellationReasons[0].Item, exists, missing), err)
		}
		return err
	}
	return call.Unknown(Mismatch(err))
}

// Mismatch wraps IdempotentParameterMismatchException in ErrInvalidOption.
func Mismatch(err error) error {
	var ipm *types.IdempotentParameterMismatchException
	if errors.As(err, &ipm) {
		return fmt.Errorf("%w: the token was used, within 10 minutes, with another request: %w", errs.ErrInvalidOption, err)
	}
	return err
}
