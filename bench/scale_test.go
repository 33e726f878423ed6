package bench

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// The cost curves of BENCHMARKS.md (bench/scale.sh, `make bench-scale`).
// They run only with -scale, at the sizes below, or with -short at a tiny
// size that proves the code works (CI); `make bench` never selects them.
var (
	scaleRun        = flag.Bool("scale", false, "run the BenchmarkScale* cost curves at the -scale.* sizes (bench/scale.sh); without it they run only with -short, tiny")
	scaleSizes      = flag.String("scale.sizes", "10000,100000,1000000", "scale: edges of one node bulk-loaded, then read back with All and Collect")
	scaleRounds     = flag.Int("scale.rounds", 3, "scale: alternating PutMany / hand-written BatchWriteItem loads at each size up to -scale.sdkmax")
	scaleWarmup     = flag.Int("scale.warmup", 20000, "scale: edges loaded into a throwaway table first, so the JVM's JIT has compiled DynamoDB Local's write path before the first measured load")
	scaleSDKMax     = flag.Int("scale.sdkmax", 100000, "scale: largest size also loaded by hand-written BatchWriteItem (larger sizes: one PutMany load)")
	scaleShards     = flag.String("scale.shards", "1,8,32,100", "scale: shard counts of the sharded reverse read")
	scaleShardEdges = flag.Int("scale.shardedges", 10000, "scale: edges into the sharded target")
	scaleReps       = flag.Int("scale.reps", 20, "scale: first-page reads per shard count (the median is reported)")
	scaleDelete     = flag.Int("scale.delete", 100000, "scale: incoming edges of the node DeleteNode deletes")
	scaleGraph      = flag.Int("scale.graph", 10000, "scale: nodes of the TwoHop graph (1 course per 20 nodes, 5 courses per student)")
)

// scaleCfg is one run's sizes.
type scaleCfg struct {
	sizes       []int
	rounds      int
	sdkMax      int
	warmup      int
	shards      []int
	shardEdges  int
	reps        int
	deleteEdges int
	graphNodes  int
}

// scaleConfig returns the sizes from the flags under -scale, tiny ones under
// -short, and skips otherwise.
func scaleConfig(b *testing.B) scaleCfg {
	b.Helper()
	if !*scaleRun {
		if !testing.Short() {
			b.Skip("cost curves: run with -scale (make bench-scale), or tiny with -short")
		}
		return scaleCfg{sizes: []int{100, 300}, rounds: 1, sdkMax: 300, warmup: 100, shards: []int{1, 8}, shardEdges: 100, reps: 2, deleteEdges: 100, graphNodes: 200}
	}
	ints := func(s string) []int {
		var out []int
		for _, f := range strings.Split(s, ",") {
			v, err := strconv.Atoi(strings.TrimSpace(f))
			require.NoError(b, err, "flag value %q", s)
			out = append(out, v)
		}
		return out
	}
	return scaleCfg{
		sizes: ints(*scaleSizes), rounds: *scaleRounds, sdkMax: *scaleSDKMax, warmup: *scaleWarmup,
		shards: ints(*scaleShards), shardEdges: *scaleShardEdges, reps: *scaleReps,
		deleteEdges: *scaleDelete, graphNodes: *scaleGraph,
	}
}

// scaleSetup returns the run's sizes (or skips, see scaleConfig), a
// client of the shared DynamoDB Local and a background context.
func scaleSetup(b *testing.B) (scaleCfg, *dynamodb.Client, context.Context) {
	b.Helper()
	cfg := scaleConfig(b)
	return cfg, needLocal(b).Client(), context.Background()
}

// progress prints a timestamped line on stderr under -scale, so a long run
// shows where it is (stdout carries the benchmark lines scale.sh keeps).
func progress(format string, args ...any) {
	if *scaleRun {
		fmt.Fprintf(os.Stderr, "%s  %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
	}
}

// timedLoad creates a fresh table, times load on it, then runs check on
// it outside the timer. The table is the caller's to drop.
func timedLoad(b *testing.B, client *dynamodb.Client, load func(a *AdjList, s *SDK) error, check func(name string, a *AdjList)) (string, *AdjList, time.Duration) {
	b.StopTimer()
	name, a := newTable(b, client)
	s := &SDK{Client: client, Name: name}
	b.StartTimer()
	start := time.Now()
	err := load(a, s)
	elapsed := time.Since(start)
	b.StopTimer()
	require.NoError(b, err)
	check(name, a)
	b.StartTimer()
	return name, a, elapsed
}

// checkHub checks that hub's partition holds want edges: a Query with
// Select=COUNT, page by page. (checkCount's Scan of a table of a million
// items takes DynamoDB Local many minutes; every item of these loads is in
// hub's partition.)
func checkHub(b *testing.B, want int) func(string, *AdjList) {
	return func(_ string, a *AdjList) {
		n, err := a.Enrolled.From(hubSource).Count(context.Background())
		require.NoError(b, err)
		require.Equal(b, want, n, "edges loaded")
	}
}

// hubSource is the source of every edge of BenchmarkScaleLoad: one node, so
// its edges are one table partition, which From(hubSource) reads.
const hubSource = "hub"

// heapSampler records the peak of the Go heap (bytes in live and
// not-yet-swept objects, runtime/metrics; no stop-the-world) while it
// runs, sampling every millisecond from its own goroutine.
type heapSampler struct {
	base, peak uint64
	stop       chan struct{}
	done       sync.WaitGroup
}

const heapMetric = "/memory/classes/heap/objects:bytes"

func heapNow(s []metrics.Sample) uint64 {
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// startHeap collects garbage, takes the baseline and starts sampling.
func startHeap() *heapSampler {
	runtime.GC()
	h := &heapSampler{stop: make(chan struct{})}
	s := []metrics.Sample{{Name: heapMetric}}
	h.base = heapNow(s)
	h.peak = h.base
	h.done.Add(1)
	go func() {
		defer h.done.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			if v := heapNow(s); v > h.peak {
				h.peak = v
			}
			select {
			case <-h.stop:
				return
			case <-t.C:
			}
		}
	}()
	return h
}

// end stops sampling (after one last sample) and reports the peak above
// the baseline and the baseline, in MB.
func (h *heapSampler) end(b *testing.B) {
	close(h.stop)
	h.done.Wait()
	b.ReportMetric(float64(h.peak-h.base)/1e6, "peak-heap-MB")
	b.ReportMetric(float64(h.base)/1e6, "base-heap-MB")
}

// BenchmarkScaleLoad is the bulk-load and read curve over -scale.sizes
// edges of one node (hub → c0000, c0001, …: one table partition). At each
// size up to -scale.sdkmax it alternates Edge.PutMany and hand-written
// BatchWriteItem (both 4 workers) for -scale.rounds rounds; larger sizes
// get one PutMany load. On the last PutMany table it then reads the edges
// back with From(hub).All (way=all: per page, results not held) and
// .Collect (way=collect: all held), reporting time per edge, requests and
// the Go heap's peak above its level before the read.
func BenchmarkScaleLoad(b *testing.B) {
	cfg, client, ctx := scaleSetup(b)
	// Warm the JVM on a throwaway table: with 2,000 edges the 10k loads
	// still ran at half the later rate (its rounds rose 2,675 → 5,612).
	progress("load: warming up with %d edges", cfg.warmup)
	name, _, _ := timedLoad(b, client, func(a *AdjList, _ *SDK) error { return a.PutMany(ctx, hubEdges(cfg.warmup), 4) }, checkHub(b, cfg.warmup))
	dropTable(b, client, name)

	for _, n := range cfg.sizes {
		var kept string
		var keptA *AdjList
		rounds, ways := 1, []string{"putmany-adjlist"}
		if n <= cfg.sdkMax {
			rounds, ways = cfg.rounds, []string{"batch-sdk", "putmany-adjlist"}
		}
		edges := hubEdges(n)
		for r := 1; r <= rounds; r++ {
			order := slices.Clone(ways)
			if r%2 == 0 {
				slices.Reverse(order)
			}
			for _, way := range order {
				b.Run(fmt.Sprintf("n=%d/round=%d/way=%s", n, r, way), func(b *testing.B) {
					var elapsed time.Duration
					for range b.N {
						progress("load: %d edges, round %d of %d, %s", n, r, rounds, way)
						start := time.Now()
						name, a, d := timedLoad(b, client, func(a *AdjList, s *SDK) error {
							if way == "batch-sdk" {
								return s.PutMany(ctx, edges, 4)
							}
							return a.PutMany(ctx, edges, 4)
						}, func(name string, a *AdjList) {
							progress("load: %d edges loaded in %s; counting them", n, time.Since(start).Round(time.Millisecond))
							checkHub(b, n)(name, a)
						})
						elapsed += d
						if way == "putmany-adjlist" {
							if kept != "" {
								dropTable(b, client, kept)
							}
							kept, keptA = name, a
						} else {
							dropTable(b, client, name)
						}
					}
					b.ReportMetric(float64(n*b.N)/elapsed.Seconds(), "edges/s")
					progress("load: %d edges, %s: %.0f edges/s", n, way, float64(n*b.N)/elapsed.Seconds())
				})
			}
		}
		edges = nil // not to be counted in the read's heap
		require.NotNil(b, keptA, "no PutMany load of %d edges to read back", n)
		for _, way := range []string{"all-adjlist", "collect-adjlist"} {
			b.Run(fmt.Sprintf("n=%d/way=%s", n, way), func(b *testing.B) {
				for range b.N {
					progress("read: %d edges, %s", n, way)
					readHub(b, keptA, n, way == "all-adjlist")
				}
			})
		}
		dropTable(b, client, kept)
	}
}

// hubEdges returns n edges from hubSource to n distinct courses.
func hubEdges(n int) []Edge {
	edges := make([]Edge, n)
	for i := range edges {
		edges[i] = Edge{From: hubSource, To: CourseID(i), Data: FixtureEnrollment}
	}
	return edges
}

// edgesInto returns n edges from n distinct students into course to.
func edgesInto(to string, n int) []Edge {
	edges := make([]Edge, n)
	for i := range edges {
		edges[i] = Edge{From: StudentID(i), To: to, Data: FixtureEnrollment}
	}
	return edges
}

// readHub reads hub's n edges with All (each edge dropped at once) or
// Collect (all held until the end) and reports ns/edge, requests and heap.
// requests counts the measured read's Query pages only.
func readHub(b *testing.B, a *AdjList, n int, iterate bool) {
	var u adjlist.Usage
	ctx := adjlist.WithUsage(context.Background(), &u)
	q := a.Enrolled.From(hubSource)
	b.StopTimer()
	// An untimed first page: the first read of a freshly loaded table is
	// several times slower on DynamoDB Local (its query path is cold), which
	// would weigh on the smallest size, a single page, alone.
	_, err := q.Page(context.Background(), "")
	require.NoError(b, err)
	h := startHeap()
	b.StartTimer()
	start := time.Now()
	count := 0
	if iterate {
		for e, err := range q.All(ctx) {
			require.NoError(b, err)
			require.Equal(b, hubSource, e.From)
			count++
		}
	} else {
		edges, err := q.Collect(ctx)
		require.NoError(b, err)
		count = len(edges)
		h.end(b) // before edges can be collected
		runtime.KeepAlive(edges)
	}
	elapsed := time.Since(start)
	if iterate {
		h.end(b)
	}
	require.Equal(b, n, count, "edges read")
	b.ReportMetric(float64(elapsed.Nanoseconds())/float64(n), "ns/edge")
	b.ReportMetric(float64(u.Totals().Requests), "requests")
	progress("read: %d edges in %s, %d requests", n, elapsed.Round(time.Millisecond), u.Totals().Requests)
}

// BenchmarkScaleShards reads one target's -scale.shardedges incoming edges
// (STU#s00000… → CRS#hot) through an edge sharded over each of
// -scale.shards index partitions (EdgeOptions.Shards; 1 is unsharded):
// the first page of To(hot).Limit(50) (median of -scale.reps reads),
// requests and items read per page over the first 10 pages, and the whole
// list with All.
func BenchmarkScaleShards(b *testing.B) {
	cfg, client, ctx := scaleSetup(b)
	n := cfg.shardEdges
	edges := edgesInto("hot", n)
	const limit = 50
	for _, shards := range cfg.shards {
		progress("shards: loading %d edges over %d shards", n, shards)
		name, a := newTable(b, client)
		hot := adjlist.NewEdge[Enrollment](a.Students, "ENROLL", a.Courses, func(o *adjlist.EdgeOptions) { o.Shards = shards })
		res, err := hot.PutMany(ctx, edges, func(o *adjlist.BulkOptions) { o.Workers = 4 })
		require.NoError(b, err)
		require.Equal(b, n, res.Written)
		q := hot.To("hot")
		for range 2 { // warm this table's first read
			_, err := q.Limit(limit).Page(ctx, "")
			require.NoError(b, err)
		}
		b.Run(fmt.Sprintf("shards=%d/op=first-page", shards), func(b *testing.B) {
			var u adjlist.Usage
			uctx := adjlist.WithUsage(ctx, &u)
			var lat []float64
			for range b.N {
				for range cfg.reps {
					start := time.Now()
					p, err := q.Limit(limit).Page(uctx, "")
					lat = append(lat, float64(time.Since(start).Microseconds())/1e3)
					require.NoError(b, err)
					require.Len(b, p.Items, min(limit, n))
				}
			}
			b.ReportMetric(medianOf(lat), "first-page-ms")
			b.ReportMetric(float64(u.Totals().Requests)/float64(len(lat)), "requests/page")
		})
		b.Run(fmt.Sprintf("shards=%d/op=pages", shards), func(b *testing.B) {
			for range b.N {
				var u adjlist.Usage
				uctx := adjlist.WithUsage(ctx, &u)
				cursor, pages, items, prev := "", 0, 0, ""
				start := time.Now()
				for pages < 10 {
					p, err := q.Limit(limit).Page(uctx, cursor)
					require.NoError(b, err)
					pages++
					for _, e := range p.Items {
						require.Greater(b, e.From, prev, "merged order")
						prev = e.From
					}
					items += len(p.Items)
					if cursor = p.Cursor; cursor == "" {
						break
					}
				}
				b.ReportMetric(float64(time.Since(start).Microseconds())/1e3/float64(pages), "ms/page")
				b.ReportMetric(float64(u.Totals().Requests)/float64(pages), "requests/page")
				b.ReportMetric(float64(u.Totals().Scanned)/float64(items), "read/returned")
			}
		})
		b.Run(fmt.Sprintf("shards=%d/op=all", shards), func(b *testing.B) {
			for range b.N {
				var u adjlist.Usage
				uctx := adjlist.WithUsage(ctx, &u)
				start := time.Now()
				count := 0
				for _, err := range q.All(uctx) {
					require.NoError(b, err)
					count++
				}
				require.Equal(b, n, count)
				b.ReportMetric(float64(time.Since(start).Microseconds())/1e3, "ms")
				b.ReportMetric(float64(u.Totals().Requests), "requests")
			}
		})
		dropTable(b, client, name)
	}
}

func medianOf(xs []float64) float64 {
	xs = slices.Clone(xs)
	sort.Float64s(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}

// BenchmarkScaleDelete deletes a course with -scale.delete incoming
// enrolments (DeleteNode with the enrolment edge) and compares its
// requests with the lower bound for the incoming edges: one Query page per
// MB of index items (the 1 MB limit applies to items as read, before the
// keys-only projection) plus one BatchWriteItem per 25 deletes, plus the
// two requests of phases 2 and 3 (the course's own partition, its item).
func BenchmarkScaleDelete(b *testing.B) {
	cfg, client, ctx := scaleSetup(b)
	n := cfg.deleteEdges
	edges := edgesInto("gone", n)
	b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			progress("delete: loading %d edges into one course", n)
			name, a := newTable(b, client)
			require.NoError(b, a.Courses.Put(ctx, "gone", Course{Title: "Gone", Credits: 3}))
			require.NoError(b, a.PutMany(ctx, edges, 4))
			out, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(name), Key: adjlist.Item{
				"PK": &types.AttributeValueMemberS{Value: "STU#" + StudentID(0)}, "SK": &types.AttributeValueMemberS{Value: enrollPrefix + "gone"},
			}})
			require.NoError(b, err)
			require.NotEmpty(b, out.Item)
			size := adjlist.ItemSize(out.Item)
			progress("delete: DeleteNode of a course with %d incoming edges", n)
			var u adjlist.Usage
			b.StartTimer()
			start := time.Now()
			res, err := adjlist.DeleteNode(adjlist.WithUsage(ctx, &u), a.Courses, "gone", a.Enrolled)
			elapsed := time.Since(start)
			b.StopTimer()
			require.NoError(b, err)
			require.Equal(b, n, res.Incoming)
			require.True(b, res.Node)
			checkCount(b, client, name, 0)
			dropTable(b, client, name)
			pagesLB := int(math.Ceil(float64(n*size) / (1 << 20)))
			batchesLB := (n + 24) / 25
			b.ReportMetric(elapsed.Seconds(), "s")
			b.ReportMetric(float64(u.Totals().Requests), "requests")
			b.ReportMetric(float64(res.Queries), "queries")
			b.ReportMetric(float64(res.Batches), "batches")
			b.ReportMetric(float64(pagesLB), "lb-queries")
			b.ReportMetric(float64(batchesLB), "lb-batches")
			b.ReportMetric(float64(pagesLB+batchesLB+2), "lb-requests")
			b.ReportMetric(float64(size), "item-bytes")
			progress("delete: %d requests (%d queries, %d batches) in %s; lower bound %d", u.Totals().Requests, res.Queries, res.Batches, elapsed.Round(time.Millisecond), pagesLB+batchesLB+2)
			b.StartTimer()
		}
	})
}

// BenchmarkScaleTwoHop walks Peers (TwoHop with the enrolment edge on both
// hops) from one student of a -scale.graph-node graph (1 course per 20
// nodes, each student in 5 courses) under budgets from 1 request up,
// with DynamoDB's 1 MB pages and with pages of 10 items, and reports the
// requests used against the budget. The walk with an unlimited budget
// gives the requests needed and is checked against the model's peers.
func BenchmarkScaleTwoHop(b *testing.B) {
	cfg, client, ctx := scaleSetup(b)
	courses := max(cfg.graphNodes/20, 5)
	m := seedModel{students: cfg.graphNodes - courses, courses: courses, perStudent: 5}
	progress("twohop: loading %d students, %d courses, %d edges", m.students, m.courses, m.students*m.perStudent)
	name, a := newTable(b, client)
	defer dropTable(b, client, name)
	var edges []Edge
	var want []string // the start student's peers, by the model
	mine := map[string]bool{}
	for j := range m.perStudent {
		mine[CourseID(m.courseOf(0, j))] = true
	}
	for i := range m.students {
		shared := false
		for j := range m.perStudent {
			c := CourseID(m.courseOf(i, j))
			edges = append(edges, Edge{From: StudentID(i), To: c, Data: FixtureEnrollment})
			shared = shared || mine[c]
		}
		if shared && i != 0 {
			want = append(want, StudentID(i))
		}
	}
	require.NoError(b, a.PutMany(ctx, edges, 4))
	start := StudentID(0)
	for _, pageSize := range []int32{0, 10} {
		label := "1MB"
		if pageSize > 0 {
			label = strconv.Itoa(int(pageSize))
		}
		opt := func(o *adjlist.TraverseOptions) { o.PageSize = pageSize }
		full, err := adjlist.TwoHop(ctx, a.Enrolled, a.Enrolled, start, math.MaxInt32, opt)
		require.NoError(b, err)
		require.False(b, full.Truncated)
		var got []string
		for _, p := range full.Peers {
			got = append(got, p.ID)
		}
		require.ElementsMatch(b, want, got, "peers of %s", start)
		needed := full.Requests
		budgets := []int{1, 2, 4, 8, 16, 32, 64, 128, needed - 1, needed, 2 * needed}
		slices.Sort(budgets)
		budgets = slices.Compact(budgets)
		for _, budget := range budgets {
			if budget < 1 {
				continue
			}
			b.Run(fmt.Sprintf("page=%s/budget=%d", label, budget), func(b *testing.B) {
				for range b.N {
					var u adjlist.Usage
					t0 := time.Now()
					res, err := adjlist.TwoHop(adjlist.WithUsage(ctx, &u), a.Enrolled, a.Enrolled, start, budget, opt)
					elapsed := time.Since(t0)
					require.NoError(b, err)
					require.Equal(b, u.Totals().Requests, res.Requests, "requests counted by TwoHop and sent")
					require.LessOrEqual(b, res.Requests, budget)
					require.Equal(b, budget < needed, res.Truncated)
					if !res.Truncated {
						require.Equal(b, needed, res.Requests)
						require.Len(b, res.Peers, len(want))
					}
					truncated := 0.0
					if res.Truncated {
						truncated = 1
					}
					b.ReportMetric(float64(res.Requests), "requests")
					b.ReportMetric(float64(needed), "needed")
					b.ReportMetric(float64(len(res.Peers)), "peers")
					b.ReportMetric(truncated, "truncated")
					b.ReportMetric(float64(elapsed.Microseconds())/1e3, "ms")
				}
			})
		}
		progress("twohop: page %s: %d requests needed, %d peers", label, needed, len(want))
	}
}
