package adjlist_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

type (
	board struct {
		Name string `dynamodbav:"name"`
	}
	card struct {
		Text string `dynamodbav:"text"`
	}
)

// TestLoadPartitionOfAnyHead: LoadPartition and PagePartition read the
// partition that any item heads: a project, a child of an organisation,
// with its nested issues (the project's item read with one GetItem, its
// partition with one Query), and an entity item with the items of
// another entity keyed under the same partition key template. Targets
// whose items are elsewhere, and an entity whose sort key has ids of its
// own, are ErrInvalidOption before any request.
func TestLoadPartitionOfAnyHead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	calls := &countingClient{Client: db}
	table := adjlist.NewTable(calls, ddbtest.TableName(t))
	require.NoError(t, adjlist.CreateTable(ctx, db, table))
	dropOnCleanup(t, db, table.Name())
	orgs := adjlist.NewNode[Org](table, "ORG", "META")
	projects := adjlist.NewCollection[Project](orgs, "PROJ")
	issues := adjlist.NewNestedCollection[Issue](projects, "ISSUE")
	comments := adjlist.NewNestedCollection[Comment](issues, "NOTE")
	boards := adjlist.NewEntity[board](table, "board", "BOARD#{org}#{board}", "META")
	cards := adjlist.NewEntity[card](table, "card", "BOARD#{org}#{board}", "CARD#{card}")
	require.NoError(t, table.Check())

	require.NoError(t, orgs.Put(ctx, "acme", Org{Name: "Acme"}))
	require.NoError(t, projects.Put(ctx, "acme", "p1", Project{Title: "One"}))
	require.NoError(t, projects.Put(ctx, "acme", "p2", Project{Title: "Two"}))
	p1, err := projects.Ref("acme", "p1")
	require.NoError(t, err)
	p2, err := projects.Ref("acme", "p2")
	require.NoError(t, err)
	require.NoError(t, issues.Put(ctx, p1, "i1", Issue{Title: "bug"}))
	require.NoError(t, issues.Put(ctx, p1, "i2", Issue{Title: "feature"}))
	require.NoError(t, issues.Put(ctx, p2, "i9", Issue{Title: "elsewhere"}))
	i1, err := issues.Ref(p1, "i1")
	require.NoError(t, err)
	require.NoError(t, comments.Put(ctx, i1, "c1", Comment{Text: "in the issue's partition"}))
	require.NoError(t, boards.Put(ctx, adjlist.IDs{"acme", "b1"}, board{Name: "Roadmap"}))
	require.NoError(t, cards.Put(ctx, adjlist.IDs{"acme", "b1", "k1"}, card{Text: "ship"}))
	require.NoError(t, cards.Put(ctx, adjlist.IDs{"acme", "b1", "k2"}, card{Text: "test"}))
	require.NoError(t, cards.Put(ctx, adjlist.IDs{"acme", "b2", "k3"}, card{Text: "other board"}))

	t.Run("child", func(t *testing.T) {
		var got []adjlist.Child[Issue]
		before := calls.gets.Load() + calls.queries.Load()
		p, err := adjlist.LoadPartition(ctx, projects, p1, issues.Into(&got))
		require.NoError(t, err)
		assert.Equal(t, adjlist.Partition[Project]{ID: p1, Node: Project{Title: "One"}}, p)
		assert.Equal(t, []adjlist.Child[Issue]{{Parent: p1, ID: "i1", Data: Issue{Title: "bug"}}, {Parent: p1, ID: "i2", Data: Issue{Title: "feature"}}}, got)
		assert.Equal(t, int64(2), calls.gets.Load()+calls.queries.Load()-before, "one GetItem, one Query")

		var page []adjlist.Child[Issue]
		first, err := adjlist.PagePartition(ctx, projects, p1, "", 1, issues.Into(&page))
		require.NoError(t, err)
		assert.True(t, first.HasNode)
		assert.Equal(t, Project{Title: "One"}, first.Node)
		require.NotEmpty(t, first.Cursor)
		assert.Equal(t, []adjlist.Child[Issue]{{Parent: p1, ID: "i1", Data: Issue{Title: "bug"}}}, page)
		page = nil
		next, err := adjlist.PagePartition(ctx, projects, p1, first.Cursor, 1, issues.Into(&page))
		require.NoError(t, err)
		assert.False(t, next.HasNode, "the head is read with the first page only")
		assert.Equal(t, []adjlist.Child[Issue]{{Parent: p1, ID: "i2", Data: Issue{Title: "feature"}}}, page)

		missing, err := projects.Ref("acme", "nope")
		require.NoError(t, err)
		_, err = adjlist.LoadPartition(ctx, projects, missing, issues.Into(&got))
		require.ErrorIs(t, err, adjlist.ErrNotFound)
		assert.Nil(t, got)
	})

	t.Run("entity", func(t *testing.T) {
		var got []adjlist.EntityItem[card]
		p, err := adjlist.LoadPartition(ctx, boards, "BOARD#acme#b1", cards.Into(&got))
		require.NoError(t, err)
		assert.Equal(t, board{Name: "Roadmap"}, p.Node)
		assert.Equal(t, []adjlist.EntityItem[card]{
			{IDs: adjlist.IDs{"acme", "b1", "k1"}, Data: card{Text: "ship"}},
			{IDs: adjlist.IDs{"acme", "b1", "k2"}, Data: card{Text: "test"}},
		}, got)
		assert.Zero(t, p.Other)

		got = nil
		pg, err := adjlist.PagePartition(ctx, boards, "BOARD#acme#b1", "", 0, cards.Into(&got))
		require.NoError(t, err)
		assert.True(t, pg.HasNode)
		assert.Len(t, got, 2)

		_, err = adjlist.LoadPartition(ctx, boards, "BOARD#acme#none", cards.Into(&got))
		require.ErrorIs(t, err, adjlist.ErrNotFound)
		_, err = adjlist.LoadPartition(ctx, boards, "NOT#a#board", cards.Into(&got))
		require.ErrorIs(t, err, adjlist.ErrInvalidKey)
	})

	t.Run("refused before any request", func(t *testing.T) {
		var is []adjlist.Child[Issue]
		var cs []adjlist.Child[Comment]
		var es []adjlist.EntityItem[card]
		for name, read := range map[string]func() error{
			"a nested collection of another level": func() error {
				_, err := adjlist.LoadPartition(ctx, projects, p1, comments.Into(&cs))
				return err
			},
			"an entity into a child's partition": func() error {
				_, err := adjlist.LoadPartition(ctx, projects, p1, cards.Into(&es))
				return err
			},
			"a child into an entity's partition": func() error {
				_, err := adjlist.PagePartition(ctx, boards, "BOARD#acme#b1", "", 0, issues.Into(&is))
				return err
			},
			"an entity heading no partition": func() error {
				_, err := adjlist.LoadPartition(ctx, cards, "BOARD#acme#b1", cards.Into(&es))
				return err
			},
		} {
			before := calls.total()
			require.ErrorIs(t, read(), adjlist.ErrInvalidOption, name)
			assert.Equal(t, before, calls.total(), "%s: no request", name)
		}
	})
}
