package attempt

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
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
