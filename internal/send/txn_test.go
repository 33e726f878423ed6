package send

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var table = aws.String("t")

func keyItem(pk string) Item { return Item{"PK": &types.AttributeValueMemberS{Value: pk}} }

func exists(v string) Cond {
	return Cond{Expr: aws.String("attribute_exists(#0) AND #1 = :0"), Names: map[string]string{"#0": "PK", "#1": "v"},
		Values: Item{":0": &types.AttributeValueMemberS{Value: v}}}
}

func TestAdd(t *testing.T) {
	check := func(pk, v string) types.TransactWriteItem { return TxCheck(table, keyItem(pk), exists(v)) }
	tests := []struct {
		name    string
		add     func(w *Write) error // the last Add
		wantLen int
		wantErr error
	}{
		{"a second action on one item", func(w *Write) error {
			require.NoError(t, w.Add("a", "s", 10, TxPut(table, keyItem("a"), Cond{}), nil))
			return w.Add("a", "s", 10, TxDelete(table, keyItem("a"), Cond{}), nil)
		}, 1, errs.ErrTxLimit},
		{"the same check twice is sent once", func(w *Write) error {
			require.NoError(t, w.Add("a", "s", 10, check("a", "x"), nil))
			return w.Add("a", "s", 10, check("a", "x"), nil)
		}, 1, nil},
		{"checks for two conditions", func(w *Write) error {
			require.NoError(t, w.Add("a", "s", 10, check("a", "x"), nil))
			return w.Add("a", "s", 10, check("a", "y"), nil)
		}, 1, errs.ErrTxLimit},
		{"MaxActions actions", func(w *Write) error {
			for i := range MaxActions - 1 {
				require.NoError(t, w.Add(fmt.Sprint(i), "s", 10, check(fmt.Sprint(i), "x"), nil))
			}
			return w.Add("last", "s", 10, check("last", "x"), nil)
		}, MaxActions, nil},
		{"one action too many", func(w *Write) error {
			for i := range MaxActions {
				require.NoError(t, w.Add(fmt.Sprint(i), "s", 10, check(fmt.Sprint(i), "x"), nil))
			}
			return w.Add("last", "s", 10, check("last", "x"), nil)
		}, MaxActions, errs.ErrTxLimit},
		{"MaxSize bytes", func(w *Write) error {
			require.NoError(t, w.Add("a", "s", MaxSize-10, TxPut(table, keyItem("a"), Cond{}), nil))
			return w.Add("b", "s", 10, TxPut(table, keyItem("b"), Cond{}), nil)
		}, 2, nil},
		{"a byte too many", func(w *Write) error {
			require.NoError(t, w.Add("a", "s", MaxSize-10, TxPut(table, keyItem("a"), Cond{}), nil))
			return w.Add("b", "s", 11, TxPut(table, keyItem("b"), Cond{}), nil)
		}, 1, errs.ErrTxLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w Write
			err := tt.add(&w)
			assert.Equal(t, tt.wantLen, w.Len())
			if tt.wantErr == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tt.wantErr)
		})
	}
}

func TestTxActions(t *testing.T) {
	allOld := types.ReturnValuesOnConditionCheckFailureAllOld
	c := exists("x")
	assert.Equal(t, types.TransactWriteItem{Put: &types.Put{TableName: table, Item: keyItem("a")}}, TxPut(table, keyItem("a"), Cond{}), "no condition, no ALL_OLD")
	assert.Equal(t, types.TransactWriteItem{Put: &types.Put{TableName: table, Item: keyItem("a"), ConditionExpression: c.Expr,
		ExpressionAttributeNames: c.Names, ExpressionAttributeValues: c.Values, ReturnValuesOnConditionCheckFailure: allOld}}, TxPut(table, keyItem("a"), c))
	assert.Equal(t, types.TransactWriteItem{Update: &types.Update{TableName: table, Key: keyItem("a"), UpdateExpression: aws.String("SET #1 = :0"),
		ConditionExpression: c.Expr, ExpressionAttributeNames: c.Names, ExpressionAttributeValues: c.Values, ReturnValuesOnConditionCheckFailure: allOld}},
		TxUpdate(table, keyItem("a"), aws.String("SET #1 = :0"), c))
	assert.Equal(t, types.TransactWriteItem{Delete: &types.Delete{TableName: table, Key: keyItem("a"), ReturnValuesOnConditionCheckFailure: allOld}}, TxDelete(table, keyItem("a"), Cond{}))
	assert.Equal(t, types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: table, Key: keyItem("a"), ConditionExpression: c.Expr,
		ExpressionAttributeNames: c.Names, ExpressionAttributeValues: c.Values, ReturnValuesOnConditionCheckFailure: allOld}}, TxCheck(table, keyItem("a"), c))
}

// cancelled is a TransactionCanceledException with the reason codes given.
func cancelled(codes ...string) error {
	tce := &types.TransactionCanceledException{}
	for _, c := range codes {
		r := types.CancellationReason{Code: aws.String(c)}
		if c == "ConditionalCheckFailed" {
			r.Item = Item{"v": &types.AttributeValueMemberS{Value: "old"}}
		}
		tce.CancellationReasons = append(tce.CancellationReasons, r)
	}
	return fmt.Errorf("wrapped: %w", tce)
}

func transient(code string) bool {
	switch code {
	case "None", "TransactionConflict", "ThrottlingError":
		return true
	}
	return false
}

func TestReasons(t *testing.T) {
	failed := errors.New("condition of b")
	var w Write
	require.NoError(t, w.Add("a", "s", 1, TxPut(table, keyItem("a"), Cond{}), nil))
	require.NoError(t, w.Add("b", "s", 1, TxCheck(table, keyItem("b"), exists("x")), func(old Item) error {
		assert.Equal(t, Item{"v": &types.AttributeValueMemberS{Value: "old"}}, old, "the stored item")
		return failed
	}))
	tests := []struct {
		name          string
		err           error
		wantCauses    []error
		wantRetryable bool
	}{
		{"a failed condition", cancelled("None", "ConditionalCheckFailed"), []error{failed}, false},
		{"a conflict", cancelled("TransactionConflict", "None"), []error{errs.ErrTxConflict}, true},
		{"throttling", cancelled("None", "ThrottlingError"), nil, true},
		{"a conflict and a failed condition", cancelled("TransactionConflict", "ConditionalCheckFailed"), []error{errs.ErrTxConflict, failed}, false},
		{"a validation error", cancelled("ValidationError", "None"), nil, false},
		{"no cancellation", errors.New("network"), nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			causes, retryable := w.Reasons(tt.err, transient)
			assert.Equal(t, tt.wantCauses, causes)
			assert.Equal(t, tt.wantRetryable, retryable)
		})
	}
	assert.Equal(t, keyItem("b"), w.Key(1))
	assert.Nil(t, w.Key(2))
}

// writeClient fails its first calls with errs, then succeeds.
type writeClient struct {
	errs []error
	ins  []*dynamodb.TransactWriteItemsInput
}

func (c *writeClient) TransactWriteItems(_ context.Context, in *dynamodb.TransactWriteItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	c.ins = append(c.ins, in)
	if n := len(c.ins); n <= len(c.errs) {
		return nil, c.errs[n-1]
	}
	return &dynamodb.TransactWriteItemsOutput{}, nil
}

type backoff struct {
	attempts []int
	err      error
}

func (b *backoff) BackoffDelay(attempt int, _ error) (time.Duration, error) {
	b.attempts = append(b.attempts, attempt)
	return 0, b.err
}

func TestCommit(t *testing.T) {
	conflict, failed, boom := cancelled("TransactionConflict"), cancelled("ConditionalCheckFailed"), errors.New("backoff gave up")
	tests := []struct {
		name         string
		errs         []error
		retries      int
		backoffErr   error
		wantCalls    int
		wantAttempts []int
		wantErr      error
		wantWaitErr  error
	}{
		{"success", nil, 0, nil, 1, nil, nil, nil},
		{"a conflict, no retries", []error{conflict}, 0, nil, 1, nil, conflict, nil},
		{"conflicts retried", []error{conflict, conflict}, 2, nil, 3, []int{1, 2}, nil, nil},
		{"retries run out", []error{conflict, conflict, conflict}, 2, nil, 3, []int{1, 2}, conflict, nil},
		{"a failed condition is not retried", []error{failed}, 2, nil, 1, nil, failed, nil},
		{"the backoff gives up", []error{conflict}, 2, boom, 1, []int{1}, conflict, boom},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w Write
			require.NoError(t, w.Add("a", "s", 1, TxPut(table, keyItem("a"), exists("x")), func(Item) error { return nil }))
			c, b := &writeClient{errs: tt.errs}, &backoff{err: tt.backoffErr}
			causes, err, waitErr := w.Commit(context.Background(), c, "tok", tt.retries, b, nil, func(err error) ([]error, bool) {
				return w.Reasons(err, transient)
			})
			require.Len(t, c.ins, tt.wantCalls)
			assert.Equal(t, "tok", aws.ToString(c.ins[0].ClientRequestToken))
			assert.Equal(t, tt.wantAttempts, b.attempts)
			assert.Equal(t, tt.wantErr, err)
			assert.Equal(t, tt.wantWaitErr, waitErr)
			if tt.wantErr == conflict {
				assert.Equal(t, []error{errs.ErrTxConflict}, causes)
			}
		})
	}
}

// readClient returns the items it holds, by PK.
type readClient map[string]Item

func (c readClient) TransactGetItems(_ context.Context, in *dynamodb.TransactGetItemsInput, _ ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	out := &dynamodb.TransactGetItemsOutput{}
	for _, g := range in.TransactItems {
		pk := g.Get.Key["PK"].(*types.AttributeValueMemberS).Value
		out.Responses = append(out.Responses, types.ItemResponse{Item: c[pk]})
	}
	return out, nil
}

func TestRead(t *testing.T) {
	var r Read
	got := map[string]Item{}
	fill := func(pk string) func(Item) error {
		return func(item Item) error { got[pk] = item; return nil }
	}
	require.NoError(t, r.Add(table, "a", "s", keyItem("a"), fill("a")))
	require.NoError(t, r.Add(table, "b", "s", keyItem("b"), fill("b")))
	require.ErrorIs(t, r.Add(table, "a", "s", keyItem("a"), fill("a")), errs.ErrTxLimit, "read twice")
	assert.Equal(t, 2, r.Len())
	assert.Equal(t, keyItem("b"), r.Key(1))
	assert.Nil(t, r.Key(2))

	require.NoError(t, r.Run(context.Background(), readClient{"a": keyItem("a")}, nil))
	assert.Equal(t, map[string]Item{"a": keyItem("a"), "b": nil}, got)

	bad := errors.New("does not fit")
	var r2 Read
	require.NoError(t, r2.Add(table, "a", "s", keyItem("a"), func(Item) error { return bad }))
	require.ErrorIs(t, r2.Run(context.Background(), readClient{}, nil), bad)

	var full Read
	for i := range MaxActions {
		require.NoError(t, full.Add(table, fmt.Sprint(i), "s", keyItem(fmt.Sprint(i)), fill("")))
	}
	require.ErrorIs(t, full.Add(table, "last", "s", keyItem("last"), fill("")), errs.ErrTxLimit, "one read too many")
}
