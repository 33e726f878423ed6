// An attempt's outcome is unknown after a 5xx, a connection reset or
// timed out after the request went out, or a 2xx whose body was lost. A
// 4xx never is: DynamoDB answers 4xx only for a request it did not apply.
// Nor is a failed dial. A client that ignores per-call options (Watch)
// never records one: its duplicates are reported, the safe side.

package send

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Call is one write call: its context, and whether one of its attempts
// may have been applied. Requests sent with it as their context and the
// options of Watch record on it. Embed it to make one allocation serve
// the call's input too.
type Call struct {
	context.Context
	unknown atomic.Bool
}

type callKey struct{}

// Value returns c for callKey, else the parent's value.
func (c *Call) Value(key any) any {
	if key == (callKey{}) {
		return c
	}
	return c.Context.Value(key)
}

// MaybeApplied reports whether an attempt of the call may have been
// applied: its outcome was unknown to the client.
func (c *Call) MaybeApplied() bool { return c.unknown.Load() }

// Unknown returns err wrapped in errs.ErrOutcomeUnknown when an attempt of the
// call may have been applied, else err; nil stays nil.
func (c *Call) Unknown(err error) error {
	if err == nil || !c.MaybeApplied() || errors.Is(err, errs.ErrOutcomeUnknown) {
		return err
	}
	return fmt.Errorf("%w: %w", errs.ErrOutcomeUnknown, err)
}

// watcher is an SDK HTTP client that records, on the Call in a request's
// context, an attempt whose outcome is unknown.
type watcher struct{ next dynamodb.HTTPClient }

func (m *watcher) Do(req *http.Request) (*http.Response, error) {
	resp, err := m.next.Do(req)
	if outcomeUnknown(resp, err) {
		if c, ok := req.Context().Value(callKey{}).(*Call); ok {
			c.unknown.Store(true)
		}
	}
	return resp, err
}

// outcomeUnknown reports whether an attempt that got resp or err may have
// been applied although the call may not learn it: a 5xx, a transport
// error after the connection was made, or a 2xx (whose body may yet be
// lost). A 4xx was not applied; a failed dial sent nothing.
func outcomeUnknown(resp *http.Response, err error) bool {
	if err != nil {
		var op *net.OpError
		return !errors.As(err, &op) || op.Op != "dial"
	}
	return resp.StatusCode < 400 || resp.StatusCode >= 500
}

// watchers holds one watcher per HTTP client, so that a write pays no
// allocation for it.
var watchers sync.Map // dynamodb.HTTPClient → *watcher

// withWatcher is the per-call option of a watched write: its HTTP client
// wrapped in its watcher.
func withWatcher(o *dynamodb.Options) {
	c := o.HTTPClient
	if c == nil {
		return
	}
	if _, ok := c.(*watcher); ok {
		return
	}
	if !reflect.TypeOf(c).Comparable() {
		o.HTTPClient = &watcher{next: c} // no map key: one per call
		return
	}
	if m, ok := watchers.Load(c); ok {
		o.HTTPClient = m.(*watcher)
		return
	}
	m, _ := watchers.LoadOrStore(c, &watcher{next: c})
	o.HTTPClient = m.(*watcher)
}

// Watch returns a write's per-call options: opts plus the watcher of its
// attempts, without allocating when opts is empty. The write must be
// sent with a Call as its context.
func Watch(opts []func(*dynamodb.Options)) []func(*dynamodb.Options) {
	if opts != nil {
		return append(opts, withWatcher)
	}
	return watchOnly
}

var watchOnly = []func(*dynamodb.Options){withWatcher}

// Once returns the per-call options of a write that is not idempotent,
// sent with c as its context: Watch's, plus the client's retryer wrapped
// so that it retries no error after an attempt whose outcome is unknown
// (it still retries throttling and other 4xx that follow only definite
// answers).
func Once(c *Call, opts []func(*dynamodb.Options)) []func(*dynamodb.Options) {
	out := make([]func(*dynamodb.Options), 0, len(opts)+2)
	return append(append(out, opts...), withWatcher, func(o *dynamodb.Options) {
		if o.Retryer != nil {
			o.Retryer = &once{RetryerV2: asV2(o.Retryer), call: c}
		}
	})
}

// once is a retryer that refuses to retry after an attempt of its call
// whose outcome is unknown.
type once struct {
	aws.RetryerV2
	call *Call
}

func (r *once) IsErrorRetryable(err error) bool {
	return !r.call.MaybeApplied() && r.RetryerV2.IsErrorRetryable(err)
}

// asV2 is r as an aws.RetryerV2, as the SDK's retry middleware takes it.
func asV2(r aws.Retryer) aws.RetryerV2 {
	if v, ok := r.(aws.RetryerV2); ok {
		return v
	}
	return v1{r}
}

type v1 struct{ aws.Retryer }

func (r v1) GetAttemptToken(context.Context) (func(error) error, error) {
	return r.GetInitialToken(), nil
}
