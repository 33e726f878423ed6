package telemetry

import (
	"context"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Usage holds the counts behind adjlist.Usage, which documents them. The
// zero Usage is ready to use; it is safe for concurrent use.
type Usage struct {
	mu sync.Mutex
	t  Totals
}

// Totals is what a Usage has added up, read at once.
type Totals struct {
	Requests              int
	ReadUnits, WriteUnits float64
	Scanned, Matched      int
}

// Totals returns u's counts.
func (u *Usage) Totals() Totals {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.t
}

// addCall records one operation, its CapacityUnits (TOTAL mode) as read
// or write units, and a Query's items scanned and matched.
func (u *Usage) addCall(write bool, ccs []*types.ConsumedCapacity, scanned, matched int32) {
	units := 0.0
	for _, cc := range ccs {
		if cc != nil && cc.CapacityUnits != nil {
			units += *cc.CapacityUnits
		}
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.t.Requests++
	u.t.Scanned += int(scanned)
	u.t.Matched += int(matched)
	if write {
		u.t.WriteUnits += units
	} else {
		u.t.ReadUnits += units
	}
}

// callKey's value is a *Usage (WithUsage) or the call's *Span (Begin),
// which holds the Usage of the context it was opened in.
type callKey struct{}

// WithUsage returns a context whose requests report to u (nil: nowhere).
func WithUsage(ctx context.Context, u *Usage) context.Context {
	return context.WithValue(ctx, callKey{}, u)
}
