package paging

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/smithy-go/waiter"

	"github.com/adjlist/adjlist/internal/send"
)

// Poll calls try until it reports done, waiting before each attempt as the
// SDK's waiters do (waiter.ComputeDelay, 20 ms to 1 s), for at most
// maxWait. When maxWait passes first it returns fail of an error wrapping
// notVisible that names the attempts ("... after 3 queries in 1s"); the
// errors of the delay and of ctx go through fail too, try's are returned
// as they are.
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
