package adjlist_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// Tagging is the data of an edge between a tag and a project.
type Tagging struct {
	By string `dynamodbav:"by"`
}

// tagModel is seed 004's workspaces and projects with tags ↔ projects as
// edges whose one end is a child item.
type tagModel struct {
	db         *dynamodb.Client
	calls      *countingClient
	table      *adjlist.Table
	workspaces *adjlist.Node[Workspace]
	projects   *adjlist.Collection[Project, Workspace]
	tags       *adjlist.Node[struct{}]
	tagged     *adjlist.Edge[Tagging] // TAG → child PROJ of WS
	hasTag     *adjlist.Edge[Tagging] // child PROJ of WS → TAG
	dependsOn  *adjlist.Edge[struct{}]
}

func newTagModel(t *testing.T, shards int) *tagModel {
	t.Helper()
	db := ddbtest.Client(t)
	m := &tagModel{db: db, calls: &countingClient{Client: db}}
	m.table = adjlist.NewTable(m.calls, ddbtest.TableName(t))
	require.NoError(t, adjlist.CreateTable(context.Background(), db, m.table))
	dropOnCleanup(t, db, m.table.Name())
	m.workspaces = adjlist.NewNode[Workspace](m.table, "WS", "META")
	m.projects = adjlist.NewCollection[Project](m.workspaces, "PROJ", func(o *adjlist.CollectionOptions) { o.Shards = shards })
	m.tags = adjlist.NewNode[struct{}](m.table, "TAG", "")
	m.tagged = adjlist.NewEdge[Tagging](m.tags, "TAGGED", m.projects)
	m.hasTag = adjlist.NewEdge[Tagging](m.projects, "HAS", m.tags)
	m.dependsOn = adjlist.NewEdge[struct{}](m.projects, "DEPENDS", m.projects)
	return m
}

func (m *tagModel) ref(t *testing.T, ws, proj string) string {
	t.Helper()
	ref, err := m.projects.Ref(ws, proj)
	require.NoError(t, err)
	return ref
}

func (m *tagModel) raw(t *testing.T, pk, sk string) map[string]string {
	t.Helper()
	out, err := m.db.GetItem(context.Background(), getInput(m.table.Name(), pk, sk))
	require.NoError(t, err)
	require.NotNil(t, out.Item, "no item %s / %s", pk, sk)
	return rawText(out.Item)
}

func TestRefRoundTrip(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "refs")
	ws := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](ws, "PROJ")
	sharded := adjlist.NewCollection[Project](ws, "PROJ", func(o *adjlist.CollectionOptions) { o.Shards = 8 })
	for _, ids := range [][2]string{
		{"acme", "2026-0042"},
		{"a#b", "c%d#"},
		{"ünï", "WS#x#PROJ#y"},
		{"%23", "%25"},
	} {
		ref, err := projects.Ref(ids[0], ids[1])
		require.NoError(t, err)
		p, c, err := projects.ParseRef(ref)
		require.NoError(t, err)
		assert.Equal(t, ids, [2]string{p, c})
		same, err := sharded.Ref(ids[0], ids[1])
		require.NoError(t, err)
		assert.Equal(t, ref, same, "a ref names the child, not its shard")
	}
	ref, err := projects.Ref("acme", "2026-0042")
	require.NoError(t, err)
	assert.Equal(t, "WS#acme#PROJ#2026-0042", ref)
	ref, err = projects.Ref("a#b", "c%d")
	require.NoError(t, err)
	assert.Equal(t, "WS#a%23b#PROJ#c%25d", ref, "the README's example")

	for _, bad := range []string{"", "WS#acme", "WS#acme#PROJ#", "WS##PROJ#1", "WS#acme#TASK#1", "WS#a#b#PROJ#1",
		"STU#acme#PROJ#1", "WS#acme#PROJ#1#x", "WS#a%2#PROJ#1", "WS#acme#PROJ#\x00"} {
		_, _, err := projects.ParseRef(bad)
		assert.ErrorIs(t, err, adjlist.ErrInvalidKey, "%q", bad)
	}
	for _, ids := range [][2]string{{"", "1"}, {"acme", ""}, {"acme", "\x1b[2J"}, {"\xff", "1"}} {
		_, err := projects.Ref(ids[0], ids[1])
		assert.ErrorIs(t, err, adjlist.ErrInvalidKey, "%q", ids)
	}
}

// TestChildEndpointLayout writes both directions and checks every key
// attribute of the items, then reads them back every way.
func TestChildEndpointLayout(t *testing.T) {
	t.Parallel()
	for _, shards := range []int{0, 8} {
		t.Run(map[int]string{0: "unsharded", 8: "sharded"}[shards], func(t *testing.T) {
			t.Parallel()
			m := newTagModel(t, shards)
			ctx := context.Background()
			ref := m.ref(t, "acme", "2026-0042")
			require.NoError(t, m.tagged.Put(ctx, "go", ref, Tagging{By: "ana"}))
			require.NoError(t, m.hasTag.Put(ctx, ref, "go", Tagging{By: "ana"}))

			assert.Equal(t, map[string]string{"PK": "TAG#go", "SK": "TAGGED#WS#acme#PROJ#2026-0042",
				"GSI1PK": "WS#acme#PROJ#2026-0042", "GSI1SK": "TAG#go", "by": "ana"},
				m.raw(t, "TAG#go", "TAGGED#WS#acme#PROJ#2026-0042"))
			assert.Equal(t, map[string]string{"PK": "WS#acme#PROJ#2026-0042", "SK": "HAS#TAG#go",
				"GSI1PK": "TAG#go", "GSI1SK": "WS#acme#PROJ#2026-0042", "by": "ana"},
				m.raw(t, "WS#acme#PROJ#2026-0042", "HAS#TAG#go"))

			want := []adjlist.EdgeItem[Tagging]{{From: "go", To: ref, Data: Tagging{By: "ana"}}}
			got, err := m.tagged.From("go").Collect(ctx)
			require.NoError(t, err)
			assert.Equal(t, want, got)
			require.NoError(t, m.tagged.WaitIndexed(ctx, "go", ref, waitIndex))
			got, err = m.tagged.To(ref).Collect(ctx)
			require.NoError(t, err)
			assert.Equal(t, want, got)
			one, err := m.tagged.Get(ctx, "go", ref)
			require.NoError(t, err)
			assert.Equal(t, want[0].Data, one)

			back := []adjlist.EdgeItem[Tagging]{{From: ref, To: "go", Data: Tagging{By: "ana"}}}
			got, err = m.hasTag.From(ref).Collect(ctx)
			require.NoError(t, err)
			assert.Equal(t, back, got)
			require.NoError(t, m.hasTag.WaitIndexed(ctx, ref, "go", waitIndex))
			got, err = m.hasTag.To("go").Collect(ctx)
			require.NoError(t, err)
			assert.Equal(t, back, got)
			p, c, err := m.projects.ParseRef(got[0].From)
			require.NoError(t, err)
			assert.Equal(t, []string{"acme", "2026-0042"}, []string{p, c})

			// The children's listing is not disturbed by their edges.
			require.NoError(t, m.projects.Put(ctx, "acme", "2026-0042", Project{Title: "Apollo"}))
			n, err := m.projects.List("acme").Count(ctx)
			require.NoError(t, err)
			assert.Equal(t, 1, n)
		})
	}
}

// TestChildEndpointHostileIDs round-trips ids holding the separators
// through refs, edges and the index.
func TestChildEndpointHostileIDs(t *testing.T) {
	t.Parallel()
	m := newTagModel(t, 0)
	ctx := context.Background()
	ref := m.ref(t, "a#c%me", "PROJ#1#TAGGED#WS#x")
	require.NoError(t, m.tagged.Put(ctx, "g#o", ref, Tagging{}))
	got, err := m.tagged.From("g#o").Collect(ctx)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, ref, got[0].To)
	p, c, err := m.projects.ParseRef(got[0].To)
	require.NoError(t, err)
	assert.Equal(t, []string{"a#c%me", "PROJ#1#TAGGED#WS#x"}, []string{p, c})
	require.NoError(t, m.tagged.WaitIndexed(ctx, "g#o", ref, waitIndex))
	got, err = m.tagged.To(ref).Collect(ctx)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, "g#o", got[0].From)
}

// TestChildEndpointRefusedBeforeRequest: refs that are not refs of the
// edge's child type fail with ErrInvalidKey and send nothing.
func TestChildEndpointRefusedBeforeRequest(t *testing.T) {
	t.Parallel()
	m := newTagModel(t, 0)
	ctx := context.Background()
	before := m.calls.total()
	for _, bad := range []string{"acme/2026-0042", "WS#acme", "WS#acme#TASK#1", "", "TAG#go"} {
		assert.ErrorIs(t, m.tagged.Put(ctx, "go", bad, Tagging{}), adjlist.ErrInvalidKey, bad)
		assert.ErrorIs(t, m.tagged.Put(ctx, "go", bad, Tagging{}, checkEnds), adjlist.ErrInvalidKey, bad)
		_, err := m.tagged.To(bad).Collect(ctx)
		assert.ErrorIs(t, err, adjlist.ErrInvalidKey, bad)
		_, err = m.hasTag.From(bad).Collect(ctx)
		assert.ErrorIs(t, err, adjlist.ErrInvalidKey, bad)
		_, err = adjlist.DeleteChild(ctx, m.projects, "acme", "", m.tagged)
		assert.ErrorIs(t, err, adjlist.ErrInvalidKey)
	}
	// A counter's counts live in the target's node partition: children have none.
	_, err := newEdgeCounter(m.tagged, "TAGS").Get(ctx, m.ref(t, "acme", "1"))
	assert.ErrorIs(t, err, adjlist.ErrInvalidOption)
	// Children have no partition of their own to load with their edges.
	_, err = adjlist.LoadNode(ctx, m.workspaces, m.hasTag, "acme")
	assert.ErrorIs(t, err, adjlist.ErrInvalidOption)
	var has []adjlist.EdgeItem[Tagging]
	_, err = adjlist.LoadPartition(ctx, m.workspaces, "acme", m.hasTag.Into(&has))
	assert.ErrorIs(t, err, adjlist.ErrInvalidOption)
	// DeleteChild takes only kinds attached to the child.
	enrol := newSchool(t)
	_, err = adjlist.DeleteChild(ctx, m.projects, "acme", "1", adjlist.NewEdge[struct{}](m.tags, "T", m.workspaces))
	assert.ErrorIs(t, err, adjlist.ErrInvalidOption)
	_, err = adjlist.DeleteNode(ctx, m.workspaces, "acme", enrol.enrolled)
	assert.ErrorIs(t, err, adjlist.ErrInvalidOption)
	assert.Equal(t, before, m.calls.total(), "no request for refused input")
}

// TestPutCheckedChildEndpoint: the existence check targets the child item
// in its collection (its shard when sharded).
func TestPutCheckedChildEndpoint(t *testing.T) {
	t.Parallel()
	for _, shards := range []int{0, 4} {
		t.Run(map[int]string{0: "unsharded", 4: "sharded"}[shards], func(t *testing.T) {
			t.Parallel()
			m := newTagModel(t, shards)
			ctx := context.Background()
			ref := m.ref(t, "acme", "2026-0042")
			require.NoError(t, m.tags.Put(ctx, "go", struct{}{}))

			err := m.tagged.Put(ctx, "go", ref, Tagging{}, checkEnds)
			var nf *adjlist.NodeNotFoundError
			require.ErrorAs(t, err, &nf)
			assert.Equal(t, adjlist.NodeNotFoundError{Side: "to", Type: "PROJ", ID: ref}, *nf)
			assert.ErrorIs(t, err, adjlist.ErrNodeNotFound)
			_, err = m.tagged.Get(ctx, "go", ref)
			require.ErrorIs(t, err, adjlist.ErrNotFound, "nothing written")

			// A workspace item is not the project: the check is on the child.
			require.NoError(t, m.workspaces.Put(ctx, "acme", Workspace{DisplayName: "Acme"}))
			require.ErrorAs(t, m.tagged.Put(ctx, "go", ref, Tagging{}, checkEnds), &nf)

			require.NoError(t, m.projects.Put(ctx, "acme", "2026-0042", Project{Title: "Apollo"}))
			require.NoError(t, m.tagged.Put(ctx, "go", ref, Tagging{By: "ana"}, checkEnds))
			require.NoError(t, m.hasTag.Put(ctx, ref, "go", Tagging{By: "ana"}, checkEnds))
			err = m.hasTag.Put(ctx, ref, "rust", Tagging{}, checkEnds)
			require.ErrorAs(t, err, &nf)
			assert.Equal(t, "to", nf.Side)
			other := m.ref(t, "acme", "2026-0043")
			err = m.dependsOn.Put(ctx, other, ref, struct{}{}, checkEnds)
			require.ErrorAs(t, err, &nf)
			assert.Equal(t, adjlist.NodeNotFoundError{Side: "from", Type: "PROJ", ID: other}, *nf)
		})
	}
}

// seedTags gives workspace ws n projects, each tagged by tags and tagging
// back, and each depending on the previous one.
func (m *tagModel) seedTags(t *testing.T, ws string, n int, tags ...string) []string {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, m.workspaces.Put(ctx, ws, Workspace{DisplayName: ws}))
	var refs []string
	for i := range n {
		id := projID(i)
		require.NoError(t, m.projects.Put(ctx, ws, id, Project{Title: id}))
		ref := m.ref(t, ws, id)
		for _, tag := range tags {
			require.NoError(t, m.tagged.Put(ctx, tag, ref, Tagging{}))
			require.NoError(t, m.hasTag.Put(ctx, ref, tag, Tagging{}))
		}
		if i > 0 {
			require.NoError(t, m.dependsOn.Put(ctx, ref, refs[i-1], struct{}{}))
		}
		refs = append(refs, ref)
	}
	for _, ref := range refs {
		for _, tag := range tags {
			require.NoError(t, m.tagged.WaitIndexed(ctx, tag, ref, waitIndex))
		}
	}
	return refs
}

func TestDeleteChildCascade(t *testing.T) {
	t.Parallel()
	for _, shards := range []int{0, 4} {
		t.Run(map[int]string{0: "unsharded", 4: "sharded"}[shards], func(t *testing.T) {
			t.Parallel()
			m := newTagModel(t, shards)
			ctx := context.Background()
			refs := m.seedTags(t, "acme", 3, "go", "db")
			require.NoError(t, m.dependsOn.WaitIndexed(ctx, refs[2], refs[1], waitIndex))

			res, err := adjlist.DeleteChild(ctx, m.projects, "acme", projID(1), m.tagged, m.hasTag, m.dependsOn)
			require.NoError(t, err)
			// Into it: 2 taggings and the dependency of project 2; its own
			// partition: 2 tags and its dependency on project 0.
			assert.Equal(t, 3, res.Incoming)
			assert.Equal(t, 3, res.Partition)
			assert.True(t, res.Node)

			_, err = m.projects.Get(ctx, "acme", projID(1))
			assert.ErrorIs(t, err, adjlist.ErrNotFound)
			for _, tag := range []string{"go", "db"} {
				got, err := m.tagged.From(tag).Collect(ctx)
				require.NoError(t, err)
				assert.Equal(t, []string{refs[0], refs[2]}, tos(got), tag)
			}
			got, err := m.hasTag.From(refs[1]).Collect(ctx)
			require.NoError(t, err)
			assert.Empty(t, got)
			deps, err := m.dependsOn.From(refs[2]).Collect(ctx)
			require.NoError(t, err)
			assert.Empty(t, deps, "the edge into the deleted project went with it")

			again, err := adjlist.DeleteChild(ctx, m.projects, "acme", projID(1), m.tagged, m.hasTag)
			require.NoError(t, err)
			assert.Equal(t, adjlist.CascadeResult{Queries: again.Queries}, again, "a second run deletes nothing")
		})
	}
}

// tos lists the edges' To ids.
func tos[E any](edges []adjlist.EdgeItem[E]) []string {
	return ids(edges, func(e adjlist.EdgeItem[E]) string { return e.To })
}

// TestDeleteNodeCoversChildrenEdges: deleting a workspace deletes the
// edges into and out of its projects, and nothing of another workspace.
func TestDeleteNodeCoversChildrenEdges(t *testing.T) {
	t.Parallel()
	for _, shards := range []int{0, 4} {
		t.Run(map[int]string{0: "unsharded", 4: "sharded"}[shards], func(t *testing.T) {
			t.Parallel()
			m := newTagModel(t, shards)
			ctx := context.Background()
			acme := m.seedTags(t, "acme", 5, "go", "db")
			other := m.seedTags(t, "globex", 2, "go")

			in := []adjlist.Incoming{m.tagged, m.hasTag, m.dependsOn}
			if shards > 0 {
				in = append(in, m.projects)
			}
			res, err := adjlist.DeleteNode(ctx, m.workspaces, "acme", in...)
			require.NoError(t, err)
			// Into acme's projects: 10 taggings and 4 dependencies; out of
			// them: 10 tags (each dependency is gone by then, deleted as
			// the edge into the project it points at, listed first).
			assert.Equal(t, 24, res.Attached)
			if shards > 0 {
				assert.Equal(t, 5, res.Incoming, "the sharded projects, passed as the collection")
				assert.Zero(t, res.Partition)
			} else {
				assert.Equal(t, 5, res.Partition, "the projects, in the workspace's partition")
			}
			assert.True(t, res.Node)
			for _, ref := range acme {
				got, err := m.hasTag.From(ref).Collect(ctx)
				require.NoError(t, err)
				assert.Empty(t, got, ref)
			}
			got, err := m.tagged.From("go").Collect(ctx)
			require.NoError(t, err)
			assert.Equal(t, other, tos(got), "only globex's projects are still tagged go")
			got, err = m.tagged.From("db").Collect(ctx)
			require.NoError(t, err)
			assert.Empty(t, got)
			n, err := m.projects.List("acme").Count(ctx)
			require.NoError(t, err)
			assert.Zero(t, n)
			n, err = m.projects.List("globex").Count(ctx)
			require.NoError(t, err)
			assert.Equal(t, 2, n)
			_, err = m.workspaces.Get(ctx, "acme")
			assert.ErrorIs(t, err, adjlist.ErrNotFound)

			// Resumable: a second run finds nothing left.
			again, err := adjlist.DeleteNode(ctx, m.workspaces, "acme", in...)
			require.NoError(t, err)
			assert.Zero(t, again.Attached+again.Incoming+again.Partition)
			assert.False(t, again.Node)
		})
	}
}

// TestTwoHopThroughChildren: tags that share a project with "go".
func TestTwoHopThroughChildren(t *testing.T) {
	t.Parallel()
	m := newTagModel(t, 0)
	ctx := context.Background()
	refs := m.seedTags(t, "acme", 2, "go")
	require.NoError(t, m.tagged.Put(ctx, "db", refs[1], Tagging{}))
	require.NoError(t, m.tagged.WaitIndexed(ctx, "db", refs[1], waitIndex))
	res, err := adjlist.TwoHop(ctx, m.tagged, m.tagged, "go", 10)
	require.NoError(t, err)
	assert.Equal(t, []adjlist.Peer{{ID: "db", Via: []string{refs[1]}}}, res.Peers)
	// From a project: the projects that share a tag with it.
	for _, ref := range refs {
		require.NoError(t, m.hasTag.WaitIndexed(ctx, ref, "go", waitIndex))
	}
	res, err = adjlist.TwoHop(ctx, m.hasTag, m.hasTag, refs[0], 10)
	require.NoError(t, err)
	assert.Equal(t, []adjlist.Peer{{ID: refs[1], Via: []string{"go"}}}, res.Peers)
}

// TestScanChildEndpointEdges: a Scan of an edge kind into children finds
// them all, with refs.
func TestScanChildEndpointEdges(t *testing.T) {
	t.Parallel()
	m := newTagModel(t, 0)
	ctx := context.Background()
	refs := m.seedTags(t, "acme", 3, "go")
	var (
		mu  sync.Mutex
		got []string
	)
	_, err := adjlist.Scan(ctx, m.db, m.tagged, func(_ context.Context, e adjlist.EdgeItem[Tagging]) error {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, e.To)
		return nil
	})
	require.NoError(t, err)
	assert.ElementsMatch(t, refs, got)
	var froms []string
	_, err = adjlist.Scan(ctx, m.db, m.hasTag, func(_ context.Context, e adjlist.EdgeItem[Tagging]) error {
		mu.Lock()
		defer mu.Unlock()
		froms = append(froms, e.From)
		return nil
	})
	require.NoError(t, err)
	assert.ElementsMatch(t, refs, froms)

	// Written by the library, they are in the layout: Migrate rewrites none.
	for _, h := range []adjlist.Scannable[adjlist.EdgeItem[Tagging]]{m.tagged, m.hasTag} {
		res, err := adjlist.Migrate(ctx, m.db, h)
		require.NoError(t, err)
		assert.Equal(t, 3, res.Matched)
		assert.Zero(t, res.Rewritten)
	}
}

// TestDescribeChildEndpoints: the model names child ends "WS/PROJ", with
// their refs as key patterns, and the diagram draws the edge to the
// collection's box.
func TestDescribeChildEndpoints(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "tags")
	ws := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](ws, "PROJ")
	tags := adjlist.NewNode[struct{}](table, "TAG", "")
	tagged := adjlist.NewEdge[Tagging](tags, "TAGGED", projects)
	hasTag := adjlist.NewEdge[Tagging](projects, "HAS", tags)
	m, err := adjlist.DescribeModel(table, ws, projects, tags, tagged, hasTag)
	require.NoError(t, err)
	items := map[string]adjlist.ItemType{}
	for _, it := range m.Items {
		items[it.Name] = it
	}
	in := items["edge TAGGED (TAG → WS/PROJ)"]
	assert.Equal(t, []string{"TAG", "WS/PROJ", "TAG#<from>", "TAGGED#WS#<to parent>#PROJ#<to>"}, []string{in.From, in.To, in.PartitionKey, in.SortKey})
	require.Len(t, in.Indexes, 1)
	assert.Equal(t, "WS#<to parent>#PROJ#<to>", in.Indexes[0].PartitionKey)
	out := items["edge HAS (WS/PROJ → TAG)"]
	assert.Equal(t, []string{"WS/PROJ", "TAG", "WS#<from parent>#PROJ#<from>", "HAS#TAG#<to>"}, []string{out.From, out.To, out.PartitionKey, out.SortKey})
	var calls []string
	for _, p := range m.AccessPatterns {
		if p.Item == out.Name {
			calls = append(calls, p.Call)
		}
	}
	assert.Equal(t, []string{"Edge.From", "Edge.To", "Edge.Get"}, calls, "no LoadNode: a child has no partition of its own")

	var b strings.Builder
	require.NoError(t, m.Mermaid(&b))
	assert.Contains(t, b.String(), `n_TAG -->|"TAGGED (Edge.From, table)"| c_WS_PROJ`)
	assert.Contains(t, b.String(), `c_WS_PROJ -->|"HAS (Edge.From, table)"| n_TAG`)
}

// FuzzRef: every ref Ref builds parses back to its ids, and every string
// ParseRef accepts is the one ref of the ids it yields (one spelling per
// child, so one edge item per pair of ends).
func FuzzRef(f *testing.F) {
	for _, s := range [][2]string{{"acme", "2026-0042"}, {"a#b", "c%d"}, {"WS#x", "PROJ#y"}, {"%23", "%2"}, {"", "x"}} {
		f.Add(s[0], s[1])
	}
	table := adjlist.NewTable(nil, "fuzz")
	projects := adjlist.NewCollection[Project](adjlist.NewNode[Workspace](table, "WS", "META"), "PROJ")
	f.Fuzz(func(t *testing.T, parent, child string) {
		ref, err := projects.Ref(parent, child)
		if err != nil {
			require.ErrorIs(t, err, adjlist.ErrInvalidKey)
		} else {
			p, c, err := projects.ParseRef(ref)
			require.NoError(t, err)
			require.Equal(t, [2]string{parent, child}, [2]string{p, c})
		}
		for _, s := range []string{parent, "WS#" + parent + "#PROJ#" + child} {
			p, c, err := projects.ParseRef(s)
			if err != nil {
				require.ErrorIs(t, err, adjlist.ErrInvalidKey)
				continue
			}
			again, err := projects.Ref(p, c)
			require.NoError(t, err)
			require.Equal(t, s, again, "a second spelling of one ref")
		}
	})
}
