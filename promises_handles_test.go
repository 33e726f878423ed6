package adjlist_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// TestCollectionLoadErrorsNameLoad: every error of Collection.Load is an
// *OpError naming Collection.Load (RELIABILITY.md: "Every error of a call
// that reads or writes the table is an *OpError naming the operation"),
// with the sentinel its doc names, on each of its paths: a parent's
// partition read whole, and the GetItem and List of a sharded collection
// ([CollectionOptions].Shards) or a nested one. Before the fix the sharded
// and nested paths named the Node.Get, Collection.Get or Collection.List
// they are made of, and a nested collection's malformed parent ref was a
// bare *KeyError.
func TestCollectionLoadErrorsNameLoad(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newSchool(t)
	notes := adjlist.NewCollection[Course](s.students, "NOTE")
	sharded := adjlist.NewCollection[Course](s.students, "SH", func(o *adjlist.CollectionOptions) { o.Shards = 4 })
	nested := adjlist.NewNestedCollection[Course](notes, "SUB")
	require.NoError(t, s.table.Check())
	require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ada"}))
	require.NoError(t, notes.Put(ctx, "a91", "n1", Course{Title: "one"}))
	n1, err := notes.Ref("a91", "n1")
	require.NoError(t, err)
	n2, err := notes.Ref("a91", "n2") // no such note
	require.NoError(t, err)
	// A sharded child whose data does not fit Course: the List part fails.
	require.NoError(t, s.students.Put(ctx, "b30", Student{Name: "Bo"}))
	pk, sk, err := sharded.Key("b30", "c1")
	require.NoError(t, err)
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table.Name()), Item: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk},
		"title": &types.AttributeValueMemberL{Value: []types.AttributeValue{}}}})
	require.NoError(t, err)

	type load func(ctx context.Context, id string, o ...func(*adjlist.ReadOptions)) (adjlist.Family[Course, Student], error)
	nestedLoad := func(ctx context.Context, id string, o ...func(*adjlist.ReadOptions)) (adjlist.Family[Course, Student], error) {
		f, err := nested.Load(ctx, id, o...)
		return adjlist.Family[Course, Student]{ID: f.ID, Children: f.Children, Other: f.Other}, err
	}
	consistent, nilOption := []func(*adjlist.ReadOptions){adjlist.Consistent}, []func(*adjlist.ReadOptions){nil}
	for _, tc := range []struct {
		name string
		load load
		id   string
		opts []func(*adjlist.ReadOptions)
		want error // nil: the child's *attributevalue.UnmarshalTypeError
	}{
		{"missing parent", notes.Load, "nobody", nil, adjlist.ErrNotFound},
		{"bad id", notes.Load, "", consistent, adjlist.ErrInvalidKey},
		{"nil option", notes.Load, "a91", nilOption, adjlist.ErrInvalidOption},
		{"sharded, missing parent", sharded.Load, "nobody", consistent, adjlist.ErrNotFound},
		{"sharded, bad id", sharded.Load, "a\x01", consistent, adjlist.ErrInvalidKey},
		{"sharded, nil option", sharded.Load, "a91", nilOption, adjlist.ErrInvalidOption},
		{"sharded, undecodable child", sharded.Load, "b30", consistent, nil},
		{"nested, missing parent", nestedLoad, n2, consistent, adjlist.ErrNotFound},
		{"nested, malformed ref", nestedLoad, "garbage", consistent, adjlist.ErrInvalidKey},
		{"nested, nil option", nestedLoad, n1, nilOption, adjlist.ErrInvalidOption},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := tc.load(ctx, tc.id, tc.opts...)
			require.Error(t, err)
			if tc.want != nil {
				assert.ErrorIs(t, err, tc.want)
			} else {
				var ute *attributevalue.UnmarshalTypeError
				assert.ErrorAs(t, err, &ute)
			}
			var oe *adjlist.OpError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, "Collection.Load", oe.Op, "%v", err)
			assert.Equal(t, s.table.Name(), oe.Table)
			assert.Equal(t, adjlist.Family[Course, Student]{ID: tc.id}, f, "the zero Family but for ID")
		})
	}
}

// TestHandleNameRule: a node type and marker (NewNode), a child type
// (NewCollection), an edge label (NewEdge) and an entity name (NewEntity)
// are "1-64 ASCII letters, digits, '_', '-' or '.'"; a marker and a label
// may also be empty. Any other name makes every call on the handle fail
// with ErrInvalidKey, here its Key, which sends nothing.
func TestHandleNameRule(t *testing.T) {
	t.Parallel()
	names := []struct {
		name  string
		valid bool
	}{
		{"A", true},
		{"a.b-c_D9", true},
		{strings.Repeat("N", 64), true},
		{strings.Repeat("N", 65), false},
		{"A B", false},
		{"A#B", false},
		{"a/b", false},
		{"Ä", false},
		{"A\x00", false},
	}
	kinds := []struct {
		kind       string
		emptyValid bool
		key        func(name string) error
	}{
		{"node type", false, func(n string) error {
			_, _, err := adjlist.NewNode[Student](adjlist.NewTable(nil, "t"), n, "META").Key("x")
			return err
		}},
		{"node marker", true, func(n string) error {
			_, _, err := adjlist.NewNode[Student](adjlist.NewTable(nil, "t"), "STU", n).Key("x")
			return err
		}},
		{"child type", false, func(n string) error {
			parent := adjlist.NewNode[Student](adjlist.NewTable(nil, "t"), "STU", "META")
			_, _, err := adjlist.NewCollection[Course](parent, n).Key("x", "y")
			return err
		}},
		{"edge label", true, func(n string) error {
			table := adjlist.NewTable(nil, "t")
			_, _, err := adjlist.NewEdge[Enrollment](adjlist.NewNode[Student](table, "STU", "META"), n, adjlist.NewNode[Course](table, "CRS", "META")).Key("x", "y")
			return err
		}},
		{"entity name", false, func(n string) error {
			_, _, err := adjlist.NewEntity[Student](adjlist.NewTable(nil, "t"), n, "E#{a}", "S#{b}").Key("x", "y")
			return err
		}},
	}
	for _, k := range kinds {
		for _, n := range append(names, struct {
			name  string
			valid bool
		}{"", k.emptyValid}) {
			err := k.key(n.name)
			if n.valid {
				assert.NoError(t, err, "%s %q", k.kind, n.name)
			} else {
				assert.ErrorIs(t, err, adjlist.ErrInvalidKey, "%s %q", k.kind, n.name)
			}
		}
	}
}

// TestLoadPartitionOfAChildReadsItsEdges: an edge from a collection's
// children lives in the child's own partition (PK = the child's ref), so
// LoadPartition with the *Collection as head reads the child's item (one
// GetItem) and its edges (one Query), as PartitionHead says; only with a
// node as head is such an edge's Into ErrInvalidOption, before any request,
// as Edge.Into says. Without the child's item, PagePartition still reads
// the page (HasNode false) and LoadPartition is ErrNotFound.
func TestLoadPartitionOfAChildReadsItsEdges(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newSchool(t)
	notes := adjlist.NewCollection[Course](s.students, "NOTE")
	cites := adjlist.NewEdge[Enrollment](notes, "CITES", s.courses)
	require.NoError(t, s.table.Check())
	require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ada"}))
	require.NoError(t, notes.Put(ctx, "a91", "n1", Course{Title: "graphs"}))
	ref, err := notes.Ref("a91", "n1")
	require.NoError(t, err)
	require.NoError(t, cites.Put(ctx, ref, "math204", Enrollment{Grade: "A"}))
	require.NoError(t, cites.Put(ctx, ref, "cs101", Enrollment{Grade: "B"}))

	gets, queries := s.calls.gets.Load(), s.calls.queries.Load()
	var got []adjlist.EdgeItem[Enrollment]
	p, err := adjlist.LoadPartition(ctx, notes, ref, cites.Into(&got))
	require.NoError(t, err)
	assert.Equal(t, adjlist.Partition[Course]{ID: ref, Node: Course{Title: "graphs"}}, p)
	assert.Equal(t, []adjlist.EdgeItem[Enrollment]{
		{From: ref, To: "cs101", Data: Enrollment{Grade: "B"}},
		{From: ref, To: "math204", Data: Enrollment{Grade: "A"}},
	}, got, "in ascending sort key order")
	assert.Equal(t, int64(1), s.calls.gets.Load()-gets, "one GetItem of the child")
	assert.Equal(t, int64(1), s.calls.queries.Load()-queries, "one Query of its partition")

	before := s.calls.total()
	got = []adjlist.EdgeItem[Enrollment]{{From: "stale"}}
	_, err = adjlist.LoadPartition(ctx, s.students, "a91", cites.Into(&got))
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	assert.Nil(t, got, "every target's slice nil")
	assert.Equal(t, before, s.calls.total(), "refused before any request")

	// PagePartition: "A missing head item is not an error here", and a
	// child's first page is one GetItem and one Query.
	require.NoError(t, notes.Delete(ctx, "a91", "n1"))
	gets, queries = s.calls.gets.Load(), s.calls.queries.Load()
	got = nil
	pg, err := adjlist.PagePartition(ctx, notes, ref, "", 0, cites.Into(&got))
	require.NoError(t, err)
	assert.False(t, pg.HasNode)
	assert.Empty(t, pg.Cursor)
	assert.Len(t, got, 2, "the child's edges outlive its item")
	assert.Equal(t, int64(1), s.calls.gets.Load()-gets, "one GetItem of the child")
	assert.Equal(t, int64(1), s.calls.queries.Load()-queries, "one Query of its partition")
	_, err = adjlist.LoadPartition(ctx, notes, ref, cites.Into(&got))
	require.ErrorIs(t, err, adjlist.ErrNotFound, "LoadPartition needs the head item")
	assert.Nil(t, got)
}
