package paging

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/smithy-go/waiter"

	"github.com/adjlist/adjlist/internal/send"
)

// Poll calls try until done, waiting before each as the SDK's waiters do
// (20 ms to 1 s), for at most maxWait, after which it fails with
// notVisible ("... after 3 queries in 1s"). Errors but try's go through
// fail.
func Poll(ctx context.Context, maxWait time.Duration, notVisible error, fail func(error) error, try func() (done bool, err error)) error {
	deadline := time.Now().Add(maxWait)
	for attempt := int64(0); ; attempt++ {
		remaining := time.Until(deadline)
		if attempt > 0 && remaining <= 0 {
			return fail(fmt.Errorf("%w after %d queries in %v", notVisible, attempt, maxWait))
		}
		delay, err := waiter.ComputeDelay(attempt, 20*time.Millisecond, time.Second, remaining)
		if err != nil {
			return fail(err)
		}
		if err := send.Sleep(ctx, delay); err != nil {
			return fail(err)
		}
		if done, err := try(); err != nil || done {
			return err
		}
	}
}
