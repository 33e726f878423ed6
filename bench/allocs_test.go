package bench

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allocBudget is, per operation of BenchmarkClient, how many allocations
// adjlist may make beyond the hand-written SDK code doing the same request
// and decoding (BENCHMARKS.md's client table). Allocations are
// deterministic, unlike time, so this runs in every CI pass: a change that
// costs allocations on a hot path fails here rather than drifting by.
var allocBudget = map[string]float64{
	"put":   1, // measured +0 (was +6 before the guard stopped being rebuilt, the writeCond went on the stack and the table name pointer was made once; +1 before a put stopped building the context of index key templates for an item type that declares none)
	"get":   0, // measured -3
	"from1": 4, // measured +4: the SDK paginator's copy of the input and its user-agent option
	// Reads of 100 items decode with one decoder per table: far fewer
	// allocations than the hand-written UnmarshalMap per item.
	"from100":       -180, // measured -194
	"to100":         -180, // measured -196
	"loadnode100":   -180, // measured -195
	"collection100": -180, // measured -195
	"range100":      -170, // measured -186
	"filter100":     -80,  // measured -101
	// Entity (template keys: the AWS social network's follower, the
	// gaming profile's partition).
	"entityput":     3,    // measured +3
	"entityget":     0,    // measured -2
	"entitylist100": -180, // measured -193
	// Measured -176 (-167 before each target's slice grew once per page
	// and became one allocation instead of two closures; +33 before a
	// target of another type stopped allocating for items it does not
	// take).
	"loadtypes100": -170,
}

// TestAllocBudgets: every client operation stays within its allocation
// budget over the hand-written floor, through the SDK's whole stack with
// canned responses.
func TestAllocBudgets(t *testing.T) {
	ctx := context.Background()
	for _, op := range clientOps {
		t.Run(op.name, func(t *testing.T) {
			budget, ok := allocBudget[op.name]
			require.True(t, ok, "operation %s has no allocation budget", op.name)
			allocs := map[string]float64{}
			for _, name := range []string{"sdk", "adjlist"} {
				p := newImpl(name, NewCannedClient(NewCanned(op.bodies)))
				_, err := op.run(ctx, p) // warm per-type caches, as measure does
				require.NoError(t, err)
				allocs[name] = testing.AllocsPerRun(50, func() {
					if _, err := op.run(ctx, p); err != nil {
						t.Fatal(err)
					}
				})
			}
			t.Logf("%s: sdk %.0f, adjlist %.0f allocations (%+.0f)", op.name, allocs["sdk"], allocs["adjlist"], allocs["adjlist"]-allocs["sdk"])
			assert.LessOrEqual(t, allocs["adjlist"]-allocs["sdk"], budget,
				"%s: adjlist makes %.0f allocations, the hand-written floor %.0f: over its budget of %+.0f", op.name, allocs["adjlist"], allocs["sdk"], budget)
		})
	}
}
