package paging

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fake is a Pager over fixed pages, one request each.
func fake(pages ...[]Ref) Pager {
	return func(_ context.Context, n *int, budget int, each func([]Ref) error) (bool, error) {
		for _, p := range pages {
			if budget > 0 && *n >= budget {
				return false, nil
			}
			*n++
			if err := each(p); err != nil {
				return false, err
			}
		}
		return true, nil
	}
}

func ref(pk, sk, from, to string) Ref { return Ref{Key: Key{PK: pk, SK: sk}, From: from, To: to} }

func TestKindString(t *testing.T) {
	assert.Equal(t, "ENROLL (STU → CRS)", Kind{"ENROLL", "STU", "CRS"}.String())
	assert.Equal(t, "(unlabelled) (WS → WS)", Kind{"", "WS", "WS"}.String())
}

func TestFollows(t *testing.T) {
	stu, crs := End{Type: "STU"}, End{Type: "CRS"}
	proj := End{Type: "PROJ", Parent: "STU"}
	tests := []struct {
		name                string
		me, src, dst        End
		collection, noIndex bool
		want                bool
	}{
		{"into the node", stu, crs, stu, false, false, true},
		{"into the node, no index", stu, crs, stu, false, true, false},
		{"out of the node", stu, stu, crs, false, false, false},
		{"into its children", stu, crs, proj, false, false, true},
		{"out of its children, no index", stu, proj, crs, false, true, true},
		{"its sharded collection", stu, stu, stu, true, false, true},
		{"another type's collection", stu, crs, crs, true, false, false},
		{"a collection, from a child", proj, stu, stu, true, false, false},
		{"into the child", proj, crs, proj, false, false, true},
		{"out of the child", proj, proj, crs, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Follows(tt.me, tt.src, tt.dst, tt.collection, tt.noIndex))
		})
	}
}

func TestTwoHopDedupesWithinBudget(t *testing.T) {
	first := fake([]Ref{ref("STU#a", "E#CRS#c1", "a", "c1")}, []Ref{ref("STU#a", "E#CRS#c2", "a", "c2")})
	second := func(target Ref) ([]Pager, error) {
		return []Pager{fake([]Ref{ref("", "", "a", target.To), ref("", "", "b", target.To)})}, nil
	}
	n := 0
	peers, truncated, err := TwoHop(context.Background(), first, second, true, "a", 4, &n)
	require.NoError(t, err)
	assert.False(t, truncated)
	assert.Equal(t, 4, n)
	assert.Equal(t, []Peer{{ID: "b", Via: []string{"c1", "c2"}}}, peers)

	n = 0
	peers, truncated, err = TwoHop(context.Background(), first, second, true, "a", 3, &n)
	require.NoError(t, err)
	assert.True(t, truncated)
	assert.Equal(t, 3, n)
	assert.Equal(t, []Peer{{ID: "b", Via: []string{"c1"}}}, peers)
}

func TestPoll(t *testing.T) {
	errNotVisible := errors.New("not visible")
	fail := func(err error) error { return err }
	tries := 0
	err := Poll(context.Background(), 50*time.Millisecond, errNotVisible, fail, func() (bool, error) {
		tries++
		return false, nil
	})
	require.ErrorIs(t, err, errNotVisible)
	assert.GreaterOrEqual(t, tries, 1)

	require.NoError(t, Poll(context.Background(), time.Second, errNotVisible, fail, func() (bool, error) { return true, nil }))

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = Poll(ctx, time.Second, errNotVisible, fail, func() (bool, error) { return false, nil })
	require.ErrorIs(t, err, context.Canceled)
}
