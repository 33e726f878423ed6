package adjlist_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// Cascade test types: a mentoring edge between students, an advising edge
// from teachers to students, and notes kept under a student.
type (
	Teacher struct {
		Name string `dynamodbav:"name"`
	}
	Mentoring struct {
		Since string `dynamodbav:"since"`
	}
	Note struct {
		Text string `dynamodbav:"text"`
	}
)

// writeClient counts the Query and BatchWriteItem requests that reach
// DynamoDB, records each Query's projection, and, once failAfter (if not
// negative) BatchWriteItem calls have gone through, fails every later one
// without sending it, as a crash half-way would leave the table.
type writeClient struct {
	adjlist.Client
	failAfter int64
	queries   atomic.Int64
	batches   atomic.Int64

	mu          sync.Mutex
	projections []string
}

var errInjected = errors.New("injected BatchWriteItem failure")

func (c *writeClient) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.queries.Add(1)
	c.mu.Lock()
	// Longest placeholders first, so #1 never replaces part of #10.
	placeholders := slices.SortedFunc(maps.Keys(in.ExpressionAttributeNames), func(a, b string) int { return len(b) - len(a) })
	var pairs []string
	for _, p := range placeholders {
		pairs = append(pairs, p, in.ExpressionAttributeNames[p])
	}
	c.projections = append(c.projections, strings.NewReplacer(pairs...).Replace(aws.ToString(in.ProjectionExpression)))
	c.mu.Unlock()
	return c.Client.Query(ctx, in, o...)
}

func (c *writeClient) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	if n := c.batches.Add(1); c.failAfter >= 0 && n > c.failAfter {
		return nil, errInjected
	}
	return c.Client.BatchWriteItem(ctx, in, o...)
}

func (c *writeClient) requests() int64 { return c.queries.Load() + c.batches.Load() }

// campus is the school model with the extra kinds of items a cascade must
// find, on a table reached through a writeClient.
type campus struct {
	*school
	w        *writeClient
	teachers *adjlist.Node[Teacher]
	mentors  *adjlist.Edge[Mentoring]
	advises  *adjlist.Edge[Mentoring]
	waitlist *adjlist.Edge[Enrollment]
	notes    *adjlist.Collection[Note, Student]
}

func newCampus(t *testing.T, layout adjlist.Options) *campus {
	t.Helper()
	base := newSchoolLayout(t, layout, "ENROLL")
	c := &campus{w: &writeClient{Client: base.db, failAfter: -1}}
	s := *base
	s.table = adjlist.NewTable(c.w, base.table.Name(), func(o *adjlist.Options) { *o = layout })
	c.school = &s
	c.attach(s.table)
	return c
}

// attach (re)builds every handle on table, as a second process would.
func (c *campus) attach(table *adjlist.Table) {
	c.table = table
	c.students = adjlist.NewNode[Student](table, "STU", "PROFILE")
	c.courses = adjlist.NewNode[Course](table, "CRS", "METADATA")
	c.teachers = adjlist.NewNode[Teacher](table, "TCH", "PROFILE")
	c.enrolled = adjlist.NewEdge[Enrollment](c.students, "ENROLL", c.courses)
	c.waitlist = adjlist.NewEdge[Enrollment](c.students, "WAITLIST", c.courses)
	c.mentors = adjlist.NewEdge[Mentoring](c.students, "MENTOR", c.students)
	c.advises = adjlist.NewEdge[Mentoring](c.teachers, "ADVISES", c.students)
	c.notes = adjlist.NewCollection[Note](c.students, "NOTE")
}

// seed writes seedSchool's data plus, around a91: a waitlist entry (a
// second outgoing label), mentoring both ways, an advisor, notes notes,
// and mentees more MENTOR edges into a91 (from m000, m001, ...); and decoys
// that must survive a91's cascade: b30's mentor, advisor and note.
func (c *campus) seed(t *testing.T, mentees, notes int) {
	t.Helper()
	ctx := context.Background()
	seedSchool(t, c.school)
	require.NoError(t, c.waitlist.Put(ctx, "a91", "math204", Enrollment{EnrolledOn: "2026-09-04"}))
	require.NoError(t, c.teachers.Put(ctx, "t1", Teacher{Name: "Turing"}))
	require.NoError(t, c.advises.Put(ctx, "t1", "a91", Mentoring{Since: "2025"}))
	require.NoError(t, c.advises.Put(ctx, "t1", "b30", Mentoring{Since: "2025"}))
	require.NoError(t, c.mentors.Put(ctx, "a91", "b30", Mentoring{Since: "2026"}))
	require.NoError(t, c.mentors.Put(ctx, "b30", "a91", Mentoring{Since: "2026"}))
	require.NoError(t, c.mentors.Put(ctx, "a9", "a91", Mentoring{Since: "2026"}))
	require.NoError(t, c.mentors.Put(ctx, "a9", "b30", Mentoring{Since: "2026"}))
	extra := make([]adjlist.EdgeItem[Mentoring], mentees)
	for i := range extra {
		extra[i] = adjlist.EdgeItem[Mentoring]{From: fmt.Sprintf("m%03d", i), To: "a91"}
	}
	_, err := c.mentors.PutMany(ctx, extra)
	require.NoError(t, err)
	children := make([]adjlist.Child[Note], notes)
	for i := range children {
		children[i] = adjlist.Child[Note]{Parent: "a91", ID: fmt.Sprintf("%04d", i), Data: Note{Text: "hi"}}
	}
	_, err = c.notes.PutMany(ctx, children)
	require.NoError(t, err)
	require.NoError(t, c.notes.Put(ctx, "b30", "0001", Note{Text: "b30's own"}))
	require.NoError(t, c.advises.WaitIndexed(ctx, "t1", "a91", 5*time.Second))
}

// keysOf lists every item's primary key as "PK|SK", read raw with a
// consistent Scan, sorted.
func (c *campus) keysOf(t *testing.T) []string {
	t.Helper()
	var keys []string
	pages := dynamodb.NewScanPaginator(c.db, &dynamodb.ScanInput{
		TableName: aws.String(c.table.Name()), ConsistentRead: aws.Bool(true), ProjectionExpression: aws.String("PK, SK"),
	})
	for pages.HasMorePages() {
		out, err := pages.NextPage(context.Background())
		require.NoError(t, err)
		for _, item := range out.Items {
			kv := stringsOf(t, item)
			keys = append(keys, kv["PK"]+"|"+kv["SK"])
		}
	}
	slices.Sort(keys)
	return keys
}

// a91Items are the keys a cascade of a91 must remove, for mentees extra
// mentees and notes notes.
func a91Items(mentees, notes int) []string {
	keys := []string{
		"STU#a91|PROFILE",
		"STU#a91|ENROLL#CRS#cs101", "STU#a91|ENROLL#CRS#math204", "STU#a91|WAITLIST#CRS#math204",
		"STU#a91|MENTOR#STU#b30",
		"STU#b30|MENTOR#STU#a91", "STU#a9|MENTOR#STU#a91", "TCH#t1|ADVISES#STU#a91",
	}
	for i := range mentees {
		keys = append(keys, fmt.Sprintf("STU#m%03d|MENTOR#STU#a91", i))
	}
	for i := range notes {
		keys = append(keys, fmt.Sprintf("STU#a91|NOTE#%04d", i))
	}
	return keys
}

// without returns all minus drop.
func without(all, drop []string) []string {
	var out []string
	for _, k := range all {
		if !slices.Contains(drop, k) {
			out = append(out, k)
		}
	}
	return out
}

func TestDeleteNodeCascade(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		layout adjlist.Options
		// index partitions (attribute, value) that held a91's incoming edges
		index [][2]string
	}{
		{"explicit index keys", adjlist.Options{}, [][2]string{{"GSI1PK", "STU#a91"}}},
		{"index on the sort key", adjlist.Options{IndexPartitionKey: "SK", IndexSortKey: "PK"},
			[][2]string{{"SK", "MENTOR#STU#a91"}, {"SK", "ADVISES#STU#a91"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCampus(t, tt.layout)
			c.seed(t, 3, 2)
			ctx := context.Background()
			before := c.keysOf(t)
			gone := a91Items(3, 2)
			require.Subset(t, before, gone)

			q0, b0 := c.w.queries.Load(), c.w.batches.Load()
			res, err := adjlist.DeleteNode(ctx, c.students, "a91", c.mentors, c.advises, c.mentors)
			require.NoError(t, err)
			assert.Equal(t, 3+2+1, res.Incoming, "b30, a9, 3 mentees; t1")
			assert.Equal(t, 2+1+1+2, res.Partition, "2 enrolments, waitlist, mentoring a91→b30, 2 notes")
			assert.True(t, res.Node)
			assert.Empty(t, res.Unwritten)
			assert.Equal(t, int(c.w.queries.Load()-q0), res.Queries)
			assert.Equal(t, int(c.w.batches.Load()-b0), res.Batches)
			assert.Equal(t, 2+1, res.Queries, "the duplicate MENTOR handle is read once; one partition query")
			assert.Equal(t, 2+1+1, res.Batches, "one per incoming kind, one for the partition, one for the node item")

			c.w.mu.Lock() // the cascade's own queries, before any other
			for _, p := range c.w.projections[len(c.w.projections)-res.Queries:] {
				names := strings.Split(p, ", ")
				assert.Subset(t, names, []string{"PK", "SK"})
				assert.Subset(t, []string{"PK", "SK", "GSI1PK", "GSI1SK"}, names, "keys only: %s", p)
			}
			c.w.mu.Unlock()

			assert.Equal(t, without(before, gone), c.keysOf(t), "nothing of a91 left, everything else untouched")
			assert.Zero(t, c.rawCount(t, "", "PK", "STU#a91"))
			for _, p := range tt.index {
				assert.Zero(t, c.rawCount(t, "GSI1", p[0], p[1]), "index partition %s", p[1])
			}
			roster, err := c.enrolled.To("math204").Collect(ctx)
			require.NoError(t, err)
			require.Len(t, roster, 1)
			assert.Equal(t, "b30", roster[0].From)

			t.Run("second run deletes nothing and succeeds", func(t *testing.T) {
				b0 := c.w.batches.Load()
				res, err := adjlist.DeleteNode(ctx, c.students, "a91", c.mentors, c.advises)
				require.NoError(t, err)
				assert.Equal(t, adjlist.CascadeResult{Queries: 3}, res)
				assert.Equal(t, b0, c.w.batches.Load(), "no BatchWriteItem")
				assert.Equal(t, without(before, gone), c.keysOf(t))
			})
		})
	}
}

func TestDeleteNodeCourse(t *testing.T) {
	t.Parallel()
	c := newCampus(t, adjlist.Options{})
	c.seed(t, 0, 0)
	before := c.keysOf(t)
	res, err := adjlist.DeleteNode(context.Background(), c.courses, "cs101", c.enrolled, c.waitlist)
	require.NoError(t, err)
	assert.Equal(t, 2+1, res.Incoming, "a91, a9 enrolled; b30 waitlisted")
	assert.Zero(t, res.Partition)
	assert.True(t, res.Node)
	assert.Equal(t, without(before, []string{
		"CRS#cs101|METADATA", "STU#a91|ENROLL#CRS#cs101", "STU#a9|ENROLL#CRS#cs101", "STU#b30|WAITLIST#CRS#cs101",
	}), c.keysOf(t))
}

func TestDeleteNodeResumes(t *testing.T) {
	t.Parallel()
	const mentees, notes = 40, 60
	// Requests: incoming MENTOR 42 → 2 batches, ADVISES 1, partition
	// 4 + 60 = 64 → 3, node item 1: 7 BatchWriteItem calls in all. Failing
	// after k of them cuts every phase, including the node item's.
	for k := range int64(7) {
		t.Run(fmt.Sprintf("fail after %d batches", k), func(t *testing.T) {
			c := newCampus(t, adjlist.Options{})
			c.seed(t, mentees, notes)
			ctx := context.Background()
			before := c.keysOf(t)
			gone := a91Items(mentees, notes)

			c.w.failAfter = c.w.batches.Load() + k
			res, err := adjlist.DeleteNode(ctx, c.students, "a91", c.mentors, c.advises)
			require.ErrorIs(t, err, errInjected)
			var op *adjlist.OpError
			require.ErrorAs(t, err, &op)
			assert.Equal(t, "DeleteNode", op.Op)
			assert.Equal(t, "STU#a91", op.PK)
			assert.False(t, res.Node)
			assert.NotEmpty(t, res.Unwritten)
			_, err = c.students.Get(ctx, "a91")
			require.NoError(t, err, "the node item stays while work remains")
			assert.Subset(t, c.keysOf(t), without(before, gone), "nothing else touched")

			c.w.failAfter = -1
			res, err = adjlist.DeleteNode(ctx, c.students, "a91", c.mentors, c.advises)
			require.NoError(t, err)
			assert.True(t, res.Node)
			assert.Equal(t, without(before, gone), c.keysOf(t), "resumed: nothing of a91 left")
		})
	}
}

func TestDeleteNodeRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	c := newCampus(t, adjlist.Options{})
	noIndex := adjlist.NewTable(c.w, c.table.Name(), func(o *adjlist.Options) { o.NoIndex = true })
	other := adjlist.NewTable(c.w, c.table.Name()+"-other")
	otherStudents := adjlist.NewNode[Student](other, "STU", "PROFILE")
	tests := []struct {
		name     string
		run      func() error
		sentinel error
	}{
		{"empty id", func() error {
			_, err := adjlist.DeleteNode(context.Background(), c.students, "", c.mentors)
			return err
		}, adjlist.ErrInvalidKey},
		{"id with a control character", func() error {
			_, err := adjlist.DeleteNode(context.Background(), c.students, "a\x0091")
			return err
		}, adjlist.ErrInvalidKey},
		{"incoming edge ends at courses", func() error {
			_, err := adjlist.DeleteNode(context.Background(), c.students, "a91", c.mentors, c.enrolled)
			return err
		}, adjlist.ErrInvalidOption},
		{"incoming edge of another table", func() error {
			_, err := adjlist.DeleteNode(context.Background(), c.students, "a91",
				adjlist.NewEdge[Mentoring](otherStudents, "MENTOR", otherStudents))
			return err
		}, adjlist.ErrInvalidOption},
		{"nil incoming edge", func() error {
			_, err := adjlist.DeleteNode(context.Background(), c.students, "a91", nil)
			return err
		}, adjlist.ErrInvalidOption},
		{"no index", func() error {
			stu := adjlist.NewNode[Student](noIndex, "STU", "PROFILE")
			_, err := adjlist.DeleteNode(context.Background(), stu, "a91", adjlist.NewEdge[Mentoring](stu, "MENTOR", stu))
			return err
		}, adjlist.ErrInvalidOption},
		{"bad edge label", func() error {
			_, err := adjlist.DeleteNode(context.Background(), c.students, "a91", adjlist.NewEdge[Mentoring](c.students, "bad label", c.students))
			return err
		}, adjlist.ErrInvalidKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := c.w.requests()
			err := tt.run()
			require.ErrorIs(t, err, tt.sentinel)
			var op *adjlist.OpError
			require.ErrorAs(t, err, &op)
			assert.Equal(t, "DeleteNode", op.Op)
			assert.Equal(t, n, c.w.requests(), "no request sent")
		})
	}
}

func TestDeleteNodeAcrossPages(t *testing.T) {
	t.Parallel()
	// 12 notes and 12 mentors of ~100 KB each: 1.2 MB in a91's partition and
	// in its index partition, so each phase reads two 1 MB pages and
	// deletes after each.
	c := newCampus(t, adjlist.Options{})
	ctx := context.Background()
	big := strings.Repeat("x", 100<<10)
	require.NoError(t, c.students.Put(ctx, "a91", Student{Name: "Ada"}))
	for i := range 12 {
		require.NoError(t, c.notes.Put(ctx, "a91", fmt.Sprintf("%04d", i), Note{Text: big}))
		require.NoError(t, c.mentors.Put(ctx, fmt.Sprintf("m%03d", i), "a91", Mentoring{Since: big}))
	}
	require.NoError(t, c.students.Put(ctx, "b30", Student{Name: "Bo"}))

	res, err := adjlist.DeleteNode(ctx, c.students, "a91", c.mentors)
	require.NoError(t, err)
	assert.Equal(t, adjlist.CascadeResult{Incoming: 12, Partition: 12, Node: true, Queries: 4, Batches: 2 + 2 + 1}, res)
	assert.Equal(t, []string{"STU#b30|PROFILE"}, c.keysOf(t))
}

func TestDeleteNodeSelfKeyedOnSortKeyIndex(t *testing.T) {
	t.Parallel()
	// Seed 002's layout: node items keyed PK = SK = "STU#a", index on the
	// sort key. The index partition "STU#a" then holds both the edges into
	// a (unlabelled, SK = "STU#a") and a's own node item, which the
	// incoming phase must leave for last.
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.IndexPartitionKey, o.IndexSortKey = "SK", "PK"
	})
	ctx := context.Background()
	require.NoError(t, adjlist.CreateTable(ctx, db, table))
	dropOnCleanup(t, db, table.Name())
	students := adjlist.NewNode[Student](table, "STU", "")
	teachers := adjlist.NewNode[Student](table, "TCH", "")
	teaches := adjlist.NewEdge[Mentoring](teachers, "", students)
	knows := adjlist.NewEdge[Mentoring](students, "KNOWS", students)
	for _, id := range []string{"a", "b"} {
		require.NoError(t, students.Put(ctx, id, Student{Name: id}))
	}
	require.NoError(t, teachers.Put(ctx, "t", Student{Name: "t"}))
	require.NoError(t, teaches.Put(ctx, "t", "a", Mentoring{}))
	require.NoError(t, knows.Put(ctx, "a", "b", Mentoring{}))

	res, err := adjlist.DeleteNode(ctx, students, "a", teaches)
	require.NoError(t, err)
	assert.Equal(t, adjlist.CascadeResult{Incoming: 1, Partition: 1, Node: true, Queries: 2, Batches: 3}, res)
	c := &campus{school: &school{db: db, table: table}}
	assert.Equal(t, []string{"STU#b|STU#b", "TCH#t|TCH#t"}, c.keysOf(t))
}

func TestDeleteNodeShardedIncoming(t *testing.T) {
	t.Parallel()
	c := newCampus(t, adjlist.Options{})
	ctx := context.Background()
	const shards = 4
	sharded := adjlist.NewEdge[Mentoring](c.students, "MENTOR", c.students, func(o *adjlist.EdgeOptions) { o.Shards = shards })
	c.seed(t, 0, 0) // its unsharded MENTOR edges are into a91 and b30
	before := c.keysOf(t)
	for i := range 30 {
		require.NoError(t, sharded.Put(ctx, fmt.Sprintf("s%02d", i), "d44", Mentoring{Since: "2026"}))
	}
	require.NoError(t, c.students.Put(ctx, "d44", Student{Name: "Di"}))

	q0 := c.w.queries.Load()
	res, err := adjlist.DeleteNode(ctx, c.students, "d44", sharded)
	require.NoError(t, err)
	assert.Equal(t, 30, res.Incoming)
	assert.True(t, res.Node)
	assert.Equal(t, shards+1, res.Queries, "one Query per shard, one for the partition")
	assert.Equal(t, int(c.w.queries.Load()-q0), res.Queries)
	assert.Equal(t, before, c.keysOf(t), "every edge into d44 and d44 gone, nothing else")
	for i := range shards {
		assert.Zero(t, c.rawCount(t, "GSI1", "GSI1PK", fmt.Sprintf("STU#d44#%02d", i)))
	}
}

// TestDeleteNodeFindsRecordedKinds: given no edge kinds, DeleteNode
// follows every kind the table records that ends at the node's type (here
// MENTOR and ADVISES, not ENROLL or WAITLIST, which start at it), with the
// same requests as when they are passed.
func TestDeleteNodeFindsRecordedKinds(t *testing.T) {
	t.Parallel()
	c := newCampus(t, adjlist.Options{})
	c.seed(t, 3, 2)
	ctx := context.Background()
	before := c.keysOf(t)
	gone := a91Items(3, 2)
	res, err := adjlist.DeleteNode(ctx, c.students, "a91")
	require.NoError(t, err)
	assert.Equal(t, 3+2+1, res.Incoming, "b30, a9, 3 mentees; t1")
	assert.Equal(t, 2+1+1+2, res.Partition)
	assert.True(t, res.Node)
	assert.Equal(t, 2+1, res.Queries, "one per recorded kind into STU, one for the partition")
	assert.Equal(t, without(before, gone), c.keysOf(t))

	// The kinds a cascade follows are those its table records: this one
	// records MENTOR only.
	bare := adjlist.NewTable(c.w, c.table.Name())
	students := adjlist.NewNode[Student](bare, "STU", "PROFILE")
	mentors := adjlist.NewEdge[Mentoring](students, "MENTOR", students)
	require.NoError(t, mentors.Put(ctx, "x1", "b30", Mentoring{Since: "2026"}))
	require.NoError(t, mentors.WaitIndexed(ctx, "x1", "b30", waitIndex))
	res, err = adjlist.DeleteNode(ctx, students, "b30")
	require.NoError(t, err)
	assert.Equal(t, 2, res.Incoming, "MENTOR from a9 and x1; t1's ADVISES is not recorded on this table and stays")
	assert.Contains(t, c.keysOf(t), "TCH#t1|ADVISES#STU#b30")
}

// TestDeleteChildReadsEachKindOnce: a kind passed twice to DeleteChild is
// followed once, as DeleteNode follows it, with the requests of one.
func TestDeleteChildReadsEachKindOnce(t *testing.T) {
	t.Parallel()
	m := newTagModel(t, 0)
	ctx := context.Background()
	m.seedTags(t, "acme", 1, "go")
	m.seedTags(t, "globex", 1, "go")
	once, err := adjlist.DeleteChild(ctx, m.projects, "acme", projID(0), m.tagged)
	require.NoError(t, err)
	twice, err := adjlist.DeleteChild(ctx, m.projects, "globex", projID(0), m.tagged, m.tagged)
	require.NoError(t, err)
	assert.Equal(t, adjlist.CascadeResult{Incoming: 1, Partition: 1, Node: true, Queries: 2, Batches: 2}, once)
	assert.Equal(t, once, twice)
}
