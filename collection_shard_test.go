package adjlist_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// A workspace's projects spread over 4 partitions: written by child id,
// read back merged in sort key order by every read, and deleted with the
// workspace.
func TestShardedCollection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	calls := &countingClient{Client: db}
	table := adjlist.NewTable(calls, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ", func(o *adjlist.CollectionOptions) { o.Shards = 4 })

	require.NoError(t, workspaces.Put(ctx, "acme", Workspace{DisplayName: "Acme"}))
	require.NoError(t, workspaces.Put(ctx, "globex", Workspace{DisplayName: "Globex"}))
	var ids []string
	for i := range 60 {
		id := projID(i)
		ids = append(ids, id)
		require.NoError(t, projects.Put(ctx, "acme", id, Project{Title: id, Status: []string{"ACTIVE", "DONE"}[i%2]}))
	}
	require.NoError(t, projects.Put(ctx, "globex", "2026-0001", Project{Title: "g"}))

	// Placed by child id: every shard used, the parent item unmoved.
	shards := map[string]bool{}
	for _, id := range ids {
		pk, sk, err := projects.Key("acme", id)
		require.NoError(t, err)
		assert.Regexp(t, `^WS#acme#0[0-3]$`, pk)
		shards[pk] = true
		out, err := db.GetItem(ctx, getInput(table.Name(), pk, sk))
		require.NoError(t, err)
		require.NotNil(t, out.Item, id)
	}
	assert.Len(t, shards, 4)
	ws, err := workspaces.Get(ctx, "acme")
	require.NoError(t, err)
	assert.Equal(t, "Acme", ws.DisplayName)

	list := func(q adjlist.Query[adjlist.Child[Project]]) []string {
		t.Helper()
		items, err := q.Collect(ctx)
		require.NoError(t, err)
		var out []string
		for _, c := range items {
			assert.Equal(t, "acme", c.Parent)
			out = append(out, c.ID)
		}
		return out
	}
	assert.Equal(t, ids, list(projects.List("acme")), "merged in sort key order")
	desc := slices.Clone(ids)
	slices.Reverse(desc)
	assert.Equal(t, desc, list(projects.List("acme").Desc()))
	assert.Equal(t, ids[10:21], list(projects.List("acme").Between(ids[10], ids[20])))
	assert.Len(t, list(projects.List("acme").Filter(expression.Name("status").Equal(expression.Value("ACTIVE")))), 30)
	n, err := projects.List("acme").Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 60, n)

	// Pages: one request per shard per page, one cursor resuming them all.
	before := calls.queries.Load()
	var paged []string
	cursor := ""
	pages := 0
	for {
		p, err := projects.List("acme").Desc().Limit(9).Page(ctx, cursor)
		require.NoError(t, err)
		pages++
		for _, c := range p.Items {
			paged = append(paged, c.ID)
		}
		if cursor = p.Cursor; cursor == "" {
			break
		}
	}
	assert.Equal(t, desc, paged)
	assert.LessOrEqual(t, calls.queries.Load()-before, int64(4*pages))

	fam, err := projects.Load(ctx, "acme")
	require.NoError(t, err)
	assert.Equal(t, "Acme", fam.Parent.DisplayName)
	assert.Len(t, fam.Children, 60)

	got, err := projects.Update(ctx, "acme", ids[7], adjlist.Set("title", "renamed"))
	require.NoError(t, err)
	assert.Equal(t, "renamed", got.Title)
	require.NoError(t, projects.Delete(ctx, "acme", ids[7]))
	_, err = projects.Get(ctx, "acme", ids[7])
	require.ErrorIs(t, err, adjlist.ErrNotFound)

	// Not in the parent's partition: LoadPartition refuses them, before
	// any request.
	before = calls.total()
	var into []adjlist.Child[Project]
	_, err = adjlist.LoadPartition(ctx, workspaces, "acme", projects.Into(&into))
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	assert.Equal(t, before, calls.total())

	// DeleteNode with the collection deletes the parent and every shard.
	res, err := adjlist.DeleteNode(ctx, workspaces, "acme", projects)
	require.NoError(t, err)
	assert.True(t, res.Node)
	assert.Equal(t, 59, res.Incoming)
	left := 0
	pagesScan := dynamodb.NewScanPaginator(db, &dynamodb.ScanInput{TableName: aws.String(table.Name())})
	for pagesScan.HasMorePages() {
		out, err := pagesScan.NextPage(ctx)
		require.NoError(t, err)
		for _, item := range out.Items {
			pk := rawText(item)["PK"]
			assert.True(t, strings.HasPrefix(pk, "WS#globex"), "left %s", pk)
			left++
		}
	}
	assert.Equal(t, 2, left, "globex and its project")

	// Describe shows the sharded partition key.
	var b strings.Builder
	require.NoError(t, adjlist.Describe(&b, table, workspaces, projects))
	assert.Contains(t, b.String(), "| child PROJ of WS | `WS#<id>#<shard of child, 4>` | `PROJ#<child>` |")
	assert.Contains(t, b.String(), "4 Queries in parallel, merged")

	bad := adjlist.NewCollection[Project](workspaces, "PROJ", func(o *adjlist.CollectionOptions) { o.Shards = 101 })
	require.ErrorIs(t, bad.Put(ctx, "a", "b", Project{}), adjlist.ErrInvalidOption)
}
