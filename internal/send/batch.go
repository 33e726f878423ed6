package send

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	smithytime "github.com/aws/smithy-go/time"
)

// Table is where a batch goes and how it resends what DynamoDB leaves
// unprocessed.
type Table struct {
	Client BatchClient
	Name   string
	// Backoff is the wait before a resend; MaxAttempts bounds the
	// requests of one chunk, resends included.
	Backoff     retry.BackoffDelayer
	MaxAttempts int
	// Opts are the SDK options of every request: adjlist's usage and
	// tracing middleware.
	Opts []func(*dynamodb.Options)
}

// Wait waits the delay b gives before the retry that follows attempt
// (the first is 1) after err, the error of the attempt, if any. It
// returns b's error, or ctx's if ctx is done first.
func Wait(ctx context.Context, b retry.BackoffDelayer, attempt int, err error) error {
	d, err := b.BackoffDelay(attempt, err)
	if err != nil {
		return err
	}
	return Sleep(ctx, d)
}

// Sleep waits for d or until ctx is done, whichever comes first, and
// returns ctx's error if it is done: at once when d is not positive.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	return smithytime.SleepWithContext(ctx, d)
}
