package counting

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
)

func TestSequence(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"1", "0000000000000000000000000000000000000001", true},
		{"1234567890123456789012345678901234567890", "1234567890123456789012345678901234567890", true},
		{"", "", false},
		{"12345678901234567890123456789012345678901", "", false},
		{"12a", "", false},
	} {
		got, ok := Sequence(tc.in)
		assert.Equal(t, tc.ok, ok, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}

func TestFailed(t *testing.T) {
	a := Counted{Name: "A", Aggregate: map[string]types.AttributeValue{}}
	b := Counted{Name: "B", Aggregate: map[string]types.AttributeValue{}}
	const ccf = "ConditionalCheckFailed"
	for _, tc := range []struct {
		name   string
		codes  []string
		counts []Counted
		gone   bool
		keep   []Counted
	}{
		{"item gone", []string{ccf, "None"}, []Counted{a}, true, nil},
		{"first count item missing", []string{"None", ccf, "None"}, []Counted{a, b}, false, []Counted{b}},
		{"second count item missing", []string{"None", "None", ccf}, []Counted{a, b}, false, []Counted{a}},
		{"conflict only", []string{"None", "TransactionConflict"}, []Counted{a}, false, []Counted{a}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Len(t, Delete(nil, "PK", nil, tc.counts), len(tc.codes), "one reason per action")
			gone, keep := Failed(tc.codes, tc.counts)
			assert.Equal(t, tc.gone, gone)
			assert.Equal(t, tc.keep, keep)
		})
	}
}
