package adjlist_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// stingyWriter forwards only `keep` items of each BatchWriteItem for its
// first `stingy` calls (-1: all calls) and returns the rest as
// UnprocessedItems, as a throttled DynamoDB does.
type stingyWriter struct {
	adjlist.Client
	stingy int64
	keep   int
	calls  atomic.Int64
}

func (c *stingyWriter) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	n := c.calls.Add(1)
	if c.stingy >= 0 && n > c.stingy {
		return c.Client.BatchWriteItem(ctx, in, o...)
	}
	for table, reqs := range in.RequestItems {
		keep := min(c.keep, len(reqs))
		if keep > 0 {
			if _, err := c.Client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs[:keep]}}, o...); err != nil {
				return nil, err
			}
		}
		return &dynamodb.BatchWriteItemOutput{UnprocessedItems: map[string][]types.WriteRequest{table: reqs[keep:]}}, nil
	}
	return &dynamodb.BatchWriteItemOutput{}, nil
}

func bulkSchool(t *testing.T, w *stingyWriter, backoff *noWait, maxAttempts int) *school {
	t.Helper()
	base := newSchool(t)
	w.Client = base.calls
	s := *base
	s.table = adjlist.NewTable(w, base.table.Name(), func(o *adjlist.Options) {
		o.BatchBackoff, o.BatchMaxAttempts = backoff, maxAttempts
	})
	s.students = adjlist.NewNode[Student](s.table, "STU", "PROFILE")
	s.courses = adjlist.NewNode[Course](s.table, "CRS", "METADATA")
	s.enrolled = adjlist.NewEdge[Enrollment](s.students, "ENROLL", s.courses)
	return &s
}

func roster(n int, grade string) []adjlist.EdgeItem[Enrollment] {
	edges := make([]adjlist.EdgeItem[Enrollment], n)
	for i := range edges {
		edges[i] = adjlist.EdgeItem[Enrollment]{From: fmt.Sprintf("s%04d", i), To: "math204", Data: Enrollment{Grade: grade}}
	}
	return edges
}

func TestPutMany(t *testing.T) {
	t.Parallel()
	w := &stingyWriter{stingy: 0}
	s := bulkSchool(t, w, &noWait{}, 10)
	ctx := context.Background()
	var mu sync.Mutex
	var progress []int
	res, err := s.enrolled.PutMany(ctx, roster(1000, "A"), func(o *adjlist.BulkOptions) {
		o.Workers = 8
		o.Progress = func(written, total int) {
			mu.Lock()
			defer mu.Unlock()
			assert.Equal(t, 1000, total)
			progress = append(progress, written)
		}
	})
	require.NoError(t, err)
	assert.Equal(t, adjlist.BulkResult{Written: 1000, Requests: 40}, res)
	assert.Equal(t, int64(40), w.calls.Load(), "25 items per request")
	require.Len(t, progress, 40)
	assert.IsIncreasing(t, progress)
	assert.Equal(t, 1000, progress[39])
	require.NoError(t, s.enrolled.WaitIndexed(ctx, "s0999", "math204", 5*time.Second))
	n, err := s.enrolled.To("math204").Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1000, n)

	// No condition: a bulk put overwrites.
	res, err = s.enrolled.PutMany(ctx, roster(1, "F"))
	require.NoError(t, err)
	assert.Equal(t, 1, res.Written)
	got, err := s.enrolled.Get(ctx, "s0000", "math204")
	require.NoError(t, err)
	assert.Equal(t, "F", got.Grade)

	res, err = s.enrolled.DeleteMany(ctx, append(roster(1000, ""), adjlist.EdgeItem[Enrollment]{From: "nobody", To: "math204"}))
	require.NoError(t, err)
	assert.Equal(t, 1001, res.Written)
	n, err = s.enrolled.From("s0500").Count(ctx)
	require.NoError(t, err)
	assert.Zero(t, n)
}

func TestPutManyUnprocessed(t *testing.T) {
	t.Parallel()
	t.Run("resent until written", func(t *testing.T) {
		backoff := &noWait{}
		w := &stingyWriter{stingy: 3, keep: 10}
		s := bulkSchool(t, w, backoff, 10)
		res, err := s.enrolled.PutMany(context.Background(), roster(25, "A"))
		require.NoError(t, err)
		assert.Equal(t, 25, res.Written)
		assert.Equal(t, int64(3), w.calls.Load(), "25 → 15 → 5 → 0")
		assert.Equal(t, 3, res.Requests, "resends counted")
		assert.Equal(t, []int{1, 2}, backoff.attempts)
	})
	t.Run("what is left is returned, never dropped", func(t *testing.T) {
		w := &stingyWriter{stingy: -1, keep: 5}
		s := bulkSchool(t, w, &noWait{}, 3)
		res, err := s.enrolled.PutMany(context.Background(), roster(30, "A"))
		require.ErrorIs(t, err, adjlist.ErrUnprocessed)
		// Batch 1: 25 → 20 → 15 → 10 left; batch 2: 5 → 0.
		assert.Equal(t, 20, res.Written)
		require.Len(t, res.Unwritten, 10)
		for _, k := range res.Unwritten {
			assert.True(t, strings.HasPrefix(k.PK, "STU#s00"), k.PK)
			_, err := s.enrolled.Get(context.Background(), strings.TrimPrefix(k.PK, "STU#"), "math204")
			require.ErrorIs(t, err, adjlist.ErrNotFound, "listed as unwritten and indeed not written")
		}
	})
}

func TestPutManyRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	w := &stingyWriter{stingy: 0}
	s := bulkSchool(t, w, &noWait{}, 10)
	ctx := context.Background()
	notes := adjlist.NewEdge[note](s.students, "NOTE", s.courses)
	tests := []struct {
		name string
		call func() error
		want error
	}{
		{"duplicate keys", func() error {
			_, err := s.enrolled.PutMany(ctx, append(roster(30, "A"), roster(1, "B")...))
			return err
		}, adjlist.ErrDuplicateKey},
		{"bad id", func() error {
			_, err := s.enrolled.PutMany(ctx, append(roster(30, "A"), adjlist.EdgeItem[Enrollment]{From: "", To: "x"}))
			return err
		}, adjlist.ErrInvalidKey},
		{"item too large", func() error {
			_, err := notes.PutMany(ctx, []adjlist.EdgeItem[note]{{From: "a", To: "b", Data: note{Note: strings.Repeat("x", maxItemSize)}}})
			return err
		}, adjlist.ErrItemTooLarge},
		{"duplicate deletes", func() error {
			_, err := s.enrolled.DeleteMany(ctx, append(roster(2, ""), roster(1, "")...))
			return err
		}, adjlist.ErrDuplicateKey},
		{"no workers", func() error {
			_, err := s.enrolled.PutMany(ctx, roster(1, "A"), func(o *adjlist.BulkOptions) { o.Workers = 0 })
			return err
		}, adjlist.ErrInvalidOption},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := w.calls.Load()
			require.ErrorIs(t, tt.call(), tt.want)
			assert.Equal(t, before, w.calls.Load(), "no request sent")
		})
	}
}

func TestCollectionPutMany(t *testing.T) {
	t.Parallel()
	s := newTenancy(t)
	ctx := context.Background()
	children := make([]adjlist.Child[Project], 60)
	for i := range children {
		id := fmt.Sprintf("2026-%04d", i+1)
		children[i] = adjlist.Child[Project]{Parent: "acme", ID: id, Data: Project{Title: id}}
	}
	res, err := s.projects.PutMany(ctx, children)
	require.NoError(t, err)
	assert.Equal(t, 60, res.Written)
	newest, err := s.projects.List("acme").Desc().Limit(1).Page(ctx, "")
	require.NoError(t, err)
	assert.Equal(t, "2026-0060", newest.Items[0].ID)
}

// Node.PutMany writes node items 25 per BatchWriteItem, overwriting, with
// the tracking of a create; bad ids and duplicates fail before any request.
func TestNodePutMany(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	tracked := adjlist.NewNode[Student](s.table, "STU", "PROFILE", func(o *adjlist.NodeOptions) {
		o.Tracking = adjlist.Tracking{Version: "version"}
	})
	nodes := make([]adjlist.NodeItem[Student], 60)
	for i := range nodes {
		nodes[i] = adjlist.NodeItem[Student]{ID: fmt.Sprintf("s%02d", i), Data: Student{Name: fmt.Sprint(i)}}
	}
	require.NoError(t, s.students.Put(ctx, "s00", Student{Name: "old"}))
	before := s.calls.total()
	res, err := tracked.PutMany(ctx, nodes)
	require.NoError(t, err)
	assert.Equal(t, 60, res.Written)
	assert.Empty(t, res.Unwritten)
	assert.Equal(t, before, s.calls.total(), "BatchWriteItem only (not in total)")
	got, err := s.students.Get(ctx, "s00")
	require.NoError(t, err)
	assert.Equal(t, "0", got.Name, "overwritten")
	out, err := s.db.GetItem(ctx, getInput(s.table.Name(), "STU#s59", "PROFILE"))
	require.NoError(t, err)
	assert.Equal(t, &types.AttributeValueMemberN{Value: "1"}, out.Item["version"])

	for name, bad := range map[string][]adjlist.NodeItem[Student]{
		"empty id":  {{ID: ""}},
		"duplicate": {{ID: "a"}, {ID: "a"}},
	} {
		_, err := tracked.PutMany(ctx, bad)
		assert.True(t, errors.Is(err, adjlist.ErrInvalidKey) || errors.Is(err, adjlist.ErrDuplicateKey), "%s: %v", name, err)
	}
}
