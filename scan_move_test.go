package adjlist_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/internal/testsize"
)

// rawItems is every item of the table, by "PK|SK", bypassing the library.
func rawItems(t *testing.T, db *dynamodb.Client, table string) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	pages := dynamodb.NewScanPaginator(db, &dynamodb.ScanInput{TableName: aws.String(table)})
	for pages.HasMorePages() {
		page, err := pages.NextPage(context.Background())
		require.NoError(t, err)
		for _, item := range page.Items {
			m := rawText(item)
			out[m["PK"]+"|"+m["SK"]] = m
		}
	}
	return out
}

// 5,000 children (stress tier only, as TestMigrateLiveTable) move from one partition to 8
// shards while 4 writers keep read-modify-writing them by the documented
// protocol (new handle first, then the old, then the new again); the migration is interrupted twice
// and resumed. Afterwards every child is at its new key and nowhere else,
// with its last acknowledged write, and the sharded List returns them all.
func TestMigrateMovesChildrenLive(t *testing.T) {
	testsize.StressOnly(t)
	t.Parallel()
	items, workspaces := 5000, 20
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	ws := adjlist.NewNode[Space](table, "WS", "META")
	oldH := adjlist.NewCollection[Ticket](ws, "TCK")
	newH := adjlist.NewCollection[Ticket](ws, "TCK", func(o *adjlist.CollectionOptions) { o.Shards = 8 })
	id := func(i int) (string, string) { return fmt.Sprintf("w%02d", i%workspaces), fmt.Sprintf("t%05d", i) }
	var children []adjlist.Child[Ticket]
	for i := range items {
		w, c := id(i)
		st := "OPEN"
		children = append(children, adjlist.Child[Ticket]{Parent: w, ID: c, Data: Ticket{Status: &st, CreatedAt: fmt.Sprintf("2026-%05d", i)}})
	}
	put, err := oldH.PutMany(ctx, children, func(o *adjlist.BulkOptions) { o.Workers = 8 })
	require.NoError(t, err)
	require.Equal(t, items, put.Written)

	// The protocol: through the new handle, on ErrNotFound the old, on
	// ErrNotFound the new again.
	var fallbacks, thirds atomic.Int64
	both := func(f func(h *adjlist.Collection[Ticket, Space]) error) error {
		err := f(newH)
		if !errors.Is(err, adjlist.ErrNotFound) {
			return err
		}
		fallbacks.Add(1)
		if err = f(oldH); !errors.Is(err, adjlist.ErrNotFound) {
			return err
		}
		thirds.Add(1)
		return f(newH)
	}

	// Writers: each owns the children i%4 == w, reads one, increments its
	// stars on the condition that they are still the value read, sets a
	// status, and logs what was acknowledged.
	writers := liveWriters(t, 11, func(w, _ int, rng *rand.Rand, _ map[int]ackedState) (int, ackedState, error) {
		i := rng.IntN(items/4)*4 + w
		wsID, c := id(i)
		var read Ticket
		if err := both(func(h *adjlist.Collection[Ticket, Space]) (err error) {
			read, err = h.Get(ctx, wsID, c)
			return err
		}); err != nil {
			return i, ackedState{}, fmt.Errorf("read: %w", err)
		}
		s := ackedState{stars: read.Stars + 1, status: []string{"OPEN", "DONE", "WAIT"}[rng.IntN(3)]}
		upd := adjlist.Set("stars", s.stars).Set("status", s.status)
		if err := both(func(h *adjlist.Collection[Ticket, Space]) error {
			_, err := h.Update(ctx, wsID, c, upd, adjlist.If(expression.Name("stars").Equal(expression.Value(read.Stars))))
			return err
		}); err != nil {
			return i, ackedState{}, fmt.Errorf("update: %w", err)
		}
		return i, s, nil
	})

	// The migration, interrupted twice by its context, then completed.
	var total adjlist.MigrateResult
	start := time.Now()
	for run, r := range migrateInterrupted(t, ctx, db, newH, 8, int32(items/20), 3) {
		if run < 2 {
			assert.Positive(t, r.Moved, "run %d moved some", run)
		}
		total.Moved += r.Moved
		total.Rewritten += r.Rewritten
		total.Retried += r.Retried
		total.Conflicts = append(total.Conflicts, r.Conflicts...)
	}
	acked, writes := writers.stop()
	t.Logf("moved %d, retried %d in %v; user writes during the migration %d (%d through the old handle, %d after it too missed)",
		total.Moved, total.Retried, time.Since(start).Round(time.Millisecond), writes, fallbacks.Load(), thirds.Load())
	assert.Greater(t, writes, int64(100), "writers ran during the migration")
	assert.Positive(t, fallbacks.Load(), "writers met unmoved children")
	assert.Empty(t, total.Conflicts)
	assert.Zero(t, total.Rewritten, "a move is not a rewrite")
	// Each child moved once; a move whose response the cancellation cut
	// off is applied but not counted (at most one per segment per cancel).
	assert.LessOrEqual(t, total.Moved, items)
	assert.GreaterOrEqual(t, total.Moved, items-2*8)

	// Every child: at its new key only, with the last acknowledged write.
	got := rawItems(t, db, table.Name())
	require.Len(t, got, items, "no child missing, none left behind")
	for i := range items {
		w, c := id(i)
		pk, sk, err := newH.Key(w, c)
		require.NoError(t, err)
		m, ok := got[pk+"|"+sk]
		require.True(t, ok, "child %d at %s", i, pk)
		want := ackedState{status: "OPEN"}
		if s, ok := acked[i%4][i]; ok {
			want = s
		}
		if !assert.Equal(t, want.status, m["status"], "child %d status", i) ||
			!assert.Equal(t, fmt.Sprint(want.stars), m["stars"], "child %d stars", i) ||
			!assert.Equal(t, fmt.Sprintf("2026-%05d", i), m["createdAt"], "child %d", i) {
			break
		}
	}
	listed := 0
	for p := range workspaces {
		kids, err := newH.List(fmt.Sprintf("w%02d", p)).Collect(ctx)
		require.NoError(t, err)
		listed += len(kids)
	}
	assert.Equal(t, items, listed, "the sharded List finds every child")

	// A second run finds nothing to move.
	again, err := adjlist.Migrate(ctx, db, newH)
	require.NoError(t, err)
	assert.Zero(t, again.Moved)
	assert.Zero(t, again.Rewritten)
	assert.Equal(t, items, again.Matched)
}

// Children re-sharded 0 → 8 (with a new index's keys in the same write),
// 8 → 3 and 3 → 0: one TransactWriteItems per moved child, data, version
// and timestamps unchanged, other items of the partitions untouched, and
// Scan delivering old-layout children with their parent mid-way.
func TestMigrateReshardsChildren(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	ddbtest.CreateTable(t, table)
	ws := adjlist.NewNode[Space](table, "WS", "META")
	tracking := adjlist.Tracking{Version: "version", CreatedAt: "createdOn", UpdatedAt: "updatedOn"}
	byStatus := []adjlist.IndexKeys{{Index: "GSI2",
		PartitionKey: adjlist.Template("STATUS#{status}"),
		SortKey:      adjlist.Template("{@parent}#{@self}")}}
	handle := func(shards int, indexes []adjlist.IndexKeys) *adjlist.Collection[Ticket, Space] {
		return adjlist.NewCollection[Ticket](ws, "TCK", func(o *adjlist.CollectionOptions) {
			o.Shards, o.Indexes, o.Tracking = shards, indexes, tracking
		})
	}
	unsharded := handle(0, nil)
	const n = 40
	for i := range n {
		st := []string{"OPEN", "DONE"}[i%2]
		require.NoError(t, unsharded.Put(ctx, fmt.Sprintf("w%d", i%2), fmt.Sprintf("t%02d", i), Ticket{Status: &st, CreatedAt: "c", Stars: i}))
	}
	// Neighbours the moves must leave alone: the parents, another child
	// type in the same partitions, and an edge from a parent.
	require.NoError(t, ws.Put(ctx, "w0", Space{}))
	require.NoError(t, ws.Put(ctx, "w1", Space{}))
	notes := adjlist.NewCollection[Ticket](ws, "NOTE")
	require.NoError(t, notes.Put(ctx, "w0", "n1", Ticket{CreatedAt: "note"}))
	likes := adjlist.NewEdge[Enrollment](ws, "TCKLIKE", ws)
	require.NoError(t, likes.Put(ctx, "w0", "w1", Enrollment{Grade: "A"}))
	before := rawItems(t, db, table.Name())
	require.Len(t, before, n+4)

	move := func(h *adjlist.Collection[Ticket, Space]) adjlist.MigrateResult {
		t.Helper()
		calls := &countingClient{Client: db}
		res, err := adjlist.Migrate(ctx, calls, h, func(o *adjlist.ScanOptions) { o.Segments = 3 })
		require.NoError(t, err)
		assert.Equal(t, int64(res.Moved), calls.txs.Load(), "one TransactWriteItems per moved child")
		assert.Zero(t, calls.gets.Load()+calls.updates.Load())
		assert.Empty(t, res.Conflicts)
		assert.Zero(t, res.Rewritten)
		return res
	}
	check := func(h *adjlist.Collection[Ticket, Space]) {
		t.Helper()
		got := rawItems(t, db, table.Name())
		require.Len(t, got, n+4)
		for key, m := range before {
			if !strings.HasPrefix(m["SK"], "TCK#") {
				assert.Equal(t, m, got[key], "untouched: %s", key)
				continue
			}
			var i int
			_, err := fmt.Sscanf(m["SK"], "TCK#t%02d", &i)
			require.NoError(t, err)
			pk, sk, err := h.Key(fmt.Sprintf("w%d", i%2), fmt.Sprintf("t%02d", i))
			require.NoError(t, err)
			moved, ok := got[pk+"|"+sk]
			require.True(t, ok, "%s at %s", key, pk)
			for _, attr := range []string{"SK", "status", "stars", "createdAt", "version", "createdOn", "updatedOn"} {
				assert.Equal(t, m[attr], moved[attr], "%s: %s copied unchanged", key, attr)
			}
			assert.Equal(t, "STATUS#"+m["status"], moved["GSI2PK"], key)
			assert.Equal(t, fmt.Sprintf("WS#w%d#%s", i%2, sk), moved["GSI2SK"], key)
		}
		for p := range 2 {
			kids, err := h.List(fmt.Sprintf("w%d", p)).Collect(ctx)
			require.NoError(t, err)
			assert.Len(t, kids, n/2)
		}
	}

	// 0 → 8 with the index: reads through the new handle miss the
	// children until moved; Scan with it delivers them with their parent.
	eight := handle(8, byStatus)
	_, err := eight.Get(ctx, "w0", "t00")
	require.ErrorIs(t, err, adjlist.ErrNotFound)
	var mu sync.Mutex
	var scanned []string
	_, err = adjlist.Scan(ctx, db, eight, func(_ context.Context, c adjlist.Child[Ticket]) error {
		mu.Lock()
		defer mu.Unlock()
		scanned = append(scanned, c.Parent+"/"+c.ID)
		return nil
	})
	require.NoError(t, err)
	sort.Strings(scanned)
	require.Len(t, scanned, n)
	assert.Equal(t, "w0/t00", scanned[0])
	assert.Equal(t, "w1/t39", scanned[n-1])

	res := move(eight)
	assert.Equal(t, n, res.Moved)
	check(eight)
	again := move(eight)
	assert.Zero(t, again.Moved, "nothing moves twice")
	assert.Equal(t, n, again.Matched)

	// 8 → 3: only the children whose shard changes move.
	three := handle(3, byStatus)
	stay := 0
	for i := range n {
		p, c := fmt.Sprintf("w%d", i%2), fmt.Sprintf("t%02d", i)
		a, _, _ := eight.Key(p, c)
		b, _, _ := three.Key(p, c)
		if a == b {
			stay++
		}
	}
	res = move(three)
	assert.Equal(t, n-stay, res.Moved)
	check(three)

	// 3 → 0: back at the original keys, every item as it was but for the
	// index keys gained on the way.
	zero := handle(0, byStatus)
	res = move(zero)
	assert.Equal(t, n, res.Moved)
	check(zero)
	got := rawItems(t, db, table.Name())
	for _, m := range got {
		delete(m, "GSI2PK")
		delete(m, "GSI2SK")
	}
	assert.Equal(t, before, got, "the round trip restores every item")
}

// A child created at its new key while the old copy exists: Migrate keeps
// both, reports them, and moves the rest; once resolved, a run is clean.
func TestMigrateMoveConflict(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	ws := adjlist.NewNode[Space](table, "WS", "META")
	oldH := adjlist.NewCollection[Ticket](ws, "TCK", func(o *adjlist.CollectionOptions) { o.Shards = 2 })
	newH := adjlist.NewCollection[Ticket](ws, "TCK", func(o *adjlist.CollectionOptions) { o.Shards = 5 })
	// Children whose shard differs under the two counts.
	var ids []string
	for i := 0; len(ids) < 4; i++ {
		c := fmt.Sprintf("t%d", i)
		a, _, _ := oldH.Key("acme", c)
		b, _, _ := newH.Key("acme", c)
		if a != b {
			ids = append(ids, c)
		}
	}
	for _, c := range ids {
		require.NoError(t, oldH.Put(ctx, "acme", c, Ticket{CreatedAt: "old", Stars: 1}))
	}
	require.NoError(t, newH.Put(ctx, "acme", ids[0], Ticket{CreatedAt: "new", Stars: 2}))
	before := rawItems(t, db, table.Name())

	calls := &countingClient{Client: db}
	res, err := adjlist.Migrate(ctx, calls, newH)
	require.NoError(t, err)
	assert.Empty(t, res.Position)
	assert.Equal(t, 3, res.Moved)
	assert.Equal(t, int64(4), calls.txs.Load(), "the conflicting move was tried once")
	fromPK, sk, _ := oldH.Key("acme", ids[0])
	toPK, _, _ := newH.Key("acme", ids[0])
	require.Equal(t, []adjlist.MoveConflict{{From: adjlist.Key{PK: fromPK, SK: sk}, To: adjlist.Key{PK: toPK, SK: sk}}}, res.Conflicts)
	got := rawItems(t, db, table.Name())
	assert.Len(t, got, 5, "both copies kept, nothing lost")
	assert.Equal(t, before[fromPK+"|"+sk], got[fromPK+"|"+sk])
	assert.Equal(t, before[toPK+"|"+sk], got[toPK+"|"+sk])

	// A full run reports it again until resolved.
	res, err = adjlist.Migrate(ctx, db, newH)
	require.NoError(t, err)
	assert.Zero(t, res.Moved)
	assert.Len(t, res.Conflicts, 1)
	// Resolved: keep the new copy, delete the old one, run again.
	require.NoError(t, oldH.Delete(ctx, "acme", ids[0]))
	res, err = adjlist.Migrate(ctx, db, newH)
	require.NoError(t, err)
	assert.Empty(t, res.Conflicts)
	assert.Zero(t, res.Moved)
	kids, err := newH.List("acme").Collect(ctx)
	require.NoError(t, err)
	assert.Len(t, kids, 4)
}

// A move that finds the old child changed reads it again and moves what
// is stored; one that finds it deleted passes it over.
func TestMigrateMoveRace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	ws := adjlist.NewNode[Space](table, "WS", "META")
	oldH := adjlist.NewCollection[Ticket](ws, "TCK")
	newH := adjlist.NewCollection[Ticket](ws, "TCK", func(o *adjlist.CollectionOptions) { o.Shards = 4 })
	require.NoError(t, oldH.Put(ctx, "acme", "changed", Ticket{Stars: 1}))
	require.NoError(t, oldH.Put(ctx, "acme", "deleted", Ticket{Stars: 1}))
	// The first move of each child meets a user write made just before it.
	var once sync.Map
	racer := &racingClient{Client: db, before: func(in *dynamodb.TransactWriteItemsInput) {
		sk := rawText(in.TransactItems[1].Delete.Key)["SK"]
		if _, seen := once.LoadOrStore(sk, true); seen {
			return
		}
		switch sk {
		case "TCK#changed":
			_, err := oldH.Update(ctx, "acme", "changed", adjlist.Set("stars", 2))
			assert.NoError(t, err)
		case "TCK#deleted":
			assert.NoError(t, oldH.Delete(ctx, "acme", "deleted"))
		}
	}}
	res, err := adjlist.Migrate(ctx, racer, newH, func(o *adjlist.ScanOptions) { o.Segments = 1 })
	require.NoError(t, err)
	assert.Equal(t, 1, res.Moved)
	assert.Equal(t, 2, res.Retried)
	got, err := newH.Get(ctx, "acme", "changed")
	require.NoError(t, err)
	assert.Equal(t, 2, got.Stars, "the user write kept")
	_, err = newH.Get(ctx, "acme", "deleted")
	require.ErrorIs(t, err, adjlist.ErrNotFound)
	assert.Len(t, rawItems(t, db, table.Name()), 1)
}

// racingClient runs before ahead of each TransactWriteItems.
type racingClient struct {
	adjlist.Client
	before func(*dynamodb.TransactWriteItemsInput)
}

func (c *racingClient) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	c.before(in)
	return c.Client.TransactWriteItems(ctx, in, o...)
}

// Bad handles and options fail before any request.
func TestMigrateMoveRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	ws := adjlist.NewNode[Space](table, "WS", "META")
	calls := &countingClient{Client: db}
	for name, h := range map[string]*adjlist.Collection[Ticket, Space]{
		"shards over 100": adjlist.NewCollection[Ticket](ws, "TCK", func(o *adjlist.CollectionOptions) { o.Shards = 101 }),
		"negative shards": adjlist.NewCollection[Ticket](ws, "TCK", func(o *adjlist.CollectionOptions) { o.Shards = -1 }),
		"bad child type":  adjlist.NewCollection[Ticket](ws, "T#K", func(o *adjlist.CollectionOptions) { o.Shards = 4 }),
	} {
		_, err := adjlist.Migrate(ctx, calls, h)
		require.Error(t, err, name)
		assert.True(t, errors.Is(err, adjlist.ErrInvalidOption) || errors.Is(err, adjlist.ErrInvalidKey), "%s: %v", name, err)
	}
	good := adjlist.NewCollection[Ticket](ws, "TCK", func(o *adjlist.CollectionOptions) { o.Shards = 4 })
	_, err := adjlist.Migrate(ctx, calls, good, func(o *adjlist.ScanOptions) { o.From = "x" })
	require.ErrorIs(t, err, adjlist.ErrInvalidCursor)
	var oe *adjlist.OpError
	require.ErrorAs(t, err, &oe)
	assert.Equal(t, "Migrate", oe.Op)
	_, err = adjlist.Scan(ctx, calls, good, func(context.Context, adjlist.Child[Ticket]) error { return nil }, func(o *adjlist.ScanOptions) { o.From = "x" })
	require.ErrorAs(t, err, &oe)
	assert.Equal(t, "Scan", oe.Op)
	_, err = adjlist.Migrate(ctx, calls, good, func(o *adjlist.ScanOptions) { o.Segments = -1 }) // 0 is the default
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	assert.Zero(t, calls.total())
}

var _ adjlist.Client = (*dynamodb.Client)(nil)

// Decode recognises a collection's children under any shard layout of the
// parent's key, whatever the handle's count, and nothing else.
func TestCollectionDecodeAnyShardLayout(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "t")
	ws := adjlist.NewNode[Space](table, "WS", "META")
	raw := func(pk, sk string) adjlist.Item {
		return adjlist.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}}
	}
	for _, shards := range []int{0, 4} {
		h := adjlist.NewCollection[Ticket](ws, "TCK", func(o *adjlist.CollectionOptions) { o.Shards = shards })
		for pk, parent := range map[string]string{
			"WS#acme": "acme", "WS#acme#00": "acme", "WS#acme#07": "acme", "WS#acme#93": "acme",
			"WS#07": "07", "WS#07#01": "07", "WS#a%23b#12": "a#b",
		} {
			c, ok, err := h.Decode(raw(pk, "TCK#t1"))
			require.NoError(t, err)
			require.True(t, ok, "shards %d: %s", shards, pk)
			assert.Equal(t, parent, c.Parent, "shards %d: %s", shards, pk)
			assert.Equal(t, "t1", c.ID)
		}
		for _, k := range [][2]string{
			{"WS#acme#7", "TCK#t1"}, {"WS#acme#100", "TCK#t1"}, {"WS#acme#0a", "TCK#t1"}, {"WS#acme#07#01", "TCK#t1"},
			{"CRS#acme#07", "TCK#t1"}, {"WS#acme#07", "TCKLIKE#WS#b"}, {"WS#acme", "META"}, {"WS#acme#07", "NOTE#t1"},
		} {
			_, ok, err := h.Decode(raw(k[0], k[1]))
			require.NoError(t, err)
			assert.False(t, ok, "shards %d: %v", shards, k)
		}
	}
}

// With a version, a concurrent write that only adds an attribute the child
// lacked still fails the move's Delete condition (the version changed):
// the child is read again and moved with the attribute.
func TestMigrateMoveKeepsAddedAttributeWithVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	ws := adjlist.NewNode[Space](table, "WS", "META")
	versioned := func(o *adjlist.CollectionOptions) { o.Version = "version" }
	oldH := adjlist.NewCollection[Ticket](ws, "TCK", versioned)
	newH := adjlist.NewCollection[Ticket](ws, "TCK", versioned, func(o *adjlist.CollectionOptions) { o.Shards = 4 })
	require.NoError(t, oldH.Put(ctx, "acme", "t1", Ticket{Stars: 1}))
	var once atomic.Bool
	racer := &racingClient{Client: db, before: func(*dynamodb.TransactWriteItemsInput) {
		if once.CompareAndSwap(false, true) {
			_, err := oldH.Update(ctx, "acme", "t1", adjlist.Set("note", "added"), adjlist.IfVersion(1))
			assert.NoError(t, err)
		}
	}}
	res, err := adjlist.Migrate(ctx, racer, newH)
	require.NoError(t, err)
	assert.Equal(t, 1, res.Moved)
	assert.Equal(t, 1, res.Retried)
	pk, sk, err := newH.Key("acme", "t1")
	require.NoError(t, err)
	out, err := db.GetItem(ctx, getInput(table.Name(), pk, sk))
	require.NoError(t, err)
	m := rawText(out.Item)
	assert.Equal(t, "added", m["note"], "the user write kept")
	assert.Equal(t, "2", m["version"], "the move kept the version")
	assert.Len(t, rawItems(t, db, table.Name()), 1)
}
