package adjlist_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// Ticket is a child whose layout changes under a live table.
type Ticket struct {
	Status    *string `dynamodbav:"status"`
	CreatedAt string  `dynamodbav:"createdAt"`
	Stars     int     `dynamodbav:"stars"`
}

func TestScanByItemType(t *testing.T) {
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	var edges []adjlist.EdgeItem[Enrollment]
	for i := range 300 {
		edges = append(edges, adjlist.EdgeItem[Enrollment]{From: fmt.Sprintf("s%03d", i), To: fmt.Sprintf("c%d", i%7), Data: Enrollment{Grade: "B"}})
	}
	_, err := enrolled.PutMany(ctx, edges)
	require.NoError(t, err)
	for i := range 50 {
		require.NoError(t, students.Put(ctx, fmt.Sprintf("s%03d", i), Student{Name: "x"}))
	}

	var mu sync.Mutex
	seen := map[string]int{}
	var last adjlist.ScanProgress
	pos, err := adjlist.Scan(ctx, db, enrolled, func(_ context.Context, e adjlist.EdgeItem[Enrollment]) error {
		mu.Lock()
		defer mu.Unlock()
		seen[e.From+"→"+e.To]++
		assert.Equal(t, "B", e.Data.Grade)
		return nil
	}, func(o *adjlist.ScanOptions) {
		o.Segments, o.Limit = 3, 40
		o.Progress = func(p adjlist.ScanProgress) { last = p }
	})
	require.NoError(t, err)
	assert.Empty(t, pos)
	assert.Len(t, seen, 300, "every edge, and nothing else")
	assert.Equal(t, 300, last.Matched)
	assert.GreaterOrEqual(t, last.Scanned, 300)

	// Interrupted by fn, then resumed: every edge at least once, none lost.
	seen = map[string]int{}
	stop := errors.New("stop")
	calls := 0
	pos, err = adjlist.Scan(ctx, db, enrolled, func(_ context.Context, e adjlist.EdgeItem[Enrollment]) error {
		mu.Lock()
		defer mu.Unlock()
		if calls++; calls == 150 {
			return stop
		}
		seen[e.From+"→"+e.To]++
		return nil
	}, func(o *adjlist.ScanOptions) { o.Segments, o.Limit = 3, 40 })
	require.ErrorIs(t, err, stop)
	require.NotEmpty(t, pos)
	_, err = adjlist.Scan(ctx, db, enrolled, func(_ context.Context, e adjlist.EdgeItem[Enrollment]) error {
		mu.Lock()
		defer mu.Unlock()
		seen[e.From+"→"+e.To]++
		return nil
	}, func(o *adjlist.ScanOptions) { o.Segments, o.Limit, o.From = 3, 40, pos })
	require.NoError(t, err)
	assert.Len(t, seen, 300)

	// Nodes: only the node items.
	n := 0
	_, err = adjlist.Scan(ctx, db, students, func(context.Context, adjlist.NodeItem[Student]) error { mu.Lock(); n++; mu.Unlock(); return nil })
	require.NoError(t, err)
	assert.Equal(t, 50, n)

	for name, opt := range map[string]func(*adjlist.ScanOptions){
		"bad position":   func(o *adjlist.ScanOptions) { o.From = "x" },
		"other segments": func(o *adjlist.ScanOptions) { o.From, o.Segments = pos, 5 },
		"zero segments":  func(o *adjlist.ScanOptions) { o.Segments = 0 },
		"negative limit": func(o *adjlist.ScanOptions) { o.Limit = -1 },
	} {
		t.Run(name, func(t *testing.T) {
			_, err := adjlist.Scan(ctx, (*dynamodb.Client)(nil), enrolled, func(context.Context, adjlist.EdgeItem[Enrollment]) error { return nil }, opt)
			require.Error(t, err)
			assert.True(t, errors.Is(err, adjlist.ErrInvalidCursor) || errors.Is(err, adjlist.ErrInvalidOption), err)
		})
	}
}

// 20,000 children get a new index's keys while 4 writers keep updating
// them; the migration is interrupted twice and resumed. Afterwards every
// item is in the new layout, no acknowledged user write was lost, and no
// item is missing.
func TestMigrateLiveTable(t *testing.T) {
	t.Parallel() // the longest test: let the others run beside it
	const items, workspaces = 20000, 40
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	ddbtest.CreateTable(t, table)
	ws := adjlist.NewNode[Space](table, "WS", "META")
	oldLayout := adjlist.NewCollection[Ticket](ws, "TCK")
	id := func(i int) (string, string) { return fmt.Sprintf("w%02d", i%workspaces), fmt.Sprintf("t%05d", i) }
	var children []adjlist.Child[Ticket]
	for i := range items {
		w, c := id(i)
		st := []string{"OPEN", "DONE"}[i%2]
		children = append(children, adjlist.Child[Ticket]{Parent: w, ID: c, Data: Ticket{Status: &st, CreatedAt: fmt.Sprintf("2026-%05d", i)}})
	}
	res, err := oldLayout.PutMany(ctx, children, func(o *adjlist.BulkOptions) { o.Workers = 8 })
	require.NoError(t, err)
	require.Equal(t, items, res.Written)

	// The new layout: tickets by status, in GSI2.
	newLayout := adjlist.NewCollection[Ticket](ws, "TCK", func(o *adjlist.CollectionOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2",
			PartitionKey: adjlist.Compose(adjlist.Const("STATUS"), adjlist.Attr("status")),
			SortKey:      adjlist.Compose(adjlist.Attr("createdAt"))}}
	})

	// Writers: each owns the items i%4 == w and logs what it last wrote
	// and was acknowledged; a third of the writes change the status
	// (through the new layout, which keeps GSI2PK in step), the rest stars.
	type state struct {
		stars  int
		status string
	}
	acked := make([]map[int]state, 4)
	done := make(chan struct{})
	var writes atomic.Int64
	var wg sync.WaitGroup
	for w := range 4 {
		acked[w] = map[int]state{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for n := 0; ; n++ {
				select {
				case <-done:
					return
				default:
				}
				i := rng.IntN(items/4)*4 + w
				wsID, c := id(i)
				s, ok := acked[w][i]
				if !ok {
					s = state{status: []string{"OPEN", "DONE"}[i%2]}
				}
				var upd expression.UpdateBuilder
				if n%3 == 0 {
					s.status = []string{"OPEN", "DONE", "WAIT"}[rng.IntN(3)]
					upd = expression.Set(expression.Name("status"), expression.Value(s.status))
				} else {
					s.stars = n + 1
					upd = expression.Set(expression.Name("stars"), expression.Value(s.stars))
				}
				if _, err := newLayout.Update(ctx, wsID, c, upd); err != nil {
					t.Errorf("writer %d: %v", w, err)
					return
				}
				acked[w][i] = s
				writes.Add(1)
			}
		}()
	}

	// The migration, interrupted twice by its context, then completed.
	var total adjlist.MigrateResult
	pos := ""
	for run := 0; ; run++ {
		rctx, cancel := context.WithCancel(ctx)
		pages := 0
		r, err := adjlist.Migrate(rctx, db, newLayout, func(o *adjlist.ScanOptions) {
			o.Segments, o.Limit, o.From = 4, 500, pos
			o.Progress = func(adjlist.ScanProgress) {
				if pages++; run < 2 && pages == 10 {
					cancel()
				}
			}
		})
		cancel()
		total.Rewritten += r.Rewritten
		total.Retried += r.Retried
		if run < 2 {
			require.Error(t, err, "run %d interrupted", run)
			require.NotEmpty(t, r.Position)
			pos = r.Position
			continue
		}
		require.NoError(t, err)
		assert.Empty(t, r.Position)
		break
	}
	close(done)
	wg.Wait()
	t.Logf("rewritten %d, retried %d, user writes during the migration %d", total.Rewritten, total.Retried, writes.Load())
	assert.Greater(t, writes.Load(), int64(100), "writers ran during the migration")
	assert.GreaterOrEqual(t, total.Rewritten, items/2)

	// Every item: present, in the new layout, with the last acknowledged write.
	got := map[int]map[string]string{}
	pages := dynamodb.NewScanPaginator(db, &dynamodb.ScanInput{TableName: aws.String(table.Name())})
	for pages.HasMorePages() {
		out, err := pages.NextPage(ctx)
		require.NoError(t, err)
		for _, item := range out.Items {
			m := rawText(item)
			var i int
			_, err := fmt.Sscanf(m["SK"], "TCK#t%05d", &i)
			require.NoError(t, err)
			got[i] = m
		}
	}
	require.Len(t, got, items, "no item missing")
	for i, m := range got {
		want := state{status: []string{"OPEN", "DONE"}[i%2]}
		if s, ok := acked[i%4][i]; ok {
			want = s
		}
		if !assert.Equal(t, want.status, m["status"], "item %d status", i) ||
			!assert.Equal(t, fmt.Sprint(want.stars), m["stars"], "item %d stars", i) ||
			!assert.Equal(t, "STATUS#"+m["status"], m["GSI2PK"], "item %d in the new layout", i) ||
			!assert.Equal(t, m["createdAt"], m["GSI2SK"], "item %d", i) {
			break
		}
	}

	// A second run finds nothing to rewrite.
	again, err := adjlist.Migrate(ctx, db, newLayout)
	require.NoError(t, err)
	assert.Zero(t, again.Rewritten)
	assert.Equal(t, items, again.Matched)
}

// Re-sharding: edges written unsharded are moved to 4 index partitions
// by Migrate, after which the sharded handle reads them all.
func TestMigrateReshardsEdges(t *testing.T) {
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	before := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	for i := range 60 {
		require.NoError(t, before.Put(ctx, fmt.Sprintf("s%02d", i), "math204", Enrollment{Grade: "B"}))
	}
	after := adjlist.NewEdge[Enrollment](students, "ENROLL", courses, func(o *adjlist.EdgeOptions) { o.Shards = 4 })
	n, err := after.To("math204").Count(ctx)
	require.NoError(t, err)
	require.Zero(t, n, "not found under the new shard count until rewritten")

	res, err := adjlist.Migrate(ctx, db, after)
	require.NoError(t, err)
	assert.Equal(t, 60, res.Rewritten)
	require.Eventually(t, func() bool {
		n, err := after.To("math204").Count(ctx)
		require.NoError(t, err)
		return n == 60
	}, 5*time.Second, 20*time.Millisecond)
	out, err := db.GetItem(ctx, getInput(table.Name(), "STU#s07", "ENROLL#CRS#math204"))
	require.NoError(t, err)
	assert.Regexp(t, `^CRS#math204#0[0-3]$`, rawText(out.Item)["GSI1PK"])
	again, err := adjlist.Migrate(ctx, db, after)
	require.NoError(t, err)
	assert.Zero(t, again.Rewritten)
}
