package walks

import (
	"context"
	"math"
	"slices"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"golang.org/x/sync/errgroup"
	"golang.org/x/time/rate"

	"github.com/adjlist/adjlist/internal/ddbexpr"
	"github.com/adjlist/adjlist/internal/paging"
)

// Input is one walk.
type Input struct {
	// Request is the Scan every segment sends; Run sets Segment,
	// TotalSegments, ExclusiveStartKey and, with a ReadUnitRate,
	// ReturnConsumedCapacity.
	Request dynamodb.ScanInput
	// From holds a place per segment (TotalSegments is its length).
	From Position
	// RequestRate and ReadUnitRate, when positive, bound the requests and
	// read capacity units per second, all segments together.
	RequestRate, ReadUnitRate float64
	// Progress, if set, is called after each page; calls do not overlap.
	Progress func(Progress)
	Options  []func(*dynamodb.Options) // of every request
}

// Progress is a walk's state after a page.
type Progress struct {
	Scanned, Matched int    // items read, and those each reported matching
	Position         string // resumes after the pages handled so far
}

// Each handles an item read by segment seg and reports whether it
// matched. It is called from each segment's goroutine, in the segment's
// order.
type Each func(ctx context.Context, seg int, item map[string]types.AttributeValue) (bool, error)

// Run scans in's segments in parallel, handing each item to each, and
// returns "" when every segment is read to the end. On the first error it
// stops every segment and returns the error with the position after the
// last page each segment handed on in full.
func Run(ctx context.Context, api dynamodb.ScanAPIClient, in Input, each Each) (string, error) {
	var (
		mu       sync.Mutex
		pos      = Position{Segments: slices.Clone(in.From.Segments)}
		progress Progress
	)
	requests, units := newPacer(in.RequestRate), newPacer(in.ReadUnitRate)
	g, gctx := errgroup.WithContext(ctx)
	for seg, place := range pos.Segments {
		if place.Done {
			continue
		}
		req := in.Request
		req.Segment, req.TotalSegments = aws.Int32(int32(seg)), aws.Int32(int32(len(pos.Segments)))
		if units != nil {
			req.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
		}
		g.Go(func() (err error) {
			if req.ExclusiveStartKey, err = paging.StartKey(place.Key, place.Num, ddbexpr.NumberText); err != nil {
				return err
			}
			pages, fetched := prefetch(gctx, dynamodb.NewScanPaginator(api, &req), in.Options, requests, units)
			defer fetched()
			for out := range pages {
				matched := 0
				for _, item := range out.Items {
					ok, err := each(gctx, seg, item)
					if err != nil {
						return err
					}
					if ok {
						matched++
					}
				}
				place, err := paging.After(out.LastEvaluatedKey)
				if err != nil {
					return err
				}
				mu.Lock()
				pos.Segments[seg] = place
				progress.Scanned += int(out.ScannedCount)
				progress.Matched += matched
				if in.Progress != nil {
					progress.Position = pos.String()
					in.Progress(progress)
				}
				mu.Unlock()
			}
			return fetched()
		})
	}
	if err := g.Wait(); err != nil {
		mu.Lock()
		defer mu.Unlock()
		return pos.String(), err
	}
	return "", nil
}

// prefetch reads a segment's pages one ahead, so that the time spent on a
// page's items overlaps the request for the next, paced by requests and
// units. done stops the reading, waits for it and returns its error; the
// caller must call it, and may call it again.
func prefetch(ctx context.Context, pages *dynamodb.ScanPaginator, opts []func(*dynamodb.Options), requests, units *pacer) (<-chan *dynamodb.ScanOutput, func() error) {
	ctx, cancel := context.WithCancel(ctx)
	out := make(chan *dynamodb.ScanOutput, 1)
	var err error
	go func() {
		defer close(out)
		err = func() error {
			for pages.HasMorePages() {
				if err := requests.wait(ctx, 1); err != nil {
					return err
				}
				page, err := pages.NextPage(ctx, opts...)
				if err != nil {
					return err
				}
				if cc := page.ConsumedCapacity; cc != nil {
					if err := units.wait(ctx, aws.ToFloat64(cc.CapacityUnits)); err != nil {
						return err
					}
				}
				select {
				case out <- page:
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			return nil
		}()
	}()
	done := func() error {
		cancel()
		for range out { // until the reader has ended: err is set
		}
		return err
	}
	return out, done
}

// pacer bounds a rate shared by a walk's segments; a nil pacer does not.
type pacer struct {
	lim   *rate.Limiter
	burst int
}

// newPacer paces at perSecond (0: nil, unbounded) with a bucket of one
// second's worth, at least one.
func newPacer(perSecond float64) *pacer {
	if perSecond <= 0 {
		return nil
	}
	burst := max(1, int(math.Ceil(perSecond)))
	return &pacer{lim: rate.NewLimiter(rate.Limit(perSecond), burst), burst: burst}
}

// wait takes n (rounded up) from the bucket, a burst at a time.
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
