package adjlist_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// TestReadTx: several items read atomically with one TransactGetItems: a
// node, its counter's count, an edge and a child, typed; a missing item is
// Found false; bad input fails before any request.
func TestReadTx(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newSchool(t)
	require.NoError(t, s.courses.Put(ctx, "math204", Course{Title: "Linear Algebra"}))
	counter := newCountedEdge(s.table, "CRS", s.enrolled, "ENROLLED")
	require.NoError(t, counter.Put(ctx, "a91", "math204", math204))
	notes := adjlist.NewCollection[note](s.students, "NOTE")
	require.NoError(t, notes.Put(ctx, "a91", "n1", note{Note: "x"}))

	rt := adjlist.NewReadTx(s.table)
	course := s.courses.TxGet(rt, "math204")
	count := counter.counts.TxGet(rt, "math204")
	edge := s.enrolled.TxGet(rt, "a91", "math204")
	child := notes.TxGet(rt, "a91", "n1")
	missing := s.courses.TxGet(rt, "nope")
	before := s.calls.total()
	require.NoError(t, rt.Run(ctx))
	assert.Equal(t, int64(1), s.calls.total()-before, "one request")
	assert.Equal(t, &adjlist.Read[Course]{Data: Course{Title: "Linear Algebra"}, Found: true}, course)
	assert.True(t, count.Found)
	assert.Equal(t, int64(1), count.Data.Count)
	assert.Equal(t, &adjlist.Read[Enrollment]{Data: math204, Found: true}, edge)
	assert.Equal(t, &adjlist.Read[note]{Data: note{Note: "x"}, Found: true}, child)
	assert.Equal(t, &adjlist.Read[Course]{}, missing)

	// Refused before any request.
	before = s.calls.total()
	over := adjlist.NewReadTx(s.table)
	for i := range maxTxActions + 1 {
		s.courses.TxGet(over, fmt.Sprint("c", i))
	}
	require.ErrorIs(t, over.Run(ctx), adjlist.ErrTxLimit)
	twice := adjlist.NewReadTx(s.table)
	s.courses.TxGet(twice, "math204")
	s.courses.TxGet(twice, "math204")
	require.ErrorIs(t, twice.Run(ctx), adjlist.ErrTxLimit)
	bad := adjlist.NewReadTx(s.table)
	s.courses.TxGet(bad, "")
	require.ErrorIs(t, bad.Run(ctx), adjlist.ErrInvalidKey)
	other := adjlist.NewReadTx(adjlist.NewTable(s.calls, "other"))
	s.courses.TxGet(other, "math204")
	require.ErrorIs(t, other.Run(ctx), adjlist.ErrInvalidOption)
	assert.Equal(t, before, s.calls.total(), "no request")
}
