package adjlist_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// TestLoadPartition: one Query per page decodes a partition's node item,
// two edge kinds and a child type into their own typed slices, counting
// the rest; bad targets fail before any request; a bad item leaves every
// slice nil.
func TestLoadPartition(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	waitlist := adjlist.NewEdge[Enrollment](s.students, "WAITLIST", s.courses)
	notes := adjlist.NewCollection[Note](s.students, "NOTE")
	require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ada"}))
	require.NoError(t, s.enrolled.Put(ctx, "a91", "cs101", Enrollment{Grade: "A"}))
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", Enrollment{Grade: "B"}))
	require.NoError(t, waitlist.Put(ctx, "a91", "bio110", Enrollment{}))
	require.NoError(t, notes.Put(ctx, "a91", "0001", Note{Text: "hi"}))
	putRaw(t, s, map[string]string{"PK": "STU#a91", "SK": "ENROLL#CRS#bad%zz"}) // foreign
	putRaw(t, s, map[string]string{"PK": "STU#a91", "SK": "MENTOR#STU#b30"})    // no target

	var enrolls, waits []adjlist.EdgeItem[Enrollment]
	var ns []adjlist.Child[Note]
	before := s.calls.queries.Load()
	p, err := adjlist.LoadPartition(ctx, s.students, "a91", s.enrolled.Into(&enrolls), waitlist.Into(&waits), notes.Into(&ns))
	require.NoError(t, err)
	assert.Equal(t, int64(1), s.calls.queries.Load()-before, "one Query")
	assert.Equal(t, adjlist.Partition[Student]{ID: "a91", Node: Student{Name: "Ada"}, Other: 2}, p)
	assert.Equal(t, []adjlist.EdgeItem[Enrollment]{
		{From: "a91", To: "cs101", Data: Enrollment{Grade: "A"}},
		{From: "a91", To: "math204", Data: Enrollment{Grade: "B"}},
	}, enrolls)
	assert.Equal(t, []adjlist.EdgeItem[Enrollment]{{From: "a91", To: "bio110"}}, waits)
	assert.Equal(t, []adjlist.Child[Note]{{Parent: "a91", ID: "0001", Data: Note{Text: "hi"}}}, ns)

	// Bad targets, before any request.
	courseNotes := adjlist.NewCollection[Note](s.courses, "NOTE")
	other := newSchool(t)
	before = s.calls.total()
	for name, tg := range map[string]adjlist.Target{
		"zero":            {},
		"nil slice":       s.enrolled.Into(nil),
		"other node type": courseNotes.Into(&ns),
		"other table":     other.enrolled.Into(&enrolls),
	} {
		_, err := adjlist.LoadPartition(ctx, s.students, "a91", tg)
		assert.ErrorIs(t, err, adjlist.ErrInvalidOption, name)
	}
	assert.Equal(t, before, s.calls.total(), "no request")

	// A bad item: the error, and no partial results.
	putRaw(t, s, map[string]string{"PK": "STU#a91", "SK": "NOTE#0002"})
	require.NoError(t, notes.Put(ctx, "a91", "0003", Note{Text: "x"}))
	_, err = s.db.UpdateItem(ctx, updateSet(s.table.Name(), "STU#a91", "NOTE#0003", "text"))
	require.NoError(t, err)
	enrolls, ns = nil, nil
	p, err = adjlist.LoadPartition(ctx, s.students, "a91", s.enrolled.Into(&enrolls), notes.Into(&ns))
	require.Error(t, err)
	assert.Nil(t, enrolls)
	assert.Nil(t, ns)
	assert.Zero(t, p.Node)

	_, err = adjlist.LoadPartition(ctx, s.students, "nobody", s.enrolled.Into(&enrolls))
	require.ErrorIs(t, err, adjlist.ErrNotFound)
}

// updateSet sets attr of one item to a boolean, which a string field
// cannot decode.
func updateSet(table, pk, sk, attr string) *dynamodb.UpdateItemInput {
	in := getInput(table, pk, sk)
	return &dynamodb.UpdateItemInput{TableName: in.TableName, Key: in.Key,
		UpdateExpression:          aws.String("SET #a = :v"),
		ExpressionAttributeNames:  map[string]string{"#a": attr},
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": &types.AttributeValueMemberBOOL{Value: true}}}
}

// TestPagePartition: the same read one Query per page, with cursors; the
// node item is on one page; a cursor of another partition is refused.
func TestPagePartition(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	notes := adjlist.NewCollection[Note](s.students, "NOTE")
	require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ada"}))
	require.NoError(t, s.students.Put(ctx, "b30", Student{Name: "Bo"}))
	for _, c := range []string{"c1", "c2", "c3"} {
		require.NoError(t, s.enrolled.Put(ctx, "a91", c, Enrollment{Grade: "A"}))
	}
	for _, n := range []string{"0001", "0002"} {
		require.NoError(t, notes.Put(ctx, "a91", n, Note{Text: n}))
	}
	var all []adjlist.EdgeItem[Enrollment]
	var allNotes []adjlist.Child[Note]
	pagesWithNode, cursor := 0, ""
	var node Student
	for pages := 1; ; pages++ {
		var es []adjlist.EdgeItem[Enrollment]
		var ns []adjlist.Child[Note]
		before := s.calls.queries.Load()
		p, err := adjlist.PagePartition(ctx, s.students, "a91", cursor, 2, s.enrolled.Into(&es), notes.Into(&ns))
		require.NoError(t, err)
		assert.Equal(t, int64(1), s.calls.queries.Load()-before, "one Query per page")
		assert.LessOrEqual(t, len(es)+len(ns)+map[bool]int{true: 1}[p.HasNode], 2)
		if p.HasNode {
			pagesWithNode++
			node = p.Node
		}
		all, allNotes = append(all, es...), append(allNotes, ns...)
		if cursor = p.Cursor; cursor == "" {
			break
		}
		require.Less(t, pages, 10)
		if pages == 1 {
			_, err := adjlist.PagePartition(ctx, s.students, "b30", cursor, 2, s.enrolled.Into(&es))
			require.ErrorIs(t, err, adjlist.ErrInvalidCursor)
			assert.Nil(t, es)
		}
	}
	assert.Equal(t, 1, pagesWithNode)
	assert.Equal(t, Student{Name: "Ada"}, node)
	assert.Len(t, all, 3)
	assert.Len(t, allNotes, 2)

	// A note that does not fit Note: the error, and no partial page.
	_, err := s.db.UpdateItem(ctx, updateSet(s.table.Name(), "STU#a91", "NOTE#0002", "text"))
	require.NoError(t, err)
	var es []adjlist.EdgeItem[Enrollment]
	var ns []adjlist.Child[Note]
	p, err := adjlist.PagePartition(ctx, s.students, "a91", "", 0, s.enrolled.Into(&es), notes.Into(&ns))
	var typeErr *attributevalue.UnmarshalTypeError
	require.ErrorAs(t, err, &typeErr)
	assert.Nil(t, es)
	assert.Nil(t, ns)
	assert.Equal(t, adjlist.PartitionPage[Student]{Partition: adjlist.Partition[Student]{ID: "a91"}}, p)
}
