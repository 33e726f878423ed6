// Package attempt tells whether a conditional PutItem whose condition
// failed may have been applied by an earlier attempt of the same call.
//
// A conditional put whose condition fails on an item exactly like the one
// being written wrote that item itself only if an earlier attempt of the
// same call may have been applied: one whose outcome the client never
// learned. That is a 5xx, a connection reset or timed out after the
// request went out, or a 2xx whose body was lost (the SDK retries when it
// cannot read it). A 4xx is never one: DynamoDB answers 4xx only for a
// request it did not apply (throttling such as
// ProvisionedThroughputExceededException, ThrottlingException or
// RequestLimitExceeded, a validation error), so a retry after a 4xx that
// finds identical data found another call's item. Nor is a connection
// that was never made (a failed dial).
//
// internal/itemreq.Put sends a conditional put with a Put as its context
// and the per-call options of Watch, which wrap its HTTP client in a
// watcher that sees every attempt the SDK's retryer makes and records on
// the call's Put an attempt whose outcome is unknown. itemreq.Put reads the
// record (MaybeApplied) after a failed condition. A client that ignores
// per-call options never records: its duplicates are reported, the safe
// side.
package attempt

import (
	"context"
	"errors"
	"net"
	"net/http"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Put is one conditional PutItem: its input In and whether one of its
// attempts may have been applied. It is the call's context too (one
// allocation for both), found by the watcher through putKey.
type Put struct {
	context.Context
	In      dynamodb.PutItemInput
	unknown atomic.Bool
}

type putKey struct{}

// Value returns c for putKey, else the parent's value.
func (c *Put) Value(key any) any {
	if key == (putKey{}) {
		return c
	}
	return c.Context.Value(key)
}

// MaybeApplied reports whether an attempt of the call may have been
// applied: its outcome was unknown to the client.
func (c *Put) MaybeApplied() bool { return c.unknown.Load() }

// watcher is an SDK HTTP client that records, on the Put in a request's
// context, an attempt whose outcome is unknown.
type watcher struct{ next dynamodb.HTTPClient }

func (m *watcher) Do(req *http.Request) (*http.Response, error) {
	resp, err := m.next.Do(req)
	if outcomeUnknown(resp, err) {
		if c, ok := req.Context().Value(putKey{}).(*Put); ok {
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

// watchers holds one watcher per HTTP client, so that a put pays no
// allocation for it.
var watchers sync.Map // dynamodb.HTTPClient → *watcher

// withWatcher is the per-call option of a conditional put: its HTTP
// client wrapped in its watcher.
func withWatcher(o *dynamodb.Options) {
	c := o.HTTPClient
	if c == nil || !reflect.TypeOf(c).Comparable() {
		return // no map key: duplicates are reported, the safe side
	}
	if m, ok := watchers.Load(c); ok {
		o.HTTPClient = m.(*watcher)
		return
	}
	m, _ := watchers.LoadOrStore(c, &watcher{next: c})
	o.HTTPClient = m.(*watcher)
}

// Watch returns a conditional put's per-call options: opts plus the
// watcher of its attempts, without allocating when opts is empty.
func Watch(opts []func(*dynamodb.Options)) []func(*dynamodb.Options) {
	if opts != nil {
		return append(opts, withWatcher)
	}
	return watchOnly
}

var watchOnly = []func(*dynamodb.Options){withWatcher}
