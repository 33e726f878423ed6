package walks

import (
	"context"
	"math"

	"golang.org/x/time/rate"
)

// pacer bounds a rate shared by a walk's segments; a nil pacer does not.
type pacer struct {
	lim   *rate.Limiter
	burst int
}

// newPacer paces at perSecond, or returns nil for 0 (unbounded): a token
// bucket holding one second's worth, at least one.
func newPacer(perSecond float64) *pacer {
	if perSecond <= 0 {
		return nil
	}
	burst := max(1, int(math.Ceil(perSecond)))
	return &pacer{lim: rate.NewLimiter(rate.Limit(perSecond), burst), burst: burst}
}

// wait takes n (rounded up) from the bucket, waiting until they fit.
func (p *pacer) wait(ctx context.Context, n float64) error {
	if p == nil {
		return nil
	}
	for left := int(math.Ceil(n)); left > 0; left -= p.burst {
		if err := p.lim.WaitN(ctx, min(left, p.burst)); err != nil {
			return err
		}
	}
	return nil
}
