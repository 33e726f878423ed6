package adjlist

import (
	"context"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
)

// Usage adds up what DynamoDB calls cost: the requests made and the
// capacity units they consumed, as DynamoDB reports them
// (ReturnConsumedCapacity=TOTAL, which adjlist sets on every request made
// with a context from [WithUsage]). Use it to check that an access pattern
// costs what the design promises, e.g. one request for [Collection.Load].
// The zero Usage is ready to use; it is safe for concurrent use.
type Usage struct {
	mu       sync.Mutex
	requests int
	read     float64
	write    float64
	scanned  int
	matched  int
}

// Requests returns the number of DynamoDB operations called (an operation
// the SDK retries counts once).
func (u *Usage) Requests() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.requests
}

// ReadUnits returns the read capacity units consumed, on the table and its
// indexes.
func (u *Usage) ReadUnits() float64 {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.read
}

// WriteUnits returns the write capacity units consumed, on the table and
// its indexes.
func (u *Usage) WriteUnits() float64 {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.write
}

// Scanned returns how many items the Query requests read (evaluated)
// before any filter expression: the sum of QueryOutput.ScannedCount. Read
// capacity follows this, not what a filter keeps: a filtered query or
// [Query.Count] with [Query.Filter] reads every item of its key range.
func (u *Usage) Scanned() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.scanned
}

// Matched returns how many items the Query requests returned after their
// filter expressions: the sum of QueryOutput.Count. Scanned − Matched is
// what filters dropped (read and billed all the same).
func (u *Usage) Matched() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.matched
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
// *Usage ([WithUsage]) or the *span of the call (startSpan), which
// holds the Usage of the context it was opened in.
type callKey struct{}

// WithUsage returns a context that makes every DynamoDB request adjlist
// sends with it ask for its consumed capacity and add it, with the request
// count, to u.
func WithUsage(ctx context.Context, u *Usage) context.Context {
	return context.WithValue(ctx, callKey{}, u)
}

// callOpts returns the per-call SDK options for ctx: the middleware that
// reports the request to ctx's Usage and to the span of the call it is
// made for, when ctx carries either; nothing otherwise.
func callOpts(ctx context.Context) []func(*dynamodb.Options) {
	var (
		u  *Usage
		sp *span
	)
	switch v := ctx.Value(callKey{}).(type) {
	case *Usage:
		u = v
	case *span:
		u = v.usage
		if !v.quiet {
			sp = v
		}
	}
	if u == nil && sp == nil {
		return nil
	}
	return []func(*dynamodb.Options){func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Initialize.Add(callMiddleware(u, sp), middleware.After)
		})
	}}
}

// callMiddleware sets ReturnConsumedCapacity=TOTAL on the request and adds
// the response's consumed capacity to u, and with the items it returned
// and the index it read, to sp; either may be nil.
func callMiddleware(u *Usage, sp *span) middleware.InitializeMiddleware {
	return middleware.InitializeMiddlewareFunc("adjlistUsage", func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		const total = types.ReturnConsumedCapacityTotal
		write := false
		index := ""
		switch p := in.Parameters.(type) {
		case *dynamodb.GetItemInput:
			p.ReturnConsumedCapacity = total
		case *dynamodb.QueryInput:
			p.ReturnConsumedCapacity = total
			index = aws.ToString(p.IndexName)
		case *dynamodb.ScanInput:
			p.ReturnConsumedCapacity = total
			index = aws.ToString(p.IndexName)
		case *dynamodb.BatchGetItemInput:
			p.ReturnConsumedCapacity = total
		case *dynamodb.TransactGetItemsInput:
			p.ReturnConsumedCapacity = total
		case *dynamodb.PutItemInput:
			p.ReturnConsumedCapacity, write = total, true
		case *dynamodb.UpdateItemInput:
			p.ReturnConsumedCapacity, write = total, true
		case *dynamodb.DeleteItemInput:
			p.ReturnConsumedCapacity, write = total, true
		case *dynamodb.BatchWriteItemInput:
			p.ReturnConsumedCapacity, write = total, true
		case *dynamodb.TransactWriteItemsInput:
			p.ReturnConsumedCapacity, write = total, true
		}
		out, md, err := next.HandleInitialize(ctx, in)
		var ccs []*types.ConsumedCapacity
		items := 0
		switch r := out.Result.(type) {
		case *dynamodb.GetItemOutput:
			ccs = append(ccs, r.ConsumedCapacity)
			if r.Item != nil {
				items = 1
			}
		case *dynamodb.QueryOutput:
			ccs = append(ccs, r.ConsumedCapacity)
			items = len(r.Items)
			if u != nil {
				u.addQuery(r.ScannedCount, r.Count)
			}
		case *dynamodb.ScanOutput:
			ccs = append(ccs, r.ConsumedCapacity)
			items = len(r.Items)
		case *dynamodb.PutItemOutput:
			ccs = append(ccs, r.ConsumedCapacity)
		case *dynamodb.UpdateItemOutput:
			ccs = append(ccs, r.ConsumedCapacity)
		case *dynamodb.DeleteItemOutput:
			ccs = append(ccs, r.ConsumedCapacity)
		case *dynamodb.BatchGetItemOutput:
			ccs = appendAll(ccs, r.ConsumedCapacity)
			for _, got := range r.Responses {
				items += len(got)
			}
		case *dynamodb.TransactGetItemsOutput:
			ccs = appendAll(ccs, r.ConsumedCapacity)
			for _, got := range r.Responses {
				if got.Item != nil {
					items++
				}
			}
		case *dynamodb.BatchWriteItemOutput:
			ccs = appendAll(ccs, r.ConsumedCapacity)
		case *dynamodb.TransactWriteItemsOutput:
			ccs = appendAll(ccs, r.ConsumedCapacity)
		}
		if u != nil {
			u.addCall(write, ccs)
		}
		if sp != nil {
			sp.addCall(items, index, ccs)
		}
		return out, md, err
	})
}

func appendAll(dst []*types.ConsumedCapacity, src []types.ConsumedCapacity) []*types.ConsumedCapacity {
	for i := range src {
		dst = append(dst, &src[i])
	}
	return dst
}
