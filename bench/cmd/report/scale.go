package main

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// The cost curves (bench/scale.sh): tables on stdout and, with -svg DIR,
// the curves as SVG files in DIR, both from the same samples.

// scaleData holds the BenchmarkScale* samples by benchmark.
type scaleData struct{ load, shards, del, twohop []sample }

func (d *scaleData) add(s sample) bool {
	switch s.bench {
	case "ScaleLoad":
		d.load = append(d.load, s)
	case "ScaleShards":
		d.shards = append(d.shards, s)
	case "ScaleDelete":
		d.del = append(d.del, s)
	case "ScaleTwoHop":
		d.twohop = append(d.twohop, s)
	default:
		return false
	}
	return true
}

// atoi reads a numeric name part (n=, shards=, budget=).
func atoi(s string) int {
	v, _ := strconv.Atoi(s)
	return v
}

// sizes lists the distinct values of the numeric name part key, ascending.
func sizes(ss []sample, key string) []int {
	var out []int
	for _, s := range ss {
		if v := atoi(s.keys[key]); !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// pick returns unit's values of the samples matching every key=value in
// match, in run order.
func pick(ss []sample, unit string, match ...string) []float64 {
	var out []float64
next:
	for _, s := range ss {
		for i := 0; i+1 < len(match); i += 2 {
			if s.keys[match[i]] != match[i+1] {
				continue next
			}
		}
		if v, ok := s.vals[unit]; ok {
			out = append(out, v)
		}
	}
	return out
}

// one returns the median of pick, or NaN when nothing matched.
func one(ss []sample, unit string, match ...string) float64 {
	xs := pick(ss, unit, match...)
	if len(xs) == 0 {
		return math.NaN()
	}
	return median(xs)
}

func scaleReport(d *scaleData, svgDir string) error {
	if len(d.load) > 0 {
		loadTables(d.load)
	}
	if len(d.shards) > 0 {
		shardTable(d.shards)
	}
	if len(d.del) > 0 {
		deleteTable(d.del)
	}
	if len(d.twohop) > 0 {
		twoHopTable(d.twohop)
	}
	if svgDir == "" {
		return nil
	}
	return scaleCurves(d, svgDir)
}

// pairedRatio is PutMany / BatchWriteItem round by round at size n:
// median, min, max and the number of rounds.
func pairedRatio(ss []sample, n string) (med, lo, hi float64, rounds int) {
	var rs []float64
	for r := 1; ; r++ {
		round := strconv.Itoa(r)
		pm := pick(ss, "edges/s", "n", n, "round", round, "way", "putmany-adjlist")
		sdk := pick(ss, "edges/s", "n", n, "round", round, "way", "batch-sdk")
		if len(pm) == 0 {
			break
		}
		if len(sdk) > 0 {
			rs = append(rs, pm[0]/sdk[0])
		}
	}
	if len(rs) == 0 {
		return math.NaN(), math.NaN(), math.NaN(), 0
	}
	return median(rs), slices.Min(rs), slices.Max(rs), len(rs)
}

func loadTables(ss []sample) {
	ns := sizes(ss, "n")
	base := strconv.Itoa(ns[0])
	rate0 := one(ss, "edges/s", "n", base, "way", "putmany-adjlist")
	fmt.Println("#### Bulk load of one node's edges (`Edge.PutMany`, 4 workers; median of the rounds)")
	fmt.Println()
	fmt.Printf("| edges | PutMany rounds | PutMany edges/s | vs %s | BatchWriteItem edges/s | PutMany / BatchWriteItem, paired by round (median, min–max) |\n", base)
	fmt.Println("|--:|--:|--:|--:|--:|--:|")
	worst := 0.0
	for _, n := range ns {
		k := strconv.Itoa(n)
		pm := pick(ss, "edges/s", "n", k, "way", "putmany-adjlist")
		rate := median(pm)
		worst = max(worst, math.Abs(rate/rate0-1))
		sdk, paired := "–", "–"
		if xs := pick(ss, "edges/s", "n", k, "way", "batch-sdk"); len(xs) > 0 {
			sdk = num(median(xs))
			m, lo, hi, _ := pairedRatio(ss, k)
			paired = fmt.Sprintf("%.2f× (%.2f–%.2f)", m, lo, hi)
		}
		fmt.Printf("| %d | %d | %s | %.2f× | %s | %s |\n", n, len(pm), num(rate), rate/rate0, sdk, paired)
	}
	fmt.Printf("\nTargets: edges/s within 10%% of the %s rate at every size: %s (largest deviation %.0f%%)", base, verdict(worst <= 0.10), 100*worst)
	if m, _, _, r := pairedRatio(ss, "100000"); r > 0 {
		fmt.Printf("; PutMany ≥ 0.95× hand-written BatchWriteItem at 100k: %s (%.2f×, median of %d paired rounds)", verdict(m >= 0.95), m, r)
	}
	fmt.Println(".")

	fmt.Println()
	fmt.Println("#### Reading them back: `From(hub).All` (per page) and `.Collect` (all held)")
	fmt.Println()
	fmt.Printf("| edges | Query requests | All ns/edge | vs %s | All ms per Query page | All peak heap MB | Collect ns/edge | Collect peak heap MB |\n", base)
	fmt.Println("|--:|--:|--:|--:|--:|--:|--:|--:|")
	t0 := one(ss, "ns/edge", "n", base, "way", "all-adjlist")
	h0 := one(ss, "peak-heap-MB", "n", base, "way", "all-adjlist")
	worstT, hLast := 0.0, 0.0
	for _, n := range ns {
		k := strconv.Itoa(n)
		t := one(ss, "ns/edge", "n", k, "way", "all-adjlist")
		hLast = one(ss, "peak-heap-MB", "n", k, "way", "all-adjlist")
		worstT = max(worstT, math.Abs(t/t0-1))
		reqs := one(ss, "requests", "n", k, "way", "all-adjlist")
		fmt.Printf("| %d | %.0f | %s | %.2f× | %s | %s | %s | %s |\n", n, reqs,
			num(t), t/t0, num(t*float64(n)/reqs/1e6), num(hLast), num(one(ss, "ns/edge", "n", k, "way", "collect-adjlist")), num(one(ss, "peak-heap-MB", "n", k, "way", "collect-adjlist")))
	}
	fmt.Printf("\nTargets: All's peak heap grows < 2× from %s to %d: %s (%.2f×); time per edge flat within 10%%: %s (largest deviation %.0f%%).\n\n",
		base, ns[len(ns)-1], verdict(hLast < 2*h0), hLast/h0, verdict(worstT <= 0.10), 100*worstT)
}

func shardTable(ss []sample) {
	fmt.Println("#### Sharded reverse read (`To(hot)` over `EdgeOptions.Shards` index partitions)")
	fmt.Println()
	fmt.Println("| shards | first page of 50: ms (median) | requests per page | items read per item returned | ms per page (first 10 pages) | All: requests | All: ms |")
	fmt.Println("|--:|--:|--:|--:|--:|--:|--:|")
	for _, s := range sizes(ss, "shards") {
		k := strconv.Itoa(s)
		fmt.Printf("| %d | %s | %s | %s | %s | %s | %s |\n", s,
			num(one(ss, "first-page-ms", "shards", k, "op", "first-page")),
			strconv.FormatFloat(one(ss, "requests/page", "shards", k, "op", "first-page"), 'f', -1, 64),
			strconv.FormatFloat(one(ss, "read/returned", "shards", k, "op", "pages"), 'f', -1, 64),
			num(one(ss, "ms/page", "shards", k, "op", "pages")),
			strconv.FormatFloat(one(ss, "requests", "shards", k, "op", "all"), 'f', -1, 64),
			num(one(ss, "ms", "shards", k, "op", "all")))
	}
	fmt.Println()
}

func deleteTable(ss []sample) {
	fmt.Println("#### `DeleteNode` of a node with many incoming edges")
	fmt.Println()
	fmt.Println("| incoming edges | edge item bytes | requests | Query | BatchWriteItem | lower bound: Query + BatchWriteItem + 2 | requests / lower bound | seconds |")
	fmt.Println("|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, s := range ss {
		v := s.vals
		fmt.Printf("| %s | %.0f | %.0f | %.0f | %.0f | %.0f + %.0f + 2 = %.0f | %.3f× | %s |\n", s.keys["n"], v["item-bytes"],
			v["requests"], v["queries"], v["batches"], v["lb-queries"], v["lb-batches"], v["lb-requests"], v["requests"]/v["lb-requests"], num(v["s"]))
	}
	fmt.Println()
}

func twoHopTable(ss []sample) {
	fmt.Println("#### `Peers` (TwoHop) under a request budget")
	fmt.Println()
	fmt.Println("| page size | budget | requests used | needed | truncated | peers found | ms |")
	fmt.Println("|---|--:|--:|--:|---|--:|--:|")
	for _, page := range []string{"1MB", "10"} {
		for _, b := range sizes(ss, "budget") {
			k := strconv.Itoa(b)
			used := pick(ss, "requests", "page", page, "budget", k)
			if len(used) == 0 {
				continue
			}
			tr := "no"
			if one(ss, "truncated", "page", page, "budget", k) > 0 {
				tr = "yes"
			}
			fmt.Printf("| %s | %d | %.0f | %.0f | %s | %.0f | %s |\n", page, b, used[0], one(ss, "needed", "page", page, "budget", k),
				tr, one(ss, "peers", "page", page, "budget", k), num(one(ss, "ms", "page", page, "budget", k)))
		}
	}
	fmt.Println()
}

// series is one curve: x and the median y per x of a unit.
func series(ss []sample, xKey string, xs []int, unit string, match ...string) plotter.XYs {
	var out plotter.XYs
	for _, x := range xs {
		y := one(ss, unit, append([]string{xKey, strconv.Itoa(x)}, match...)...)
		if !math.IsNaN(y) {
			out = append(out, plotter.XY{X: float64(x), Y: y})
		}
	}
	return out
}

// newPlot returns a plot with a title and axis labels, log x when logX.
func newPlot(title, x, y string, logX bool) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	if logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	return p
}

// refLine draws y = f(x) over xs, dashed grey, labelled.
func refLine(p *plot.Plot, label string, xs []float64, f func(float64) float64) error {
	var pts plotter.XYs
	for _, x := range xs {
		pts = append(pts, plotter.XY{X: x, Y: f(x)})
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		return err
	}
	l.Color = color.Gray{Y: 128}
	l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(l)
	if label != "" {
		p.Legend.Add(label, l)
	}
	return nil
}

func floats(xs []int) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// scaleCurves writes the SVGs: scale-bulk, scale-all-time, scale-all-heap,
// scale-shards and scale-twohop.
func scaleCurves(d *scaleData, dir string) error {
	save := func(p *plot.Plot, name string) error {
		return p.Save(6*vg.Inch, 4*vg.Inch, filepath.Join(dir, name))
	}
	if len(d.load) > 0 {
		ns := sizes(d.load, "n")
		p := newPlot("Bulk load of one node's edges", "edges", "edges/s (median of rounds)", true)
		pm := series(d.load, "n", ns, "edges/s", "way", "putmany-adjlist")
		if err := plotutil.AddLinePoints(p, "Edge.PutMany", pm, "hand-written BatchWriteItem", series(d.load, "n", ns, "edges/s", "way", "batch-sdk")); err != nil {
			return err
		}
		r0 := pm[0].Y
		if err := refLine(p, "±10% of the first size", floats(ns), func(float64) float64 { return 0.9 * r0 }); err != nil {
			return err
		}
		if err := refLine(p, "", floats(ns), func(float64) float64 { return 1.1 * r0 }); err != nil {
			return err
		}
		p.Y.Min = 0
		p.Legend.Top = false
		if err := save(p, "scale-bulk.svg"); err != nil {
			return err
		}

		p = newPlot("Reading one node's edges back", "edges", "ns per edge", true)
		if err := plotutil.AddLinePoints(p, "All (per page)", series(d.load, "n", ns, "ns/edge", "way", "all-adjlist"),
			"Collect (all held)", series(d.load, "n", ns, "ns/edge", "way", "collect-adjlist")); err != nil {
			return err
		}
		p.Y.Min = 0
		if err := save(p, "scale-all-time.svg"); err != nil {
			return err
		}

		p = newPlot("Go heap while reading one node's edges", "edges", "peak heap above start, MB", true)
		p.Legend.Left = true
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		if err := plotutil.AddLinePoints(p, "All (per page)", series(d.load, "n", ns, "peak-heap-MB", "way", "all-adjlist"),
			"Collect (all held)", series(d.load, "n", ns, "peak-heap-MB", "way", "collect-adjlist")); err != nil {
			return err
		}
		if err := save(p, "scale-all-heap.svg"); err != nil {
			return err
		}
	}
	if len(d.shards) > 0 {
		sh := sizes(d.shards, "shards")
		p := newPlot("Sharded reverse read (To): a page of 50, and every edge", "shards", "ms", false)
		p.Legend.Left = true
		if err := plotutil.AddLinePoints(p, "first page (median)", series(d.shards, "shards", sh, "first-page-ms", "op", "first-page"),
			"pages 1-10 (mean)", series(d.shards, "shards", sh, "ms/page", "op", "pages"),
			"All (every edge)", series(d.shards, "shards", sh, "ms", "op", "all")); err != nil {
			return err
		}
		p.Y.Min = 0
		if err := save(p, "scale-shards.svg"); err != nil {
			return err
		}
	}
	if len(d.twohop) > 0 {
		bs := sizes(d.twohop, "budget")
		p := newPlot("Peers (TwoHop): requests used against the budget", "budget (requests)", "requests used", true)
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		if err := plotutil.AddLinePoints(p, "1 MB pages", series(d.twohop, "budget", bs, "requests", "page", "1MB"),
			"pages of 10", series(d.twohop, "budget", bs, "requests", "page", "10")); err != nil {
			return err
		}
		if err := refLine(p, "used = budget", floats(bs), func(x float64) float64 { return x }); err != nil {
			return err
		}
		p.Legend.Left = true
		if err := save(p, "scale-twohop.svg"); err != nil {
			return err
		}
	}
	return nil
}
