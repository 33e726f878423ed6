package telemetry

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/assert"
)

// Text keeps the text of the SDK's errors, DynamoDB's refusals, context
// errors and the errors own renders, and reduces any other error to its
// Go type.
func TestText(t *testing.T) {
	secret := errors.New("secret-value")
	mine := errors.New("mine")
	own := func(err error) (string, bool) {
		if err == mine {
			return "rendered by own", true
		}
		return "", false
	}
	refused := &smithy.GenericAPIError{Code: "ValidationException", Message: "one or more parameter values were invalid"}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"nil", nil, ""},
		{"own's", fmt.Errorf("%w: %v", mine, secret), "rendered by own"},
		{"DynamoDB's refusal in the SDK's operation error",
			&smithy.OperationError{ServiceID: "DynamoDB", OperationName: "PutItem", Err: refused},
			"operation error DynamoDB: PutItem, api error ValidationException: one or more parameter values were invalid"},
		{"context", fmt.Errorf("%v: %w", secret, context.DeadlineExceeded), "context deadline exceeded"},
		{"an unknown leaf", secret, "*errors.errorString (text not traced)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Text(tt.err, own))
		})
	}
}
