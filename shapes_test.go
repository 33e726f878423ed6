package adjlist_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// TestOneItemVerbsReturnData: a verb given one item's ids (Get, Update)
// returns that item's data on every handle (N, E, C, T, not an item with
// the ids the caller gave), and with ErrNotFound the zero value.
func TestOneItemVerbsReturnData(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	notes := adjlist.NewCollection[Note](s.students, "NOTE")
	tags := adjlist.NewEntity[Note](s.table, "tag", "TAG#{tag}", "STU#{student}")
	ada := Student{Name: "Ada", Year: 2}
	require.NoError(t, s.students.Put(ctx, "a91", ada))
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", math204))
	require.NoError(t, notes.Put(ctx, "a91", "n1", Note{Text: "hi"}))
	require.NoError(t, tags.Put(ctx, adjlist.IDs{"go", "a91"}, Note{Text: "go"}))

	for _, tc := range []struct {
		name string
		call func(id string) (any, error) // id: the student's, "a91" or a missing one
		want any
	}{
		{"Node.Get", func(id string) (any, error) { return s.students.Get(ctx, id) }, ada},
		{"Edge.Get", func(id string) (any, error) { return s.enrolled.Get(ctx, id, "math204") }, math204},
		{"Collection.Get", func(id string) (any, error) { return notes.Get(ctx, id, "n1") }, Note{Text: "hi"}},
		{"Entity.Get", func(id string) (any, error) { return tags.Get(ctx, adjlist.IDs{"go", id}) }, Note{Text: "go"}},
		{"Node.Update", func(id string) (any, error) { return s.students.Update(ctx, id, adjlist.Set("year", 3)) }, Student{Name: "Ada", Year: 3}},
		{"Edge.Update", func(id string) (any, error) {
			return s.enrolled.Update(ctx, id, "math204", adjlist.Set("grade", "A"))
		}, Enrollment{EnrolledOn: math204.EnrolledOn, Grade: "A"}},
		{"Collection.Update", func(id string) (any, error) { return notes.Update(ctx, id, "n1", adjlist.Set("text", "bye")) }, Note{Text: "bye"}},
		{"Entity.Update", func(id string) (any, error) {
			return tags.Update(ctx, adjlist.IDs{"go", id}, adjlist.Set("text", "Go"))
		}, Note{Text: "Go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.call("a91")
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			got, err = tc.call("nobody")
			require.ErrorIs(t, err, adjlist.ErrNotFound)
			assert.Zero(t, got)
			assert.IsType(t, tc.want, got)
		})
	}
}

// TestGetManyReturnsItems: GetMany, a verb that reads several items,
// returns the handle's item type on every handle (ids with data), in the
// order of the ids given, ids with no item left out, and an id given twice
// returned twice.
func TestGetManyReturnsItems(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	notes := adjlist.NewCollection[Note](s.students, "NOTE")
	tags := adjlist.NewEntity[Note](s.table, "tag", "TAG#{tag}", "STU#{student}")
	for _, id := range []string{"a", "b"} {
		require.NoError(t, s.students.Put(ctx, id, Student{Name: id}))
		require.NoError(t, notes.Put(ctx, "p", id, Note{Text: id}))
		require.NoError(t, tags.Put(ctx, adjlist.IDs{"go", id}, Note{Text: id}))
	}
	asked, found := []string{"b", "missing", "a", "b"}, []string{"b", "a", "b"}
	var children []adjlist.Child[Note]
	var ids []adjlist.IDs
	for _, id := range asked {
		children = append(children, adjlist.Child[Note]{Parent: "p", ID: id})
		ids = append(ids, adjlist.IDs{"go", id})
	}
	var wantNodes []adjlist.NodeItem[Student]
	var wantChildren []adjlist.Child[Note]
	var wantEntities []adjlist.EntityItem[Note]
	for _, id := range found {
		wantNodes = append(wantNodes, adjlist.NodeItem[Student]{ID: id, Data: Student{Name: id}})
		wantChildren = append(wantChildren, adjlist.Child[Note]{Parent: "p", ID: id, Data: Note{Text: id}})
		wantEntities = append(wantEntities, adjlist.EntityItem[Note]{IDs: adjlist.IDs{"go", id}, Data: Note{Text: id}})
	}

	for _, tc := range []struct {
		name string
		call func() (any, error)
		want any
	}{
		{"Node.GetMany", func() (any, error) { return s.students.GetMany(ctx, asked) }, wantNodes},
		{"Collection.GetMany", func() (any, error) { return notes.GetMany(ctx, children) }, wantChildren},
		{"Entity.GetMany", func() (any, error) { return tags.GetMany(ctx, ids) }, wantEntities},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.call()
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
