package adjlist_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// manyEdges writes n edges from student "a91" to courses c000.. and n edges
// from students s000.. to course "math204".
func manyEdges(t *testing.T, s *school, n int) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		require.NoError(t, s.enrolled.Put(ctx, "a91", fmt.Sprintf("c%03d", i), Enrollment{Grade: "A"}))
		require.NoError(t, s.enrolled.Put(ctx, fmt.Sprintf("s%03d", i), "math204", Enrollment{Grade: "B"}))
	}
}

func TestPaging(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	const n = 57
	manyEdges(t, s, n)
	ctx := context.Background()

	tests := []struct {
		name  string
		query adjlist.Query[adjlist.EdgeItem[Enrollment]]
		id    func(adjlist.EdgeItem[Enrollment]) string
		want  func(i int) string
	}{
		{"forward", s.enrolled.From("a91"), edgeTo, func(i int) string { return fmt.Sprintf("c%03d", i) }},
		{"forward descending", s.enrolled.From("a91").Desc(), edgeTo, func(i int) string { return fmt.Sprintf("c%03d", n-1-i) }},
		{"reverse", s.enrolled.To("math204"), edgeFrom, func(i int) string { return fmt.Sprintf("s%03d", i) }},
		{"reverse descending", s.enrolled.To("math204").Desc(), edgeFrom, func(i int) string { return fmt.Sprintf("s%03d", n-1-i) }},
	}
	want := func(f func(int) string) []string {
		ids := make([]string, n)
		for i := range ids {
			ids[i] = f(i)
		}
		return ids
	}
	for _, tt := range tests {
		t.Run(tt.name+" pages", func(t *testing.T) {
			require.EventuallyWithT(t, func(c *assert.CollectT) {
				var got []string
				cursor, pages := "", 0
				before := s.calls.queries.Load()
				for {
					page, err := tt.query.Limit(10).Page(ctx, cursor)
					require.NoError(c, err)
					pages++
					require.LessOrEqual(c, len(page.Items), 10)
					for _, e := range page.Items {
						got = append(got, tt.id(e))
					}
					if cursor = page.Cursor; cursor == "" {
						break
					}
					require.Less(c, pages, 20, "paging does not end")
				}
				assert.Equal(c, want(tt.want), got, "every item exactly once, in order")
				assert.Equal(c, int64(pages), s.calls.queries.Load()-before, "one request per page")
			}, 5*time.Second, 20*time.Millisecond)
		})
		t.Run(tt.name+" all", func(t *testing.T) {
			require.EventuallyWithT(t, func(c *assert.CollectT) {
				before := s.calls.queries.Load()
				var got []string
				for e, err := range tt.query.Limit(7).All(ctx) {
					require.NoError(c, err)
					got = append(got, tt.id(e))
				}
				assert.Equal(c, want(tt.want), got)
				assert.GreaterOrEqual(c, s.calls.queries.Load()-before, int64(n/7), "Limit sets the page size")
			}, 5*time.Second, 20*time.Millisecond)
		})
	}
}

func edgeTo(e adjlist.EdgeItem[Enrollment]) string   { return e.To }
func edgeFrom(e adjlist.EdgeItem[Enrollment]) string { return e.From }

func TestAllStopsFetchingOnBreak(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	manyEdges(t, s, 25)
	ctx := context.Background()
	before := s.calls.queries.Load()
	seen := 0
	for _, err := range s.enrolled.From("a91").Limit(5).All(ctx) {
		require.NoError(t, err)
		if seen++; seen == 3 {
			break
		}
	}
	assert.Equal(t, 3, seen)
	assert.Equal(t, int64(1), s.calls.queries.Load()-before, "no page fetched after break")
}

func TestAllYieldsErrorOnce(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	errs := 0
	for _, err := range s.enrolled.From("a91").All(ctx) {
		require.ErrorIs(t, err, context.Canceled)
		errs++
	}
	assert.Equal(t, 1, errs)
}

func TestCursorBoundToItsQuery(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	manyEdges(t, s, 4)
	ctx := context.Background()
	first := func(q adjlist.Query[adjlist.EdgeItem[Enrollment]]) string {
		var cursor string
		require.EventuallyWithT(t, func(c *assert.CollectT) {
			page, err := q.Limit(2).Page(ctx, "")
			require.NoError(c, err)
			require.NotEmpty(c, page.Cursor)
			cursor = page.Cursor
		}, 5*time.Second, 20*time.Millisecond)
		return cursor
	}
	fwd := first(s.enrolled.From("a91"))
	rev := first(s.enrolled.To("math204"))
	tamper := func(c string) string {
		b, err := base64.RawURLEncoding.DecodeString(c)
		require.NoError(t, err)
		b[len(b)-3] ^= 1
		return base64.RawURLEncoding.EncodeToString(b)
	}

	tests := []struct {
		name   string
		query  adjlist.Query[adjlist.EdgeItem[Enrollment]]
		cursor string
		ok     bool
	}{
		{"forward resumes", s.enrolled.From("a91"), fwd, true},
		{"reverse resumes", s.enrolled.To("math204"), rev, true},
		{"another partition", s.enrolled.From("b30"), fwd, false},
		{"another direction", s.enrolled.From("a91").Desc(), fwd, false},
		{"index cursor on table", s.enrolled.From("a91"), rev, false},
		{"table cursor on index", s.enrolled.To("math204"), fwd, false},
		{"truncated", s.enrolled.From("a91"), fwd[:len(fwd)/2], false},
		{"tampered", s.enrolled.From("a91"), tamper(fwd), false},
		{"not base64", s.enrolled.From("a91"), "%%%", false},
		{"empty JSON", s.enrolled.From("a91"), base64.RawURLEncoding.EncodeToString([]byte("{}")), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := s.calls.queries.Load()
			page, err := tt.query.Limit(2).Page(ctx, tt.cursor)
			if tt.ok {
				require.NoError(t, err)
				assert.Len(t, page.Items, 2, "the second page")
				return
			}
			require.ErrorIs(t, err, adjlist.ErrInvalidCursor)
			assert.Equal(t, before, s.calls.queries.Load(), "no request sent")
		})
	}
}

func TestSignedCursors(t *testing.T) {
	t.Parallel()
	key := []byte("0123456789abcdef0123456789abcdef")
	s := newSchoolLayout(t, adjlist.Options{CursorKey: key}, "ENROLL")
	manyEdges(t, s, 6)
	ctx := context.Background()
	q := s.enrolled.From("a91").Limit(2)
	first, err := q.Page(ctx, "")
	require.NoError(t, err)
	payload, sig, signed := strings.Cut(first.Cursor, ".")
	require.True(t, signed, "cursor carries a signature")

	// A forged cursor: valid JSON for the same partition and prefix,
	// skipping ahead, with the signature of another payload or none.
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	require.NoError(t, err)
	forged := base64.RawURLEncoding.EncodeToString(bytes.Replace(raw, []byte("c001"), []byte("c004"), 1))
	require.NotEqual(t, payload, forged)
	otherKey := adjlist.NewTable(s.calls, s.table.Name(), func(o *adjlist.Options) { o.CursorKey = []byte("another key") })
	otherEdge := adjlist.NewEdge[Enrollment](adjlist.NewNode[Student](otherKey, "STU", "PROFILE"), "ENROLL", adjlist.NewNode[Course](otherKey, "CRS", "METADATA"))
	otherPage, err := otherEdge.From("a91").Limit(2).Page(ctx, "")
	require.NoError(t, err)
	unsignedTable := newSchool(t)

	tests := []struct {
		name   string
		query  adjlist.Query[adjlist.EdgeItem[Enrollment]]
		cursor string
		ok     bool
	}{
		{"genuine", q, first.Cursor, true},
		{"forged payload, genuine signature", q, forged + "." + sig, false},
		{"forged payload, no signature", q, forged, false},
		{"genuine payload, no signature", q, payload, false},
		{"signed with another key", q, otherPage.Cursor, false},
		{"signature truncated", q, first.Cursor[:len(first.Cursor)-2], false},
		{"signed cursor on an unsigned table", unsignedTable.enrolled.From("a91").Limit(2), first.Cursor, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page, err := tt.query.Page(ctx, tt.cursor)
			if tt.ok {
				require.NoError(t, err)
				assert.Equal(t, []string{"c002", "c003"}, ids(page.Items, edgeTo))
				return
			}
			require.ErrorIs(t, err, adjlist.ErrInvalidCursor)
		})
	}
}
