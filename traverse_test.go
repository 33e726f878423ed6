package adjlist_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// peerSchool is seedSchool plus c12 (math204, cs101) and d44 (bio1, shared
// with no one):
//
//	a91 → cs101, math204      cs101 roster:   a9, a91, c12 (b30 waitlisted)
//	a9  → cs101               math204 roster: a91, b30, c12
//	b30 → math204             bio1 roster:    d44
//	c12 → cs101, math204
//	d44 → bio1
func peerSchool(t *testing.T) *school {
	t.Helper()
	s := newSchool(t)
	seedSchool(t, s)
	ctx := context.Background()
	for _, e := range [][2]string{{"c12", "cs101"}, {"c12", "math204"}, {"d44", "bio1"}} {
		require.NoError(t, s.enrolled.Put(ctx, e[0], e[1], Enrollment{EnrolledOn: "2026-09-05"}))
	}
	require.NoError(t, s.enrolled.WaitIndexed(ctx, "d44", "bio1", 5*time.Second))
	return s
}

func TestPeers(t *testing.T) {
	t.Parallel()
	s := peerSchool(t)
	ctx := context.Background()
	tests := []struct {
		name      string
		from      string
		budget    int
		want      []adjlist.Peer
		requests  int
		truncated bool
	}{
		{"a91: one page of courses, one roster page each", "a91", 10, []adjlist.Peer{
			{ID: "a9", Via: []string{"cs101"}},
			{ID: "c12", Via: []string{"cs101", "math204"}},
			{ID: "b30", Via: []string{"math204"}},
		}, 3, false},
		{"budget exactly enough", "a91", 3, []adjlist.Peer{
			{ID: "a9", Via: []string{"cs101"}},
			{ID: "c12", Via: []string{"cs101", "math204"}},
			{ID: "b30", Via: []string{"math204"}},
		}, 3, false},
		{"one short: math204's roster unread", "a91", 2, []adjlist.Peer{
			{ID: "a9", Via: []string{"cs101"}},
			{ID: "c12", Via: []string{"cs101"}},
		}, 2, true},
		{"budget for the courses only", "a91", 1, nil, 1, true},
		{"b30 skips the waitlist", "b30", 10, []adjlist.Peer{
			{ID: "a91", Via: []string{"math204"}},
			{ID: "c12", Via: []string{"math204"}},
		}, 2, false},
		{"d44 shares with no one", "d44", 10, nil, 2, false},
		{"unknown student", "zz", 10, nil, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, queries := s.calls.total(), s.calls.queries.Load()
			res, err := adjlist.TwoHop(ctx, s.enrolled, s.enrolled, tt.from, tt.budget)
			require.NoError(t, err)
			assert.Equal(t, tt.want, res.Peers)
			assert.Equal(t, tt.requests, res.Requests)
			assert.Equal(t, int(s.calls.total()-before), res.Requests, "counted by the client")
			assert.Equal(t, int(s.calls.queries.Load()-queries), res.Requests, "all of them Queries")
			assert.Equal(t, tt.truncated, res.Truncated)
		})
	}
}

func TestPeersBudgetAcrossPages(t *testing.T) {
	t.Parallel()
	s := peerSchool(t)
	ctx := context.Background()
	pageSize := func(n int32) func(*adjlist.TraverseOptions) {
		return func(o *adjlist.TraverseOptions) { o.PageSize = n }
	}
	for _, size := range []int32{1, 2, 3} {
		t.Run(fmt.Sprintf("page size %d", size), func(t *testing.T) {
			before := s.calls.total()
			full, err := adjlist.TwoHop(ctx, s.enrolled, s.enrolled, "a91", 1000, pageSize(size))
			require.NoError(t, err)
			require.False(t, full.Truncated)
			assert.Equal(t, int(s.calls.total()-before), full.Requests)
			assert.Equal(t, []string{"a9", "c12", "b30"}, peerIDs(full.Peers))
			assert.Equal(t, []string{"cs101", "math204"}, full.Peers[1].Via)
			assert.Greater(t, full.Requests, 3, "small pages take more requests")

			t.Run("exactly enough", func(t *testing.T) {
				before := s.calls.total()
				res, err := adjlist.TwoHop(ctx, s.enrolled, s.enrolled, "a91", full.Requests, pageSize(size))
				require.NoError(t, err)
				assert.Equal(t, full, res)
				assert.Equal(t, int(s.calls.total()-before), res.Requests)
			})
			t.Run("one short", func(t *testing.T) {
				before := s.calls.total()
				res, err := adjlist.TwoHop(ctx, s.enrolled, s.enrolled, "a91", full.Requests-1, pageSize(size))
				require.NoError(t, err)
				assert.True(t, res.Truncated)
				assert.Equal(t, full.Requests-1, res.Requests)
				assert.Equal(t, int(s.calls.total()-before), res.Requests)
				assert.Subset(t, peerIDs(full.Peers), peerIDs(res.Peers))
			})
		})
	}
}

func peerIDs(peers []adjlist.Peer) []string {
	ids := make([]string, len(peers))
	for i, p := range peers {
		ids[i] = p.ID
	}
	return ids
}

func TestPeersSharded(t *testing.T) {
	t.Parallel()
	const shards = 3
	s := newSchool(t)
	ctx := context.Background()
	enrolled := adjlist.NewEdge[Enrollment](s.students, "ENROLL", s.courses, func(o *adjlist.EdgeOptions) { o.Shards = shards })
	var want []string
	for i := range 20 {
		id := fmt.Sprintf("s%02d", i)
		require.NoError(t, enrolled.Put(ctx, id, "math204", Enrollment{}))
		if i > 0 {
			want = append(want, id)
		}
	}
	require.NoError(t, enrolled.Put(ctx, "s00", "cs101", Enrollment{}))

	before := s.calls.total()
	full, err := adjlist.TwoHop(ctx, enrolled, enrolled, "s00", 100)
	require.NoError(t, err)
	assert.False(t, full.Truncated)
	assert.ElementsMatch(t, want, peerIDs(full.Peers), "every shard read")
	assert.Equal(t, 1+2*shards, full.Requests, "courses, then each course's shards one by one")
	assert.Equal(t, int(s.calls.total()-before), full.Requests)

	res, err := adjlist.TwoHop(ctx, enrolled, enrolled, "s00", full.Requests)
	require.NoError(t, err)
	assert.Equal(t, full, res, "exactly enough")
	before = s.calls.total()
	res, err = adjlist.TwoHop(ctx, enrolled, enrolled, "s00", full.Requests-1)
	require.NoError(t, err)
	assert.True(t, res.Truncated, "one short")
	assert.Equal(t, full.Requests-1, res.Requests)
	assert.Equal(t, int(s.calls.total()-before), res.Requests)
}

func TestTwoHop(t *testing.T) {
	t.Parallel()
	s := peerSchool(t)
	ctx := context.Background()
	waitlist := adjlist.NewEdge[Enrollment](s.students, "WAITLIST", s.courses)

	// Students waitlisted for a course a91 takes.
	res, err := adjlist.TwoHop(ctx, s.enrolled, waitlist, "a91", 10)
	require.NoError(t, err)
	assert.Equal(t, adjlist.TwoHopResult{Peers: []adjlist.Peer{{ID: "b30", Via: []string{"cs101"}}}, Requests: 3}, res)

	// Students enrolled in a course b30 is waitlisted for.
	res, err = adjlist.TwoHop(ctx, waitlist, s.enrolled, "b30", 10)
	require.NoError(t, err)
	assert.Equal(t, []adjlist.Peer{{ID: "a9", Via: []string{"cs101"}}, {ID: "a91", Via: []string{"cs101"}}, {ID: "c12", Via: []string{"cs101"}}}, res.Peers)
}

func TestTwoHopRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	mentors := adjlist.NewEdge[Enrollment](s.students, "MENTOR", s.students)
	noIndex := adjlist.NewTable(s.calls, s.table.Name(), func(o *adjlist.Options) { o.NoIndex = true })
	stuNoIndex := adjlist.NewNode[Student](noIndex, "STU", "PROFILE")
	crsNoIndex := adjlist.NewNode[Course](noIndex, "CRS", "METADATA")
	enrolledNoIndex := adjlist.NewEdge[Enrollment](stuNoIndex, "ENROLL", crsNoIndex)
	otherTable := adjlist.NewTable(s.calls, s.table.Name()+"-other")
	otherEnrolled := adjlist.NewEdge[Enrollment](adjlist.NewNode[Student](otherTable, "STU", "PROFILE"), "ENROLL", adjlist.NewNode[Course](otherTable, "CRS", "METADATA"))

	tests := []struct {
		name     string
		run      func() error
		sentinel error
	}{
		{"empty id", func() error { _, err := adjlist.TwoHop(ctx, s.enrolled, s.enrolled, "", 10); return err }, adjlist.ErrInvalidKey},
		{"invalid UTF-8", func() error { _, err := adjlist.TwoHop(ctx, s.enrolled, s.enrolled, "\xff", 10); return err }, adjlist.ErrInvalidKey},
		{"zero budget", func() error { _, err := adjlist.TwoHop(ctx, s.enrolled, s.enrolled, "a91", 0); return err }, adjlist.ErrInvalidOption},
		{"negative page size", func() error {
			_, err := adjlist.TwoHop(ctx, s.enrolled, s.enrolled, "a91", 10, func(o *adjlist.TraverseOptions) { o.PageSize = -1 })
			return err
		}, adjlist.ErrInvalidOption},
		{"second hop ends at students, not courses", func() error {
			_, err := adjlist.TwoHop(ctx, s.enrolled, mentors, "a91", 10)
			return err
		}, adjlist.ErrInvalidOption},
		{"edges of two tables", func() error {
			_, err := adjlist.TwoHop(ctx, s.enrolled, otherEnrolled, "a91", 10)
			return err
		}, adjlist.ErrInvalidOption},
		{"no index", func() error { _, err := adjlist.TwoHop(ctx, enrolledNoIndex, enrolledNoIndex, "a91", 10); return err }, adjlist.ErrInvalidOption},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := s.calls.total()
			err := tt.run()
			require.ErrorIs(t, err, tt.sentinel)
			var op *adjlist.OpError
			require.ErrorAs(t, err, &op)
			assert.Equal(t, "TwoHop", op.Op)
			assert.Equal(t, before, s.calls.total(), "no request sent")
		})
	}
}
