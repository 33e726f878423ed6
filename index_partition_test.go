package adjlist_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// emptyQueries answers every Query with no items and counts them; any
// other call fails (the nil Client), so a test sees every request.
type emptyQueries struct {
	adjlist.Client
	queries atomic.Int64
}

func (c *emptyQueries) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.queries.Add(1)
	return &dynamodb.QueryOutput{}, nil
}

// loadModel is a table whose item types share partitions in some reads
// and not in others: a user's orders and shipments (one partition, two
// prefixes), the user's profile and followers (two partitions), nodes and
// their children in an index, and an edge in the inverted index.
type loadModel struct {
	calls                        *emptyQueries
	table                        *adjlist.Table
	profiles, orders, shipments  *adjlist.Entity[anyData]
	notes, followers, orderNotes *adjlist.Entity[anyData]
	workspaces                   *adjlist.Node[Workspace]
	projects                     *adjlist.Collection[Project, Workspace]
	tags                         *adjlist.Node[Workspace]
	tagged                       *adjlist.Edge[anyData]
}

func newLoadModel(t *testing.T) *loadModel {
	t.Helper()
	m := &loadModel{calls: &emptyQueries{}}
	m.table = adjlist.NewTable(m.calls, "load", func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{
			{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"},
			{Name: "ByStatus", PartitionAttributes: []adjlist.KeyAttribute{{Name: "status"}}},
		}
	})
	status := adjlist.IndexKeys{Index: "GSI2", PartitionKey: adjlist.Template("STATUS#{status}"), SortKey: adjlist.Template("{createdAt}")}
	m.profiles = adjlist.NewEntity[anyData](m.table, "profile", "USER#{userID}", "PROFILE")
	m.orders = adjlist.NewEntity[anyData](m.table, "order", "USER#{userID}", "ORDER#{orderID}")
	m.orderNotes = adjlist.NewEntity[anyData](m.table, "ordernote", "USER#{userID}", "ORDER#{orderID}#NOTE#{noteID}")
	m.shipments = adjlist.NewEntity[anyData](m.table, "shipment", "USER#{userID}", "SHIP#{shipID}")
	m.followers = adjlist.NewEntity[anyData](m.table, "follower", "USER#{userID}#follower", "u#{followerID}")
	m.notes = adjlist.NewEntity[anyData](m.table, "note", "NOTE#{noteID}", "NOTE")
	m.workspaces = adjlist.NewNode[Workspace](m.table, "WS", "META", func(o *adjlist.NodeOptions) { o.Indexes = []adjlist.IndexKeys{status} })
	m.projects = adjlist.NewCollection[Project](m.workspaces, "PROJ", func(o *adjlist.CollectionOptions) { o.Indexes = []adjlist.IndexKeys{status} })
	m.tags = adjlist.NewNode[Workspace](m.table, "TAG", "META")
	m.tagged = adjlist.NewEdge[anyData](m.tags, "TAGGED", m.workspaces)
	require.NoError(t, m.table.Check())
	return m
}

// TestLoadRefusesUnreachableTargets: a target whose item type the query's
// partition or item type prefix never holds is ErrInvalidOption, in an
// OpError naming the query's Op and Index, its text naming the type, before any request, from Load and
// PageIndex alike.
func TestLoadRefusesUnreachableTargets(t *testing.T) {
	// unreachable is what the error says of the target and the query.
	type unreachable struct {
		Target, Op, Index string
		Partition         bool
	}
	t.Parallel()
	m := newLoadModel(t)
	ctx := context.Background()
	var (
		os, ss, fs, ns []adjlist.EntityItem[anyData]
		ws, tg         []adjlist.NodeItem[Workspace]
		ps             []adjlist.Child[Project]
		es             []adjlist.EdgeItem[anyData]
	)
	type refused struct {
		name    string
		run     func(targets ...adjlist.Target) error
		targets []adjlist.Target
		want    unreachable
	}
	for _, tc := range []refused{
		{"another prefix of the partition: AllTypes was meant",
			func(tgs ...adjlist.Target) error {
				_, err := adjlist.Load(ctx, m.orders.List("12345"), tgs...)
				return err
			},
			[]adjlist.Target{m.orders.Into(&os), m.shipments.Into(&ss)},
			unreachable{Target: "entity shipment", Op: "Entity.List"}},
		{"the same with a range",
			func(tgs ...adjlist.Target) error {
				_, err := adjlist.Load(ctx, m.orders.List("12345").Between("a", "b"), tgs...)
				return err
			},
			[]adjlist.Target{m.shipments.Into(&ss), m.orders.Into(&os)},
			unreachable{Target: "entity shipment", Op: "Entity.List"}},
		{"one page of it",
			func(tgs ...adjlist.Target) error {
				_, err := adjlist.PageIndex(ctx, m.orders.List("12345"), "", tgs...)
				return err
			},
			[]adjlist.Target{m.orders.Into(&os), m.shipments.Into(&ss)},
			unreachable{Target: "entity shipment", Op: "Entity.List"}},
		{"another partition, even with AllTypes",
			func(tgs ...adjlist.Target) error {
				_, err := adjlist.Load(ctx, adjlist.AllTypes(m.orders.List("12345")), tgs...)
				return err
			},
			[]adjlist.Target{m.orders.Into(&os), m.followers.Into(&fs)},
			unreachable{Target: "entity follower", Op: "AllTypes", Partition: true}},
		{"a partition of another type",
			func(tgs ...adjlist.Target) error {
				_, err := adjlist.Load(ctx, adjlist.AllTypes(m.orders.List("12345")), tgs...)
				return err
			},
			[]adjlist.Target{m.notes.Into(&ns)},
			unreachable{Target: "entity note", Op: "AllTypes", Partition: true}},
		{"a node item beside its children's prefix",
			func(tgs ...adjlist.Target) error {
				_, err := adjlist.Load(ctx, m.projects.List("acme"), tgs...)
				return err
			},
			[]adjlist.Target{m.projects.Into(&ps), m.workspaces.Into(&ws)},
			unreachable{Target: "node WS", Op: "Collection.List"}},
		{"an index the type has no keys in",
			func(tgs ...adjlist.Target) error {
				_, err := adjlist.PageIndex(ctx, m.projects.ByIndex("GSI2", "ACTIVE"), "", tgs...)
				return err
			},
			[]adjlist.Target{m.projects.Into(&ps), m.orders.Into(&os)},
			unreachable{Target: "entity order", Op: "Collection.ByIndex", Index: "GSI2", Partition: true}},
		{"the inverted index holds edges only",
			func(tgs ...adjlist.Target) error {
				_, err := adjlist.Load(ctx, m.tagged.To("acme"), tgs...)
				return err
			},
			[]adjlist.Target{m.tagged.Into(&es), m.tags.Into(&tg)},
			unreachable{Target: "node TAG", Op: "Edge.To", Index: "GSI1", Partition: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run(tc.targets...)
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
			var oe *adjlist.OpError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, tc.want.Op, oe.Op)
			assert.Equal(t, tc.want.Index, oe.Index)
			assert.Contains(t, oe.Err.Error(), "target "+tc.want.Target+": ")
			if tc.want.Partition {
				assert.Contains(t, oe.Err.Error(), "never hold its items")
			} else {
				assert.Contains(t, oe.Err.Error(), "AllTypes(q) reads every item type", "suggests the read of every type")
			}
			assert.Zero(t, m.calls.queries.Load(), "refused before any request")
		})
	}
}

// TestLoadKeepsReachableTargets: targets the query may return are kept:
// several types of one partition with AllTypes, a type sharing the
// query's prefix, a range narrowing AllTypes past a type, types sharing an
// index partition, an edge in the inverted index, and any target on a
// native index (its keys are data).
func TestLoadKeepsReachableTargets(t *testing.T) {
	t.Parallel()
	m := newLoadModel(t)
	ctx := context.Background()
	var (
		pr, os, ss, on []adjlist.EntityItem[anyData]
		ws             []adjlist.NodeItem[Workspace]
		ps             []adjlist.Child[Project]
		es             []adjlist.EdgeItem[anyData]
	)
	for name, run := range map[string]func() error{
		"AllTypes, several types": func() error {
			_, err := adjlist.Load(ctx, adjlist.AllTypes(m.orders.List("12345")), m.profiles.Into(&pr), m.orders.Into(&os), m.shipments.Into(&ss), m.orderNotes.Into(&on))
			return err
		},
		"a type under the query's prefix": func() error {
			_, err := adjlist.Load(ctx, m.orders.List("12345"), m.orders.Into(&os), m.orderNotes.Into(&on))
			return err
		},
		"a range is the caller's": func() error {
			_, err := adjlist.Load(ctx, adjlist.AllTypes(m.orders.List("12345")).LessThan("ORDER#"), m.profiles.Into(&pr), m.shipments.Into(&ss))
			return err
		},
		"an index partition shared": func() error {
			_, err := adjlist.PageIndex(ctx, m.projects.ByIndex("GSI2", "ACTIVE"), "", m.workspaces.Into(&ws), m.projects.Into(&ps))
			return err
		},
		"the inverted index": func() error {
			_, err := adjlist.Load(ctx, m.tagged.To("acme"), m.tagged.Into(&es))
			return err
		},
		"a node's partition": func() error {
			_, err := adjlist.Load(ctx, adjlist.AllTypes(m.projects.List("acme")), m.workspaces.Into(&ws), m.projects.Into(&ps))
			return err
		},
		"a native index": func() error {
			_, err := adjlist.Load(ctx, m.workspaces.ByIndex("ByStatus", "ACTIVE"), m.workspaces.Into(&ws), m.orders.Into(&os))
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			before := m.calls.queries.Load()
			require.NoError(t, run())
			assert.Equal(t, int64(1), m.calls.queries.Load()-before, "one Query")
		})
	}
}

// TestLoadReadsNodeKeysWhole: a node key in an index key template is
// judged as that node's key, not as its type prefix and any text: WS
// nodes keyed in GSI3 by their own key "WS#<id>" are never in the GSI3
// partition "WS#acme#PROJ#p1" of edges into a child project, so a read of
// that partition refuses a WS target before any request (it was sent), and
// keeps the edges' own.
func TestLoadReadsNodeKeysWhole(t *testing.T) {
	t.Parallel()
	calls := &emptyQueries{}
	table := adjlist.NewTable(calls, "load", func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "GSI3", PartitionKey: "GSI3PK"}}
	})
	ws := adjlist.NewNode[Workspace](table, "WS", "META", func(o *adjlist.NodeOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI3", PartitionKey: adjlist.Template("{@self}")}}
	})
	projects := adjlist.NewCollection[Project](ws, "PROJ")
	tags := adjlist.NewNode[Workspace](table, "TAG", "META")
	tagged := adjlist.NewEdge[anyData](tags, "TAGGED", projects, func(o *adjlist.EdgeOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI3", PartitionKey: adjlist.Template("{@target}")}}
	})
	require.NoError(t, table.Check())
	var (
		wss []adjlist.NodeItem[Workspace]
		es  []adjlist.EdgeItem[anyData]
	)
	ctx := context.Background()
	q := tagged.ByIndex("GSI3", "WS#acme#PROJ#p1")
	_, err := adjlist.Load(ctx, q, tagged.Into(&es), ws.Into(&wss))
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	assert.ErrorContains(t, err, "target node WS: Edge.ByIndex reads partitions of index GSI3 that never hold its items")
	assert.Zero(t, calls.queries.Load(), "refused before any request")

	_, err = adjlist.Load(ctx, q, tagged.Into(&es))
	require.NoError(t, err)
	_, err = adjlist.Load(ctx, ws.ByIndex("GSI3", "acme"), ws.Into(&wss))
	require.NoError(t, err)
	assert.EqualValues(t, 2, calls.queries.Load())
}
