package adjlist_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// Hostile ids cannot reach another node's items, in either direction.
func TestHostileIDs(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	require.NoError(t, s.enrolled.Put(ctx, "a91", "x", Enrollment{Grade: "A"}))
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", Enrollment{Grade: "A"}))

	// "a91#ENROLL#CRS#x" as a student id is a partition of its own.
	const crafted = "a91#ENROLL#CRS#x"
	items, err := s.enrolled.From(crafted).Collect(ctx)
	require.NoError(t, err)
	assert.Empty(t, items, "a crafted id reads nothing of a91's")
	_, err = s.enrolled.Get(ctx, crafted, "x")
	require.ErrorIs(t, err, adjlist.ErrNotFound)
	_, err = s.enrolled.Update(ctx, "a91#ENROLL#CRS", "x", adjlist.Set("grade", "F"))
	require.ErrorIs(t, err, adjlist.ErrNotFound, "cannot update a91's edge through a crafted id")
	require.ErrorIs(t, s.enrolled.Delete(ctx, "a91", "x#"), adjlist.ErrNotFound)

	require.NoError(t, s.enrolled.Put(ctx, crafted, "math204", Enrollment{Grade: "F"}))
	got, err := s.enrolled.Get(ctx, "a91", "x")
	require.NoError(t, err)
	assert.Equal(t, "A", got.Grade, "a91's edge untouched")
	a91, err := s.enrolled.From("a91").Collect(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"math204", "x"}, ids(a91, edgeTo), "nothing new in a91's partition")
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		roster, err := s.enrolled.To("math204").Collect(ctx)
		require.NoError(c, err)
		assert.Equal(c, []string{"a91", crafted}, ids(roster, edgeFrom), "the crafted id round-trips exactly")
	}, 5*time.Second, 20*time.Millisecond)

	// Prefixes end with the separator: a9 never lists a91, a course id
	// never reaches a longer one.
	require.NoError(t, s.enrolled.Put(ctx, "a9", "x", Enrollment{}))
	a9, err := s.enrolled.From("a9").Collect(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"x"}, ids(a9, edgeTo))

	// Case matters: A91 is another student.
	require.NoError(t, s.enrolled.Put(ctx, "A91", "x", Enrollment{Grade: "C"}))
	got, err = s.enrolled.Get(ctx, "a91", "x")
	require.NoError(t, err)
	assert.Equal(t, "A", got.Grade)
	upper, err := s.enrolled.Get(ctx, "A91", "x")
	require.NoError(t, err)
	assert.Equal(t, "C", upper.Grade)
}

// Values that look like expression syntax are stored as they are: every
// value goes through a placeholder.
func TestExpressionSyntaxStoredLiterally(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	nasty := []string{
		"attribute_not_exists(PK) OR #x = :y",
		":v, #n, REMOVE grade",
		") OR (1=1",
		"SET grade = :a",
	}
	for i, v := range nasty {
		id := string(rune('a' + i))
		require.NoError(t, s.enrolled.Put(ctx, id, v, Enrollment{Grade: v, EnrolledOn: v}))
		got, err := s.enrolled.Get(ctx, id, v)
		require.NoError(t, err)
		assert.Equal(t, Enrollment{Grade: v, EnrolledOn: v}, got)
		upd, err := s.enrolled.Update(ctx, id, v, adjlist.Set("grade", v+"!"))
		require.NoError(t, err)
		assert.Equal(t, v+"!", upd.Grade)
		assert.Equal(t, v, upd.EnrolledOn)
	}
}
