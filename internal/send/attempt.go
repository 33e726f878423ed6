// A client that ignores per-call options (Watch) never records an
// unknown outcome: its duplicates are reported, the safe side.

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

// Call is one write call's context, on which requests sent with Watch's
// options record an attempt that may have been applied. Embed it to make
// one allocation serve the call's input too.
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

// MaybeApplied reports whether an attempt's outcome was unknown.
func (c *Call) MaybeApplied() bool { return c.unknown.Load() }

// Unknown wraps err in errs.ErrOutcomeUnknown when MaybeApplied.
func (c *Call) Unknown(err error) error {
	if err == nil || !c.MaybeApplied() || errors.Is(err, errs.ErrOutcomeUnknown) {
		return err
	}
	return fmt.Errorf("%w: %w", errs.ErrOutcomeUnknown, err)
}

// watcher records an unknown outcome on the Call in a request's context.
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

// outcomeUnknown reports whether an attempt may have been applied unseen:
// a 5xx, a transport error after connecting, or a 2xx (whose body may yet
// be lost). DynamoDB answers 4xx only for what it did not apply; a failed
// dial sent nothing.
func outcomeUnknown(resp *http.Response, err error) bool {
	if err != nil {
		var op *net.OpError
		return !errors.As(err, &op) || op.Op != "dial"
	}
	return resp.StatusCode < 400 || resp.StatusCode >= 500
}

// watchers holds one watcher per HTTP client: a write allocates none.
var watchers sync.Map // dynamodb.HTTPClient → *watcher

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

// Watch returns opts plus the watcher, allocating nothing for empty opts;
// the write is sent with a Call as its context.
func Watch(opts []func(*dynamodb.Options)) []func(*dynamodb.Options) {
	if opts != nil {
		return append(opts, withWatcher)
	}
	return watchOnly
}

var watchOnly = []func(*dynamodb.Options){withWatcher}

// Once is Watch for a write that is not idempotent, sent with c as its
// context: its retryer retries no error after an unknown outcome (it
// still retries throttling and 4xx after definite answers).
func Once(c *Call, opts []func(*dynamodb.Options)) []func(*dynamodb.Options) {
	out := make([]func(*dynamodb.Options), 0, len(opts)+2)
	return append(append(out, opts...), withWatcher, func(o *dynamodb.Options) {
		if o.Retryer != nil {
			o.Retryer = &once{RetryerV2: asV2(o.Retryer), call: c}
		}
	})
}

type once struct {
	aws.RetryerV2
	call *Call
}

func (r *once) IsErrorRetryable(err error) bool {
	return !r.call.MaybeApplied() && r.RetryerV2.IsErrorRetryable(err)
}

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
