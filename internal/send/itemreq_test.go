package send

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/internal/ddbexpr"
	"github.com/adjlist/adjlist/internal/errs"
)

// failing is a client whose every write fails its condition, the stored
// item being old; it keeps the last put.
type failing struct {
	old Item
	put *dynamodb.PutItemInput
}

func (f *failing) ccf() error { return &types.ConditionalCheckFailedException{Item: f.old} }

func (f *failing) PutItem(_ context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	f.put = in
	return nil, f.ccf()
}

func (f *failing) UpdateItem(context.Context, *dynamodb.UpdateItemInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	return nil, f.ccf()
}

func (f *failing) DeleteItem(context.Context, *dynamodb.DeleteItemInput, ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return nil, f.ccf()
}

// TestFailedConditions: a failed condition is what the write's condition
// makes of it with the stored item, wrapping the SDK's error; a put's
// request asks for the stored item.
func TestFailedConditions(t *testing.T) {
	t.Parallel()
	errExists, errMissing := errors.New("exists"), errors.New("missing")
	item := Item{"PK": &types.AttributeValueMemberS{Value: "A"}}
	stale := Item{"PK": &types.AttributeValueMemberS{Value: "A"}, "v": &types.AttributeValueMemberN{Value: "3"}}
	table := aws.String("t")
	var ccf *types.ConditionalCheckFailedException

	var create ddbexpr.Cond
	require.NoError(t, create.Init("PK", ddbexpr.Put, ddbexpr.GuardAbsent, "", 0, 0, expression.ConditionBuilder{}))
	f := &failing{old: Item{"PK": &types.AttributeValueMemberS{Value: "A"}, "x": &types.AttributeValueMemberS{Value: "other"}}}
	err := Put(context.Background(), f, table, item, Cond{Expr: aws.String("attribute_not_exists (#0)")}, &create, errExists, nil)
	require.ErrorIs(t, err, errExists)
	require.ErrorAs(t, err, &ccf)
	assert.Equal(t, types.ReturnValuesOnConditionCheckFailureAllOld, f.put.ReturnValuesOnConditionCheckFailure)

	var del ddbexpr.Cond
	require.NoError(t, del.Init("PK", ddbexpr.Delete, ddbexpr.GuardPresent, "v", 2, 0, expression.ConditionBuilder{}))
	err = Delete(context.Background(), &failing{old: stale}, table, item, Cond{}, &del, errMissing, nil)
	require.ErrorIs(t, err, errs.ErrVersionConflict)
	err = Delete(context.Background(), &failing{}, table, item, Cond{}, &del, errMissing, nil)
	require.ErrorIs(t, err, errMissing)
	_, err = Update(context.Background(), &failing{old: stale}, table, item, expression.Expression{}, &del, errMissing, nil, true, nil)
	require.ErrorAs(t, err, &ccf)
	require.ErrorIs(t, err, errs.ErrVersionConflict)
}
