package main

import (
	"context"
	"io"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// BenchmarkGenerate generates the package of adjlist's social example
// export: 1,005 sample items, two item types, a sharded index. One
// generation (parse, inference, the round trip of every item through its
// Go type, rendering, gofmt) must take under a second.
func BenchmarkGenerate(b *testing.B) {
	src, err := os.ReadFile("testdata/adjlist/social.json")
	require.NoError(b, err)
	for b.Loop() {
		files, _, err := generate(src, "social", "social.json")
		if err != nil || len(files) != 2 {
			b.Fatal(err)
		}
	}
}

// BenchmarkSample compares -table's sampling read of a live table (its
// Scan through the SDK's paginator, pages of at most -sample items,
// progress lines, then the items put in key order: scanSample and
// sortByKeys) with a bare dynamodb.NewScanPaginator loop over the same
// table, on DynamoDB Local: adjlist's social example, 1,005 items written
// raw, every one read by both (-sample 2000). It times the whole of
// readTable too, which adds DescribeTable, sent while the Scan runs. Each
// iteration runs the three in rotating order, so that a busy machine slows
// them alike; it reports the median time of each (ms) and the medians of
// the per-iteration ratios to the bare loop: sample/scan must stay within
// 1.1.
func BenchmarkSample(b *testing.B) {
	db := ddbtest.Client(b)
	g := built(b, "testdata/adjlist/social.json")
	name := ddbtest.TableName(b)
	createRaw(b, db, name, g.m.tables[0])
	n := len(g.m.tables[0].items)
	ctx := context.Background()
	scan := func() {
		read := 0
		p := dynamodb.NewScanPaginator(db, &dynamodb.ScanInput{TableName: aws.String(name)})
		for p.HasMorePages() {
			page, err := p.NextPage(ctx)
			if err != nil {
				b.Fatal(err)
			}
			read += len(page.Items)
		}
		if read != n {
			b.Fatalf("read %d items, want %d", read, n)
		}
	}
	sample := func() {
		items, _, err := scanSample(ctx, db, name, 2000, io.Discard)
		if err != nil || len(items) != n {
			b.Fatalf("%v: read %d items, want %d", err, len(items), n)
		}
		sortByKeys(items, "PK", "SK")
	}
	table := func() {
		f, err := readTable(ctx, db, "DynamoDB Local", name, 2000, io.Discard)
		if err != nil || len(f.DataModel[0].live) != n {
			b.Fatal(err)
		}
	}
	fs := []func(){scan, sample, table}
	times := make([][]float64, len(fs))
	var toSample, toTable []float64
	for i := 0; b.Loop(); i++ {
		took := make([]float64, len(fs))
		for j := range fs {
			k := (i + j) % len(fs)
			start := time.Now()
			fs[k]()
			took[k] = float64(time.Since(start)) / 1e6
			times[k] = append(times[k], took[k])
		}
		toSample, toTable = append(toSample, took[1]/took[0]), append(toTable, took[2]/took[0])
	}
	median := func(v []float64) float64 {
		slices.Sort(v)
		return v[len(v)/2]
	}
	b.ReportMetric(median(times[0]), "scan-ms")
	b.ReportMetric(median(times[1]), "sample-ms")
	b.ReportMetric(median(times[2]), "table-ms")
	b.ReportMetric(median(toSample), "sample/scan")
	b.ReportMetric(median(toTable), "table/scan")
}
