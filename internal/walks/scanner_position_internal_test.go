package walks

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

// A segment's place survives its position string with each key attribute
// of its type: a scan of a table keyed on numbers resumes with N keys.
func TestPositionKeepsKeyTypes(t *testing.T) {
	for _, tc := range []struct {
		name string
		lek  map[string]types.AttributeValue
	}{
		{"strings", map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "STU#a91"}, "SK": &types.AttributeValueMemberS{Value: "PROFILE"}}},
		{"number partition key", map[string]types.AttributeValue{"id": &types.AttributeValueMemberN{Value: "42"}, "sk": &types.AttributeValueMemberS{Value: "order"}}},
		{"numbers", map[string]types.AttributeValue{"id": &types.AttributeValueMemberN{Value: "-1.5"}, "v": &types.AttributeValueMemberN{Value: "10"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			place, err := after(tc.lek)
			require.NoError(t, err)
			pos, err := Parse(Position{Segments: []Segment{place}}.String())
			require.NoError(t, err)
			require.Equal(t, tc.lek, startKey(pos.Segments[0]))
		})
	}
	done, err := after(nil)
	require.NoError(t, err)
	require.True(t, done.Done)
	_, err = after(map[string]types.AttributeValue{"id": &types.AttributeValueMemberBOOL{Value: true}})
	require.Error(t, err, "a key is a string or a number")
}
