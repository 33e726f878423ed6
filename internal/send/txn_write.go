package send

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/errs"
)

// Write is the actions of one TransactWriteItems, in order, with what a
// failed condition of each means. The zero Write is empty and ready.
type Write struct {
	actions []types.TransactWriteItem
	// onFail[i] is what a failed condition of action i means, given the
	// stored item (the cancellation reason's Item, ALL_OLD).
	onFail []func(old Item) error
	// seen maps each item's key to the index of its action.
	seen map[key]int
	size int
}

// Replace puts a in place of the action on the item (pk, sk), of the
// same size, and reports whether there was one.
func (w *Write) Replace(pk, sk string, a types.TransactWriteItem) bool {
	i, ok := w.seen[key{pk, sk}]
	if ok {
		w.actions[i] = a
	}
	return ok
}

// Len returns the number of actions added.
func (w *Write) Len() int { return len(w.actions) }

// Add appends the action a on the item (pk, sk), size bytes of the
// transaction's MaxSize; onFail says what a failure of its condition
// means. It fails with errs.ErrTxLimit, adding nothing, on a second action on
// the item or past MaxActions actions or MaxSize bytes; a second check
// of the item for the same condition asks the same question, so it is
// dropped rather than refused (DynamoDB would refuse it).
func (w *Write) Add(pk, sk string, size int, a types.TransactWriteItem, onFail func(old Item) error) error {
	k := key{pk, sk}
	if i, ok := w.seen[k]; ok {
		if sameCheck(w.actions[i], a) {
			return nil
		}
		return fmt.Errorf("%w: two actions on the item %q %q", errs.ErrTxLimit, pk, sk)
	}
	switch {
	case len(w.actions) == MaxActions:
		return fmt.Errorf("%w: more than %d actions", errs.ErrTxLimit, MaxActions)
	case w.size+size > MaxSize:
		return fmt.Errorf("%w: more than %d bytes", errs.ErrTxLimit, MaxSize)
	}
	if w.seen == nil {
		w.seen = map[key]int{}
	}
	w.seen[k] = len(w.actions)
	w.size += size
	w.actions = append(w.actions, a)
	w.onFail = append(w.onFail, onFail)
	return nil
}

// sameCheck reports whether two actions are condition checks with the
// same condition: the same expression, names and values.
func sameCheck(a, b types.TransactWriteItem) bool {
	ca, cb := a.ConditionCheck, b.ConditionCheck
	return ca != nil && cb != nil && aws.ToString(ca.ConditionExpression) == aws.ToString(cb.ConditionExpression) &&
		maps.Equal(ca.ExpressionAttributeNames, cb.ExpressionAttributeNames) &&
		ddbitem.Equal(ca.ExpressionAttributeValues, cb.ExpressionAttributeValues)
}

// Key returns the key of action i's item (a put's whole item), nil past
// the last action: what the error of a throttled action names.
func (w *Write) Key(i int) Item {
	if i >= len(w.actions) {
		return nil
	}
	switch a := w.actions[i]; {
	case a.Put != nil:
		return a.Put.Item
	case a.Update != nil:
		return a.Update.Key
	case a.Delete != nil:
		return a.Delete.Key
	case a.ConditionCheck != nil:
		return a.ConditionCheck.Key
	}
	return nil
}

// Commit sends the actions with one TransactWriteItems, token its
// ClientRequestToken unless empty, and sends them again after backoff b,
// at most retries more times, while reasons says a cancellation may
// clear on a retry. When it fails it returns the causes reasons gave for
// the last failure, that failure's error and, when waiting ended the
// retries, the error of waiting (ctx's or b's).
func (w *Write) Commit(ctx context.Context, client WriteClient, token string, retries int, b retry.BackoffDelayer, opts []func(*dynamodb.Options), reasons func(error) (causes []error, retryable bool)) (causes []error, err, waitErr error) {
	in := &dynamodb.TransactWriteItemsInput{TransactItems: w.actions}
	if token != "" {
		in.ClientRequestToken = aws.String(token)
	}
	for attempt := 1; ; attempt++ {
		if _, err = client.TransactWriteItems(ctx, in, opts...); err == nil {
			return nil, nil, nil
		}
		causes, retryable := reasons(err)
		if !retryable || attempt > retries {
			return causes, err, nil
		}
		if waitErr = Wait(ctx, b, attempt, err); waitErr != nil {
			return causes, err, waitErr
		}
	}
}

// Reasons maps the reasons of a cancelled transaction, which come in the
// order of its actions, to errors: a failed condition to what its
// action's onFail says, a conflict to errs.ErrTxConflict. retryable is true
// when transient says every reason's code may clear on a retry (a
// conflict, throttling, none). For an error that is no cancellation it
// returns nil, false.
func (w *Write) Reasons(err error, transient func(code string) bool) (causes []error, retryable bool) {
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		return nil, false
	}
	retryable = true
	for i, r := range tce.CancellationReasons {
		code := aws.ToString(r.Code)
		switch code {
		case "ConditionalCheckFailed":
			if i < len(w.onFail) {
				causes = append(causes, w.onFail[i](r.Item))
			}
		case "TransactionConflict":
			causes = append(causes, errs.ErrTxConflict)
		}
		retryable = retryable && transient(code)
	}
	return causes, retryable
}
