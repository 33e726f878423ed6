package adjlist

import (
	"context"
	"errors"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// A conditional put whose condition fails on an item exactly like the one
// being written wrote that item itself only if an earlier attempt of the
// same call may have been applied: the SDK retried after a lost response
// (a 5xx, a reset connection). The SDK's retry middleware numbers each
// attempt in the request's Amz-Sdk-Request header ("attempt=2; max=3");
// retriedMark, in the Finalize step right after it, marks an error of an
// attempt after the first, and Table.put reads the mark. A client that
// ignores per-call options never marks: its duplicates are reported.

// retriedError is an error of a call the SDK had already attempted.
type retriedError struct{ err error }

func (e *retriedError) Error() string { return e.err.Error() }
func (e *retriedError) Unwrap() error { return e.err }

// retriedMark wraps the error of any attempt but the first in retriedError.
var retriedMark = middleware.FinalizeMiddlewareFunc("adjlistRetried", func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
	out, md, err := next.HandleFinalize(ctx, in)
	if err != nil {
		if req, ok := in.Request.(*smithyhttp.Request); ok {
			if attempt := req.Header.Get("Amz-Sdk-Request"); attempt != "" && !strings.HasPrefix(attempt, "attempt=1;") && attempt != "attempt=1" {
				err = &retriedError{err}
			}
		}
	}
	return out, md, err
})

// addRetriedMark puts retriedMark right after the SDK's retry middleware.
func addRetriedMark(stack *middleware.Stack) error {
	return stack.Finalize.Insert(retriedMark, "Retry", middleware.After)
}

// withRetriedMark is the per-call option that adds retriedMark.
func withRetriedMark(o *dynamodb.Options) { o.APIOptions = append(o.APIOptions, addRetriedMark) }

// withMark returns a conditional put's per-call options: opts (callOpts)
// plus retriedMark, without allocating when opts is empty.
func withMark(opts []func(*dynamodb.Options)) []func(*dynamodb.Options) {
	if opts != nil {
		return append(opts, withRetriedMark)
	}
	return retriedOnly
}

var retriedOnly = []func(*dynamodb.Options){withRetriedMark}

// wasRetried reports whether err comes from an attempt after the first.
func wasRetried(err error) bool {
	var r *retriedError
	return errors.As(err, &r)
}
