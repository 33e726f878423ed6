package bench

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/adjlist/adjlist"
)

var (
	rounds     = flag.Int("rounds", 1, "e2e and bulk: how many times to alternate the implementations (benchstat: -ignore /round)")
	bulkEdges  = flag.Int("bulk.edges", 10000, "bulk: edges written per run (-short: 1000)")
	e2eWarmup  = flag.Duration("e2e.warmup", 3*time.Second, "e2e: untimed load on each implementation before measuring, to warm the JVM")
	localOnce  sync.Once
	local      *Local
	localErr   error
	tableSeq   atomic.Int64
	e2eOnce    sync.Once
	e2eErr     error
	e2eClient  *dynamodb.Client
	e2eImpls   map[string]Patterns
	e2eModel   seedModel
	putCounter atomic.Int64
)

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if err := local.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.Exit(code)
}

// needLocal returns the shared DynamoDB Local, started on first use. When
// it cannot start, the caller is skipped, or fails under CI (CI set), where
// `make deps` has installed it and a skip would hide a broken setup.
func needLocal(tb testing.TB) *Local {
	tb.Helper()
	localOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		local, localErr = StartLocal(ctx)
	})
	if localErr != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("DynamoDB Local is required under CI: %v", localErr)
		}
		tb.Skipf("DynamoDB Local unavailable (%v); run `make deps` at the repository root", localErr)
	}
	return local
}

// newTable creates a fresh table (default layout, GSI1 projecting ALL) and
// returns its name and the model on it. The name holds the process id, so
// that a table a killed run left on a shared DynamoDB Local is not met
// again.
func newTable(tb testing.TB, client *dynamodb.Client) (string, *AdjList) {
	tb.Helper()
	name := "bench-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(tableSeq.Add(1), 10)
	a := NewAdjList(client, name)
	if err := adjlist.CreateTable(context.Background(), client, a.Table); err != nil {
		tb.Fatal(err)
	}
	return name, a
}

func dropTable(tb testing.TB, client *dynamodb.Client, name string) {
	if _, err := client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil {
		tb.Fatal(err)
	}
}

// seedModel is the e2e data set: students with a profile and
// perStudent enrolments each, courses with students*perStudent/courses
// enrolments each.
type seedModel struct{ students, courses, perStudent int }

func (m seedModel) courseOf(student, j int) int { return (student*7 + j) % m.courses }

// setupE2E starts DynamoDB Local, creates and fills one table, and warms
// the JVM with both implementations. Its cost is outside every timer.
func setupE2E(b *testing.B) {
	loc := needLocal(b)
	e2eOnce.Do(func() {
		e2eModel = seedModel{students: 400, courses: 40, perStudent: 10}
		if testing.Short() {
			e2eModel = seedModel{students: 40, courses: 8, perStudent: 4}
		}
		e2eClient = loc.Client()
		name, a := newTable(b, e2eClient)
		ctx := context.Background()
		var edges []Edge
		for i := 0; i < e2eModel.students; i++ {
			if err := a.Students.Put(ctx, StudentID(i), FixtureStudent); err != nil {
				e2eErr = err
				return
			}
			for j := 0; j < e2eModel.perStudent; j++ {
				edges = append(edges, Edge{From: StudentID(i), To: CourseID(e2eModel.courseOf(i, j)), Data: FixtureEnrollment})
			}
		}
		if err := a.PutMany(ctx, edges, 4); err != nil {
			e2eErr = err
			return
		}
		e2eImpls = map[string]Patterns{"sdk": &SDK{Client: e2eClient, Name: name}, "adjlist": a}
		for _, impl := range []string{"sdk", "adjlist", "sdk", "adjlist"} {
			if _, err := runMix(ctx, e2eImpls[impl], 8, -1, *e2eWarmup/4); err != nil {
				e2eErr = err
				return
			}
		}
	})
	if e2eErr != nil {
		b.Fatal(e2eErr)
	}
}

// mixOp runs the k-th operation of the seed's access pattern mix, in equal
// shares: a guarded edge put (a new edge each time, into a partition no
// read touches, so reads see the same data in every run), a student's
// courses (From), a course's roster (To, on GSI1), a student's profile with
// its courses (LoadNode) and one edge (Get).
func mixOp(ctx context.Context, p Patterns, k int) error {
	m := e2eModel
	student := StudentID(k / 5 % m.students)
	switch k % 5 {
	case 0:
		return p.PutEdge(ctx, "w"+strconv.FormatInt(putCounter.Add(1), 10), "sink", FixtureEnrollment)
	case 1:
		edges, err := p.From(ctx, student)
		if err == nil && len(edges) != m.perStudent {
			err = fmt.Errorf("From(%s): %d edges, want %d", student, len(edges), m.perStudent)
		}
		return err
	case 2:
		_, err := p.To(ctx, CourseID(k/5%m.courses))
		return err
	case 3:
		_, edges, err := p.LoadStudent(ctx, student)
		if err == nil && len(edges) != m.perStudent {
			err = fmt.Errorf("LoadStudent(%s): %d edges, want %d", student, len(edges), m.perStudent)
		}
		return err
	default:
		_, err := p.GetEdge(ctx, student, CourseID(m.courseOf(k/5%m.students, 0)))
		return err
	}
}

// runMix runs n operations of the mix (or, with n < 0, as many as fit in
// d) on callers goroutines and returns how many it ran.
func runMix(ctx context.Context, p Patterns, callers, n int, d time.Duration) (int, error) {
	var (
		next     atomic.Int64
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	deadline := time.Now().Add(d)
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1)) - 1
				if (n >= 0 && k >= n) || (n < 0 && time.Now().After(deadline)) {
					return
				}
				if err := mixOp(ctx, p, k); err != nil {
					mu.Lock()
					firstErr = cmpOr(firstErr, err)
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	ran := int(next.Load())
	if n >= 0 {
		ran = min(ran, n)
	}
	return ran, firstErr
}

// BenchmarkE2E runs the seed's access patterns against DynamoDB Local at 1,
// 8 and 32 concurrent callers, the hand-written SDK code and adjlist
// alternating, first one then the other going first (run with -rounds N
// and compare with benchstat -ignore /round). ops/s is the throughput;
// ns/op its inverse.
func BenchmarkE2E(b *testing.B) {
	setupE2E(b)
	ctx := context.Background()
	for r := 1; r <= *rounds; r++ {
		b.Run("round="+strconv.Itoa(r), func(b *testing.B) {
			for _, callers := range []int{1, 8, 32} {
				b.Run("c="+strconv.Itoa(callers), func(b *testing.B) {
					// Alternate which goes first, so neither always runs
					// on a server the other has just warmed (or loaded).
					order := []string{"sdk", "adjlist"}
					if r%2 == 0 {
						order = []string{"adjlist", "sdk"}
					}
					for _, impl := range order {
						b.Run("impl="+impl, func(b *testing.B) {
							p := e2eImpls[impl]
							b.ReportAllocs()
							b.ResetTimer()
							start, cpu := time.Now(), CPUTime()
							srv, srvOK := local.ServerCPU()
							if _, err := runMix(ctx, p, callers, b.N, 0); err != nil {
								b.Fatal(err)
							}
							b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "ops/s")
							b.ReportMetric(float64(CPUTime()-cpu)/1e3/float64(b.N), "client-cpu-µs/op")
							if srv2, ok := local.ServerCPU(); ok && srvOK {
								b.ReportMetric(float64(srv2-srv)/1e3/float64(b.N), "server-cpu-µs/op")
							}
						})
					}
				})
			}
		})
	}
}

// BenchmarkBulk loads -bulk.edges edges (default 10,000) into a fresh
// table, four ways: adjlist's Edge.PutMany (BatchWriteItem, 4 workers),
// hand-written BatchWriteItem (4 workers), and one guarded PutItem per edge
// (adjlist's Edge.Put), sequentially and on 4 workers. Run it with
// -benchtime 1x: each iteration is a whole load.
func BenchmarkBulk(b *testing.B) {
	loc := needLocal(b)
	client := loc.Client()
	n := *bulkEdges
	if testing.Short() {
		n = min(n, 1000)
	}
	edges := make([]Edge, n)
	for i := range edges {
		edges[i] = Edge{From: "b" + strconv.Itoa(i/10), To: CourseID(i % 10), Data: FixtureEnrollment}
	}
	ctx := context.Background()
	// Warm the JVM on a throwaway table.
	func() {
		name, a := newTable(b, client)
		defer dropTable(b, client, name)
		if err := a.PutMany(ctx, edges[:min(len(edges), 2000)], 4); err != nil {
			b.Fatal(err)
		}
	}()
	ways := []struct {
		name string
		load func(a *AdjList, s *SDK) error
	}{
		{"batch-sdk", func(_ *AdjList, s *SDK) error { return s.PutMany(ctx, edges, 4) }},
		{"putmany-adjlist", func(a *AdjList, _ *SDK) error { return a.PutMany(ctx, edges, 4) }},
		{"put-seq-adjlist", func(a *AdjList, _ *SDK) error { return putEach(ctx, a, edges, 1) }},
		{"put-4workers-adjlist", func(a *AdjList, _ *SDK) error { return putEach(ctx, a, edges, 4) }},
	}
	for r := 1; r <= *rounds; r++ {
		b.Run("round="+strconv.Itoa(r), func(b *testing.B) {
			for _, w := range ways {
				b.Run("way="+w.name, func(b *testing.B) {
					var elapsed time.Duration
					for i := 0; i < b.N; i++ {
						name, _, d := timedLoad(b, client, w.load, func(name string, _ *AdjList) { checkCount(b, client, name, n) })
						elapsed += d
						b.StopTimer()
						dropTable(b, client, name)
						b.StartTimer()
					}
					b.ReportMetric(float64(n*b.N)/elapsed.Seconds(), "edges/s")
				})
			}
		})
	}
}

// putEach writes every edge with its own guarded PutItem, on workers
// goroutines.
func putEach(ctx context.Context, a *AdjList, edges []Edge, workers int) error {
	var (
		next atomic.Int64
		wg   sync.WaitGroup
		errs = make([]error, workers)
	)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(edges) {
					return
				}
				if err := a.PutEdge(ctx, edges[i].From, edges[i].To, edges[i].Data); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// checkCount verifies that a load wrote all n edges (a Scan with
// Select=COUNT, outside the timer).
func checkCount(tb testing.TB, client *dynamodb.Client, name string, n int) {
	tb.Helper()
	total := 0
	p := dynamodb.NewScanPaginator(client, &dynamodb.ScanInput{TableName: aws.String(name), Select: "COUNT"})
	for p.HasMorePages() {
		out, err := p.NextPage(context.Background())
		if err != nil {
			tb.Fatal(err)
		}
		total += int(out.Count)
	}
	if total != n {
		tb.Fatalf("table %s holds %d items, want %d", name, total, n)
	}
}
