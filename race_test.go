package adjlist_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/internal/testsize"
)

// parallel runs job(0..n-1) on workers goroutines and returns the errors.
func parallel(workers, n int, job func(i int) error) []error {
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				errs[i] = job(i)
			}
		}()
	}
	wg.Wait()
	return errs
}

func TestConcurrentSameEdge(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		data     func(i int) Enrollment
		wantWins int
	}{
		// Different writers, different data: the guard lets exactly one in.
		{"distinct data", func(i int) Enrollment { return Enrollment{Grade: fmt.Sprint(i)} }, 1},
		// The same data from separate calls: still one create, 99
		// duplicates (only a call's own retry counts as its write).
		{"identical data", func(int) Enrollment { return math204 }, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSchool(t)
			ctx := context.Background()
			errs := parallel(100, 100, func(i int) error { return s.enrolled.Put(ctx, "a91", "math204", tt.data(i)) })
			wins := 0
			for _, err := range errs {
				if err == nil {
					wins++
					continue
				}
				require.ErrorIs(t, err, adjlist.ErrExists)
			}
			assert.Equal(t, tt.wantWins, wins)
			assert.Equal(t, int32(1), s.rawCount(t, "", "PK", "STU#a91"), "one item in the table")
			require.EventuallyWithT(t, func(c *assert.CollectT) {
				assert.Equal(c, int32(1), s.rawCount(t, "GSI1", "GSI1PK", "CRS#math204"), "one item in GSI1")
			}, 5*time.Second, 20*time.Millisecond)
		})
	}
}

func TestConcurrentDistinctEdges(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	students, courses := testsize.Pick(20, 50), 20 // 400 (make stress: 1,000) edges from 16 goroutines
	errs := parallel(16, students*courses, func(i int) error {
		return s.enrolled.Put(ctx, fmt.Sprintf("s%02d", i/courses), fmt.Sprintf("c%02d", i%courses), Enrollment{Grade: fmt.Sprint(i)})
	})
	require.Empty(t, slices.DeleteFunc(errs, func(err error) bool { return err == nil }))
	for i := range students {
		n, err := s.enrolled.From(fmt.Sprintf("s%02d", i)).Count(ctx)
		require.NoError(t, err)
		assert.Equal(t, courses, n, "student %d", i)
	}
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		for j := range courses {
			items, err := s.enrolled.To(fmt.Sprintf("c%02d", j)).Collect(ctx)
			require.NoError(c, err)
			assert.Len(c, items, students, "course %d", j)
		}
	}, 10*time.Second, 50*time.Millisecond)
}

// Creating and deleting one edge at the same time leaves it either fully
// present (table and index) or fully gone, never half.
func TestConcurrentCreateDelete(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	for round := range 30 {
		errs := parallel(4, 4, func(i int) error {
			if i%2 == 0 {
				return s.enrolled.Put(ctx, "a91", "math204", math204)
			}
			return s.enrolled.Delete(ctx, "a91", "math204")
		})
		for i, err := range errs {
			if err != nil {
				// A delete may find nothing; a create may find the other
				// create's edge (identical data from a separate call).
				require.True(t, errors.Is(err, adjlist.ErrNotFound) && i%2 == 1 || errors.Is(err, adjlist.ErrExists) && i%2 == 0, "round %d: %v", round, err)
			}
		}
		base := s.rawCount(t, "", "PK", "STU#a91")
		require.LessOrEqual(t, base, int32(1))
		require.EventuallyWithT(t, func(c *assert.CollectT) {
			assert.Equal(c, base, s.rawCount(t, "GSI1", "GSI1PK", "CRS#math204"), "round %d: index agrees with table", round)
		}, 5*time.Second, 20*time.Millisecond)
		if base == 1 {
			require.NoError(t, s.enrolled.Delete(ctx, "a91", "math204"))
		}
	}
}

// 2,000 edges (10,000 in the stress tier) in one partition, each way, page by page: every edge
// exactly once and in order.
func TestTenThousandEdgesPaged(t *testing.T) {
	t.Parallel()
	n := testsize.Pick(2_000, 10_000)
	if testing.Short() {
		n = 1_000
	}
	s := newSchool(t)
	ctx := context.Background()
	// The edges need only be there: written 25 to a BatchWriteItem.
	edges := make([]adjlist.EdgeItem[Enrollment], 0, 2*n)
	for i := range n {
		edges = append(edges,
			adjlist.EdgeItem[Enrollment]{From: "a91", To: fmt.Sprintf("c%05d", i), Data: Enrollment{Grade: "A"}},
			adjlist.EdgeItem[Enrollment]{From: fmt.Sprintf("s%05d", i), To: "math204", Data: Enrollment{Grade: "B"}})
	}
	res, err := s.enrolled.PutMany(ctx, edges)
	require.NoError(t, err)
	require.Equal(t, 2*n, res.Written)

	want := func(prefix string) []string {
		ids := make([]string, n)
		for i := range ids {
			ids[i] = fmt.Sprintf("%s%05d", prefix, i)
		}
		return ids
	}
	pages := func(q adjlist.Query[adjlist.EdgeItem[Enrollment]], id func(adjlist.EdgeItem[Enrollment]) string) []string {
		var got []string
		cursor := ""
		for range n {
			page, err := q.Limit(700).Page(ctx, cursor)
			require.NoError(t, err)
			got = append(got, ids(page.Items, id)...)
			if cursor = page.Cursor; cursor == "" {
				break
			}
		}
		return got
	}
	assert.Equal(t, want("c"), pages(s.enrolled.From("a91"), edgeTo), "forward, table")
	require.NoError(t, s.enrolled.WaitIndexed(ctx, fmt.Sprintf("s%05d", n-1), "math204", 10*time.Second))
	assert.Equal(t, want("s"), pages(s.enrolled.To("math204"), edgeFrom), "reverse, index")

	var all []string
	for e, err := range s.enrolled.From("a91").Desc().All(ctx) {
		require.NoError(t, err)
		all = append(all, e.To)
	}
	rev := want("c")
	slices.Reverse(rev)
	assert.Equal(t, rev, all, "iterator over 1 MB pages, descending")
}
