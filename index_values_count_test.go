package adjlist_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// TestByIndexNamesTheValuesItTakes: ByIndex given the wrong number of
// values is ErrInvalidOption, before any request, with a message that
// says how many values it takes and names them in order (the template's
// attribute and key field names, the ids its node keys hold; a native
// index's attributes, its sort attributes optional).
func TestByIndexNamesTheValuesItTakes(t *testing.T) {
	t.Parallel()
	calls := &emptyQueries{}
	table := adjlist.NewTable(calls, "counts", func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{
			{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"},
			{Name: "ByScore", PartitionAttributes: []adjlist.KeyAttribute{{Name: "tour"}, {Name: "region"}},
				SortAttributes: []adjlist.KeyAttribute{{Name: "round", Type: "N"}, {Name: "score", Type: "N"}}},
			{Name: "LSI2", Local: true, SortAttributes: []adjlist.KeyAttribute{{Name: "score", Type: "N"}}},
		}
	})
	type data = map[string]any
	byStatus := func(pk string) []adjlist.IndexKeys {
		return []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template(pk), SortKey: adjlist.Template("{createdAt}")}}
	}
	workspaces := adjlist.NewNode[data](table, "WS", "META", func(o *adjlist.NodeOptions) {
		o.Indexes = byStatus("STATUS#{status}")
	})
	projects := adjlist.NewCollection[data](workspaces, "PROJ", func(o *adjlist.CollectionOptions) {
		o.Indexes = byStatus("{@parent}#{status}")
	})
	owns := adjlist.NewEdge[data](workspaces, "OWNS", projects, func(o *adjlist.EdgeOptions) {
		o.Indexes = byStatus("{@target}#{status}")
	})
	issues := adjlist.NewNestedCollection[data](projects, "ISSUE")
	followers := adjlist.NewEntity[data](table, "follower", "USER#{userID}", "F#{followerID}", func(o *adjlist.EntityOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("F#{followerID}#{status}"), SortKey: adjlist.Template("{userID}")}}
	})
	require.NoError(t, table.Check())

	for _, tc := range []struct {
		name string
		run  func() error
		want string
	}{
		{"node, too few", func() error { _, err := workspaces.ByIndex("GSI2").Collect(t.Context()); return err },
			`ByIndex("GSI2", ...): takes 1 value (status), 0 given`},
		{"node, too many", func() error { _, err := workspaces.ByIndex("GSI2", "a", "b").Collect(t.Context()); return err },
			`ByIndex("GSI2", ...): takes 1 value (status), 2 given`},
		{"child", func() error { _, err := projects.ByIndex("GSI2", "acme").Collect(t.Context()); return err },
			`ByIndex("GSI2", ...): takes 2 values (parent id, status), 1 given`},
		{"edge into a child", func() error { _, err := owns.ByIndex("GSI2", "ACTIVE").Collect(t.Context()); return err },
			`ByIndex("GSI2", ...): takes 2 values (target ref, status), 1 given`},
		{"entity", func() error {
			_, err := followers.ByIndex("GSI2", "u1", "ACTIVE", "x").Collect(t.Context())
			return err
		},
			`ByIndex("GSI2", ...): takes 2 values (followerID, status), 3 given`},
		{"native, too few", func() error { _, err := workspaces.ByIndex("ByScore", "W").Collect(t.Context()); return err },
			`ByIndex("ByScore", ...): takes 2 to 4 values (tour, region, then optionally round, score), 1 given`},
		{"native, too many", func() error {
			_, err := workspaces.ByIndex("ByScore", "W", "EU", 1, 2, 3).Collect(t.Context())
			return err
		}, `ByIndex("ByScore", ...): takes 2 to 4 values (tour, region, then optionally round, score), 5 given`},
		{"native local, the child's partition", func() error { _, err := projects.ByIndex("LSI2").Collect(t.Context()); return err },
			`ByIndex("LSI2", ...): takes 1 to 2 values (parent id, then optionally score), 0 given`},
		// A value of the wrong type names the key it fills, drawn as
		// Describe draws it.
		{"native local, a node's key", func() error { _, err := workspaces.ByIndex("LSI2", 7).Collect(t.Context()); return err },
			`index LSI2: PK of node WS is WS#<id>, which takes ids ([7] given)`},
		{"native local, a child's parent key", func() error { _, err := projects.ByIndex("LSI2", 7).Collect(t.Context()); return err },
			`index LSI2: PK of child PROJ of WS is WS#<id>, which takes ids ([7] given)`},
		{"native local, an edge's source key", func() error { _, err := owns.ByIndex("LSI2", 7).Collect(t.Context()); return err },
			`index LSI2: PK of edge OWNS (WS → WS/PROJ) is WS#<from>, which takes ids ([7] given)`},
		{"native local, a nested child's parent key, whole", func() error { _, err := issues.ByIndex("LSI2", 7).Collect(t.Context()); return err },
			`index LSI2: PK of child ISSUE of WS/PROJ is WS#<id>#PROJ#<PROJ id>, which takes ids ([7] given)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	assert.Zero(t, calls.queries.Load(), "refused before any request")
}
