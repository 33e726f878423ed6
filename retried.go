package adjlist

import (
	"github.com/adjlist/adjlist/internal/attempt"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// putCall is a conditional PutItem, its input and its context, that
// records whether an earlier attempt of the call may have been applied
// (internal/attempt), which tells a create's own retried write from
// someone else's item.
type putCall = attempt.Put

// withWatch returns a conditional put's per-call options: opts (callOpts)
// plus the watcher that records its attempts on its putCall.
func withWatch(opts []func(*dynamodb.Options)) []func(*dynamodb.Options) {
	return attempt.Watch(opts)
}
