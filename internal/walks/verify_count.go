package walks

import (
	"context"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/adjlist/adjlist/internal/ddbexpr"
	"github.com/adjlist/adjlist/internal/send"
)

// maxCounterChecks bounds the reads that confirm a counter mismatch.
const maxCounterChecks = 5

// Recount counts the edges into an aggregate's node, on the index.
type Recount func(ctx context.Context) (int64, error)

// ConfirmCount reads counter name's aggregate at key (nil when missing),
// recounts and reads it again until the same mismatch shows twice in a
// row, at most 5 rounds 100 ms × round apart; nil when they agree or the
// count is still moving.
func ConfirmCount(ctx context.Context, name string, key Key, read func(context.Context) (Item, error), recount Recount) (*Finding, error) {
	readCount := func() (string, error) {
		item, err := read(ctx)
		return CountOf(item), err // "" for no item
	}
	var last *Finding
	for round := 1; round <= maxCounterChecks; round++ {
		before, err := readCount()
		if err != nil {
			return nil, err
		}
		n, err := recount(ctx)
		if err != nil {
			return nil, err
		}
		after, err := readCount()
		if err != nil {
			return nil, err
		}
		want := strconv.FormatInt(n, 10)
		if before == after && (after == want || after == "" && n == 0) {
			return nil, nil
		}
		f := &Finding{Kind: CounterMismatch, Type: "counter " + name, Key: key, Attribute: "count", Have: after, Want: want}
		if before == after && last != nil && *last == *f {
			return f, nil
		}
		last = f
		if err := send.Sleep(ctx, time.Duration(round)*100*time.Millisecond); err != nil {
			return nil, err
		}
	}
	return nil, nil // still moving: not reported
}

// RepairCount sets counter name's aggregate at key to recount's number
// with an UpdateItem conditioned on the count as read; fixed is false
// when it was right.
func RepairCount(ctx context.Context, api RepairClient, t *Table, name string, key Key, recount Recount) (fixed bool, retried int, err error) {
	for attempt := 0; attempt < MaxAttempts; attempt++ {
		item, err := Read(ctx, api, t, key)
		if err != nil {
			return false, retried, err
		}
		n, err := recount(ctx)
		if err != nil {
			return false, retried, err
		}
		stored := CountOf(item) // "" for no item
		want := strconv.FormatInt(n, 10)
		if stored == want || stored == "" && n == 0 {
			return false, retried, nil
		}
		cond := expression.AttributeNotExists(expression.Name(t.PartitionKey))
		if item != nil {
			cond = expression.Name("count").Equal(expression.Value(ddbexpr.AV{V: item["count"]}))
			if item["count"] == nil {
				cond = expression.AttributeNotExists(expression.Name("count"))
			}
		}
		e, err := expression.NewBuilder().WithCondition(cond).
			WithUpdate(expression.Set(expression.Name("count"), expression.Value(n)).Set(expression.Name("counter"), expression.Value(name))).Build()
		if err != nil {
			return false, retried, err
		}
		_, err = api.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(t.Name), Key: t.Item(key.PK, key.SK),
			UpdateExpression: e.Update(), ConditionExpression: e.Condition(),
			ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values()}, t.Options...)
		if err == nil {
			return true, retried, nil
		}
		if !t.ConditionFailed(err) {
			return false, retried, err
		}
		retried++
	}
	return false, retried, Exhausted("counter", key)
}
