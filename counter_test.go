package adjlist_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// perTo declares an edge's counter per target node, its in-degree.
func perTo(o *adjlist.CounterOptions) { o.Per = "to" }

// stream declares a counter kept from the table's stream.
func stream(o *adjlist.CounterOptions) { o.Stream = true }

// edgeCounter is an edge's counter per target as the tests use it: the
// edge's own writes, which keep the count, and the count of one target.
type edgeCounter[E any] struct {
	*adjlist.ItemCounter
	edge *adjlist.Edge[E]
	// counts reads the count items as the target type's nodes, when
	// the test declares it.
	counts *adjlist.Node[adjlist.Count]
	name   string
}

func newEdgeCounter[E any](edge *adjlist.Edge[E], name string, optFns ...func(*adjlist.CounterOptions)) *edgeCounter[E] {
	return &edgeCounter[E]{ItemCounter: adjlist.NewItemCounter(edge, name, append([]func(*adjlist.CounterOptions){perTo}, optFns...)...), edge: edge}
}

// newCountedEdge is newEdgeCounter with its count items read as the
// nodes of typ, the edge's target type, declared first (the counter's
// record replaces the node's).
func newCountedEdge[E any](table *adjlist.Table, typ string, edge *adjlist.Edge[E], name string, optFns ...func(*adjlist.CounterOptions)) *edgeCounter[E] {
	counts := adjlist.NewNode[adjlist.Count](table, typ, name)
	c := newEdgeCounter(edge, name, optFns...)
	c.counts, c.name = counts, name
	return c
}

// Decode decodes the count items, and Apply's per-edge markers (SK
// "ENROLLED##STU#a91") as the count of their target holding only the
// counter's name.
func (c *edgeCounter[E]) Decode(item adjlist.Item) (adjlist.NodeItem[adjlist.Count], bool, error) {
	if v, ok, err := c.counts.Decode(item); ok || err != nil {
		return v, ok, err
	}
	sk, ok := item["SK"].(*types.AttributeValueMemberS)
	if !ok || !strings.HasPrefix(sk.Value, c.name+"##") {
		return adjlist.NodeItem[adjlist.Count]{}, false, nil
	}
	k := adjlist.Item{"PK": item["PK"], "SK": &types.AttributeValueMemberS{Value: c.name}}
	v, ok, err := c.counts.Decode(k)
	v.Data = adjlist.Count{Counter: c.name}
	return v, ok, err
}

func (c *edgeCounter[E]) Put(ctx context.Context, from, to string, data E, optFns ...func(*adjlist.WriteOptions)) error {
	return c.edge.Put(ctx, from, to, data, optFns...)
}

func (c *edgeCounter[E]) Delete(ctx context.Context, from, to string, optFns ...func(*adjlist.WriteOptions)) error {
	return c.edge.Delete(ctx, from, to, optFns...)
}

func (c *edgeCounter[E]) Get(ctx context.Context, to string) (int64, error) {
	return c.ItemCounter.Get(ctx, adjlist.IDs{to}, "")
}

func newCounterSchool(t *testing.T, optFns ...func(*adjlist.CounterOptions)) (*countingClient, *adjlist.Edge[Enrollment], *edgeCounter[Enrollment]) {
	t.Helper()
	db := ddbtest.Client(t)
	calls := &countingClient{Client: db}
	table := adjlist.NewTable(calls, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "ByCount",
			PartitionAttributes: []adjlist.KeyAttribute{{Name: "counter"}},
			SortAttributes:      []adjlist.KeyAttribute{{Name: "count", Type: "N"}}}}
	})
	ddbtest.CreateTable(t, table)
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	return calls, enrolled, newCountedEdge(table, "CRS", enrolled, "ENROLLED", optFns...)
}

func TestCounterApplyIdempotent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	calls, _, counter := newCounterSchool(t, stream)
	count := func(to string) int64 {
		t.Helper()
		n, err := counter.Get(ctx, to)
		require.NoError(t, err)
		return n
	}
	steps := []struct {
		seq     string
		from    string
		present bool
		want    int64
	}{
		{"100", "a91", true, 1},   // INSERT
		{"100", "a91", true, 1},   // duplicate
		{"110", "b30", true, 2},   // another edge
		{"120", "a91", true, 2},   // MODIFY: no change of presence
		{"130", "a91", false, 1},  // REMOVE
		{"130", "a91", false, 1},  // duplicate REMOVE
		{"100", "a91", true, 1},   // replay of the first INSERT after the REMOVE: stale
		{"140", "c07", false, 1},  // REMOVE of an edge never counted
		{"1000", "a91", true, 2},  // INSERT again, a longer sequence number
		{"999", "a91", false, 2},  // older than the last applied: stale
		{"1001", "b30", false, 1}, // REMOVE
	}
	for i, s := range steps {
		require.NoError(t, counter.Apply(ctx, s.seq, s.from, "math204", s.present), "step %d", i)
		assert.Equal(t, s.want, count("math204"), "after step %d (%+v)", i, s)
	}
	assert.Zero(t, count("cs101"), "never counted")

	before := calls.total()
	for _, bad := range []string{"", "12a", "-1", "12345678901234567890123456789012345678901"} {
		require.ErrorIs(t, counter.Apply(ctx, bad, "a91", "math204", true), adjlist.ErrInvalidOption, bad)
	}
	require.ErrorIs(t, counter.Apply(ctx, "1", "", "math204", true), adjlist.ErrInvalidKey)
	require.ErrorIs(t, counter.Apply(ctx, "1", "a91", "", true), adjlist.ErrInvalidKey)
	assert.Equal(t, before, calls.total(), "refused before any request")
}

func TestCounterAtWriteTime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, enrolled, counter := newCounterSchool(t)
	for _, from := range []string{"a91", "b30", "c07"} {
		require.NoError(t, counter.Put(ctx, from, "math204", Enrollment{EnrolledOn: "2026-09-01"}))
	}
	require.NoError(t, counter.Put(ctx, "a91", "cs101", Enrollment{}))
	require.ErrorIs(t, counter.Put(ctx, "a91", "math204", Enrollment{Grade: "F"}), adjlist.ErrExists)
	require.ErrorIs(t, counter.Delete(ctx, "zz", "math204"), adjlist.ErrNotFound)
	require.NoError(t, counter.Delete(ctx, "c07", "math204"))
	n, err := counter.Get(ctx, "math204")
	require.NoError(t, err)
	assert.Equal(t, int64(2), n)
	edges, err := enrolled.To("math204").Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 2, edges, "the count equals the edges")

	// The most counted targets, from a native index on counter and count.
	top, err := counter.counts.ByIndex("ByCount", "ENROLLED").Desc().Collect(ctx)
	require.NoError(t, err)
	assert.Equal(t, []adjlist.NodeItem[adjlist.Count]{
		{ID: "math204", Data: adjlist.Count{Counter: "ENROLLED", Count: 2}},
		{ID: "cs101", Data: adjlist.Count{Counter: "ENROLLED", Count: 1}},
	}, top)
}

func TestCounterRefused(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "t")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	ctx := context.Background()
	require.ErrorIs(t, newEdgeCounter(enrolled, "A#B", stream).Apply(ctx, "1", "a", "b", true), adjlist.ErrInvalidKey)
	require.ErrorIs(t, newEdgeCounter(enrolled, "METADATA", stream).Apply(ctx, "1", "a", "b", true), adjlist.ErrInvalidOption)
	_, err := newEdgeCounter(enrolled, "METADATA").Get(ctx, "b")
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
}

// Counted edge writes given InTx add their two actions to the
// caller's transaction; given a condition, it is the edge's.
func TestCounterInTx(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	calls := &countingClient{Client: db}
	table := adjlist.NewTable(calls, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", adjlist.NewNode[Course](table, "CRS", "METADATA"))
	counter := newEdgeCounter(enrolled, "ENROLLED")
	require.NoError(t, counter.Put(ctx, "a91", "math204", Enrollment{}))

	tx := adjlist.NewTx(table)
	before := calls.total()
	require.NoError(t, students.Put(ctx, "b30", Student{Name: "Bo"}, adjlist.InTx(tx)))
	require.NoError(t, counter.Put(ctx, "b30", "math204", Enrollment{Grade: "A"}, adjlist.InTx(tx)))
	assert.Equal(t, 3, tx.Len(), "a node, an edge and a count")
	require.NoError(t, counter.Delete(ctx, "a91", "math204", adjlist.InTx(tx)))
	assert.Equal(t, 4, tx.Len(), "a second change of math204's count adds up with the first")
	assert.Equal(t, before, calls.total(), "no request")

	tx = adjlist.NewTx(table)
	require.NoError(t, students.Put(ctx, "b30", Student{Name: "Bo"}, adjlist.InTx(tx)))
	require.NoError(t, counter.Put(ctx, "b30", "math204", Enrollment{Grade: "A"}, adjlist.InTx(tx)))
	require.NoError(t, tx.Commit(ctx, func(o *adjlist.TxOptions) { o.Token = "enrol-" + strconv.FormatInt(time.Now().UnixNano(), 36) }))
	n, err := counter.Get(ctx, "math204")
	require.NoError(t, err)
	assert.Equal(t, int64(2), n)

	// A condition of the caller's is the edge's: it fails, and the count
	// is unchanged.
	opts := make([]func(*adjlist.WriteOptions), 1, 4)
	opts[0] = adjlist.If(expression.Name("grade").Equal(expression.Value("Z")))
	err = counter.Delete(ctx, "b30", "math204", opts...)
	require.ErrorIs(t, err, adjlist.ErrConditionFailed)
	assert.Len(t, opts, 1)
	assert.Nil(t, opts[:2][1], "the caller's slice is not written beyond its length")
	n, err = counter.Get(ctx, "math204")
	require.NoError(t, err)
	assert.Equal(t, int64(2), n)
	_, err = enrolled.Get(ctx, "b30", "math204")
	require.NoError(t, err)
}

// A counted write's failure names the counter, not only the counted edge,
// and keeps the edge's sentinel.
func TestCounterErrorNamesCounter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, _, counter := newCounterSchool(t)
	require.NoError(t, counter.Put(ctx, "a91", "math204", Enrollment{}))
	require.NoError(t, counter.Delete(ctx, "a91", "math204"))

	for _, tc := range []struct {
		name     string
		write    func() error
		sentinel error
		op       string
	}{
		{"Delete of a missing edge", func() error { return counter.Delete(ctx, "a91", "math204") }, adjlist.ErrNotFound, "Edge.Delete"},
		{"Put of an existing edge", func() error {
			require.NoError(t, counter.Put(ctx, "b30", "math204", Enrollment{}))
			return counter.Put(ctx, "b30", "math204", Enrollment{})
		}, adjlist.ErrExists, "Edge.Put"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.write()
			require.ErrorIs(t, err, tc.sentinel)
			ops := opsOf(err)
			assert.Contains(t, ops, tc.op, "the failed action: %v", err)
			assert.Contains(t, err.Error(), "counted by ENROLLED")
		})
	}
}

// opsOf lists the Op of every *adjlist.OpError in err's tree.
func opsOf(err error) []string {
	var ops []string
	var walk func(error)
	walk = func(err error) {
		if err == nil {
			return
		}
		if oe, ok := err.(*adjlist.OpError); ok {
			ops = append(ops, oe.Op)
		}
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				walk(e)
			}
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		}
	}
	walk(err)
	return ops
}
