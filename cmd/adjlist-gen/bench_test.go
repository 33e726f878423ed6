package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
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
