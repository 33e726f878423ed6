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

// Requests is the number of operations called.
func (u *Usage) Requests() int { return locked(u, &u.requests) }

// ReadUnits is the read capacity units consumed.
func (u *Usage) ReadUnits() float64 { return locked(u, &u.read) }

// WriteUnits is the write capacity units consumed.
func (u *Usage) WriteUnits() float64 { return locked(u, &u.write) }

// Scanned is the sum of the Query responses' ScannedCount.
func (u *Usage) Scanned() int { return locked(u, &u.scanned) }

// Matched is the sum of the Query responses' Count.
func (u *Usage) Matched() int { return locked(u, &u.matched) }

// locked reads the count at p, one of u's, under u's lock.
func locked[T int | float64](u *Usage, p *T) T {
	u.mu.Lock()
	defer u.mu.Unlock()
	return *p
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
