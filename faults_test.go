package adjlist_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/iotest"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// fault is what faultTransport does with one request.
type fault struct {
	forward bool   // send the request to DynamoDB Local first
	status  int    // then answer with this status and body (0: the real answer)
	body    string // DynamoDB's JSON error body, or a result
	reset   bool   // or fail as a reset connection
	refused bool   // or fail to connect: nothing sent
	cut     bool   // or, forwarded, lose the answer's body (a reset while reading it)
}

// faultTransport sits between the SDK and DynamoDB Local and injects the
// faults real DynamoDB produces and DynamoDB Local never does: throttling,
// 5xx, lost responses, index lag.
type faultTransport struct {
	base  http.RoundTripper
	plan  func(op string, n int, body []byte) fault // n counts requests per op from 1
	mu    sync.Mutex
	count map[string]int
}

func (f *faultTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	op := strings.TrimPrefix(req.Header.Get("X-Amz-Target"), "DynamoDB_20120810.")
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	f.mu.Lock()
	f.count[op]++
	n := f.count[op]
	f.mu.Unlock()
	do := fault{forward: true}
	if f.plan != nil {
		do = f.plan(op, n, body)
	}
	var resp *http.Response
	if do.forward {
		if resp, err = f.base.RoundTrip(req); err != nil {
			return nil, err
		}
		if do.status == 0 && !do.reset && !do.cut {
			return resp, nil
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if do.cut {
			resp.Body = io.NopCloser(iotest.ErrReader(&net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}))
			return resp, nil
		}
	}
	if do.reset {
		return nil, &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
	}
	if do.refused {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	}
	return &http.Response{
		StatusCode: do.status,
		Header:     http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
		Body:       io.NopCloser(strings.NewReader(do.body)),
		Request:    req,
	}, nil
}

func (f *faultTransport) requests(op string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.count[op]
}

func ddbError(code, msg string) string {
	return `{"__type":"com.amazonaws.dynamodb.v20120810#` + code + `","message":"` + msg + `"}`
}

// faultySchool is a school whose client goes through a faultTransport and
// retries with the SDK's standard retryer: 3 attempts, no backoff wait.
func faultySchool(t *testing.T, plan func(op string, n int, body []byte) fault, backoff time.Duration) (*school, *faultTransport) {
	t.Helper()
	base := ddbtest.Client(t)
	ft := &faultTransport{base: http.DefaultTransport, plan: plan, count: map[string]int{}}
	db := dynamodb.New(base.Options(), func(o *dynamodb.Options) {
		o.HTTPClient = &http.Client{Transport: ft}
		o.Retryer = retry.NewStandard(func(so *retry.StandardOptions) {
			so.MaxAttempts = 3
			so.RateLimiter = ratelimit.None
			so.Backoff = retry.BackoffDelayerFunc(func(int, error) (time.Duration, error) { return backoff, nil })
		})
	})
	s := &school{db: base, calls: &countingClient{Client: db}}
	s.table = adjlist.NewTable(s.calls, ddbtest.TableName(t))
	require.NoError(t, adjlist.CreateTable(context.Background(), base, s.table))
	dropOnCleanup(t, base, s.table.Name())
	s.students = adjlist.NewNode[Student](s.table, "STU", "PROFILE")
	s.courses = adjlist.NewNode[Course](s.table, "CRS", "METADATA")
	s.enrolled = adjlist.NewEdge[Enrollment](s.students, "ENROLL", s.courses)
	return s, ft
}

func TestRetriedFaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		code   string
		as     any // a pointer to the SDK's modelled error type, if any
	}{
		{"provisioned throughput exceeded", 400, "ProvisionedThroughputExceededException", new(*types.ProvisionedThroughputExceededException)},
		{"throttling", 400, "ThrottlingException", nil},
		{"request limit exceeded", 400, "RequestLimitExceeded", new(*types.RequestLimitExceeded)},
		{"internal server error", 500, "InternalServerError", new(*types.InternalServerError)},
		{"service unavailable", 503, "ServiceUnavailable", nil},
	}
	for _, tt := range tests {
		for _, failures := range []int{2, 3} {
			t.Run(tt.name, func(t *testing.T) {
				s, ft := faultySchool(t, func(op string, n int, _ []byte) fault {
					if op == "PutItem" && n <= failures {
						return fault{status: tt.status, body: ddbError(tt.code, "injected")}
					}
					return fault{forward: true}
				}, 0)
				err := s.enrolled.Put(context.Background(), "a91", "math204", math204)
				assert.Equal(t, 3, ft.requests("PutItem"), "the retryer's attempts, no more")
				if failures < 3 {
					require.NoError(t, err, "fewer faults than attempts")
					return
				}
				var apiErr smithy.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, tt.code, apiErr.ErrorCode())
				if tt.as != nil {
					require.ErrorAs(t, err, tt.as)
				}
				assert.NotErrorIs(t, err, adjlist.ErrExists)
			})
		}
	}
}

// A guarded put applied by DynamoDB whose response is lost: the retry sees
// its own item and must report success, not a duplicate.
func TestLostResponseOnGuardedPut(t *testing.T) {
	t.Parallel()
	for _, lost := range []fault{
		{forward: true, status: 500, body: ddbError("InternalServerError", "lost")},
		{forward: true, reset: true},
	} {
		t.Run(map[bool]string{false: "500", true: "connection reset"}[lost.reset], func(t *testing.T) {
			// Every first attempt is applied and its response lost.
			s, ft := faultySchool(t, func(op string, n int, _ []byte) fault {
				if op == "PutItem" && n%2 == 1 {
					return lost
				}
				return fault{forward: true}
			}, 0)
			ctx := context.Background()
			require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", math204))
			assert.Equal(t, 2, ft.requests("PutItem"), "the retry went out")
			assert.Equal(t, int32(1), s.rawCount(t, "", "PK", "STU#a91"))
			require.NoError(t, s.students.Put(ctx, "b30", Student{Name: "Blaise"}), "a node's create")
			require.NoError(t, adjlist.NewCollection[note](s.students, "NOTE").Put(ctx, "b30", "n1", note{Note: "x"}), "a child's create")
			assert.Equal(t, 6, ft.requests("PutItem"))
		})
	}

	// The same data written again by a separate call is a duplicate on
	// every handle: no attempt of that call was lost.
	t.Run("a separate call with identical data", func(t *testing.T) {
		s, ft := faultySchool(t, nil, 0)
		ctx := context.Background()
		notes := adjlist.NewCollection[note](s.students, "NOTE")
		require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", math204))
		require.ErrorIs(t, s.enrolled.Put(ctx, "a91", "math204", math204), adjlist.ErrExists)
		require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ada"}))
		require.ErrorIs(t, s.students.Put(ctx, "a91", Student{Name: "Ada"}), adjlist.ErrExists)
		require.NoError(t, notes.Put(ctx, "a91", "n1", note{Note: "x"}))
		require.ErrorIs(t, notes.Put(ctx, "a91", "n1", note{Note: "x"}), adjlist.ErrExists)
		assert.Equal(t, 6, ft.requests("PutItem"), "no retries")
	})

	t.Run("someone else's edge", func(t *testing.T) {
		s, _ := faultySchool(t, nil, 0)
		ctx := context.Background()
		require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", Enrollment{EnrolledOn: "2026-01-01", Grade: "A"}))
		err := s.enrolled.Put(ctx, "a91", "math204", Enrollment{EnrolledOn: "2026-01-01", Grade: "C"})
		require.ErrorIs(t, err, adjlist.ErrExists)
		var ccf *types.ConditionalCheckFailedException
		require.ErrorAs(t, err, &ccf)
		assert.Equal(t, &types.AttributeValueMemberS{Value: "A"}, ccf.Item["grade"], "the stored item comes with the error")
	})
}

func TestCancelDuringBackoff(t *testing.T) {
	t.Parallel()
	s, ft := faultySchool(t, func(op string, n int, _ []byte) fault {
		if op == "PutItem" {
			return fault{status: 503, body: ddbError("ServiceUnavailable", "injected")}
		}
		return fault{forward: true}
	}, time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for ft.requests("PutItem") == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	start := time.Now()
	err := s.enrolled.Put(ctx, "a91", "math204", math204)
	require.ErrorIs(t, err, context.Canceled)
	assert.Less(t, time.Since(start), time.Minute, "returned without waiting out the backoff")
	assert.Equal(t, 1, ft.requests("PutItem"), "no further attempt")
}

func TestWrongTableNotRetried(t *testing.T) {
	t.Parallel()
	s, ft := faultySchool(t, nil, 0)
	wrong := adjlist.NewTable(s.calls, "no-such-table")
	students := adjlist.NewNode[Student](wrong, "STU", "PROFILE")
	err := students.Put(context.Background(), "a91", Student{})
	var nf *types.ResourceNotFoundException
	require.ErrorAs(t, err, &nf)
	assert.Equal(t, 1, ft.requests("PutItem"))

	s.table = adjlist.NewTable(s.calls, s.table.Name(), func(o *adjlist.Options) { o.Index = "NoSuchIndex" })
	enrolled := adjlist.NewEdge[Enrollment](adjlist.NewNode[Student](s.table, "STU", "P"), "ENROLL", adjlist.NewNode[Course](s.table, "CRS", "M"))
	_, err = enrolled.To("math204").Collect(context.Background())
	var apiErr smithy.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "ValidationException", apiErr.ErrorCode(), "DynamoDB reports an unknown index as a validation error")
	assert.Equal(t, 1, ft.requests("Query"))
}

// The index lags: the first reverse reads after a write miss the edge.
func TestIndexLag(t *testing.T) {
	t.Parallel()
	lagging := 3
	plan := func(op string, n int, body []byte) fault {
		if op == "Query" && bytes.Contains(body, []byte(`"IndexName":"GSI1"`)) && n <= lagging {
			return fault{status: 200, body: `{"Count":0,"Items":[],"ScannedCount":0}`}
		}
		return fault{forward: true}
	}
	s, ft := faultySchool(t, plan, 0)
	ctx := context.Background()
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", math204))

	stale, err := s.enrolled.To("math204").Collect(ctx)
	require.NoError(t, err)
	assert.Empty(t, stale, "a stale reverse read is not an error")

	require.NoError(t, s.enrolled.WaitIndexed(ctx, "a91", "math204", 5*time.Second))
	assert.Equal(t, lagging+1, ft.requests("Query"), "polled until visible")

	fresh, err := s.enrolled.To("math204").Collect(ctx)
	require.NoError(t, err)
	assert.Len(t, fresh, 1)

	lagging = 1 << 30
	err = s.enrolled.WaitIndexed(ctx, "a91", "math204", 200*time.Millisecond)
	require.ErrorIs(t, err, adjlist.ErrNotVisible)

	err = s.enrolled.WaitIndexed(ctx, "", "math204", time.Second)
	require.ErrorIs(t, err, adjlist.ErrInvalidKey)
	assert.False(t, errors.Is(err, adjlist.ErrNotVisible))
}
