package telemetry

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
)

// CallOpts returns the SDK options reporting a request to ctx's Usage and
// call span; nil when ctx carries neither.
func CallOpts(ctx context.Context) []func(*dynamodb.Options) {
	var (
		u  *Usage
		sp *Span
	)
	switch v := ctx.Value(callKey{}).(type) {
	case *Usage:
		u = v
	case *Span:
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

// callMiddleware asks for ReturnConsumedCapacity=TOTAL and adds the
// capacity to u, and with the items and index to sp; either may be nil.
func callMiddleware(u *Usage, sp *Span) middleware.InitializeMiddleware {
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
		var scanned, matched int32 // a Query's
		switch r := out.Result.(type) {
		case *dynamodb.GetItemOutput:
			ccs = append(ccs, r.ConsumedCapacity)
			if r.Item != nil {
				items = 1
			}
		case *dynamodb.QueryOutput:
			ccs = append(ccs, r.ConsumedCapacity)
			items = len(r.Items)
			scanned, matched = r.ScannedCount, r.Count
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
			u.addCall(write, ccs, scanned, matched)
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
