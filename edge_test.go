package adjlist_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

var math204 = Enrollment{EnrolledOn: "2026-09-01", Grade: "B+"}

func TestEdgeLifecycle(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()

	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", math204))
	got, err := s.enrolled.Get(ctx, "a91", "math204")
	require.NoError(t, err)
	assert.Equal(t, math204, got)

	t.Run("duplicate refused, original kept", func(t *testing.T) {
		err := s.enrolled.Put(ctx, "a91", "math204", Enrollment{EnrolledOn: "2030-01-01", Grade: "F"})
		require.ErrorIs(t, err, adjlist.ErrExists)
		var ccf *types.ConditionalCheckFailedException
		require.ErrorAs(t, err, &ccf)
		var op *adjlist.OpError
		require.ErrorAs(t, err, &op)
		assert.Equal(t, "Edge.Put", op.Op)
		assert.Equal(t, "STU#a91", op.PK)
		assert.Equal(t, "ENROLL#CRS#math204", op.SK)
		got, err := s.enrolled.Get(ctx, "a91", "math204")
		require.NoError(t, err)
		assert.Equal(t, math204, got)
	})

	t.Run("update grade", func(t *testing.T) {
		got, err := s.enrolled.Update(ctx, "a91", "math204", adjlist.Set("grade", "A"))
		require.NoError(t, err)
		assert.Equal(t, Enrollment{EnrolledOn: "2026-09-01", Grade: "A"}, got)
	})

	t.Run("update of a missing edge creates nothing", func(t *testing.T) {
		_, err := s.enrolled.Update(ctx, "a91", "cs101", adjlist.Set("grade", "A"))
		require.ErrorIs(t, err, adjlist.ErrNotFound)
		var ccf *types.ConditionalCheckFailedException
		require.ErrorAs(t, err, &ccf)
		_, err = s.enrolled.Get(ctx, "a91", "cs101")
		require.ErrorIs(t, err, adjlist.ErrNotFound)
	})

	t.Run("delete", func(t *testing.T) {
		require.NoError(t, s.enrolled.Delete(ctx, "a91", "math204"))
		_, err := s.enrolled.Get(ctx, "a91", "math204")
		require.ErrorIs(t, err, adjlist.ErrNotFound)
		require.ErrorIs(t, s.enrolled.Delete(ctx, "a91", "math204"), adjlist.ErrNotFound)
		assert.Zero(t, s.rawCount(t, "GSI1", "GSI1PK", "CRS#math204"), "index entry left behind")
	})
}

func TestEdgeItemShape(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", math204))

	pk, sk := "STU#a91", "ENROLL#CRS#math204"
	out, err := s.db.GetItem(ctx, getInput(s.table.Name(), pk, sk))
	require.NoError(t, err)
	assert.Equal(t, map[string]string{
		"PK": "STU#a91", "SK": "ENROLL#CRS#math204", "GSI1PK": "CRS#math204", "GSI1SK": "STU#a91",
		"enrolledOn": "2026-09-01", "grade": "B+",
	}, stringsOf(t, out.Item), "exactly four key attributes plus the edge's data")
}

func TestNodeLifecycle(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	alice := Student{Name: "Alice", Year: 2, Major: "Math"}

	_, err := s.students.Get(ctx, "a91")
	require.ErrorIs(t, err, adjlist.ErrNotFound)
	require.NoError(t, s.students.Put(ctx, "a91", alice))
	got, err := s.students.Get(ctx, "a91")
	require.NoError(t, err)
	assert.Equal(t, alice, got)

	alice.Year = 3
	require.NoError(t, s.students.Replace(ctx, "a91", alice), "Replace overwrites a node")
	got, err = s.students.Get(ctx, "a91")
	require.NoError(t, err)
	assert.Equal(t, 3, got.Year)

	require.NoError(t, s.students.Delete(ctx, "a91"))
	require.ErrorIs(t, s.students.Delete(ctx, "a91"), adjlist.ErrNotFound)
}

// seedSchool writes seed 000's items plus decoys that share partitions with
// them: another label between the same types, and a student whose id is a
// prefix of another's.
func seedSchool(t *testing.T, s *school) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ada", Year: 2, Major: "Math"}))
	require.NoError(t, s.students.Put(ctx, "b30", Student{Name: "Bo", Year: 1, Major: "CS"}))
	require.NoError(t, s.courses.Put(ctx, "math204", Course{Title: "Linear Algebra", Credits: 4, Term: "2026F"}))
	require.NoError(t, s.courses.Put(ctx, "cs101", Course{Title: "Intro to CS", Credits: 3, Term: "2026F"}))
	for _, e := range [][2]string{{"a91", "math204"}, {"b30", "math204"}, {"a91", "cs101"}} {
		require.NoError(t, s.enrolled.Put(ctx, e[0], e[1], Enrollment{EnrolledOn: "2026-09-01", Grade: "B"}))
	}
	waitlist := adjlist.NewEdge[Enrollment](s.students, "WAITLIST", s.courses)
	require.NoError(t, waitlist.Put(ctx, "b30", "cs101", Enrollment{EnrolledOn: "2026-09-02"}))
	require.NoError(t, s.enrolled.Put(ctx, "a9", "cs101", Enrollment{EnrolledOn: "2026-09-03"}))
}

func TestForwardAndReverse(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	seedSchool(t, s)
	ctx := context.Background()

	tests := []struct {
		name  string
		query adjlist.Query[adjlist.EdgeItem[Enrollment]]
		want  []string // from→to
	}{
		{"a91's courses", s.enrolled.From("a91"), []string{"a91→cs101", "a91→math204"}},
		{"a91's courses newest key first", s.enrolled.From("a91").Desc(), []string{"a91→math204", "a91→cs101"}},
		{"a9 is not a91", s.enrolled.From("a9"), []string{"a9→cs101"}},
		{"b30's courses skip the waitlist", s.enrolled.From("b30"), []string{"b30→math204"}},
		{"math204 roster", s.enrolled.To("math204"), []string{"a91→math204", "b30→math204"}},
		{"cs101 roster skips the waitlist", s.enrolled.To("cs101"), []string{"a9→cs101", "a91→cs101"}},
		{"unknown course", s.enrolled.To("bio999"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			// The index is eventually consistent on real DynamoDB; poll,
			// bounded, rather than sleep.
			require.EventuallyWithT(t, func(c *assert.CollectT) {
				items, err := tt.query.Collect(ctx)
				require.NoError(c, err)
				got = got[:0]
				for _, e := range items {
					got = append(got, e.From+"→"+e.To)
					assert.Equal(c, "2026-09-0", e.Data.EnrolledOn[:9])
				}
				assert.Equal(c, tt.want, got)
			}, 5*time.Second, 20*time.Millisecond)
		})
	}
}

func TestLoadNode(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	seedSchool(t, s)
	ctx := context.Background()

	before := s.calls.queries.Load()
	got, err := adjlist.LoadNode(ctx, s.students, s.enrolled, "a91")
	require.NoError(t, err)
	assert.Equal(t, int64(1), s.calls.queries.Load()-before, "profile and enrolments in one Query")
	assert.Equal(t, "Ada", got.Node.Name)
	require.Len(t, got.Edges, 2)
	assert.Equal(t, "cs101", got.Edges[0].To)
	assert.Equal(t, "math204", got.Edges[1].To)

	_, err = adjlist.LoadNode(ctx, s.students, s.enrolled, "zz")
	require.ErrorIs(t, err, adjlist.ErrNotFound)

	_, err = adjlist.LoadNode(ctx, s.courses, s.enrolled, "math204")
	require.ErrorIs(t, err, adjlist.ErrInvalidOption, "edge starts at students, not courses")
}

func TestKeysOnlyIndex(t *testing.T) {
	t.Parallel()
	s := newSchool(t, func(o *adjlist.CreateTableOptions) { o.Projection = types.ProjectionTypeKeysOnly })
	ctx := context.Background()
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", math204))
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		items, err := s.enrolled.To("math204").Collect(ctx)
		require.NoError(c, err)
		assert.Equal(c, []adjlist.EdgeItem[Enrollment]{{From: "a91", To: "math204"}}, items, "ids only, no data")
	}, 5*time.Second, 20*time.Millisecond)
}

func TestCreateTableExisting(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	err := adjlist.CreateTable(ctx, s.db, s.table)
	var inUse *types.ResourceInUseException
	require.ErrorAs(t, err, &inUse)
	require.NoError(t, adjlist.CreateTable(ctx, s.db, s.table, func(o *adjlist.CreateTableOptions) { o.IfNotExists = true }))
}

// A key attribute can never be written through the data type.
type sneaky struct {
	Grade string `dynamodbav:"grade"`
	PK    string `dynamodbav:"PK"`
}

func TestRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	long := strings.Repeat("x", maxSortKeyLen)
	sneakyEdge := adjlist.NewEdge[sneaky](s.students, "ENROLL", s.courses)
	badLabel := adjlist.NewEdge[Enrollment](s.students, "EN ROLL", s.courses)
	setGrade := adjlist.Set("grade", "A")
	page := func(q adjlist.Query[adjlist.EdgeItem[Enrollment]], cursor string) error {
		_, err := q.Page(ctx, cursor)
		return err
	}
	all := func(q adjlist.Query[adjlist.EdgeItem[Enrollment]], optFns ...func(*adjlist.ReadOptions)) error {
		_, err := q.Collect(ctx, optFns...)
		return err
	}

	tests := []struct {
		name string
		call func() error
		want error
	}{
		{"put empty from", func() error { return s.enrolled.Put(ctx, "", "math204", math204) }, adjlist.ErrInvalidKey},
		{"put empty to", func() error { return s.enrolled.Put(ctx, "a91", "", math204) }, adjlist.ErrInvalidKey},
		{"put invalid UTF-8", func() error { return s.enrolled.Put(ctx, "a\xff", "math204", math204) }, adjlist.ErrInvalidKey},
		{"put sort key too long", func() error { return s.enrolled.Put(ctx, "a91", long, math204) }, adjlist.ErrInvalidKey},
		{"put source too long for index sort key", func() error { return s.enrolled.Put(ctx, long, "math204", math204) }, adjlist.ErrInvalidKey},
		{"put data with key attribute", func() error { return sneakyEdge.Put(ctx, "a91", "math204", sneaky{PK: "STU#b30"}) }, adjlist.ErrKeyAttribute},
		{"put bad label", func() error { return badLabel.Put(ctx, "a91", "math204", math204) }, adjlist.ErrInvalidKey},
		{"get empty", func() error { _, err := s.enrolled.Get(ctx, "a91", ""); return err }, adjlist.ErrInvalidKey},
		{"update empty", func() error { _, err := s.enrolled.Update(ctx, "", "x", setGrade); return err }, adjlist.ErrInvalidKey},
		{"update key attribute", func() error {
			_, err := s.enrolled.Update(ctx, "a91", "math204", adjlist.Set("GSI1PK", "CRS#x"))
			return err
		}, adjlist.ErrKeyAttribute},
		{"delete empty", func() error { return s.enrolled.Delete(ctx, "", "x") }, adjlist.ErrInvalidKey},
		{"node put empty", func() error { return s.students.Put(ctx, "", Student{}) }, adjlist.ErrInvalidKey},
		{"from empty", func() error { return all(s.enrolled.From("")) }, adjlist.ErrInvalidKey},
		{"to invalid UTF-8", func() error { return page(s.enrolled.To("\xc3"), "") }, adjlist.ErrInvalidKey},
		{"consistent read on index", func() error {
			for _, err := range s.enrolled.To("math204").All(ctx, adjlist.Consistent) {
				return err
			}
			return nil
		}, adjlist.ErrIndexConsistentRead},
		{"consistent page on index", func() error {
			_, err := s.enrolled.To("math204").Page(ctx, "", adjlist.Consistent)
			return err
		}, adjlist.ErrIndexConsistentRead},
		{"consistent count on index", func() error {
			_, err := s.enrolled.To("math204").Count(ctx, adjlist.Consistent)
			return err
		}, adjlist.ErrIndexConsistentRead},
		{"consistent mixed read on index", func() error {
			_, err := adjlist.Load(ctx, adjlist.AllTypes(s.enrolled.To("math204"), adjlist.Consistent))
			return err
		}, adjlist.ErrIndexConsistentRead},
		{"nil read option", func() error { return all(s.enrolled.From("a91"), nil) }, adjlist.ErrInvalidOption},
		{"negative limit", func() error { return page(s.enrolled.From("a91").Limit(-1), "") }, adjlist.ErrInvalidOption},
		{"malformed cursor", func() error { return page(s.enrolled.From("a91"), "!!!") }, adjlist.ErrInvalidCursor},
		{"load node empty", func() error { _, err := adjlist.LoadNode(ctx, s.students, s.enrolled, ""); return err }, adjlist.ErrInvalidKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := s.calls.total()
			err := tt.call()
			require.ErrorIs(t, err, tt.want)
			var op *adjlist.OpError
			require.ErrorAs(t, err, &op, "errors name the operation")
			assert.Equal(t, before, s.calls.total(), "no request may be sent")
		})
	}
}

func TestErrorsKeepSDKTypes(t *testing.T) {
	t.Parallel()
	db := newSchool(t).db
	missing := adjlist.NewTable(db, "no-such-table")
	students := adjlist.NewNode[Student](missing, "STU", "PROFILE")
	_, err := students.Get(context.Background(), "a91")
	var nf *types.ResourceNotFoundException
	require.ErrorAs(t, err, &nf)
	assert.False(t, errors.Is(err, adjlist.ErrNotFound), "a missing table is not a missing item")
}

// Count on a reverse read counts only the edge's own label: b30's WAITLIST
// edge shares cs101's index partition with the ENROLL edges, and only the
// server-side filter keeps it out (Count decodes nothing).
func TestReverseCountSkipsOtherLabels(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	seedSchool(t, s)
	ctx := context.Background()
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		n, err := s.enrolled.To("cs101").Count(ctx)
		require.NoError(c, err)
		assert.Equal(c, 2, n, "a9 and a91, not the waitlist")
	}, 5*time.Second, 20*time.Millisecond)
}

// Map-typed data never sees the key attributes; struct data ignores them.
func TestMapDataWithoutKeys(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	notes := adjlist.NewEdge[map[string]string](s.students, "NOTE", s.courses)
	require.NoError(t, notes.Put(ctx, "a91", "math204", map[string]string{"text": "hi"}))
	got, err := notes.Get(ctx, "a91", "math204")
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"text": "hi"}, got)
	items, err := notes.From("a91").Collect(ctx)
	require.NoError(t, err)
	require.Len(t, items, 1)
	assert.Equal(t, map[string]string{"text": "hi"}, items[0].Data)
}

// Data that is not a struct or map is refused before any request.
func TestNonMapData(t *testing.T) {
	t.Parallel()
	calls := &countingClient{} // no client behind it: a request would panic
	words := adjlist.NewNode[string](adjlist.NewTable(calls, "t"), "W", "META")
	require.ErrorIs(t, words.Put(context.Background(), "a", "just a string"), adjlist.ErrInvalidOption)
	assert.Zero(t, calls.total())
}
