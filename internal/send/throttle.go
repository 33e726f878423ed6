package send

import (
	"errors"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// IsMapped reports whether err already says where DynamoDB throttled
// (adjlist's *ThrottlingError): Of does not look inside it, Join leaves
// out the error it holds.
type IsMapped func(err error) bool

// Where is what DynamoDB says of a request it throttled.
type Where struct {
	// Reason is DynamoDB's first throttling reason, else the error's (or
	// cancellation's) code.
	Reason string
	// Resource is the reason's ARN; Table and Index what it names.
	Resource, Table, Index string
}

// Of returns where the throttling error in err's chain says DynamoDB
// throttled; ok is false for none or a mapped one. It walks the chain
// itself, allocating nothing: every failed call's error passes through.
func Of(err error, mapped IsMapped) (w Where, ok bool) {
	code, reasons, ok, _ := find(err, mapped)
	if !ok {
		return Where{}, false
	}
	w.Reason = code
	if len(reasons) > 0 {
		r := reasons[0]
		if reason := aws.ToString(r.Reason); reason != "" {
			w.Reason = reason
		}
		w.Resource = aws.ToString(r.Resource)
		w.Table, w.Index, _ = resourceOf(w.Resource)
	}
	return w, true
}

// find returns the code and reasons of the throttling error in err's
// chain; mapped when an IsMapped error holds it.
func find(err error, isMapped IsMapped) (code string, reasons []types.ThrottlingReason, ok, mapped bool) {
	for err != nil {
		if isMapped != nil && isMapped(err) {
			return "", nil, false, true
		}
		switch e := err.(type) {
		case *types.ProvisionedThroughputExceededException:
			return e.ErrorCode(), e.ThrottlingReasons, true, false
		case *types.RequestLimitExceeded:
			return e.ErrorCode(), e.ThrottlingReasons, true, false
		case *types.ThrottlingException:
			return e.ErrorCode(), e.ThrottlingReasons, true, false
		case *types.TransactionCanceledException:
			for _, r := range e.CancellationReasons {
				if c := aws.ToString(r.Code); Code(c) {
					return c, nil, true, false
				}
			}
			return "", nil, false, false
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if code, reasons, ok, mapped = find(e, isMapped); ok || mapped {
					return code, reasons, ok, mapped
				}
			}
			return "", nil, false, false
		default:
			return "", nil, false, false
		}
	}
	return "", nil, false, false
}

// Code reports whether a cancellation reason code is throttling.
func Code(code string) bool {
	switch code {
	case "ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded":
		return true
	}
	return false
}

// resourceOf parses ".../table/NAME" or ".../table/NAME/index/INDEX".
func resourceOf(arn string) (table, index string, ok bool) {
	_, res, found := strings.Cut(arn, ":table/")
	if !found {
		return "", "", false
	}
	table, rest, hasIndex := strings.Cut(res, "/index/")
	if table == "" || strings.Contains(table, "/") || hasIndex && (rest == "" || strings.Contains(rest, "/")) {
		return "", "", false
	}
	return table, rest, true
}

// Join joins causes, err and more, leaving err out when a mapped cause
// holds it.
func Join(mapped IsMapped, causes []error, err error, more ...error) error {
	for _, c := range causes {
		if mapped != nil && mapped(c) {
			err = nil // errors.Join skips it
			break
		}
	}
	return errors.Join(append(append(causes, err), more...)...)
}
