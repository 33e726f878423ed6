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

// UsageTotals is what a [Usage] has added up.
type UsageTotals struct {
	// Requests is the number of DynamoDB operations called (an operation
	// the SDK retries counts once).
	Requests int
	// ReadUnits and WriteUnits are the read and write capacity units
	// consumed, on the table and its indexes.
	ReadUnits, WriteUnits float64
	// Scanned is how many items the Query requests read (evaluated) before
	// any filter expression: the sum of QueryOutput.ScannedCount. Read
	// capacity follows this, not what a filter keeps: a filtered query or
	// [Query.Count] with [Query.Filter] reads every item of its key range.
	Scanned int
	// Matched is how many items the Query requests returned after their
	// filter expressions: the sum of QueryOutput.Count. Scanned − Matched
	// is what filters dropped (read and billed all the same).
	Matched int
}

// Totals returns what u has added up so far, all read at once: safe while
// requests still report to u.
func (u *Usage) Totals() UsageTotals { return UsageTotals(u.c.Totals()) }

// WithUsage returns a context that makes every DynamoDB request adjlist
// sends with it ask for its consumed capacity and add it, with the request
// count, to u.
func WithUsage(ctx context.Context, u *Usage) context.Context {
	if u == nil {
		return telemetry.WithUsage(ctx, nil)
	}
	return telemetry.WithUsage(ctx, &u.c)
}

// callOpts are the SDK options that report a request to ctx's Usage and span.
func callOpts(ctx context.Context) []func(*dynamodb.Options) {
	return telemetry.CallOpts(ctx)
}
