// Single-item writes: this file sends adjlist's single-item writes (PutItem,
// UpdateItem, DeleteItem, or one-action TransactWriteItems with a token)
// and reads a failed condition: each asks for the stored item (ALL_OLD)
// and wraps the SDK's error in what the write's condition makes of it
// ([ddbexpr.Cond.Meaning]). Each watches its attempts
// (attempt.go): a failed condition that shows the call's own
// earlier attempt applied is a success, and any other failure after an
// attempt whose outcome is unknown is wrapped in
// errs.ErrOutcomeUnknown. Package adjlist's handles build the item,
// key and condition, and wrap what these return in their *OpError.

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

// Put writes item to table with one PutItem under c, w built, if any,
// asking for the stored item when it fails (ALL_OLD).
//
// A failed create, or a failed put without a condition of the caller's,
// whose stored item is exactly the one being written is a success only
// when an earlier attempt of the call may have been applied
// (attempt.go): its outcome was unknown (a 5xx, a reset
// connection), so it must have written the item. Otherwise, after a
// throttled (4xx) attempt too, it is another writer's item, and reported.
// (An overwrite's own condition may fail on an item that merely looks the
// same, so it is reported.) Otherwise the failure is what w makes of it
// (exists for a failed create, ErrVersionConflict, ErrConditionFailed),
// wrapping the SDK's error, whose Item holds the stored item; after an
// attempt whose outcome is unknown, inside errs.ErrOutcomeUnknown.
func Put(ctx context.Context, client ItemClient, table *string, item Item, c Cond, w *ddbexpr.Cond, exists error, opts []func(*dynamodb.Options)) error {
	call := &putCall{Call: Call{Context: ctx}, in: dynamodb.PutItemInput{TableName: table, Item: item}}
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

// putCall is a put's Call and input, one allocation.
type putCall struct {
	Call
	in dynamodb.PutItemInput
}

// Update applies expr (an update, and w's condition) to the item key of
// table with one UpdateItem and returns the item as stored afterwards
// (ALL_NEW); a failed condition is what w makes of it with the stored
// item (ALL_OLD): missing for a missing item.
//
// An update that may not be sent twice (resend false: one whose effect
// depends on the stored item, such as ADD, and that no version makes
// idempotent) is not retried after an attempt whose outcome is unknown
// (Once). A locked update (w checks a version) whose condition
// fails after such an attempt on a stored item with the version it
// writes is its own applied attempt when shows reports the stored item
// holds every value it writes (nil: it cannot tell): a success returning
// that item. Any other failure after such an attempt is wrapped in
// errs.ErrOutcomeUnknown.
func Update(ctx context.Context, client ItemClient, table *string, key Item, expr expression.Expression, w *ddbexpr.Cond, missing error, shows func(Item) bool, resend bool, opts []func(*dynamodb.Options)) (Item, error) {
	call := &updateCall{Call: Call{Context: ctx}, in: dynamodb.UpdateItemInput{
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

// updateCall is an update's Call and input, one allocation.
type updateCall struct {
	Call
	in dynamodb.UpdateItemInput
}

// Delete removes the item key of table with one DeleteItem under c, w
// built; a failed condition is what w makes of it with the stored item
// (ALL_OLD): missing for a missing item. A delete that finds no item
// after an attempt of its own whose outcome is unknown deleted it itself:
// a success. Any other failure after such an attempt is wrapped in
// errs.ErrOutcomeUnknown.
func Delete(ctx context.Context, client ItemClient, table *string, key Item, c Cond, w *ddbexpr.Cond, missing error, opts []func(*dynamodb.Options)) error {
	call := &deleteCall{Call: Call{Context: ctx}, in: dynamodb.DeleteItemInput{
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

// deleteCall is a delete's Call and input, one allocation.
type deleteCall struct {
	Call
	in dynamodb.DeleteItemInput
}

// Tokened sends one write, action, as a one-action TransactWriteItems
// with token as its ClientRequestToken: DynamoDB applies it at most once
// per token (within 10 minutes), so the SDK's retries are safe. A failed
// condition is what w makes of it with the stored item (the cancellation
// reason's, ALL_OLD; exists for a failed create, missing for a missing
// item). A cancellation is a definite answer for every attempt (a
// retry of an applied attempt would have succeeded); any other failure
// after an attempt whose outcome is unknown is wrapped in
// errs.ErrOutcomeUnknown. The token used with another request is
// errs.ErrInvalidOption, wrapping the SDK's
// *types.IdempotentParameterMismatchException.
func Tokened(ctx context.Context, client WriteClient, action types.TransactWriteItem, token string, w *ddbexpr.Cond, exists, missing error, opts []func(*dynamodb.Options)) error {
	call := &txCall{Call: Call{Context: ctx}, in: dynamodb.TransactWriteItemsInput{
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

// txCall is a tokened write's Call and input, one allocation.
type txCall struct {
	Call
	in dynamodb.TransactWriteItemsInput
}

// Mismatch returns err wrapped in errs.ErrInvalidOption when it is
// DynamoDB's IdempotentParameterMismatchException (a token already used,
// within 10 minutes, with another request), else err.
func Mismatch(err error) error {
	var ipm *types.IdempotentParameterMismatchException
	if errors.As(err, &ipm) {
		return fmt.Errorf("%w: the token was used, within 10 minutes, with another request: %w", errs.ErrInvalidOption, err)
	}
	return err
}
