package adjlist_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// createAgain is one handle's create (or locked replace), written once by
// a call and then again, with identical data, by a separate call whose
// first attempt is made to fail.
type createAgain struct {
	name  string
	op    string                                     // the DynamoDB operation the write sends
	setup func(ctx context.Context, s *school) error // before the first call, if set
	write func(ctx context.Context, s *school) error
	dup   error // what the separate call reports when it found the first call's item
}

func createsAgain() []createAgain {
	notes := func(s *school) *adjlist.Collection[note, Student] {
		return adjlist.NewCollection[note](s.students, "NOTE")
	}
	follows := func(s *school) *adjlist.Entity[anyData] {
		return adjlist.NewEntity[anyData](s.table, "follow", "u#{userID}#follow", "f#{followerID}")
	}
	authors := func(s *school) *adjlist.Node[Author] {
		return adjlist.NewNode[Author](s.table, "AUTHOR", "PROFILE", func(o *adjlist.NodeOptions) { o.Version = "version" })
	}
	return []createAgain{
		{"edge", "PutItem", nil, func(ctx context.Context, s *school) error {
			return s.enrolled.Put(ctx, "a91", "math204", math204)
		}, adjlist.ErrExists},
		{"edge with a condition of the caller's", "PutItem", nil, func(ctx context.Context, s *school) error {
			return s.enrolled.Put(ctx, "b30", "math204", math204, adjlist.If(expression.AttributeNotExists(expression.Name("grade"))))
		}, adjlist.ErrExists},
		{"node", "PutItem", nil, func(ctx context.Context, s *school) error {
			return s.students.Put(ctx, "a91", Student{Name: "Ada"})
		}, adjlist.ErrExists},
		{"child", "PutItem", nil, func(ctx context.Context, s *school) error {
			return notes(s).Put(ctx, "a91", "n1", note{Note: "x"})
		}, adjlist.ErrExists},
		{"entity", "PutItem", nil, func(ctx context.Context, s *school) error {
			return follows(s).Put(ctx, adjlist.IDs{"u1", "u2"}, anyData{Name: "x"})
		}, adjlist.ErrExists},
		{"locked replace", "PutItem", func(ctx context.Context, s *school) error {
			return authors(s).Put(ctx, "ada", Author{Name: "Ada"})
		}, func(ctx context.Context, s *school) error {
			// Both calls read version 1 and write version 2.
			return authors(s).Replace(ctx, "ada", Author{Name: "Ada", Version: 1})
		}, adjlist.ErrVersionConflict},
		{"counter", "TransactWriteItems", nil, func(ctx context.Context, s *school) error {
			return newEdgeCounter(s.enrolled, "enrolled").Put(ctx, "c12", "math204", math204)
		}, adjlist.ErrExists},
	}
}

// A separate call writes exactly the item another call wrote, and its
// first attempt fails in a way the SDK retries; the retry's condition
// fails on that item. Whether the call reports the duplicate depends on
// that first attempt alone: one DynamoDB refused (a 4xx, throttling) or
// that never reached it (a failed dial) wrote nothing, so the item is the
// other call's and the create fails; one whose outcome is unknown (a 5xx,
// a reset connection) may have written it, so the create succeeds, as
// README says, even when (as here) it had not.
func TestRetryAfterFirstAttemptFailed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name         string
		first        fault
		maybeApplied bool
	}{
		{"provisioned throughput exceeded", fault{status: 400, body: ddbError("ProvisionedThroughputExceededException", "injected")}, false},
		{"throttling", fault{status: 400, body: ddbError("ThrottlingException", "injected")}, false},
		{"request limit exceeded", fault{status: 400, body: ddbError("RequestLimitExceeded", "injected")}, false},
		{"connection refused", fault{refused: true}, false},
		{"internal server error", fault{status: 500, body: ddbError("InternalServerError", "injected")}, true},
		{"service unavailable", fault{status: 503, body: ddbError("ServiceUnavailable", "injected")}, true},
		{"connection reset", fault{reset: true}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var armed atomic.Pointer[string] // the operation whose next request fails
			s, ft := faultySchool(t, func(op string, _ int, _ []byte) fault {
				if p := armed.Load(); p != nil && *p == op && armed.CompareAndSwap(p, nil) {
					return tc.first
				}
				return fault{forward: true}
			}, 0)
			ctx := context.Background()
			for _, w := range createsAgain() {
				if tc.maybeApplied && w.op != "PutItem" {
					continue // a transaction is idempotent across the SDK's retries
				}
				if w.setup != nil {
					require.NoError(t, w.setup(ctx, s), w.name)
				}
				require.NoError(t, w.write(ctx, s), "%s: the first call", w.name)
				before := ft.requests(w.op)
				armed.Store(&w.op)
				err := w.write(ctx, s)
				assert.Equal(t, 2, ft.requests(w.op)-before, "%s: the failed attempt and the retry", w.name)
				if tc.maybeApplied {
					assert.NoError(t, err, "%s: the first attempt may have written the item", w.name)
				} else {
					assert.ErrorIs(t, err, w.dup, "%s: another call's item", w.name)
				}
			}
		})
	}
}

// A call's own first attempt is applied and its answer lost: a 5xx, a
// connection reset before the answer, or a 2xx whose body is cut off. The
// SDK retries, the retry's condition fails on the item the first attempt
// wrote, and the create succeeds.
func TestRetryAfterOwnAttemptApplied(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		lost fault
	}{
		{"internal server error", fault{forward: true, status: 500, body: ddbError("InternalServerError", "lost")}},
		{"connection reset", fault{forward: true, reset: true}},
		{"answer's body cut off", fault{forward: true, cut: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var armed atomic.Pointer[string]
			s, ft := faultySchool(t, func(op string, _ int, _ []byte) fault {
				if p := armed.Load(); p != nil && *p == op && armed.CompareAndSwap(p, nil) {
					return tc.lost
				}
				return fault{forward: true}
			}, 0)
			ctx := context.Background()
			for _, w := range createsAgain() {
				if w.op != "PutItem" {
					continue // a transaction is idempotent across the SDK's retries
				}
				if w.setup != nil {
					require.NoError(t, w.setup(ctx, s), w.name)
				}
				before := ft.requests(w.op)
				armed.Store(&w.op)
				assert.NoError(t, w.write(ctx, s), w.name)
				assert.Equal(t, 2, ft.requests(w.op)-before, "%s: the lost attempt and the retry", w.name)
			}
		})
	}
}
