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

// Write is the actions of one TransactWriteItems with what a failed
// condition of each means. The zero Write is ready.
type Write struct {
	actions []types.TransactWriteItem
	onFail  []func(old Item) error // old: the reason's Item (ALL_OLD)
	seen    map[key]int            // item key → its action's index
	size    int
}

// Replace puts a, of the same size, in place of the action on (pk, sk).
func (w *Write) Replace(pk, sk string, a types.TransactWriteItem) {
	if i, ok := w.seen[key{pk, sk}]; ok {
		w.actions[i] = a
	}
}

// Len is the number of actions added.
func (w *Write) Len() int { return len(w.actions) }

// Add appends action a on item (pk, sk), size bytes. A second action on
// the item, or one past MaxActions or MaxSize, is errs.ErrTxLimit, adding
// nothing; a second identical check is dropped (DynamoDB would refuse it).
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

func sameCheck(a, b types.TransactWriteItem) bool {
	ca, cb := a.ConditionCheck, b.ConditionCheck
	return ca != nil && cb != nil && aws.ToString(ca.ConditionExpression) == aws.ToString(cb.ConditionExpression) &&
		maps.Equal(ca.ExpressionAttributeNames, cb.ExpressionAttributeNames) &&
		ddbitem.Equal(ca.ExpressionAttributeValues, cb.ExpressionAttributeValues)
}

// Key is action i's key (a put's whole item; nil past the last), which
// a throttling error names.
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

// Commit sends the actions with one TransactWriteItems (token, if set,
// its ClientRequestToken), again after b up to retries times while
// reasons says a retry may clear it. On failure: the last failure's causes
// and error, and waitErr when waiting ended the retries.
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

// Reasons maps a cancellation's reasons (in action order) to errors: a
// failed condition to its onFail's, a conflict to errs.ErrTxConflict.
// retryable: transient holds of every code. No cancellation: nil, false.
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
