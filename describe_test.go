package adjlist_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

func TestDescribe(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "school")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)

	var b strings.Builder
	require.NoError(t, adjlist.Describe(&b, table, students, enrolled, courses))
	md := b.String()
	for _, want := range []string{
		"| item | PK | SK | GSI1PK | GSI1SK | attributes |",
		"| node STU | `STU#<id>` | `PROFILE` |  |  | name, year, major |",
		"| edge ENROLL (STU → CRS) | `STU#<from>` | `ENROLL#CRS#<to>` | `CRS#<to>` | `STU#<from>` | enrolledOn, grade |",
		"| node CRS | `CRS#<id>` | `METADATA` |  |  | title, credits, term |",
		"`PK = \"STU#<from>\" AND begins_with(SK, \"ENROLL#CRS#\")` | table |",
		"`GSI1PK = \"CRS#<to>\" AND begins_with(GSI1SK, \"STU#\"); filter begins_with(SK, \"ENROLL#CRS#\")` | GSI1 (eventually consistent) |",
	} {
		assert.Contains(t, md, want)
	}
}

func TestDescribeCollectionAndSortKeyIndex(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "tenancy", func(o *adjlist.Options) {
		o.PartitionKey, o.SortKey, o.NoIndex = "EntityRef", "Detail", true
	})
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ")
	var b strings.Builder
	require.NoError(t, adjlist.Describe(&b, table, workspaces, projects))
	md := b.String()
	assert.Contains(t, md, "| item | EntityRef | Detail | attributes |")
	assert.Contains(t, md, "| child PROJ of WS | `WS#<id>` | `PROJ#<child>` | title, status, createdBy |")
	assert.Contains(t, md, "`EntityRef = \"WS#<id>\" AND begins_with(Detail, \"PROJ#\"); ScanIndexForward=false`")

	assert.NotContains(t, md, "GSI1")
	other := adjlist.NewTable(nil, "other")
	err := adjlist.Describe(&b, other, workspaces)
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	err = adjlist.Describe(&b, table, adjlist.NewNode[Workspace](table, "W S", "META"))
	require.ErrorIs(t, err, adjlist.ErrInvalidKey)
}

// TestDescribeAccessPattern: a documented query is one row with the exact
// expressions it sends; an invalid one is Describe's error.
func TestDescribeAccessPattern(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "school")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	var b strings.Builder
	require.NoError(t, adjlist.Describe(&b, table, enrolled, adjlist.AccessPattern("a course's A students from a to m",
		enrolled.To("<to>").Between("a", "m").Filter(expression.Name("grade").Equal(expression.Value("A"))))))
	assert.Contains(t, b.String(), "| a course's A students from a to m | `Edge.To(id).Between(lo, hi).Filter(cond)` | Query | "+
		"`(GSI1PK = \"CRS#<to>\") AND (GSI1SK BETWEEN \"STU#a\" AND \"STU#m\"); filter (begins_with (SK, \"ENROLL#CRS#\")) AND (grade = \"A\")` | GSI1 (eventually consistent) |")

	err := adjlist.Describe(&b, table, adjlist.AccessPattern("bad", enrolled.To("<to>").Between("m", "a")))
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
}
