package adjlist

import (
	"errors"
	"net/http"
	"reflect"
	"strings"
	"sync"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// A conditional put whose condition fails on an item exactly like the one
// being written wrote that item itself only if an earlier attempt of the
// same call may have been applied: the SDK retried after a lost response
// (a 5xx, a reset connection). The SDK's retry middleware numbers each
// attempt in the request's Amz-Sdk-Request header ("attempt=2; max=3").
// Conditional puts send their request through retryMarker, which marks a
// failed response to any attempt but the first with retriedHeader; the
// SDK's error keeps the response, and Table.put reads the mark
// (wasRetried). A client that ignores per-call options never marks: its
// duplicates are reported.

// retriedHeader marks the response of a retried attempt. DynamoDB never
// sends it.
const retriedHeader = "X-Adjlist-Retried"

// retryMarker is an SDK HTTP client that marks the failed responses of
// retried attempts.
type retryMarker struct{ next dynamodb.HTTPClient }

func (m *retryMarker) Do(req *http.Request) (*http.Response, error) {
	resp, err := m.next.Do(req)
	if err == nil && resp.StatusCode >= 400 {
		if a := req.Header.Get("Amz-Sdk-Request"); a != "" && a != "attempt=1" && !strings.HasPrefix(a, "attempt=1;") {
			resp.Header.Set(retriedHeader, "1")
		}
	}
	return resp, err
}

// markers holds one retryMarker per HTTP client, so that a put pays no
// allocation for it.
var markers sync.Map // dynamodb.HTTPClient → *retryMarker

// withRetryMarker is the per-call option of a conditional put: its HTTP
// client wrapped in its retryMarker.
func withRetryMarker(o *dynamodb.Options) {
	c := o.HTTPClient
	if c == nil || !reflect.TypeOf(c).Comparable() {
		return // no map key: duplicates are reported, the safe side
	}
	if m, ok := markers.Load(c); ok {
		o.HTTPClient = m.(*retryMarker)
		return
	}
	m, _ := markers.LoadOrStore(c, &retryMarker{next: c})
	o.HTTPClient = m.(*retryMarker)
}

// withMark returns a conditional put's per-call options: opts (callOpts)
// plus withRetryMarker, without allocating when opts is empty.
func withMark(opts []func(*dynamodb.Options)) []func(*dynamodb.Options) {
	if opts != nil {
		return append(opts, withRetryMarker)
	}
	return markerOnly
}

var markerOnly = []func(*dynamodb.Options){withRetryMarker}

// wasRetried reports whether err's response is a retried attempt's.
func wasRetried(err error) bool {
	var re *awshttp.ResponseError
	return errors.As(err, &re) && re.Response != nil && re.Response.Header.Get(retriedHeader) != ""
}
