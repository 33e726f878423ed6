package telemetry

import (
	"context"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Usage holds the counts behind adjlist.Usage, which documents them. The
// zero Usage is ready to use; it is safe for concurrent use.
type Usage struct {
	mu       sync.Mutex
	requests int
	read     float64
	write    float64
	scanned  int
	matched  int
}

// Totals is what a Usage has added up, read at once.
type Totals struct {
	Requests              int
	ReadUnits, WriteUnits float64
	Scanned, Matched      int
}

// Totals returns u's counts, read under u's lock.
func (u *Usage) Totals() Totals {
	u.mu.Lock()
	defer u.mu.Unlock()
	return Totals{u.requests, u.read, u.write, u.scanned, u.matched}
}

// addQuery records a Query response's item counts.
func (u *Usage) addQuery(scanned, matched int32) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.scanned += int(scanned)
	u.matched += int(matched)
}

// addCall records one operation and the capacity it consumed: CapacityUnits
// in TOTAL mode, read units for reads and write units for writes.
func (u *Usage) addCall(write bool, ccs []*types.ConsumedCapacity) {
	units := 0.0
	for _, cc := range ccs {
		if cc != nil && cc.CapacityUnits != nil {
			units += *cc.CapacityUnits
		}
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.requests++
	if write {
		u.write += units
	} else {
		u.read += units
	}
}

// callKey is the context key of what a call's requests report to: a
// *Usage (WithUsage) or the *Span of the call (Begin), which holds the
// Usage of the context it was opened in.
type callKey struct{}

// WithUsage returns a context whose requests report to u (CallOpts); a
// nil u reports nowhere.
func WithUsage(ctx context.Context, u *Usage) context.Context {
	return context.WithValue(ctx, callKey{}, u)
}
