package adjlist_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// conditionFailed reports whether err says that a condition evaluated false,
// the way a caller tells it from the SDK's errors the library keeps.
func conditionFailed(err error) bool {
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		return true
	}
	var tce *types.TransactionCanceledException
	if errors.As(err, &tce) {
		for _, r := range tce.CancellationReasons {
			if aws.ToString(r.Code) == "ConditionalCheckFailed" {
				return true
			}
		}
	}
	return false
}

// A failed condition keeps the SDK's exception, for errors.As, and nothing
// else looks like one.
func TestConditionFailedReachable(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", math204))
	dup := s.enrolled.Put(ctx, "a91", "math204", Enrollment{Grade: "F"})
	_, missing := s.enrolled.Update(ctx, "a91", "cs101", adjlist.Set("grade", "A"))
	gone := s.enrolled.Delete(ctx, "b30", "cs101")
	_, notFound := s.enrolled.Get(ctx, "b30", "cs101")

	reasons := func(codes ...string) error {
		tce := &types.TransactionCanceledException{}
		for _, c := range codes {
			tce.CancellationReasons = append(tce.CancellationReasons, types.CancellationReason{Code: aws.String(c)})
		}
		return fmt.Errorf("TransactWriteItems: %w", tce)
	}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"duplicate put", dup, true},
		{"update of a missing edge", missing, true},
		{"delete of a missing edge", gone, true},
		{"get of a missing edge (no condition)", notFound, false},
		{"transaction cancelled by a condition", reasons("None", "ConditionalCheckFailed"), true},
		{"transaction cancelled by a conflict", reasons("TransactionConflict", "None"), false},
		{"other error", errors.New("boom"), false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, conditionFailed(tt.err))
		})
	}
}

// Errors name the operation, table and keys, and keep the SDK's types.
func TestOpError(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", math204))
	err := s.enrolled.Put(ctx, "a91", "math204", Enrollment{Grade: "F"})
	var op *adjlist.OpError
	require.ErrorAs(t, err, &op)
	assert.Equal(t, adjlist.OpError{Op: "Edge.Put", Table: s.table.Name(), PK: "STU#a91", SK: "ENROLL#CRS#math204", Err: op.Err}, *op)
	require.ErrorIs(t, err, adjlist.ErrExists)
	require.ErrorIs(t, err, adjlist.ErrExists)
	var ccf *types.ConditionalCheckFailedException
	require.ErrorAs(t, err, &ccf)

	_, err = s.enrolled.To("math204").Collect(ctx, adjlist.Consistent)
	require.ErrorAs(t, err, &op)
	assert.Equal(t, "GSI1", op.Index)
	assert.Equal(t, "CRS#math204", op.PK)
}
