package telemetry

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"reflect"
	"strings"
	"syscall"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	semconv "go.opentelemetry.io/otel/semconv/v1.39.0"
)

// OwnText renders adjlist's own errors, whose texts hold no item data
// (their causes with Text); ok is false for any other error.
type OwnText func(err error) (text string, ok bool)

// Text is err's text as a span records it, holding no item data
// (Options.TracerProvider promises it): own's errors, the SDK's request
// and response errors, DynamoDB's refusals, context and network errors
// show their text; of any other (attributevalue's quote the value) only
// the Go type shows ("*errors.errorString (text not traced)"), and
// fmt.Errorf's text around a %w is left out. The error returned keeps all.
func Text(err error, own OwnText) string {
	if err == nil {
		return ""
	}
	if own != nil {
		if text, ok := own(err); ok {
			return text
		}
	}
	switch e := err.(type) {
	case *net.OpError, *net.DNSError, syscall.Errno:
		return err.Error()
	case *smithy.OperationError:
		return fmt.Sprintf("operation error %s: %s, %s", e.ServiceID, e.OperationName, Text(e.Err, own))
	case *awshttp.ResponseError:
		return fmt.Sprintf("https response error StatusCode: %d, RequestID: %s, %s", e.HTTPStatusCode(), e.RequestID, Text(e.Err, own))
	case *smithyhttp.ResponseError:
		return fmt.Sprintf("http response error StatusCode: %d, %s", e.HTTPStatusCode(), Text(e.Err, own))
	case *smithyhttp.RequestSendError:
		return "request send failed, " + Text(e.Err, own)
	case *smithy.CanceledError:
		return "canceled, " + Text(e.Err, own)
	case *retry.MaxAttemptsError:
		return fmt.Sprintf("exceeded maximum number of attempts, %d, %s", e.Attempt, Text(e.Err, own))
	case *url.Error:
		return fmt.Sprintf("%s %q: %s", e.Op, e.URL, Text(e.Err, own))
	case *attributevalue.UnmarshalError:
		return fmt.Sprintf("unmarshal failed, cannot unmarshal into %s (%T)", e.Type, err)
	case *attributevalue.UnmarshalTypeError:
		return fmt.Sprintf("unmarshal failed, cannot unmarshal into Go value type %s (%T)", e.Type, err)
	case smithy.APIError:
		if _, wraps := err.(interface{ Unwrap() error }); !wraps {
			return err.Error() // DynamoDB's code and message
		}
	}
	if err == context.Canceled || err == context.DeadlineExceeded {
		return err.Error()
	}
	t := reflect.TypeOf(err)
	fromFmt := t.Kind() == reflect.Pointer && t.Elem().PkgPath() == "fmt" // fmt.Errorf's wrappers
	switch u := err.(type) {
	case interface{ Unwrap() []error }: // fmt.Errorf("%w: %w"), errors.Join
		sep := "\n"
		if fromFmt {
			sep = ": "
		}
		texts := make([]string, 0, 2)
		for _, e := range u.Unwrap() {
			texts = append(texts, Text(e, own))
		}
		return strings.Join(texts, sep)
	case interface{ Unwrap() error }:
		if fromFmt {
			return Text(u.Unwrap(), own)
		}
		return t.String() + ": " + Text(u.Unwrap(), own)
	}
	return t.String() + " (text not traced)"
}

// typeName is exception.type as RecordError names it: "*adjlist.OpError".
func typeName(err error) string {
	t := reflect.TypeOf(err)
	if t.PkgPath() == "" && t.Name() == "" {
		return t.String()
	}
	return t.PkgPath() + "." + t.Name()
}

// errorType is error.type: DynamoDB's error code
// ("ConditionalCheckFailedException"), else "_OTHER".
func errorType(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return semconv.ErrorTypeOther.Value.AsString()
}
