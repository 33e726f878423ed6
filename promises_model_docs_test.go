package adjlist_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// failingWriter fails every write with its error.
type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }

// TestModelDocsReturnWriteError: Describe "returns the first handle error
// ... or write error", Model.Mermaid "returns the write error".
func TestModelDocsReturnWriteError(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "school")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	errDisk := errors.New("disk full")
	require.ErrorIs(t, adjlist.Describe(failingWriter{errDisk}, table, students), errDisk)
	m, err := adjlist.DescribeModel(table, students)
	require.NoError(t, err)
	require.ErrorIs(t, m.Mermaid(failingWriter{errDisk}), errDisk)
}

// TestDescribeModelWithoutHandles: with no handles DescribeModel is "of
// every item type the table records ([Table.Check]), in declaration
// order", and Describe "renders [DescribeModel]'s model (with no handles,
// every recorded item type)": the same model, and the same Markdown, as
// the handles given in the order they were declared; an access pattern of
// another table is ErrInvalidOption as a handle of one is.
func TestDescribeModelWithoutHandles(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "school")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	followers := adjlist.NewEntity[Student](table, "follower", "u#{userID}#follower", "u#{followerID}")
	declared := []adjlist.Describer{courses, students, enrolled, followers}

	all, err := adjlist.DescribeModel(table)
	require.NoError(t, err)
	given, err := adjlist.DescribeModel(table, declared...)
	require.NoError(t, err)
	assert.Equal(t, given, all)
	var names []string
	for _, it := range all.Items {
		names = append(names, it.Name)
	}
	assert.Equal(t, []string{"node CRS", "node STU", "edge ENROLL (STU → CRS)", "entity follower"}, names)

	var a, b strings.Builder
	require.NoError(t, adjlist.Describe(&a, table))
	require.NoError(t, adjlist.Describe(&b, table, declared...))
	assert.Equal(t, b.String(), a.String())

	other := adjlist.NewTable(nil, "other")
	_, err = adjlist.DescribeModel(other, adjlist.AccessPattern("a course's students", enrolled.To("<to>")))
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
}

// Describer's doc: "*Node, *Edge, *Collection, *Entity and *ItemCounter
// (its count items) implement it, and [AccessPattern] documents one query"
// (it named a *Counter, which does not exist).
var (
	_ adjlist.Describer = (*adjlist.Node[Student])(nil)
	_ adjlist.Describer = (*adjlist.Edge[Enrollment])(nil)
	_ adjlist.Describer = (*adjlist.Collection[Course, Student])(nil)
	_ adjlist.Describer = (*adjlist.Entity[Student])(nil)
	_ adjlist.Describer = (*adjlist.ItemCounter)(nil)
	_ adjlist.Describer = adjlist.AccessPattern("", adjlist.Query[Student]{})
)
