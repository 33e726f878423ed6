package adjlist_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// projectPartitions is countedSchool with entities keyed under its
// projects' refs, one partition per project ("WS#{ws}#PROJ#{proj}"):
// the project's settings heading it and its tasks, counted by status in
// it. The edges out of the project (HAS, counted per tag in the tag's
// partition) live there too.
type projectPartitions struct {
	*countedSchool
	settings *adjlist.Entity[board]
	tasks    *adjlist.Entity[trackerIssue]
	byStatus *adjlist.ItemCounter
	// cut, between the txFailClient and DynamoDB, cancels a context once
	// after some writes.
	cut *cancelClient
}

func newProjectPartitions(t *testing.T) *projectPartitions {
	t.Helper()
	p := &projectPartitions{countedSchool: newCountedSchool(t)}
	p.cut = &cancelClient{Client: p.c.Client}
	p.c.Client = p.cut
	p.settings = adjlist.NewEntity[board](p.table, "settings", "WS#{ws}#PROJ#{proj}", "META")
	p.tasks = adjlist.NewEntity[trackerIssue](p.table, "task", "WS#{ws}#PROJ#{proj}", "TASK#{task}")
	p.byStatus = adjlist.NewItemCounter(p.tasks, "STATUS", func(o *adjlist.CounterOptions) { o.GroupBy = "status" })
	require.NoError(t, p.table.Check())
	return p
}

// seedProject writes the settings of project proj of workspace ws, tasks
// open tasks, one done and one without a status (not counted), and, given
// tags, the workspace, the project and a counted HAS edge to each tag
// (seed wrote acme's); it returns the project's partition key.
func (p *projectPartitions) seedProject(t *testing.T, ws, proj string, tasks int, tags ...string) string {
	t.Helper()
	ctx := context.Background()
	ref, err := p.projects.Ref(ws, proj)
	require.NoError(t, err)
	if len(tags) > 0 {
		require.NoError(t, p.ws.Put(ctx, ws, Workspace{}))
		require.NoError(t, p.projects.Put(ctx, ws, proj, Project{}))
	}
	for _, tag := range tags {
		require.NoError(t, p.tagged.Put(ctx, ref, tag, Tagging{}))
	}
	require.NoError(t, p.settings.Put(ctx, adjlist.IDs{ws, proj}, board{Name: proj}))
	status := func(i int) string {
		switch i {
		case tasks:
			return "done"
		case tasks + 1:
			return ""
		}
		return "open"
	}
	for i := range tasks + 2 {
		require.NoError(t, p.tasks.Put(ctx, adjlist.IDs{ws, proj, fmt.Sprintf("t%03d", i)}, trackerIssue{Title: "x", Status: status(i)}))
	}
	return ref
}

// statusCounts reads project proj's task counts, open and done.
func (p *projectPartitions) statusCounts(t *testing.T, ws, proj string) [2]int64 {
	t.Helper()
	var out [2]int64
	for i, group := range []string{"open", "done"} {
		n, err := p.byStatus.Get(context.Background(), adjlist.IDs{ws, proj}, group)
		require.NoError(t, err)
		out[i] = n
	}
	return out
}

// keys lists every item's key as "PK|SK", read with a consistent Scan.
func (p *projectPartitions) keys(t *testing.T) []string {
	t.Helper()
	return (&campus{school: &school{db: p.db, table: p.table}}).keysOf(t)
}

// cancelClient cancels its context once, after its first after
// BatchWriteItem and TransactWriteItems requests returned: a cascade
// interrupted between two of its writes (the others, sent at once,
// may go through).
type cancelClient struct {
	adjlist.Client
	after  int64
	writes atomic.Int64
	cancel context.CancelFunc
}

func (c *cancelClient) wrote() {
	if c.writes.Add(1) == c.after && c.cancel != nil {
		c.cancel()
	}
}

func (c *cancelClient) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	defer c.wrote()
	return c.Client.BatchWriteItem(ctx, in, o...)
}

func (c *cancelClient) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	defer c.wrote()
	return c.Client.TransactWriteItems(ctx, in, o...)
}

// TestDeletePartitionOfEntity: DeletePartition of an entity heading its
// partition deletes exactly that partition: the entity item, the items of
// the entity keyed under the same template, the counts kept in it, and
// the edges out of the project it shares its partition with, each counted
// down in the tag's partition in one TransactWriteItems. The other
// tenants' partitions (ids with '#' and '%', a project whose escaped id
// extends p1's) and the project's own child item stay; counts stay true
// and Verify finds nothing; a second call deletes nothing and succeeds.
func TestDeletePartitionOfEntity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := newProjectPartitions(t)
	p.seed(t)
	p1 := p.seedProject(t, "acme", "p1", 2) // with seed's HAS edges to go and db
	require.Equal(t, "WS#acme#PROJ#p1", p1)
	p.seedProject(t, "acme", "p1#2", 1)
	other := p.seedProject(t, "a#b%c", "p1", 3, "go", "db")
	require.Equal(t, "WS#a%23b%25c#PROJ#p1", other)
	before := p.keys(t)
	countsBefore := p.counts(t)
	gone := []string{
		p1 + "|HAS#TAG#db", p1 + "|HAS#TAG#go", p1 + "|META",
		p1 + "|STATUS#done", p1 + "|STATUS#open",
		p1 + "|TASK#t000", p1 + "|TASK#t001", p1 + "|TASK#t002", p1 + "|TASK#t003",
	}
	require.Subset(t, before, gone)
	assert.Equal(t, [2]int64{2, 1}, p.statusCounts(t, "acme", "p1"))

	txs := p.c.txs.Load()
	res, err := adjlist.DeletePartition(ctx, p.settings, p1)
	require.NoError(t, err)
	assert.Equal(t, adjlist.CascadeResult{Partition: len(gone) - 1, Node: true, Queries: 1, Batches: 2, Counted: 2}, res,
		"one Query; the HAS edges counted down one transaction each; one batch for the rest, one for META")
	assert.Equal(t, int64(2), p.c.txs.Load()-txs)
	assert.Equal(t, without(before, gone), p.keys(t), "p1's partition gone, everything else untouched")

	countsBefore["PROJECTS go"]--
	countsBefore["PROJECTS db"]--
	assert.Equal(t, countsBefore, p.counts(t), "each count is the edges present")
	assert.Equal(t, [2]int64{0, 0}, p.statusCounts(t, "acme", "p1"), "gone with the partition")
	assert.Equal(t, [2]int64{1, 1}, p.statusCounts(t, "acme", "p1#2"))
	assert.Equal(t, [2]int64{3, 1}, p.statusCounts(t, "a#b%c", "p1"))
	p.verifyClean(t)

	t.Run("second run deletes nothing and succeeds", func(t *testing.T) {
		res, err := adjlist.DeletePartition(ctx, p.settings, p1)
		require.NoError(t, err)
		assert.Equal(t, adjlist.CascadeResult{Queries: 1}, res)
		assert.Equal(t, without(before, gone), p.keys(t))
	})
}

// TestDeletePartitionOfEntityResumes: a DeletePartition interrupted by
// its context after each of its first writes, then run again, finishes:
// the partition is gone, the entity item last, and no count is counted
// down twice.
func TestDeletePartitionOfEntityResumes(t *testing.T) {
	t.Parallel()
	// Writes: the 2 HAS edges' transactions, 3 batches for the 62 tasks
	// and 2 counts (sent at once), META's batch.
	for after := range int64(4) {
		t.Run(fmt.Sprintf("cancelled after %d writes", after+1), func(t *testing.T) {
			t.Parallel()
			p := newProjectPartitions(t)
			p.seed(t)
			p1 := p.seedProject(t, "acme", "p1", 60)
			p.seedProject(t, "acme", "p2", 1)
			before := p.keys(t)
			countsBefore := p.counts(t)

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			p.cut.after, p.cut.cancel = p.cut.writes.Load()+after+1, cancel
			res, err := adjlist.DeletePartition(ctx, p.settings, p1)
			require.ErrorIs(t, err, context.Canceled)
			var op *adjlist.OpError
			require.ErrorAs(t, err, &op)
			assert.Equal(t, "DeletePartition", op.Op)
			assert.False(t, res.Node)
			_, err = p.settings.Get(context.Background(), adjlist.IDs{"acme", "p1"})
			require.NoError(t, err, "the entity item stays while work remains")

			res, err = adjlist.DeletePartition(context.Background(), p.settings, p1)
			require.NoError(t, err)
			assert.True(t, res.Node)
			left := slices.DeleteFunc(before, func(k string) bool { return strings.HasPrefix(k, p1+"|") })
			require.Len(t, left, len(before)-2-2-62-1)
			assert.Equal(t, left, p.keys(t), "resumed: p1's partition gone, nothing else touched")
			countsBefore["PROJECTS go"]--
			countsBefore["PROJECTS db"]--
			assert.Equal(t, countsBefore, p.counts(t), "no edge counted down twice")
			assert.Equal(t, [2]int64{1, 1}, p.statusCounts(t, "acme", "p2"))
			p.verifyClean(t)
		})
	}
}

// TestDeletePartitionOfNodeAndChild: DeletePartition of a node or of a
// collection's child (by its ref) is DeleteNode or DeleteChild: the same
// requests, result and items left, and the same refusals but for the Op.
func TestDeletePartitionOfNodeAndChild(t *testing.T) {
	t.Parallel()
	type fixture struct {
		c *campus   // for a node
		m *tagModel // for a child
	}
	type run func(context.Context, fixture) (adjlist.CascadeResult, error)
	ref := "WS#acme#PROJ#" + projID(1)
	tests := []struct {
		name              string
		child             bool
		direct, partition run
	}{
		{"node, kinds given", false, func(ctx context.Context, f fixture) (adjlist.CascadeResult, error) {
			return adjlist.DeleteNode(ctx, f.c.students, "a91", f.c.mentors, f.c.advises)
		}, func(ctx context.Context, f fixture) (adjlist.CascadeResult, error) {
			return adjlist.DeletePartition(ctx, f.c.students, "a91", f.c.mentors, f.c.advises)
		}},
		{"node, the kinds the table records", false, func(ctx context.Context, f fixture) (adjlist.CascadeResult, error) {
			return adjlist.DeleteNode(ctx, f.c.students, "a91")
		}, func(ctx context.Context, f fixture) (adjlist.CascadeResult, error) {
			return adjlist.DeletePartition(ctx, f.c.students, "a91")
		}},
		{"node, a kind refused", false, func(ctx context.Context, f fixture) (adjlist.CascadeResult, error) {
			return adjlist.DeleteNode(ctx, f.c.students, "a91", f.c.mentors, f.c.enrolled)
		}, func(ctx context.Context, f fixture) (adjlist.CascadeResult, error) {
			return adjlist.DeletePartition(ctx, f.c.students, "a91", f.c.mentors, f.c.enrolled)
		}},
		{"child, kinds given", true, func(ctx context.Context, f fixture) (adjlist.CascadeResult, error) {
			return adjlist.DeleteChild(ctx, f.m.projects, "acme", projID(1), f.m.tagged)
		}, func(ctx context.Context, f fixture) (adjlist.CascadeResult, error) {
			return adjlist.DeletePartition(ctx, f.m.projects, ref, f.m.tagged)
		}},
		{"child, the kinds the table records", true, func(ctx context.Context, f fixture) (adjlist.CascadeResult, error) {
			return adjlist.DeleteChild(ctx, f.m.projects, "acme", projID(1))
		}, func(ctx context.Context, f fixture) (adjlist.CascadeResult, error) {
			return adjlist.DeletePartition(ctx, f.m.projects, ref)
		}},
		{"child, a kind refused", true, func(ctx context.Context, f fixture) (adjlist.CascadeResult, error) {
			return adjlist.DeleteChild(ctx, f.m.projects, "acme", projID(1), f.m.tagged, adjlist.NewEdge[struct{}](f.m.workspaces, "OWNS", f.m.workspaces))
		}, func(ctx context.Context, f fixture) (adjlist.CascadeResult, error) {
			return adjlist.DeletePartition(ctx, f.m.projects, ref, f.m.tagged, adjlist.NewEdge[struct{}](f.m.workspaces, "OWNS", f.m.workspaces))
		}},
	}
	type outcome struct {
		res      adjlist.CascadeResult
		err      error
		requests int64 // Queries and, for a node, BatchWriteItems
		keys     []string
	}
	do := func(t *testing.T, child bool, f run) outcome {
		var fx fixture
		var requests func() int64
		if child {
			fx.m = newTagModel(t, 0)
			fx.m.seedTags(t, "acme", 3, "go", "db")
			fx.c = &campus{school: &school{db: fx.m.db, table: fx.m.table}}
			requests = fx.m.calls.queries.Load
		} else {
			fx.c = newCampus(t, adjlist.Options{})
			fx.c.seed(t, 3, 2)
			requests = fx.c.w.requests
		}
		n := requests()
		res, err := f(context.Background(), fx)
		return outcome{res, err, requests() - n, fx.c.keysOf(t)}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want, got := do(t, tt.child, tt.direct), do(t, tt.child, tt.partition)
			if want.err != nil {
				var wantOp, gotOp *adjlist.OpError
				require.ErrorAs(t, want.err, &wantOp)
				require.ErrorAs(t, got.err, &gotOp)
				assert.Equal(t, "DeletePartition", gotOp.Op)
				gotOp.Op, gotOp.Table = wantOp.Op, wantOp.Table
				assert.Equal(t, want.err.Error(), got.err.Error(), "the same error but for the Op")
				assert.Zero(t, got.requests, "refused before any request")
			} else {
				require.NoError(t, got.err)
				assert.True(t, got.res.Node)
			}
			assert.Equal(t, want.res, got.res)
			assert.Equal(t, want.requests, got.requests)
			assert.Equal(t, want.keys, got.keys)
		})
	}
}

// TestDeletePartitionRefusedBeforeAnyRequest: on a table without a
// client, where any request would panic, bad calls fail first.
func TestDeletePartitionRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	table := adjlist.NewTable(nil, "t")
	ws := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](ws, "PROJ")
	tags := adjlist.NewNode[struct{}](table, "TAG", "")
	hasTag := adjlist.NewEdge[Tagging](projects, "HAS", tags)
	settings := adjlist.NewEntity[board](table, "settings", "WS#{ws}#PROJ#{proj}", "META")
	tasks := adjlist.NewEntity[trackerIssue](table, "task", "WS#{ws}#PROJ#{proj}", "TASK#{task}")
	require.NoError(t, table.Check())
	tests := []struct {
		name     string
		run      func() error
		sentinel error
	}{
		{"entity whose sort key holds an id", func() error {
			_, err := adjlist.DeletePartition(ctx, tasks, "WS#acme#PROJ#p1")
			return err
		}, adjlist.ErrInvalidOption},
		{"incoming kinds for an entity", func() error {
			_, err := adjlist.DeletePartition(ctx, settings, "WS#acme#PROJ#p1", hasTag)
			return err
		}, adjlist.ErrInvalidOption},
		{"entity id short of the template", func() error {
			_, err := adjlist.DeletePartition(ctx, settings, "WS#acme")
			return err
		}, adjlist.ErrInvalidKey},
		{"entity id with an unescaped '#'", func() error {
			_, err := adjlist.DeletePartition(ctx, settings, "WS#a#b#PROJ#p1")
			return err
		}, adjlist.ErrInvalidKey},
		{"entity id with a bad escape", func() error {
			_, err := adjlist.DeletePartition(ctx, settings, "WS#a%2#PROJ#p1")
			return err
		}, adjlist.ErrInvalidKey},
		{"empty entity id", func() error {
			_, err := adjlist.DeletePartition(ctx, settings, "")
			return err
		}, adjlist.ErrInvalidKey},
		{"empty node id", func() error {
			_, err := adjlist.DeletePartition(ctx, ws, "")
			return err
		}, adjlist.ErrInvalidKey},
		{"a child's ids, not its ref", func() error {
			_, err := adjlist.DeletePartition(ctx, projects, "p1")
			return err
		}, adjlist.ErrInvalidKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run()
			require.ErrorIs(t, err, tt.sentinel)
			var op *adjlist.OpError
			require.ErrorAs(t, err, &op)
			assert.Equal(t, "DeletePartition", op.Op)
		})
	}
}
