package walks_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"

	"github.com/adjlist/adjlist/internal/walks"
)

// A stored value is shown with its DynamoDB type, as DynamoDB JSON would
// type it; a count as its number.
func TestDescribeValue(t *testing.T) {
	for _, c := range []struct {
		av   types.AttributeValue
		want string
	}{
		{&types.AttributeValueMemberS{Value: "3"}, `S "3"`},
		{&types.AttributeValueMemberN{Value: "7"}, "N 7"},
		{&types.AttributeValueMemberBOOL{Value: true}, "BOOL true"},
		{&types.AttributeValueMemberNULL{Value: true}, "NULL"},
		{&types.AttributeValueMemberB{Value: []byte("ab")}, "B (2 bytes)"},
		{&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"a": nil, "b": nil, "c": nil}}, "M (3 attributes)"},
		{&types.AttributeValueMemberL{Value: []types.AttributeValue{nil}}, "L (1 values)"},
		{&types.AttributeValueMemberSS{Value: []string{"x"}}, "set"},
	} {
		assert.Equal(t, c.want, walks.DescribeValue(c.av))
	}
	item := map[string]types.AttributeValue{"count": &types.AttributeValueMemberN{Value: "4"}, "version": &types.AttributeValueMemberS{Value: "x"}}
	assert.Equal(t, "4", walks.CountOf(item))
	assert.Equal(t, "", walks.CountOf(map[string]types.AttributeValue{}))
	assert.Equal(t, `S "x"`, walks.CountOf(map[string]types.AttributeValue{"count": item["version"]}))
}
