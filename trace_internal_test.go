package adjlist

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/adjlist/adjlist/internal/telemetry"
	"github.com/stretchr/testify/assert"
)

// A table without a TracerProvider pays nothing for tracing: opening and
// ending a call's span, and the per-call options of a context without a
// Usage, allocate nothing.
func TestUntracedSpanAllocatesNothing(t *testing.T) {
	table := NewTable(nil, "t")
	ctx := context.Background()
	failure := errors.New("failed")
	allocs := testing.AllocsPerRun(100, func() {
		sctx, sp := table.startSpan(ctx, "Node.Get")
		if callOpts(sctx) != nil {
			t.Fatal("per-call options without a Usage or a span")
		}
		err := failure
		sp.End(&err)
		_ = sp.Done(err)
		_ = sp.Failed(err)
	})
	assert.Zero(t, allocs)
}

// valueErr is an error of a non-pointer type that wraps another.
type valueErr struct{ err error }

func (v valueErr) Error() string { return "value: " + v.err.Error() }
func (v valueErr) Unwrap() error { return v.err }

// A span's text (telemetry.Text with this package's spanText) keeps the
// text of errors known to hold no item data and reduces every other error
// to its Go type; fmt.Errorf's own text goes.
func TestSpanText(t *testing.T) {
	secret := errors.New("secret-value")
	op := func(err error) error {
		return &OpError{Op: "Node.Get", Table: "t", PK: "STU#a91", SK: "PROFILE", Err: err}
	}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"a sentinel in an OpError", op(ErrNotFound), `adjlist: Node.Get t "STU#a91" "PROFILE": item not found`},
		{"a sentinel of another kind", op(errs.ErrEdgeExists), `adjlist: Node.Get t "STU#a91" "PROFILE": edge already exists`},
		{"a key error", op(&KeyError{ID: "", Reason: "empty"}), `adjlist: Node.Get t "STU#a91" "PROFILE": invalid key "": empty`},
		{"an unknown leaf", op(secret), `adjlist: Node.Get t "STU#a91" "PROFILE": *errors.errorString (text not traced)`},
		{"fmt.Errorf's text around %w", fmt.Errorf("%w: %v", ErrInvalidOption, secret), "adjlist: invalid option"},
		{"two %w", fmt.Errorf("%w: %w", ErrExists, secret), "adjlist: item already exists: *errors.errorString (text not traced)"},
		{"errors.Join", errors.Join(ErrTxConflict, secret), "adjlist: transaction conflict\n*errors.errorString (text not traced)"},
		{"a wrapper of a value type", valueErr{secret}, "adjlist.valueErr: *errors.errorString (text not traced)"},
		{"context", fmt.Errorf("waiting: %w", context.Canceled), "context canceled"},
		{"throttled", &ThrottlingError{Reason: "TableWriteKeyRangeThroughputExceeded", Table: "t", PK: "STU#a91", Err: secret},
			`adjlist: throttled (TableWriteKeyRangeThroughputExceeded) on t partition "STU#a91": *errors.errorString (text not traced)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, telemetry.Text(tt.err, spanText))
			assert.NotContains(t, telemetry.Text(tt.err, spanText), "secret")
		})
	}
}
