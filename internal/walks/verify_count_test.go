package walks

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A counter mismatch is reported once the same one is seen twice in a
// row; a count that agrees, or an absent aggregate with no edges, is none;
// one still moving after 5 rounds is not reported.
func TestConfirmCount(t *testing.T) {
	key := Key{PK: "CRS#c05", SK: "ENROLLED"}
	count := func(stored ...string) func(context.Context) (Item, error) {
		i := 0
		return func(context.Context) (Item, error) {
			s := stored[min(i, len(stored)-1)]
			i++
			if s == "" {
				return nil, nil
			}
			return Item{"count": &types.AttributeValueMemberN{Value: s}}, nil
		}
	}
	edges := func(n int64) Recount { return func(context.Context) (int64, error) { return n, nil } }
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		stored []string
		n      int64
		want   *Finding
	}{
		{"agrees", []string{"2"}, 2, nil},
		{"absent, no edges", []string{""}, 0, nil},
		{"stable mismatch", []string{"999"}, 50, &Finding{Kind: CounterMismatch, Type: "counter ENROLLED", Key: key, Attribute: "count", Have: "999", Want: "50"}},
		{"absent, edges", []string{""}, 1, &Finding{Kind: CounterMismatch, Type: "counter ENROLLED", Key: key, Attribute: "count", Want: "1"}},
		{"settles", []string{"1", "2"}, 2, nil},
	} {
		f, err := ConfirmCount(ctx, "ENROLLED", key, count(c.stored...), edges(c.n))
		require.NoError(t, err, c.name)
		assert.Equal(t, c.want, f, c.name)
	}
}

// Index keys are repaired first, counts next, deletes last.
func TestRound(t *testing.T) {
	for k, want := range map[Kind]int{IndexKeyMissing: 0, IndexKeyStale: 0, IndexKeyExtra: 0, Misplaced: 0,
		CounterMismatch: 1, DanglingEdge: 2, Orphan: 2, UnknownItem: 2, Undecodable: 2, BadVersion: 2} {
		assert.Equal(t, want, Round(k), k)
	}
}
