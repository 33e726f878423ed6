package adjlist_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// docs/modelling.md, Children as edge endpoints: an edge into children
// shares its sort key prefix with an edge of the same label into their
// parent type (TAGGED#WS#): each read returns, and Count counts, only its
// own kind's edges, but Limit counts the items DynamoDB evaluates, the
// other kind's too, so a page can come back short with a cursor.
func TestEdgeIntoChildrenSharesItsPrefix(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	table := adjlist.NewTable(ddbtest.Client(t), ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	tags := adjlist.NewNode[struct{}](table, "TAG", "META")
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ")
	taggedWorkspaces := adjlist.NewEdge[Tagging](tags, "TAGGED", workspaces)
	taggedProjects := adjlist.NewEdge[Tagging](tags, "TAGGED", projects)
	require.NoError(t, table.Check())

	require.NoError(t, taggedWorkspaces.Put(ctx, "go", "acme", Tagging{By: "ada"})) // TAGGED#WS#acme
	var refs []string
	for _, id := range []string{"2026-0042", "2026-0043"} {
		ref, err := projects.Ref("acme", id)
		require.NoError(t, err)
		refs = append(refs, ref)
		require.NoError(t, taggedProjects.Put(ctx, "go", ref, Tagging{By: "bob"})) // TAGGED#WS#acme#PROJ#...
	}

	intoProjects, err := taggedProjects.From("go").Collect(ctx, adjlist.Consistent)
	require.NoError(t, err)
	assert.Equal(t, []adjlist.EdgeItem[Tagging]{{From: "go", To: refs[0], Data: Tagging{By: "bob"}}, {From: "go", To: refs[1], Data: Tagging{By: "bob"}}}, intoProjects)
	n, err := taggedProjects.From("go").Count(ctx, adjlist.Consistent)
	require.NoError(t, err)
	assert.Equal(t, 2, n, "Count counts what All yields")

	intoWorkspaces, err := taggedWorkspaces.From("go").Collect(ctx, adjlist.Consistent)
	require.NoError(t, err)
	assert.Equal(t, []adjlist.EdgeItem[Tagging]{{From: "go", To: "acme", Data: Tagging{By: "ada"}}}, intoWorkspaces)
	n, err = taggedWorkspaces.From("go").Count(ctx, adjlist.Consistent)
	require.NoError(t, err)
	assert.Equal(t, 1, n)

	// Limit 1: the first item DynamoDB evaluates is the workspace's edge
	// (TAGGED#WS#acme sorts first): an empty page, and a cursor.
	page, err := taggedProjects.From("go").Limit(1).Page(ctx, "", adjlist.Consistent)
	require.NoError(t, err)
	assert.Empty(t, page.Items)
	assert.NotEmpty(t, page.Cursor)
	var all []adjlist.EdgeItem[Tagging]
	for cursor := page.Cursor; cursor != ""; {
		page, err = taggedProjects.From("go").Limit(1).Page(ctx, cursor, adjlist.Consistent)
		require.NoError(t, err)
		all = append(all, page.Items...)
		cursor = page.Cursor
	}
	assert.Equal(t, intoProjects, all, "paging on finds every edge once")
}
