package adjlist_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// txFailClient fails every TransactWriteItems after failAfter (if not
// negative) have gone through, without sending it: a cascade cut short.
type txFailClient struct {
	adjlist.Client
	failAfter int64
	txs       atomic.Int64
}

var errTxInjected = errors.New("injected TransactWriteItems failure")

func (c *txFailClient) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	if n := c.txs.Add(1); c.failAfter >= 0 && n > c.failAfter {
		return nil, errTxInjected
	}
	return c.Client.TransactWriteItems(ctx, in, o...)
}

// countedSchool is a model whose counters a cascade touches from every
// side: enrolments counted per course (edges out of a deleted student,
// into a deleted course), mentees counted per mentor (edges into and out
// of a deleted student), and projects counted per tag (edges out of a
// collection's children).
type countedSchool struct {
	db        *dynamodb.Client
	c         *txFailClient
	table     *adjlist.Table
	students  *adjlist.Node[Student]
	courses   *adjlist.Node[Course]
	enrolled  *adjlist.Edge[Enrollment]
	mentors   *adjlist.Edge[Mentoring]
	ws        *adjlist.Node[Workspace]
	projects  *adjlist.Collection[Project, Workspace]
	tags      *adjlist.Node[struct{}]
	hasTag    *adjlist.Edge[Tagging]
	enrolment *edgeCounter[Enrollment]
	mentees   *edgeCounter[Mentoring]
	tagged    *edgeCounter[Tagging]
}

func newCountedSchool(t *testing.T) *countedSchool {
	t.Helper()
	db := ddbtest.Client(t)
	s := &countedSchool{db: db, c: &txFailClient{Client: db, failAfter: -1}}
	s.table = adjlist.NewTable(s.c, ddbtest.TableName(t))
	ddbtest.CreateTable(t, s.table)
	s.students = adjlist.NewNode[Student](s.table, "STU", "PROFILE")
	s.courses = adjlist.NewNode[Course](s.table, "CRS", "METADATA")
	s.enrolled = adjlist.NewEdge[Enrollment](s.students, "ENROLL", s.courses)
	s.mentors = adjlist.NewEdge[Mentoring](s.students, "MENTOR", s.students)
	s.ws = adjlist.NewNode[Workspace](s.table, "WS", "META")
	s.projects = adjlist.NewCollection[Project](s.ws, "PROJ")
	s.tags = adjlist.NewNode[struct{}](s.table, "TAG", "")
	s.hasTag = adjlist.NewEdge[Tagging](s.projects, "HAS", s.tags)
	s.enrolment = newEdgeCounter(s.enrolled, "ENROLLED")
	s.mentees = newEdgeCounter(s.mentors, "MENTEES")
	s.tagged = newEdgeCounter(s.hasTag, "PROJECTS")
	require.NoError(t, s.table.Check())
	return s
}

// seed writes every node and, through the counters, every counted edge.
func (s *countedSchool) seed(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	for _, id := range []string{"a91", "b30", "c07"} {
		require.NoError(t, s.students.Put(ctx, id, Student{Name: id}))
	}
	for _, id := range []string{"math204", "cs101"} {
		require.NoError(t, s.courses.Put(ctx, id, Course{Title: id}))
	}
	for _, e := range [][2]string{{"a91", "math204"}, {"b30", "math204"}, {"c07", "math204"}, {"a91", "cs101"}, {"b30", "cs101"}} {
		require.NoError(t, s.enrolment.Put(ctx, e[0], e[1], Enrollment{}))
	}
	for _, e := range [][2]string{{"b30", "a91"}, {"c07", "a91"}, {"a91", "b30"}, {"a91", "a91"}, {"c07", "b30"}} {
		require.NoError(t, s.mentees.Put(ctx, e[0], e[1], Mentoring{}))
	}
	require.NoError(t, s.ws.Put(ctx, "acme", Workspace{}))
	require.NoError(t, s.tags.Put(ctx, "go", struct{}{}))
	require.NoError(t, s.tags.Put(ctx, "db", struct{}{}))
	for _, p := range []string{"p1", "p2", "p3"} {
		require.NoError(t, s.projects.Put(ctx, "acme", p, Project{}))
		ref, err := s.projects.Ref("acme", p)
		require.NoError(t, err)
		require.NoError(t, s.tagged.Put(ctx, ref, "go", Tagging{}))
		if p != "p3" {
			require.NoError(t, s.tagged.Put(ctx, ref, "db", Tagging{}))
		}
	}
}

// counts reads the counts of each counter's targets, with the edges a
// Count finds into each: both must be equal.
func (s *countedSchool) counts(t *testing.T) map[string]int64 {
	t.Helper()
	ctx := context.Background()
	out := map[string]int64{}
	read := func(name string, get func(string) (int64, error), count func(string) (int, error), ids ...string) {
		for _, id := range ids {
			n, err := get(id)
			require.NoError(t, err)
			edges, err := count(id)
			require.NoError(t, err)
			assert.Equal(t, int64(edges), n, "%s %s: the count is the edges present", name, id)
			out[name+" "+id] = n
		}
	}
	read("ENROLLED", func(id string) (int64, error) { return s.enrolment.Get(ctx, id) },
		func(id string) (int, error) { return s.enrolled.To(id).Count(ctx) }, "math204", "cs101")
	read("MENTEES", func(id string) (int64, error) { return s.mentees.Get(ctx, id) },
		func(id string) (int, error) { return s.mentors.To(id).Count(ctx) }, "a91", "b30")
	read("PROJECTS", func(id string) (int64, error) { return s.tagged.Get(ctx, id) },
		func(id string) (int, error) { return s.hasTag.To(id).Count(ctx) }, "go", "db")
	return out
}

// verifyClean asserts that Verify finds nothing wrong.
func (s *countedSchool) verifyClean(t *testing.T) {
	t.Helper()
	res, err := adjlist.Verify(context.Background(), s.db, s.table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
}

// A cascade deletes each edge a counter kept at write time counts together
// with its count's decrement, but for counts in a partition it deletes
// whole, which go with it: the counts stay exact and Verify finds
// nothing, for edges out of and into a deleted node, out of a deleted
// child, and out of the children of a deleted node.
func TestCascadeKeepsCountersExact(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		cascade func(context.Context, *countedSchool) (adjlist.CascadeResult, error)
		want    map[string]int64
		counted int
	}{
		{"DeleteNode of a student: enrolments out, mentoring in and out", func(ctx context.Context, s *countedSchool) (adjlist.CascadeResult, error) {
			return adjlist.DeleteNode(ctx, s.students, "a91")
		}, map[string]int64{"ENROLLED math204": 2, "ENROLLED cs101": 1, "MENTEES a91": 0, "MENTEES b30": 1,
			"PROJECTS go": 3, "PROJECTS db": 2}, 3}, // the mentoring into a91 counted in its partition
		{"DeleteNode of a course: enrolments in", func(ctx context.Context, s *countedSchool) (adjlist.CascadeResult, error) {
			return adjlist.DeleteNode(ctx, s.courses, "math204")
		}, map[string]int64{"ENROLLED math204": 0, "ENROLLED cs101": 2, "MENTEES a91": 3, "MENTEES b30": 2,
			"PROJECTS go": 3, "PROJECTS db": 2}, 0}, // counted in math204's partition
		{"DeleteChild: edges out of the child", func(ctx context.Context, s *countedSchool) (adjlist.CascadeResult, error) {
			return adjlist.DeleteChild(ctx, s.projects, "acme", "p1")
		}, map[string]int64{"ENROLLED math204": 3, "ENROLLED cs101": 2, "MENTEES a91": 3, "MENTEES b30": 2,
			"PROJECTS go": 2, "PROJECTS db": 1}, 2},
		{"DeleteNode of the children's parent", func(ctx context.Context, s *countedSchool) (adjlist.CascadeResult, error) {
			return adjlist.DeleteNode(ctx, s.ws, "acme")
		}, map[string]int64{"ENROLLED math204": 3, "ENROLLED cs101": 2, "MENTEES a91": 3, "MENTEES b30": 2,
			"PROJECTS go": 0, "PROJECTS db": 0}, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := newCountedSchool(t)
			s.seed(t)
			before := s.c.txs.Load()
			res, err := tc.cascade(ctx, s)
			require.NoError(t, err)
			assert.True(t, res.Node)
			assert.Equal(t, tc.counted, res.Counted, "one transaction per counted edge whose count stays")
			assert.Equal(t, int64(tc.counted), s.c.txs.Load()-before)
			assert.Equal(t, tc.want, s.counts(t))
			s.verifyClean(t)
		})
	}
}

// A cascade cut short after each of its counted deletes and run again
// ends with the counts exact, as a single run does: no edge is counted
// down twice.
func TestCascadeResumedKeepsCountersExact(t *testing.T) {
	t.Parallel()
	want := map[string]int64{"ENROLLED math204": 2, "ENROLLED cs101": 1, "MENTEES a91": 0, "MENTEES b30": 1,
		"PROJECTS go": 3, "PROJECTS db": 2}
	for k := range int64(3) { // DeleteNode of a91 counts 3 edges down
		t.Run("", func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := newCountedSchool(t)
			s.seed(t)
			s.c.failAfter = s.c.txs.Load() + k
			res, err := adjlist.DeleteNode(ctx, s.students, "a91")
			require.ErrorIs(t, err, errTxInjected)
			assert.False(t, res.Node)
			assert.NotEmpty(t, res.Unwritten)
			_, err = s.students.Get(ctx, "a91")
			require.NoError(t, err, "the node item stays while work remains")

			s.c.failAfter = -1
			res, err = adjlist.DeleteNode(ctx, s.students, "a91")
			require.NoError(t, err)
			assert.True(t, res.Node)
			assert.Equal(t, want, s.counts(t))
			s.verifyClean(t)
		})
	}
}

// A counter kept from a stream (CounterOptions.Stream) is counted down by
// the stream: a cascade deletes its edges and leaves its count for the
// REMOVE records.
func TestCascadeLeavesStreamCounters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	calls := &countingClient{Client: db}
	table := adjlist.NewTable(calls, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	counter := newEdgeCounter(enrolled, "ENROLLED", func(o *adjlist.CounterOptions) { o.Stream = true })
	require.NoError(t, students.Put(ctx, "a91", Student{}))
	require.NoError(t, enrolled.Put(ctx, "a91", "math204", Enrollment{}))
	require.NoError(t, counter.Apply(ctx, "100", "a91", "math204", true)) // the INSERT record

	before := calls.txs.Load()
	res, err := adjlist.DeleteNode(ctx, students, "a91")
	require.NoError(t, err)
	assert.True(t, res.Node)
	assert.Zero(t, res.Counted)
	assert.Equal(t, before, calls.txs.Load(), "no transaction")
	n, err := counter.Get(ctx, "math204")
	require.NoError(t, err)
	assert.Equal(t, int64(1), n, "left for the stream")
	require.NoError(t, counter.Apply(ctx, "200", "a91", "math204", false)) // the REMOVE record
	n, err = counter.Get(ctx, "math204")
	require.NoError(t, err)
	assert.Zero(t, n)
	res2, err := adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	assert.Empty(t, res2.Findings)
}

func TestNewItemCounterNilOption(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "t")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", adjlist.NewNode[Course](table, "CRS", "METADATA"))
	_, err := newEdgeCounter(enrolled, "ENROLLED", nil).Get(context.Background(), "math204")
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
}

// TestCounterDeclaredAgainWithStream: declaring a counter again replaces
// the earlier declaration (as any item type's does), so a write-time
// counter declared again with Stream is left to the stream: writes leave
// its counts alone.
func TestCounterDeclaredAgainWithStream(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	calls, enrolled, _ := newCounterSchool(t) // ENROLLED kept at write time
	counter := newEdgeCounter(enrolled, "ENROLLED", func(o *adjlist.CounterOptions) { o.Stream = true })

	before := calls.txs.Load()
	require.NoError(t, enrolled.Put(ctx, "a91", "math204", Enrollment{}))
	assert.Equal(t, before, calls.txs.Load(), "a PutItem, no counting transaction")
	n, err := counter.Get(ctx, "math204")
	require.NoError(t, err)
	assert.Zero(t, n, "left for the stream")
	require.NoError(t, counter.Apply(ctx, "100", "a91", "math204", true)) // the INSERT record
	n, err = counter.Get(ctx, "math204")
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)
}
