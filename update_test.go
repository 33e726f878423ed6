package adjlist_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sync/errgroup"

	"github.com/adjlist/adjlist"
)

// TestUpdateSentAgain: the documented retry after ErrVersionConflict sends
// the same Update again; the handle's own clauses (the version, the
// derived index key GSI2PK) must not have been added to the caller's
// value, or the retry would fail before any request.
func TestUpdateSentAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := newBlog(t, true)
	require.NoError(t, b.authors.Put(ctx, "ada", Author{Name: "Ada", Status: "NEW"}))
	promote := adjlist.Set("status", "ACTIVE").Set("posts", 1)

	_, err := b.authors.Update(ctx, "ada", promote, adjlist.IfVersion(1))
	require.NoError(t, err)
	_, err = b.authors.Update(ctx, "ada", promote, adjlist.IfVersion(1))
	require.ErrorIs(t, err, adjlist.ErrVersionConflict, "a stale version, sent to DynamoDB")
	got, err := b.authors.Update(ctx, "ada", promote, adjlist.IfVersion(2))
	require.NoError(t, err, "the retry with the version read again")
	assert.Equal(t, Author{Name: "Ada", Status: "ACTIVE", Posts: 1, Version: 3}, got)
	assert.Equal(t, "AUTHORS#ACTIVE", b.raw(t, "AUTHOR#ada", "PROFILE")["GSI2PK"].(*types.AttributeValueMemberS).Value)

	// The same value in a transaction, twice.
	for v := int64(3); v <= 4; v++ {
		tx := adjlist.NewTx(b.table)
		b.authors.Update(ctx, "ada", promote, adjlist.IfVersion(v), adjlist.InTx(tx))
		require.NoError(t, tx.Commit(ctx))
	}
}

// TestUpdateSharedByGoroutines: one Update value sent by many goroutines
// at once, each to its own item (run with -race).
func TestUpdateSharedByGoroutines(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := newBlog(t, true)
	const n = 20
	for i := range n {
		require.NoError(t, b.authors.Put(ctx, fmt.Sprint("a", i), Author{Name: "A", Status: "NEW"}))
	}
	activate := adjlist.Set("status", "ACTIVE")
	var g errgroup.Group
	for i := range n {
		g.Go(func() error {
			_, err := b.authors.Update(ctx, fmt.Sprint("a", i), activate, adjlist.IfVersion(1))
			return err
		})
	}
	require.NoError(t, g.Wait())
	for i := range n {
		a, err := b.authors.Get(ctx, fmt.Sprint("a", i))
		require.NoError(t, err)
		assert.Equal(t, Author{Name: "A", Status: "ACTIVE", Version: 2}, a)
	}
}

// TestZeroUpdateRefused: the zero Update changes nothing, and sending it
// is ErrInvalidOption in an *OpError naming the operation, before any
// request (the counting client has no client behind it: a request would
// panic), from every Update, alone and in a Tx.
func TestZeroUpdateRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	calls := &countingClient{}
	table := adjlist.NewTable(calls, "t")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "COURSE", "META")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	notes := adjlist.NewCollection[Note](students, "NOTE")
	var zero adjlist.Update
	tx := func(add func(*adjlist.Tx)) error {
		tx := adjlist.NewTx(table)
		add(tx)
		return tx.Commit(ctx)
	}
	for _, tc := range []struct {
		op  string
		run func() error
	}{
		{"Node.Update", func() error { _, err := students.Update(ctx, "s1", zero); return err }},
		{"Edge.Update", func() error { _, err := enrolled.Update(ctx, "s1", "c1", zero); return err }},
		{"Collection.Update", func() error { _, err := notes.Update(ctx, "s1", "n1", zero); return err }},
		{"Tx.Commit", func() error { return tx(func(tx *adjlist.Tx) { students.Update(ctx, "s1", zero, adjlist.InTx(tx)) }) }},
		{"Tx.Commit", func() error {
			return tx(func(tx *adjlist.Tx) { enrolled.Update(ctx, "s1", "c1", zero, adjlist.InTx(tx)) })
		}},
		{"Tx.Commit", func() error {
			return tx(func(tx *adjlist.Tx) { notes.Update(ctx, "s1", "n1", zero, adjlist.InTx(tx)) })
		}},
	} {
		err := tc.run()
		require.ErrorIs(t, err, adjlist.ErrInvalidOption)
		var op *adjlist.OpError
		require.ErrorAs(t, err, &op)
		assert.Equal(t, tc.op, op.Op)
	}
	assert.Zero(t, calls.total())
}
