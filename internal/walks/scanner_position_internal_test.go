package walks

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/internal/ddbexpr"
	"github.com/adjlist/adjlist/internal/paging"
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
			place, err := paging.After(tc.lek)
			require.NoError(t, err)
			pos, err := Parse(Position{Segments: []Segment{place}}.String())
			require.NoError(t, err)
			start, err := paging.StartKey(pos.Segments[0].Key, pos.Segments[0].Num, ddbexpr.NumberText)
			require.NoError(t, err)
			require.Equal(t, tc.lek, start)
		})
	}
	done, err := paging.After(nil)
	require.NoError(t, err)
	require.True(t, done.Done)
	_, err = paging.After(map[string]types.AttributeValue{"id": &types.AttributeValueMemberBOOL{Value: true}})
	require.Error(t, err, "a key is a string or a number")
}
