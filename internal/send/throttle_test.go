package send

import (
	"errors"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
)

// Every failed call's error passes through Of: it allocates nothing,
// whatever it finds.
func TestThrottlingAllocatesNothing(t *testing.T) {
	plain := fmt.Errorf("%w: %w", errors.New("item not found"), errors.New("cause"))
	joined := errors.Join(errors.New("transaction conflict"), &types.ProvisionedThroughputExceededException{})
	allocs := testing.AllocsPerRun(100, func() {
		if _, ok := Of(plain, nil); ok {
			t.Fatal("not throttled")
		}
		if w, ok := Of(joined, nil); !ok || w.Reason != "ProvisionedThroughputExceededException" {
			t.Fatal("throttled")
		}
	})
	assert.Zero(t, allocs)
}

func TestResourceOf(t *testing.T) {
	for _, tc := range []struct {
		arn, table, index string
		ok                bool
	}{
		{"arn:aws:dynamodb:eu-west-1:123456789012:table/school", "school", "", true},
		{"arn:aws:dynamodb:eu-west-1:123456789012:table/school/index/GSI1", "school", "GSI1", true},
		{"arn:aws:dynamodb:eu-west-1:123456789012:table/school/stream/2026", "", "", false},
		{"arn:aws:dynamodb:eu-west-1:123456789012:table/school/index/", "", "", false},
		{"not-an-arn", "", "", false},
		{"", "", "", false},
	} {
		table, index, ok := resourceOf(tc.arn)
		assert.Equal(t, tc.ok, ok, tc.arn)
		assert.Equal(t, tc.table, table, tc.arn)
		assert.Equal(t, tc.index, index, tc.arn)
	}
}
