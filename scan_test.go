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

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/internal/testsize"
)

// Ticket is a child whose layout changes under a live table.
type Ticket struct {
	Status    *string `dynamodbav:"status"`
	CreatedAt string  `dynamodbav:"createdAt"`
	Stars     int     `dynamodbav:"stars"`
}

func TestScanByItemType(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newSchool(t)
	db, students, enrolled := s.db, s.students, s.enrolled
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
		"bad position":      func(o *adjlist.ScanOptions) { o.From = "x" },
		"other segments":    func(o *adjlist.ScanOptions) { o.From, o.Segments = pos, 5 },
		"negative segments": func(o *adjlist.ScanOptions) { o.Segments = -1 },
		"negative limit":    func(o *adjlist.ScanOptions) { o.Limit = -1 },
	} {
		t.Run(name, func(t *testing.T) {
			_, err := adjlist.Scan(ctx, db, enrolled, func(context.Context, adjlist.EdgeItem[Enrollment]) error { return nil }, opt)
			require.Error(t, err)
			assert.True(t, errors.Is(err, adjlist.ErrInvalidCursor) || errors.Is(err, adjlist.ErrInvalidOption), err)
		})
	}
}

// 20,000 children (stress tier only: the writers run flat out for as long
// as the migration takes) get a new index's keys while 4 writers keep
// updating them; the migration is interrupted twice and resumed.
// Afterwards every
// item is in the new layout, no acknowledged user write was lost, and no
// item is missing.
func TestMigrateLiveTable(t *testing.T) {
	testsize.StressOnly(t)
	t.Parallel() // the longest test: let the others run beside it
	items, workspaces := 20000, 40
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
			PartitionKey: adjlist.Template("STATUS#{status}"),
			SortKey:      adjlist.Template("{createdAt}")}}
	})

	// Writers: each owns the items i%4 == w and logs what it last wrote
	// and was acknowledged; a third of the writes change the status
	// (through the new layout, which keeps GSI2PK in step), the rest stars.
	writers := liveWriters(t, 7, func(w, n int, rng *rand.Rand, acked map[int]ackedState) (int, ackedState, error) {
		i := rng.IntN(items/4)*4 + w
		wsID, c := id(i)
		s, ok := acked[i]
		if !ok {
			s = ackedState{status: []string{"OPEN", "DONE"}[i%2]}
		}
		var upd adjlist.Update
		if n%3 == 0 {
			s.status = []string{"OPEN", "DONE", "WAIT"}[rng.IntN(3)]
			upd = adjlist.Set("status", s.status)
		} else {
			s.stars = n + 1
			upd = adjlist.Set("stars", s.stars)
		}
		_, err := newLayout.Update(ctx, wsID, c, upd)
		return i, s, err
	})

	// The migration, interrupted twice by its context, then completed.
	var total adjlist.MigrateResult
	// Pages of items/40 per segment: 10 pages are a quarter of the table,
	// so each of the first two runs is cut short at any size.
	for _, r := range migrateInterrupted(t, ctx, db, newLayout, 4, int32(items/40), 10) {
		total.Rewritten += r.Rewritten
		total.Retried += r.Retried
	}
	acked, writes := writers.stop()
	t.Logf("rewritten %d, retried %d, user writes during the migration %d", total.Rewritten, total.Retried, writes)
	assert.Greater(t, writes, int64(100), "writers ran during the migration")
	assert.GreaterOrEqual(t, total.Rewritten, items/2)

	// Every item: present, in the new layout, with the last acknowledged write.
	got := map[int]map[string]string{}
	for _, m := range rawItems(t, db, table.Name()) {
		var i int
		_, err := fmt.Sscanf(m["SK"], "TCK#t%05d", &i)
		require.NoError(t, err)
		got[i] = m
	}
	require.Len(t, got, items, "no item missing")
	for i, m := range got {
		want := ackedState{status: []string{"OPEN", "DONE"}[i%2]}
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
	t.Parallel()
	ctx := context.Background()
	s := newSchool(t)
	db, table, before := s.db, s.table, s.enrolled
	for i := range 60 {
		require.NoError(t, before.Put(ctx, fmt.Sprintf("s%02d", i), "math204", Enrollment{Grade: "B"}))
	}
	after := adjlist.NewEdge[Enrollment](s.students, "ENROLL", s.courses, func(o *adjlist.EdgeOptions) { o.Shards = 4 })
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
	}, waitIndex, 20*time.Millisecond)
	out, err := db.GetItem(ctx, getInput(table.Name(), "STU#s07", "ENROLL#CRS#math204"))
	require.NoError(t, err)
	assert.Regexp(t, `^CRS#math204#0[0-3]$`, rawText(out.Item)["GSI1PK"])
	again, err := adjlist.Migrate(ctx, db, after)
	require.NoError(t, err)
	assert.Zero(t, again.Rewritten)
}

// ackedState is what a live-migration writer last wrote to a child and
// had acknowledged.
type ackedState struct {
	stars  int
	status string
}

// writerPool is the user writers of a live migration; see [liveWriters].
type writerPool struct {
	done   chan struct{}
	once   sync.Once
	wg     sync.WaitGroup
	acked  []map[int]ackedState
	writes atomic.Int64
}

// liveWriters starts 4 writers that run until stop (or the end of the
// test). Writer w owns the children i%4 == w: its nth call of write (n
// counts from 0) writes one of them, given what the writer logged for each
// so far, and returns the child's i and what was written; an error fails
// the test and ends that writer. stop waits for the writers and returns
// each one's log of acknowledged writes by i, and their number.
func liveWriters(t *testing.T, seed uint64, write func(w, n int, rng *rand.Rand, acked map[int]ackedState) (int, ackedState, error)) *writerPool {
	t.Helper()
	ws := &writerPool{done: make(chan struct{}), acked: make([]map[int]ackedState, 4)}
	for w := range 4 {
		ws.acked[w] = map[int]ackedState{}
		ws.wg.Add(1)
		go func() {
			defer ws.wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), seed))
			for n := 0; ; n++ {
				select {
				case <-ws.done:
					return
				default:
				}
				i, s, err := write(w, n, rng, ws.acked[w])
				if err != nil {
					t.Errorf("writer %d: child %d: %v", w, i, err)
					return
				}
				ws.acked[w][i] = s
				ws.writes.Add(1)
			}
		}()
	}
	t.Cleanup(func() { ws.stop() }) // a failed require must not leave them running
	return ws
}

func (ws *writerPool) stop() ([]map[int]ackedState, int64) {
	ws.once.Do(func() { close(ws.done) })
	ws.wg.Wait()
	return ws.acked, ws.writes.Load()
}

// migrateInterrupted runs Migrate of h with segments and limit three
// times, each from the position where the last stopped: runs 0 and 1 are
// cancelled through their context at their page cancelAt and must fail
// with context.Canceled and a position to resume from; run 2 must
// complete. It returns the three results.
func migrateInterrupted[T any](t *testing.T, ctx context.Context, db adjlist.Client, h adjlist.Scannable[T], segments int, limit int32, cancelAt int) []adjlist.MigrateResult {
	t.Helper()
	var runs []adjlist.MigrateResult
	pos := ""
	for run := range 3 {
		rctx, cancel := context.WithCancel(ctx)
		pages := 0
		r, err := adjlist.Migrate(rctx, db, h, func(o *adjlist.ScanOptions) {
			o.Segments, o.Limit, o.From = segments, limit, pos
			o.Progress = func(adjlist.ScanProgress) {
				if pages++; run < 2 && pages == cancelAt {
					cancel()
				}
			}
		})
		cancel()
		runs = append(runs, r)
		if run < 2 {
			require.Error(t, err, "run %d interrupted", run)
			require.ErrorIs(t, err, context.Canceled, "run %d", run)
			require.NotEmpty(t, r.Position, "run %d", run)
			pos = r.Position
			continue
		}
		require.NoError(t, err)
		assert.Empty(t, r.Position)
	}
	return runs
}

// A walk of a table or index under 1 MB makes one request by default:
// Scan and Migrate default to one segment, Verify to four; a zero
// Segments set by an option function is the default too, and a walk
// resumed from a position without Segments takes the position's count.
func TestScanSmallMakesOneRequest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newGaming(t)
	for i := range 5 {
		item := playerItem{ItemName: "Potion"}
		if i%2 == 0 {
			item.Flagged = "yes"
		}
		require.NoError(t, g.items.Put(ctx, adjlist.IDs{"p1", fmt.Sprint(i)}, item))
	}
	for _, c := range []struct {
		name  string
		walk  func() error
		scans int64
	}{
		{"Scan", func() error {
			_, err := adjlist.Scan(ctx, g.calls, g.items, func(context.Context, adjlist.EntityItem[playerItem]) error { return nil })
			return err
		}, 1},
		{"Scan of an index", func() error {
			n := 0
			_, err := adjlist.Scan(ctx, g.calls, g.items, func(context.Context, adjlist.EntityItem[playerItem]) error {
				n++
				return nil
			}, func(o *adjlist.ScanOptions) { o.Index = "GSI1" })
			assert.Equal(t, 3, n, "the flagged items")
			return err
		}, 1},
		{"Scan, Segments 0", func() error {
			_, err := adjlist.Scan(ctx, g.calls, g.items, func(context.Context, adjlist.EntityItem[playerItem]) error { return nil },
				func(o *adjlist.ScanOptions) { o.Segments = 0 })
			return err
		}, 1},
		{"Migrate", func() error { _, err := adjlist.Migrate(ctx, g.calls, g.items); return err }, 1},
		{"Verify", func() error { _, err := adjlist.Verify(ctx, g.calls, g.table); return err }, 4},
		{"Verify, Segments 1", func() error {
			_, err := adjlist.Verify(ctx, g.calls, g.table, func(o *adjlist.ScanOptions) { o.Segments = 1 })
			return err
		}, 1},
	} {
		before := g.calls.scans.Load()
		require.NoError(t, c.walk(), c.name)
		assert.Equal(t, c.scans, g.calls.scans.Load()-before, c.name)
	}

	// A position of three segments, resumed without Segments.
	stop := errors.New("stop")
	seen := map[string]int{}
	var mu sync.Mutex
	fn := func(_ context.Context, it adjlist.EntityItem[playerItem]) error {
		mu.Lock()
		defer mu.Unlock()
		if len(seen) == 2 {
			return stop
		}
		seen[it.IDs[1]]++
		return nil
	}
	pos, err := adjlist.Scan(ctx, g.db, g.items, fn, func(o *adjlist.ScanOptions) { o.Segments, o.Limit = 3, 1 })
	require.ErrorIs(t, err, stop)
	require.NotEmpty(t, pos)
	pos, err = adjlist.Scan(ctx, g.db, g.items, func(_ context.Context, it adjlist.EntityItem[playerItem]) error {
		mu.Lock()
		defer mu.Unlock()
		seen[it.IDs[1]]++
		return nil
	}, func(o *adjlist.ScanOptions) { o.From = pos })
	require.NoError(t, err)
	assert.Empty(t, pos)
	assert.Len(t, seen, 5, "the rest delivered")
}

// Bad arguments to Scan and Migrate are refused with ErrInvalidOption in
// an OpError, before any request, and never panic.
func TestScanAndMigrateRefuseNilArguments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	calls := &countingClient{Client: noScanClient{}}
	table := adjlist.NewTable(calls, "t")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	none := func(context.Context, adjlist.NodeItem[Student]) error { return nil }
	var (
		nilClient *dynamodb.Client
		nilNode   *adjlist.Node[Student]
		nilTable  *adjlist.Table
	)
	for _, c := range []struct {
		name string
		op   string
		call func() error
	}{
		{"Scan nil client", "Scan", func() error { _, err := adjlist.Scan(ctx, nil, students, none); return err }},
		{"Scan typed nil client", "Scan", func() error { _, err := adjlist.Scan(ctx, nilClient, students, none); return err }},
		{"Scan nil handle", "Scan", func() error { _, err := adjlist.Scan(ctx, calls, nilNode, none); return err }},
		{"Scan nil table", "Scan", func() error {
			_, err := adjlist.Scan(ctx, calls, nilTable, func(context.Context, adjlist.TypedItem) error { return nil })
			return err
		}},
		{"Scan nil fn", "Scan", func() error { _, err := adjlist.Scan(ctx, calls, students, nil); return err }},
		{"Scan nil option", "Scan", func() error { _, err := adjlist.Scan(ctx, calls, students, none, nil); return err }},
		{"Migrate nil client", "Migrate", func() error { _, err := adjlist.Migrate(ctx, nil, students); return err }},
		{"Migrate typed nil client", "Migrate", func() error { _, err := adjlist.Migrate(ctx, nilClient, students); return err }},
		{"Migrate nil handle", "Migrate", func() error { _, err := adjlist.Migrate(ctx, calls, nilNode); return err }},
		{"Migrate nil option", "Migrate", func() error { _, err := adjlist.Migrate(ctx, calls, students, nil); return err }},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
			var oe *adjlist.OpError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, c.op, oe.Op)
		})
	}
	assert.Zero(t, calls.total())
}
