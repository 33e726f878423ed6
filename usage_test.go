package adjlist_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// Each access pattern costs what the design promises: the requests it makes
// and the capacity DynamoDB reports for them.
func TestUsage(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	seedSchool(t, s)
	manyEdges(t, s, 30)
	ctx := context.Background()

	tests := []struct {
		name         string
		call         func(ctx context.Context) error
		wantRequests int
		write        bool
	}{
		{"LoadNode: one Query", func(ctx context.Context) error {
			_, err := adjlist.LoadNode(ctx, s.students, s.enrolled, "a91")
			return err
		}, 1, false},
		{"forward, 10 per page: 4 pages", func(ctx context.Context) error {
			_, err := s.enrolled.From("a91").Limit(10).Collect(ctx)
			return err
		}, 4, false},
		{"reverse page: one Query", func(ctx context.Context) error {
			_, err := s.enrolled.To("math204").Limit(5).Page(ctx, "")
			return err
		}, 1, false},
		{"count: one Query", func(ctx context.Context) error {
			_, err := s.enrolled.To("math204").Count(ctx)
			return err
		}, 1, false},
		{"get: one GetItem", func(ctx context.Context) error {
			_, err := s.students.Get(ctx, "a91")
			return err
		}, 1, false},
		{"guarded put: one PutItem", func(ctx context.Context) error {
			return s.enrolled.Put(ctx, "zz", "math204", math204)
		}, 1, true},
		{"bulk put of 60: three BatchWriteItem", func(ctx context.Context) error {
			_, err := s.enrolled.PutMany(ctx, roster(60, "A"))
			return err
		}, 3, true},
		{"checked put: one TransactWriteItems", func(ctx context.Context) error {
			return s.enrolled.Put(ctx, "b30", "cs101", math204, checkEnds)
		}, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var u adjlist.Usage
			err := tt.call(adjlist.WithUsage(ctx, &u))
			require.NoError(t, err)
			assert.Equal(t, tt.wantRequests, u.Totals().Requests)
			if tt.write {
				assert.Positive(t, u.Totals().WriteUnits, "DynamoDB reported write capacity")
				assert.Zero(t, u.Totals().ReadUnits)
			} else {
				assert.Positive(t, u.Totals().ReadUnits, "DynamoDB reported read capacity")
				assert.Zero(t, u.Totals().WriteUnits)
			}
		})
	}

}

// Totals can be read while requests still report to the Usage (run with
// -race), and then counts every request once.
func TestUsageTotalsWhileRequestsRun(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	seedSchool(t, s)
	var u adjlist.Usage
	ctx := adjlist.WithUsage(context.Background(), &u)
	const n = 8
	done := make(chan error, n)
	for range n {
		go func() {
			_, err := s.students.Get(ctx, "a91")
			done <- err
		}()
	}
	for range n {
		total := u.Totals()
		assert.LessOrEqual(t, total.Requests, n)
		require.NoError(t, <-done)
	}
	total := u.Totals()
	assert.Equal(t, n, total.Requests)
	assert.Positive(t, total.ReadUnits)
	assert.Zero(t, total.WriteUnits)
}
