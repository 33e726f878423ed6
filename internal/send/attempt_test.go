package send

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"testing"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An attempt's outcome is unknown unless DynamoDB answered 4xx or the
// connection was never made.
func TestOutcomeUnknown(t *testing.T) {
	dial := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	tests := []struct {
		name   string
		status int
		err    error
		want   bool
	}{
		{"2xx, its body may yet be lost", 200, nil, true},
		{"4xx, not applied", 400, nil, false},
		{"5xx", 500, nil, true},
		{"a failed dial", 0, &url.Error{Op: "Post", URL: "http://ddb", Err: dial}, false},
		{"a reset after the dial", 0, &net.OpError{Op: "read", Net: "tcp", Err: errors.New("connection reset by peer")}, true},
		{"any other transport error", 0, io.ErrUnexpectedEOF, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var resp *http.Response
			if tt.err == nil {
				resp = &http.Response{StatusCode: tt.status}
			}
			assert.Equal(t, tt.want, outcomeUnknown(resp, tt.err))
		})
	}
}

// retryAll is a retryer that retries every error.
type retryAll struct{ aws.Retryer }

func (retryAll) IsErrorRetryable(error) bool { return true }

// Once's retryer wraps the client's: it retries what the client's would
// until an attempt of its call has an unknown outcome, then nothing; and
// errs.ErrOutcomeUnknown wraps a failed call's error only after such an
// attempt.
func TestOnce(t *testing.T) {
	c := &Call{Context: context.Background()}
	o := dynamodb.Options{Retryer: retryAll{}}
	for _, fn := range Once(c, nil) {
		fn(&o)
	}
	failed := errors.New("throttled")
	assert.True(t, o.Retryer.IsErrorRetryable(failed), "no unknown attempt yet")
	assert.Equal(t, failed, c.Unknown(failed))
	c.unknown.Store(true)
	assert.False(t, o.Retryer.IsErrorRetryable(failed), "after an unknown attempt")
	require.ErrorIs(t, c.Unknown(failed), errs.ErrOutcomeUnknown)
	require.ErrorIs(t, c.Unknown(failed), failed)
	assert.NoError(t, c.Unknown(nil))
	_, isV2 := o.Retryer.(aws.RetryerV2)
	assert.True(t, isV2, "a V1 retryer is wrapped as the SDK's middleware takes it")
}
