package adjlist

import (
	"context"

	"github.com/adjlist/adjlist/internal/telemetry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Usage adds up what DynamoDB calls cost: the requests made and the
// capacity units they consumed, as DynamoDB reports them
// (ReturnConsumedCapacity=TOTAL, which adjlist sets on every request made
// with a context from [WithUsage]). Use it to check that an access pattern
// costs what the design promises, e.g. one request for [Collection.Load].
// The zero Usage is ready to use; it is safe for concurrent use.
type Usage struct{ c telemetry.Usage }

// Requests returns the number of DynamoDB operations called (an operation
// the SDK retries counts once).
func (u *Usage) Requests() int { return u.c.Requests() }

// ReadUnits returns the read capacity units consumed, on the table and its
// indexes.
func (u *Usage) ReadUnits() float64 { return u.c.ReadUnits() }

// WriteUnits returns the write capacity units consumed, on the table and
// its indexes.
func (u *Usage) WriteUnits() float64 { return u.c.WriteUnits() }

// Scanned returns how many items the Query requests read (evaluated)
// before any filter expression: the sum of QueryOutput.ScannedCount. Read
// capacity follows this, not what a filter keeps: a filtered query or
// [Query.Count] with [Query.Filter] reads every item of its key range.
func (u *Usage) Scanned() int { return u.c.Scanned() }

// Matched returns how many items the Query requests returned after their
// filter expressions: the sum of QueryOutput.Count. Scanned − Matched is
// what filters dropped (read and billed all the same).
func (u *Usage) Matched() int { return u.c.Matched() }

// WithUsage returns a context that makes every DynamoDB request adjlist
// sends with it ask for its consumed capacity and add it, with the request
// count, to u.
func WithUsage(ctx context.Context, u *Usage) context.Context {
	if u == nil {
		return telemetry.WithUsage(ctx, nil)
	}
	return telemetry.WithUsage(ctx, &u.c)
}

// callOpts returns the per-call SDK options for ctx
// (telemetry.CallOpts): the middleware that reports the request to ctx's
// Usage and to the span of the call it is made for, if any.
func callOpts(ctx context.Context) []func(*dynamodb.Options) {
	return telemetry.CallOpts(ctx)
}
