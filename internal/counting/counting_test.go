package counting

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// TestAdd pins the update Add sends, and Delete's count-down, which is
// Add of -1 on a count item that must exist: the requests are the ones
// the cascade, the writes and Apply have always sent.
func TestAdd(t *testing.T) {
	table := aws.String("T")
	key := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "CRS#m"}}
	for _, tc := range []struct {
		name     string
		got      types.TransactWriteItem
		update   string
		cond     *string
		names    map[string]string
		delta    string
		onFailed types.ReturnValuesOnConditionCheckFailure
	}{
		{"add", Add(table, key, "N", 3, ""), "ADD #0 :0\nSET #1 = :1\n", nil,
			map[string]string{"#0": "count", "#1": "counter"}, "3", ""},
		{"add to an existing count", Add(table, key, "N", -1, "PK"), "ADD #1 :0\nSET #2 = :1\n", aws.String("attribute_exists (#0)"),
			map[string]string{"#0": "PK", "#1": "count", "#2": "counter"}, "-1", types.ReturnValuesOnConditionCheckFailureAllOld},
		{"delete's count-down", Delete(table, "PK", key, []Counted{{Name: "N", Aggregate: key}})[1], "ADD #1 :0\nSET #2 = :1\n", aws.String("attribute_exists (#0)"),
			map[string]string{"#0": "PK", "#1": "count", "#2": "counter"}, "-1", types.ReturnValuesOnConditionCheckFailureAllOld},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := tc.got.Update
			require.NotNil(t, u)
			assert.Equal(t, table, u.TableName)
			assert.Equal(t, key, u.Key)
			assert.Equal(t, tc.update, aws.ToString(u.UpdateExpression))
			assert.Equal(t, tc.cond, u.ConditionExpression)
			assert.Equal(t, tc.names, u.ExpressionAttributeNames)
			assert.Equal(t, map[string]types.AttributeValue{":0": &types.AttributeValueMemberN{Value: tc.delta}, ":1": &types.AttributeValueMemberS{Value: "N"}},
				u.ExpressionAttributeValues)
			assert.Equal(t, tc.onFailed, u.ReturnValuesOnConditionCheckFailure)
		})
	}
}
