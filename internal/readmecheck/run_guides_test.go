package readmecheck

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// The tests of this file run the blocks the guides under docs/ added
// when the README was split into them.

// Pages and cursors (docs/reads.md): one page, newest first, its cursor
// resuming the same query; All reads every page; a cursor of another
// query is ErrInvalidCursor before any request.
func TestGuidePagesAndCursors(t *testing.T) { require.NoError(t, guidePagesAndCursors(t)) }

func guidePagesAndCursors(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "tenancy")
	table := adjlist.NewTable(l.client, "tenancy")
	l.create(t, table)
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ")
	ctx := t.Context()
	var ids []string
	for i := uint64(1); i <= 25; i++ {
		id, err := adjlist.PaddedID("2026", i, 4)
		require.NoError(t, err)
		ids = append(ids, id)
		require.NoError(t, projects.Put(ctx, "acme", id, Project{Title: fmt.Sprint("p", i)}))
	}
	cursor := ""
	fmt := new(printer)
	// readme:begin
	// One Query: PK = "WS#acme" AND begins_with(SK, "PROJ#"), newest first, Limit 20.
	page, err := projects.List("acme").Desc().Limit(20).Page(ctx, cursor)
	if err != nil {
		return err // a cursor of another query: ErrInvalidCursor, before any request
	}
	for _, p := range page.Items {
		fmt.Println(p.Parent, p.ID, p.Data.Title)
	}
	next := page.Cursor // "" after the last page

	// Every page, one Query each as the loop asks for it.
	for p, err := range projects.List("acme").All(ctx) {
		if err != nil {
			return err
		}
		fmt.Println(p.ID)
	}
	// readme:end
	lines := fmt.Lines()
	require.Len(t, lines, 45)
	desc := slices.Clone(ids)
	slices.Reverse(desc)
	assert.Equal(t, "acme 2026-0025 p25", lines[0])
	assert.Equal(t, "acme 2026-0006 p6", lines[19])
	assert.Equal(t, ids, lines[20:], "All: every project, in id order")
	require.NotEmpty(t, next)

	rest, err := projects.List("acme").Desc().Limit(20).Page(ctx, next)
	require.NoError(t, err)
	assert.Len(t, rest.Items, 5)
	assert.Equal(t, desc[20], rest.Items[0].ID, "the cursor resumes after the page's last item")
	last, err := projects.List("acme").Desc().Limit(20).Page(ctx, rest.Cursor)
	if rest.Cursor != "" { // DynamoDB may report more items after an exact last page
		require.NoError(t, err)
		assert.Empty(t, last.Items)
		assert.Empty(t, last.Cursor)
	}

	before := l.requests.Load()
	_, err = projects.List("other").Desc().Limit(20).Page(ctx, next)
	require.ErrorIs(t, err, adjlist.ErrInvalidCursor, "a cursor of another partition")
	_, err = projects.List("acme").Limit(20).Page(ctx, next)
	require.ErrorIs(t, err, adjlist.ErrInvalidCursor, "a cursor of the other direction")
	assert.Equal(t, before, l.requests.Load(), "refused before any request")
	return nil
}
