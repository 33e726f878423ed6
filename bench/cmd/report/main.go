// Command report turns the raw output of bench/run.sh (go test -bench) into
// the Markdown tables of BENCHMARKS.md: medians over the repeated runs, the
// ratio of each implementation to the hand-written SDK floor, and whether
// each target is met.
//
//	go run ./cmd/report results/client.txt results/e2e.txt results/bulk.txt
//	go run ./cmd/report -svg results results/scale-*.txt
//
// Each input is recognised by its benchmarks (Client, Keys, E2E, Bulk, and
// the cost curves' ScaleLoad, ScaleShards, ScaleDelete, ScaleTwoHop, whose
// curves -svg DIR draws into DIR as SVG files).
// benchstat (go tool benchstat) gives the confidence intervals and
// significance; this gives the ratios the targets are stated in.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// sample is one benchmark line: its name parts and its metrics.
type sample struct {
	bench string            // Client, Keys, E2E, Bulk
	keys  map[string]string // op=..., impl=..., c=..., way=..., round=...
	vals  map[string]float64
}

var procSuffix = regexp.MustCompile(`-\d+$`)

func parse(path string) ([]sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []sample
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		name := procSuffix.ReplaceAllString(strings.TrimPrefix(fields[0], "Benchmark"), "")
		parts := strings.Split(name, "/")
		s := sample{bench: parts[0], keys: map[string]string{}, vals: map[string]float64{}}
		for _, p := range parts[1:] {
			k, v, _ := strings.Cut(p, "=")
			s.keys[k] = v
		}
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				continue
			}
			s.vals[fields[i+1]] = v
		}
		out = append(out, s)
	}
	return out, sc.Err()
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	xs = slices.Clone(xs)
	sort.Float64s(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}

// table collects metric values by row and column.
type table struct {
	rows []string
	vals map[[3]string][]float64 // row, col, unit
}

func newTable() *table { return &table{vals: map[[3]string][]float64{}} }

func (t *table) add(row, col string, s sample) {
	if !slices.Contains(t.rows, row) {
		t.rows = append(t.rows, row)
	}
	for unit, v := range s.vals {
		k := [3]string{row, col, unit}
		t.vals[k] = append(t.vals[k], v)
	}
}

func (t *table) med(row, col, unit string) (float64, bool) {
	xs := t.vals[[3]string{row, col, unit}]
	return median(xs), len(xs) > 0
}

func (t *table) n(row, col, unit string) int { return len(t.vals[[3]string{row, col, unit}]) }

// runs returns every value of unit for row and col, in run order.
func (t *table) runs(row, col, unit string) []float64 { return t.vals[[3]string{row, col, unit}] }

// impls returns the medians of unit on row for sdk, adjlist and guregu.
func (t *table) impls(row, unit string) (sdk, adj, gur float64) {
	sdk, _ = t.med(row, "sdk", unit)
	adj, _ = t.med(row, "adjlist", unit)
	gur, _ = t.med(row, "guregu", unit)
	return sdk, adj, gur
}

func num(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

func ratio(a, b float64) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f×", a/b)
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "**missed**"
}

func main() {
	svgDir := flag.String("svg", "", "draw the cost curves (Scale* inputs) as SVG files into this directory")
	flag.Parse()
	var all []sample
	for _, path := range flag.Args() {
		s, err := parse(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		all = append(all, s...)
	}
	client, keys, e2e, bulk := newTable(), newTable(), newTable(), newTable()
	var scale scaleData
	for _, s := range all {
		if scale.add(s) {
			continue
		}
		switch s.bench {
		case "Client":
			client.add(s.keys["op"], s.keys["impl"], s)
		case "Keys":
			keys.add(s.keys["op"], s.keys["impl"], s)
		case "E2E":
			e2e.add(s.keys["c"], s.keys["impl"], s)
		case "Bulk":
			bulk.add(s.keys["way"], "", s)
		}
	}
	if len(client.rows) > 0 {
		clientTables(client)
	}
	if len(keys.rows) > 0 {
		keyTable(keys)
	}
	if len(e2e.rows) > 0 {
		e2eTable(e2e)
	}
	if len(bulk.rows) > 0 {
		bulkTable(bulk)
	}
	if err := scaleReport(&scale, *svgDir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func clientTables(t *table) {
	n := t.n(t.rows[0], "sdk", "ns/op")
	fmt.Printf("#### Client-side time (median of %d runs; ratio = impl / sdk; the targets are judged paired, below)\n\n", n)
	fmt.Println("| operation | sdk ns/op | adjlist ns/op | adjlist/sdk | guregu ns/op | guregu/sdk | sdk cpu-ns/op | adjlist cpu-ns/op | adjlist/sdk (cpu) | guregu cpu-ns/op | guregu/sdk (cpu) |")
	fmt.Println("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, op := range t.rows {
		s, a, g := t.impls(op, "ns/op")
		sc, ac, gc := t.impls(op, "cpu-ns/op")
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", op,
			num(s), num(a), ratio(a, s), num(g), ratio(g, s),
			num(sc), num(ac), ratio(ac, sc), num(gc), ratio(gc, sc))
	}
	pairedTable(t)
	fmt.Printf("\n#### Client-side memory (median of %d runs)\n\n", n)
	fmt.Println("| operation | sdk B/op | adjlist B/op | guregu B/op | sdk allocs/op | adjlist allocs/op | guregu allocs/op | adjlist − sdk allocs | ≤ +5 allocs |")
	fmt.Println("|---|--:|--:|--:|--:|--:|--:|--:|---|")
	for _, op := range t.rows {
		sb, ab, gb := t.impls(op, "B/op")
		sa, aa, ga := t.impls(op, "allocs/op")
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %s | %+.0f | %s |\n", op,
			num(sb), num(ab), num(gb), num(sa), num(aa), num(ga), aa-sa, verdict(aa-sa <= 5))
	}
	fmt.Println()
}

func keyTable(t *table) {
	fmt.Printf("#### Key codec (median of %d runs; sdk = concatenation / strings.Cut, no validation)\n\n", t.n(t.rows[0], "sdk", "ns/op"))
	fmt.Println("| operation | sdk ns/op | adjlist ns/op | adjlist/sdk | sdk allocs/op | adjlist allocs/op | encode ≤ 1 alloc |")
	fmt.Println("|---|--:|--:|--:|--:|--:|---|")
	for _, op := range t.rows {
		s, _ := t.med(op, "sdk", "ns/op")
		a, _ := t.med(op, "adjlist", "ns/op")
		sa, _ := t.med(op, "sdk", "allocs/op")
		aa, _ := t.med(op, "adjlist", "allocs/op")
		target := "–"
		if strings.Contains(op, "key") && !strings.HasPrefix(op, "parse") {
			target = verdict(aa <= 1)
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %s |\n", op, num(s), num(a), ratio(a, s), num(sa), num(aa), target)
	}
	fmt.Println()
}

func e2eTable(t *table) {
	fmt.Printf("#### End to end, DynamoDB Local (median of %d alternating rounds)\n\n", t.n(t.rows[0], "sdk", "ops/s"))
	fmt.Println("| callers | sdk ops/s (median) | adjlist ops/s (median) | ratio of medians | adjlist/sdk paired by round (median, min–max) | paired ≥ 1/1.05 = 0.952 | sdk client CPU µs/op | adjlist client CPU µs/op | sdk server CPU µs/op | adjlist server CPU µs/op | sdk allocs/op | adjlist allocs/op |")
	fmt.Println("|--:|--:|--:|--:|---|---|--:|--:|--:|--:|--:|--:|")
	for _, c := range t.rows {
		s, _ := t.med(c, "sdk", "ops/s")
		a, _ := t.med(c, "adjlist", "ops/s")
		// The two implementations alternate within each round: compare
		// them round by round.
		ss, as := t.runs(c, "sdk", "ops/s"), t.runs(c, "adjlist", "ops/s")
		var rs []float64
		for i := range min(len(ss), len(as)) {
			rs = append(rs, as[i]/ss[i])
		}
		if len(rs) == 0 {
			continue
		}
		paired, lo, hi := median(rs), slices.Min(rs), slices.Max(rs)
		sa, _ := t.med(c, "sdk", "allocs/op")
		aa, _ := t.med(c, "adjlist", "allocs/op")
		scc, _ := t.med(c, "sdk", "client-cpu-µs/op")
		acc, _ := t.med(c, "adjlist", "client-cpu-µs/op")
		ssc, _ := t.med(c, "sdk", "server-cpu-µs/op")
		asc, _ := t.med(c, "adjlist", "server-cpu-µs/op")
		fmt.Printf("| %s | %s | %s | %s | %.2f× (%.2f–%.2f) | %s | %s | %s | %s | %s | %s | %s |\n", c, num(s), num(a), ratio(a, s), paired, lo, hi, verdict(paired >= 1/1.05),
			num(scc), num(acc), num(ssc), num(asc), num(sa), num(aa))
	}
	fmt.Println()
}

func bulkTable(t *table) {
	fmt.Printf("#### Bulk load (median of %d rounds)\n\n", t.n(t.rows[0], "", "edges/s"))
	batch, _ := t.med("batch-sdk", "", "edges/s")
	seq, _ := t.med("put-seq-adjlist", "", "edges/s")
	par, _ := t.med("put-4workers-adjlist", "", "edges/s")
	fmt.Println("| way | edges/s | vs hand-written BatchWriteItem | vs one PutItem per edge (sequential) | vs one PutItem per edge (4 workers) |")
	fmt.Println("|---|--:|--:|--:|--:|")
	for _, w := range t.rows {
		v, _ := t.med(w, "", "edges/s")
		fmt.Printf("| %s | %s | %s | %s | %s |\n", w, num(v), ratio(v, batch), ratio(v, seq), ratio(v, par))
	}
	pm, _ := t.med("putmany-adjlist", "", "edges/s")
	fmt.Printf("\nTargets: PutMany ≥ 0.9× BatchWriteItem: %s (%.2f×); PutMany ≥ 3× one PutItem per edge: sequential %s (%.1f×), 4 workers %s (%.1f×).\n\n",
		verdict(pm >= 0.9*batch), pm/batch, verdict(pm >= 3*seq), pm/seq, verdict(pm >= 3*par), pm/par)
}

// pairedTable compares the implementations pass by pass: run.sh runs the
// three implementations of an operation back to back in every pass (in an
// order rotated per pass), so the i-th run of each belongs to the same
// pass, and a ratio within a pass cancels the machine's slower drifts.
func pairedTable(t *table) {
	fmt.Println("\n#### Client-side CPU, paired by pass (ratio within each pass; sign test over the passes)")
	fmt.Println()
	fmt.Println("| operation | passes | adjlist/sdk (median, min–max) | ≤1.10× | adjlist/guregu (median, min–max) | passes adjlist faster than guregu | sign test p (two-sided) | faster than guregu |")
	fmt.Println("|---|--:|--:|---|--:|--:|--:|---|")
	for _, op := range t.rows {
		s, a, g := t.runs(op, "sdk", "cpu-ns/op"), t.runs(op, "adjlist", "cpu-ns/op"), t.runs(op, "guregu", "cpu-ns/op")
		n := min(len(s), len(a), len(g))
		if n == 0 {
			continue
		}
		var rs, rg []float64
		faster := 0
		for i := range n {
			rs = append(rs, a[i]/s[i])
			rg = append(rg, a[i]/g[i])
			if a[i] < g[i] {
				faster++
			}
		}
		p := signTest(faster, n)
		vs := "no difference shown"
		switch {
		case p < 0.05 && 2*faster > n:
			vs = "met"
		case p < 0.05:
			vs = "**missed**"
		}
		fmt.Printf("| %s | %d | %.2f× (%.2f–%.2f) | %s | %.2f× (%.2f–%.2f) | %d of %d | %.3f | %s |\n", op, n,
			median(rs), slices.Min(rs), slices.Max(rs), verdict(median(rs) <= 1.10),
			median(rg), slices.Min(rg), slices.Max(rg), faster, n, p, vs)
	}
}

// signTest is the exact two-sided binomial sign test: the probability, if
// either implementation were equally likely to be faster in a pass, of a
// split at least as uneven as k of n.
func signTest(k, n int) float64 {
	k = min(k, n-k)
	tail := 0.0
	for i := 0; i <= k; i++ {
		tail += binom(n, i)
	}
	return min(1, 2*tail/math.Pow(2, float64(n)))
}

func binom(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}
