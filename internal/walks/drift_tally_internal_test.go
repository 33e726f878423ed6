package walks

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

func TestMissingReadsAgainAndReportsStillNeeded(t *testing.T) {
	stored := map[string]Item{
		"there": {"k": &types.AttributeValueMemberS{Value: "there"}},
		"edge1": {"k": &types.AttributeValueMemberS{Value: "edge1"}},
	}
	var reads [][]string
	get := func(_ context.Context, keys []string) (map[string]Item, error) {
		reads = append(reads, keys)
		out := map[string]Item{}
		for _, k := range keys {
			if it, ok := stored[k]; ok {
				out[k] = it
			}
		}
		return out, nil
	}
	pending := map[string][]string{"there": {"edge0"}, "gone": {"edge1", "edge2"}}
	type hit struct {
		missing, from string
		live          bool
	}
	var hits []hit
	err := Missing(context.Background(), []string{"there", "gone"}, pending, func(w string) string { return w }, get,
		func(k, w string, item Item) { hits = append(hits, hit{k, w, item != nil}) })
	require.NoError(t, err)
	require.Equal(t, [][]string{{"there", "gone"}, {"edge1", "edge2"}}, reads)
	require.Equal(t, []hit{{"gone", "edge1", true}, {"gone", "edge2", false}}, hits)

	reads = nil
	require.NoError(t, Missing(context.Background(), nil, pending, func(w string) string { return w }, get, nil))
	require.Empty(t, reads, "nothing to confirm: no request")
}
