package adjlist_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// stingyClient answers BatchGetItem like a throttled DynamoDB: for its
// first `stingy` calls it forwards only part of the keys and returns the
// rest as UnprocessedKeys.
type stingyClient struct {
	adjlist.Client
	stingy     int64 // calls that leave keys unprocessed; -1 = all
	keep       int   // keys forwarded per stingy call
	batchCalls atomic.Int64
}

func (c *stingyClient) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	n := c.batchCalls.Add(1)
	if c.stingy >= 0 && n > c.stingy {
		return c.Client.BatchGetItem(ctx, in, o...)
	}
	for table, ka := range in.RequestItems {
		keep := min(c.keep, len(ka.Keys))
		fwd := ka
		fwd.Keys = ka.Keys[:keep]
		out := &dynamodb.BatchGetItemOutput{Responses: map[string][]map[string]types.AttributeValue{}}
		if keep > 0 {
			var err error
			if out, err = c.Client.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: fwd}}, o...); err != nil {
				return nil, err
			}
		}
		rest := ka
		rest.Keys = ka.Keys[keep:]
		out.UnprocessedKeys = map[string]types.KeysAndAttributes{table: rest}
		return out, nil
	}
	return nil, fmt.Errorf("empty request")
}

// hydrationSchool is a KEYS_ONLY school whose client can withhold keys.
func hydrationSchool(t *testing.T, stingy *stingyClient, backoff retry.BackoffDelayer, maxAttempts int) *school {
	t.Helper()
	db := ddbtest.Client(t)
	s := &school{db: db, calls: &countingClient{Client: db}}
	stingy.Client = s.calls
	s.table = adjlist.NewTable(stingy, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.BatchBackoff, o.BatchMaxAttempts = backoff, maxAttempts
	})
	require.NoError(t, adjlist.CreateTable(context.Background(), db, s.table, func(o *adjlist.CreateTableOptions) {
		o.Projection = types.ProjectionTypeKeysOnly
	}))
	dropOnCleanup(t, db, s.table.Name())
	s.students = adjlist.NewNode[Student](s.table, "STU", "PROFILE")
	s.courses = adjlist.NewNode[Course](s.table, "CRS", "METADATA")
	s.enrolled = adjlist.NewEdge[Enrollment](s.students, "ENROLL", s.courses)
	return s
}

// noWait is a backoff that records its attempts and does not wait.
type noWait struct{ attempts []int }

func (b *noWait) BackoffDelay(attempt int, _ error) (time.Duration, error) {
	b.attempts = append(b.attempts, attempt)
	return 0, nil
}

func rosterOf(t *testing.T, s *school, n int) []adjlist.EdgeItem[Enrollment] {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		require.NoError(t, s.enrolled.Put(ctx, fmt.Sprintf("s%03d", i), "math204", Enrollment{Grade: fmt.Sprint(i)}))
	}
	var roster []adjlist.EdgeItem[Enrollment]
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		var err error
		roster, err = s.enrolled.To("math204").Collect(ctx)
		require.NoError(c, err)
		require.Len(c, roster, n)
	}, 5*time.Second, 20*time.Millisecond)
	for _, e := range roster {
		require.Zero(t, e.Data, "KEYS_ONLY index returns ids only")
	}
	return roster
}

func TestHydrateKeysOnly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		stingy       int64
		keep         int
		wantRequests int64
		wantBackoffs []int
	}{
		{"all processed, two chunks of ≤100", 0, 0, 2, nil},
		{"unprocessed keys resent with backoff", 3, 30, 2 + 3, []int{1, 2, 3}}, // 100 → 70 → 40 → 10 → 0, then 50
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			backoff := &noWait{}
			stingy := &stingyClient{stingy: tt.stingy, keep: tt.keep}
			s := hydrationSchool(t, stingy, backoff, 10)
			roster := rosterOf(t, s, 150)

			full, err := s.enrolled.Hydrate(context.Background(), roster)
			require.NoError(t, err)
			require.Len(t, full, 150)
			for i, e := range full {
				assert.Equal(t, roster[i].From, e.From, "order kept")
				assert.Equal(t, "math204", e.To)
				assert.Equal(t, fmt.Sprint(i), e.Data.Grade)
			}
			assert.Equal(t, tt.wantRequests, stingy.batchCalls.Load())
			assert.Equal(t, tt.wantBackoffs, backoff.attempts)
		})
	}
}

func TestHydrateGivesUpAtTheBound(t *testing.T) {
	t.Parallel()
	stingy := &stingyClient{stingy: -1, keep: 0}
	s := hydrationSchool(t, stingy, &noWait{}, 4)
	roster := rosterOf(t, s, 3)
	_, err := s.enrolled.Hydrate(context.Background(), roster)
	require.ErrorIs(t, err, adjlist.ErrUnprocessed)
	assert.Equal(t, int64(4), stingy.batchCalls.Load(), "BatchMaxAttempts requests, no more")
}

func TestHydrateStopsOnCancelDuringBackoff(t *testing.T) {
	t.Parallel()
	stingy := &stingyClient{stingy: -1, keep: 1}
	forever := retry.BackoffDelayerFunc(func(int, error) (time.Duration, error) { return time.Hour, nil })
	s := hydrationSchool(t, stingy, forever, 10)
	roster := rosterOf(t, s, 3)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for stingy.batchCalls.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	start := time.Now()
	_, err := s.enrolled.Hydrate(ctx, roster)
	require.ErrorIs(t, err, context.Canceled)
	assert.Less(t, time.Since(start), time.Minute, "returns without waiting out the backoff")
	assert.Equal(t, int64(1), stingy.batchCalls.Load(), "no request after cancel")
}

func TestHydrateSkipsDeletedAndDuplicates(t *testing.T) {
	t.Parallel()
	stingy := &stingyClient{stingy: 0}
	s := hydrationSchool(t, stingy, &noWait{}, 10)
	roster := rosterOf(t, s, 3)
	require.NoError(t, s.enrolled.Delete(context.Background(), roster[1].From, "math204"))
	full, err := s.enrolled.Hydrate(context.Background(), append(roster, roster[0]))
	require.NoError(t, err)
	assert.Equal(t, []string{"s000", "s002", "s000"}, ids(full, edgeFrom))
	assert.Equal(t, "0", full[2].Data.Grade)
	assert.Equal(t, int64(1), stingy.batchCalls.Load())
}

func TestNodeGetMany(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	seedSchool(t, s)
	ctx := context.Background()
	got, err := s.students.GetMany(ctx, []string{"a91", "zz", "b30", "a91"})
	require.NoError(t, err)
	ada, bo := Student{Name: "Ada", Year: 2, Major: "Math"}, Student{Name: "Bo", Year: 1, Major: "CS"}
	assert.Equal(t, []adjlist.NodeItem[Student]{{ID: "a91", Data: ada}, {ID: "b30", Data: bo}, {ID: "a91", Data: ada}}, got,
		"in the order of the ids given, the missing one left out, the one given twice twice")

	before := s.calls.total()
	_, err = s.students.GetMany(ctx, []string{"a91", ""})
	require.ErrorIs(t, err, adjlist.ErrInvalidKey)
	assert.Equal(t, before, s.calls.total())
}

// TestGetManyTwiceMapData: an item asked for twice is read once and
// decoded twice, each copy whole and without the key attributes, for
// data that is a map (whose decode drops the keys from the item read)
// on every handle's batch read.
func TestGetManyTwiceMapData(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	type data = map[string]any
	users := adjlist.NewNode[data](s.table, "USR", "PROFILE")
	notes := adjlist.NewCollection[data](users, "NOTE")
	follows := adjlist.NewEdge[data](users, "FOLLOWS", users)
	tags := adjlist.NewEntity[data](s.table, "tag", "TAG#{tag}", "USR#{user}")
	want := data{"name": "Ada"}
	require.NoError(t, users.Put(ctx, "u1", want))
	require.NoError(t, notes.Put(ctx, "u1", "n1", want))
	require.NoError(t, follows.Put(ctx, "u1", "u2", want))
	require.NoError(t, tags.Put(ctx, adjlist.IDs{"go", "u1"}, want))

	nodes, err := users.GetMany(ctx, []string{"u1", "u1"})
	require.NoError(t, err)
	require.Len(t, nodes, 2)
	children, err := notes.GetMany(ctx, []adjlist.Child[data]{{Parent: "u1", ID: "n1"}, {Parent: "u1", ID: "n1"}})
	require.NoError(t, err)
	require.Len(t, children, 2)
	edges, err := follows.Hydrate(ctx, []adjlist.EdgeItem[data]{{From: "u1", To: "u2"}, {From: "u1", To: "u2"}})
	require.NoError(t, err)
	require.Len(t, edges, 2)
	items, err := tags.GetMany(ctx, []adjlist.IDs{{"go", "u1"}, {"go", "u1"}})
	require.NoError(t, err)
	require.Len(t, items, 2)
	for i := range 2 {
		assert.Equal(t, adjlist.NodeItem[data]{ID: "u1", Data: want}, nodes[i])
		assert.Equal(t, adjlist.Child[data]{Parent: "u1", ID: "n1", Data: want}, children[i])
		assert.Equal(t, adjlist.EdgeItem[data]{From: "u1", To: "u2", Data: want}, edges[i])
		assert.Equal(t, adjlist.EntityItem[data]{IDs: adjlist.IDs{"go", "u1"}, Data: want}, items[i])
	}
}
