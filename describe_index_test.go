package adjlist_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

func TestDescribeIndex(t *testing.T) {
	table := adjlist.NewTable(nil, "school", func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{
			{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"},
			{Name: "LSI1", Local: true, SortKey: "LSI1SK"},
			{Name: "ByYear", PartitionAttributes: []adjlist.KeyAttribute{{Name: "year", Type: "N"}}},
			{Name: "Flat", PartitionKey: "FlatPK"},
		}
	})
	byMajor := adjlist.IndexKeys{Index: "GSI2",
		PartitionKey: adjlist.Compose(adjlist.Const("MAJOR"), adjlist.Attr("major")),
		SortKey:      adjlist.Compose(adjlist.SelfKey()), Shards: 4}
	students := adjlist.NewNode[Student](table, "STU", "PROFILE", func(o *adjlist.NodeOptions) {
		o.Indexes = []adjlist.IndexKeys{byMajor, {Index: "Flat", PartitionKey: adjlist.Compose(adjlist.Attr("name"))}}
	})
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA") // in no index
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses, func(o *adjlist.EdgeOptions) {
		o.Indexes = []adjlist.IndexKeys{
			{Index: "GSI2", PartitionKey: adjlist.Compose(adjlist.TargetKey()),
				SortKey: adjlist.Compose(adjlist.Const("ON"), adjlist.Attr("enrolledOn"), adjlist.SourceKey())},
			{Index: "LSI1", SortKey: adjlist.Compose(adjlist.Attr("grade"), adjlist.SelfKey())},
		}
	})
	notes := adjlist.NewCollection[Note](students, "NOTE", func(o *adjlist.CollectionOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Compose(adjlist.ParentKey()),
			SortKey: adjlist.Compose(adjlist.Const("NOTE"), adjlist.SelfKey())}}
	})
	all := []adjlist.Describer{students, courses, enrolled, notes,
		adjlist.AccessPattern("students of a major", students.ByIndex("GSI2", "physics"))}

	tests := []struct {
		index string
		want  string
	}{
		{"GSI2", "### Index `GSI2`: GSI2PK (partition), GSI2SK (sort)\n\n" +
			"| item | GSI2PK | GSI2SK |\n" +
			"| --- | --- | --- |\n" +
			"| node STU | `MAJOR#<major>#<shard of key, 4>` | `STU#<id>` |\n" +
			"| edge ENROLL (STU → CRS) | `CRS#<to>` | `ON#<enrolledOn>#STU#<from>` |\n" +
			"| child NOTE of STU | `STU#<id>` | `NOTE#NOTE#<child>` |\n"},
		{"LSI1", "### Index `LSI1`: PK (partition), LSI1SK (sort), local\n\n" +
			"| item | PK | LSI1SK |\n" +
			"| --- | --- | --- |\n" +
			"| edge ENROLL (STU → CRS) | `STU#<from>` | `<grade>#ENROLL#CRS#<to>` |\n"},
		{"Flat", "### Index `Flat`: FlatPK (partition)\n\n" +
			"| item | FlatPK |\n" +
			"| --- | --- |\n" +
			"| node STU | `<name>` |\n"},
	}
	for _, tt := range tests {
		t.Run(tt.index, func(t *testing.T) {
			var b strings.Builder
			require.NoError(t, adjlist.DescribeIndex(&b, table, tt.index, all...))
			assert.Equal(t, tt.want, b.String())
		})
	}

	other := adjlist.NewNode[Course](adjlist.NewTable(nil, "other"), "CRS", "METADATA")
	bad := adjlist.NewNode[Course](table, "bad type", "METADATA")
	refusals := []struct {
		name    string
		index   string
		handles []adjlist.Describer
		want    error
	}{
		{"unknown index", "GSI9", all, adjlist.ErrInvalidOption},
		{"native index", "ByYear", all, adjlist.ErrInvalidOption},
		{"inverted index", "GSI1", all, adjlist.ErrInvalidOption},
		{"handle of another table", "GSI2", []adjlist.Describer{other}, adjlist.ErrInvalidOption},
		{"invalid handle", "GSI2", []adjlist.Describer{bad}, adjlist.ErrInvalidKey},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			require.ErrorIs(t, adjlist.DescribeIndex(&b, table, tt.index, tt.handles...), tt.want)
			assert.Empty(t, b.String())
		})
	}
}
