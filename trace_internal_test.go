package adjlist

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A table without a TracerProvider pays nothing for tracing: opening and
// ending a call's span, and the per-call options of a context without a
// Usage, allocate nothing.
func TestUntracedSpanAllocatesNothing(t *testing.T) {
	table := NewTable(nil, "t")
	ctx := context.Background()
	failure := errors.New("failed")
	allocs := testing.AllocsPerRun(100, func() {
		sctx, sp := table.startSpan(ctx, "Node.Get")
		if callOpts(sctx) != nil {
			t.Fatal("per-call options without a Usage or a span")
		}
		err := failure
		sp.end(&err)
		_ = sp.done(err)
		_ = sp.failed(err)
	})
	assert.Zero(t, allocs)
}
