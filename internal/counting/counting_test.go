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
	a := Counted{Name: "A", Marker: map[string]types.AttributeValue{}}
	b := Counted{Name: "B", Marker: map[string]types.AttributeValue{}}
	n := Counted{Name: "N"} // no marker checked
	const ccf = "ConditionalCheckFailed"
	for _, tc := range []struct {
		name   string
		codes  []string
		counts []Counted
		gone   bool
		keep   []Counted
	}{
		{"edge gone", []string{ccf, "None", "None"}, []Counted{a}, true, nil},
		{"aggregate missing", []string{"None", ccf, "None", "None", "None"}, []Counted{a, b}, false, []Counted{b}},
		{"marker present", []string{"None", "None", "None", "None", ccf}, []Counted{a, b}, false, []Counted{a}},
		{"no marker checked", []string{"None", "None", ccf, "None"}, []Counted{n, a}, false, []Counted{n}},
		{"conflict only", []string{"None", "TransactionConflict", "None"}, []Counted{a}, false, []Counted{a}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Len(t, Delete(nil, "PK", nil, tc.counts), len(tc.codes), "one reason per action")
			gone, keep := Failed(tc.codes, tc.counts)
			assert.Equal(t, tc.gone, gone)
			assert.Equal(t, tc.keep, keep)
		})
	}
}
