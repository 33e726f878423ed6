package send

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	smithytime "github.com/aws/smithy-go/time"
)

// Table is where a batch goes and how it resends unprocessed items.
type Table struct {
	Client      BatchClient
	Name        string
	Backoff     retry.BackoffDelayer
	MaxAttempts int                       // requests per chunk, resends included
	Opts        []func(*dynamodb.Options) // usage and tracing middleware
}

// Wait waits b's delay before the retry after attempt (from 1) failed
// with err (may be nil); it returns b's error, or ctx's if done first.
func Wait(ctx context.Context, b retry.BackoffDelayer, attempt int, err error) error {
	d, err := b.BackoffDelay(attempt, err)
	if err != nil {
		return err
	}
	return Sleep(ctx, d)
}

// Sleep waits d or until ctx is done, returning ctx's error.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	return smithytime.SleepWithContext(ctx, d)
}
