package adjlist_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// verifyNoFindings runs Verify over the whole table and requires no
// finding.
func verifyNoFindings(t *testing.T, db *dynamodb.Client, table *adjlist.Table, when string) {
	t.Helper()
	res, err := adjlist.Verify(context.Background(), db, table)
	require.NoError(t, err, when)
	require.Empty(t, res.Findings, when)
}

// An edge's ItemCounter per target: plain Edge.Put, Edge.Delete and a Tx
// keep it, and its count item is the one Counter.Put always wrote, byte
// for byte.
func TestCounterKeptByEdgeWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	counter := newEdgeCounter(enrolled, "ENROLLED")
	require.NoError(t, table.Check())

	for _, from := range []string{"a91", "b30", "c07"} {
		require.NoError(t, enrolled.Put(ctx, from, "math204", Enrollment{}))
	}
	require.NoError(t, enrolled.Delete(ctx, "c07", "math204"))
	tx := adjlist.NewTx(table)
	require.NoError(t, enrolled.Put(ctx, "d12", "math204", Enrollment{}, adjlist.InTx(tx)))
	require.NoError(t, enrolled.Delete(ctx, "b30", "math204", adjlist.InTx(tx)))
	require.NoError(t, enrolled.Put(ctx, "a91", "cs101", Enrollment{}, adjlist.InTx(tx)))
	require.NoError(t, tx.Commit(ctx))
	require.NoError(t, counter.Put(ctx, "e44", "math204", Enrollment{}))

	for to, want := range map[string]int64{"math204": 3, "cs101": 1} {
		n, err := counter.Get(ctx, to)
		require.NoError(t, err)
		assert.Equal(t, want, n, to)
	}
	out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table.Name()), ConsistentRead: aws.Bool(true),
		Key: adjlist.Item{"PK": av("CRS#math204"), "SK": av("ENROLLED")}})
	require.NoError(t, err)
	assert.Equal(t, adjlist.Item{"PK": av("CRS#math204"), "SK": av("ENROLLED"),
		"counter": av("ENROLLED"), "count": &types.AttributeValueMemberN{Value: "3"}}, out.Item, "the count item as it always was")
	verifyNoFindings(t, db, table, "after the writes")

	_, err = adjlist.DeleteNode(ctx, students, "a91")
	require.NoError(t, err)
	for to, want := range map[string]int64{"math204": 2, "cs101": 0} {
		n, err := counter.Get(ctx, to)
		require.NoError(t, err)
		assert.Equal(t, want, n, to)
	}
	verifyNoFindings(t, db, table, "after DeleteNode of a source")
}

// followCounts are one person's out-degree and in-degree.
type followCounts struct{ following, followers int64 }

// ItemCounters of one edge kind per its source (out-degree, the default
// and Per "from") and per its target (in-degree, Per "to"), kept true by
// writes, a transaction and cascades from either end.
func TestItemCounterPerEnd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	people := adjlist.NewNode[struct{}](table, "PER", "META")
	follows := adjlist.NewEdge[struct{}](people, "FOLLOWS", people)
	following := adjlist.NewItemCounter(follows, "FOLLOWING", func(o *adjlist.CounterOptions) { o.Per = "from" })
	followers := adjlist.NewItemCounter(follows, "FOLLOWERS", func(o *adjlist.CounterOptions) { o.Per = "to" })
	require.NoError(t, table.Check())

	counts := func(who ...string) map[string]followCounts {
		t.Helper()
		out := map[string]followCounts{}
		for _, p := range who {
			out_, err := following.Get(ctx, adjlist.IDs{p}, "")
			require.NoError(t, err)
			in, err := followers.Get(ctx, adjlist.IDs{p}, "")
			require.NoError(t, err)
			out[p] = followCounts{out_, in}
		}
		return out
	}
	for _, p := range []string{"a", "b", "c", "d"} {
		require.NoError(t, people.Put(ctx, p, struct{}{}))
	}
	for _, e := range [][2]string{{"a", "b"}, {"a", "c"}, {"b", "c"}, {"d", "c"}, {"c", "d"}} {
		require.NoError(t, follows.Put(ctx, e[0], e[1], struct{}{}))
	}
	assert.Equal(t, map[string]followCounts{"a": {2, 0}, "b": {1, 1}, "c": {1, 3}, "d": {1, 1}}, counts("a", "b", "c", "d"))
	verifyNoFindings(t, db, table, "after the writes")

	tx := adjlist.NewTx(table)
	require.NoError(t, follows.Put(ctx, "c", "a", struct{}{}, adjlist.InTx(tx)))
	require.NoError(t, follows.Delete(ctx, "a", "b", adjlist.InTx(tx)))
	require.NoError(t, follows.Put(ctx, "b", "a", struct{}{}, adjlist.InTx(tx)))
	require.NoError(t, tx.Commit(ctx))
	assert.Equal(t, map[string]followCounts{"a": {1, 2}, "b": {2, 0}, "c": {2, 3}, "d": {1, 1}}, counts("a", "b", "c", "d"))
	verifyNoFindings(t, db, table, "after a transaction")

	// a follows c; b and c follow a.
	_, err := adjlist.DeleteNode(ctx, people, "a")
	require.NoError(t, err)
	assert.Equal(t, map[string]followCounts{"a": {0, 0}, "b": {1, 0}, "c": {1, 2}, "d": {1, 1}}, counts("a", "b", "c", "d"))
	verifyNoFindings(t, db, table, "after DeleteNode of a source and target")

	// c is the target of b's and d's edges, the source of one to d.
	_, err = adjlist.DeleteNode(ctx, people, "c")
	require.NoError(t, err)
	assert.Equal(t, map[string]followCounts{"b": {0, 0}, "c": {0, 0}, "d": {0, 0}}, counts("b", "c", "d"))
	verifyNoFindings(t, db, table, "after DeleteNode of a target")
}

// What NewItemCounter's Per and a Counter's two ways refuse, before any
// request.
func TestCounterPerRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	calls := &countingClient{}
	for _, c := range []struct {
		name string
		call func(t *adjlist.Table) error
	}{
		{"Per an id of no end", func(t *adjlist.Table) error {
			p := adjlist.NewNode[struct{}](t, "P", "META")
			_, err := adjlist.NewItemCounter(adjlist.NewEdge[struct{}](p, "E", p), "N",
				func(o *adjlist.CounterOptions) { o.Per = "label" }).Get(ctx, adjlist.IDs{"a"}, "")
			return err
		}},
		{"Per on a collection", func(t *adjlist.Table) error {
			p := adjlist.NewNode[struct{}](t, "P", "META")
			_, err := adjlist.NewItemCounter(adjlist.NewCollection[struct{}](p, "C"), "N",
				func(o *adjlist.CounterOptions) { o.Per = "to" }).Get(ctx, adjlist.IDs{"a"}, "")
			return err
		}},
		{"Per the target children", func(t *adjlist.Table) error {
			p := adjlist.NewNode[struct{}](t, "P", "META")
			_, err := adjlist.NewItemCounter(adjlist.NewEdge[struct{}](p, "E", adjlist.NewCollection[struct{}](p, "C")), "N",
				func(o *adjlist.CounterOptions) { o.Per = "to" }).Get(ctx, adjlist.IDs{"a"}, "")
			return err
		}},
		{"Per with GroupBy", func(t *adjlist.Table) error {
			p := adjlist.NewNode[struct{}](t, "P", "META")
			_, err := adjlist.NewItemCounter(adjlist.NewEdge[struct{}](p, "E", p), "N",
				func(o *adjlist.CounterOptions) { o.Per, o.GroupBy = "to", "kind" }).Get(ctx, adjlist.IDs{"a"}, "kind")
			return err
		}},
		{"Stream without Per", func(t *adjlist.Table) error {
			p := adjlist.NewNode[struct{}](t, "P", "META")
			return adjlist.NewItemCounter(adjlist.NewEdge[struct{}](p, "E", p), "N", stream).Apply(ctx, "1", "a", "b", true)
		}},
		{"Per the target's node marker", func(t *adjlist.Table) error {
			p := adjlist.NewNode[struct{}](t, "P", "META")
			_, err := newEdgeCounter(adjlist.NewEdge[struct{}](p, "E", p), "META").Get(ctx, "a")
			return err
		}},
		{"Apply on a counter kept at write time", func(t *adjlist.Table) error {
			p := adjlist.NewNode[struct{}](t, "P", "META")
			return newEdgeCounter(adjlist.NewEdge[struct{}](p, "E", p), "N").Apply(ctx, "1", "a", "b", true)
		}},
	} {
		require.ErrorIs(t, c.call(adjlist.NewTable(calls, "never-created")), adjlist.ErrInvalidOption, c.name)
	}
	assert.Zero(t, calls.total(), "no request")
}
