package adjlist

import (
	"testing"

	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recordedKeys returns the templates t records for the item type named
// name, compiled with their key fields.
func recordedKeys(t *testing.T, table *Table, id string) (pk, sk keycodec.Spelling, fields []string) {
	t.Helper()
	for _, r := range table.recordedTypes() {
		if r.id == id || r.name == id {
			require.NoError(t, r.err)
			fields = keycodec.Fields(keycodec.Fields(nil, r.pk), r.sk)
			return r.pk.compiled(fields), r.sk.compiled(fields), fields
		}
	}
	t.Fatalf("%s is not recorded", id)
	return nil, nil, nil
}

// TestPresetsAreTemplates: the templates the table records for Node,
// Edge and Collection spell exactly the keys their own code writes, and
// parse them back, for hostile ids too: the presets are these templates.
func TestPresetsAreTemplates(t *testing.T) {
	t.Parallel()
	ids := []string{"a91", "x#1%", "%23", "é 日本", "a#b#c", "PROFILE"}
	table := NewTable(nil, "presets")
	students := NewNode[struct{}](table, "STU", "PROFILE")
	bills := NewNode[struct{}](table, "BILL", "")
	courses := NewNode[struct{}](table, "CRS", "METADATA")
	enrolled := NewEdge[struct{}](students, "ENROLL", courses)
	unlabelled := NewEdge[struct{}](students, "", courses)
	workspaces := NewNode[struct{}](table, "WS", "META")
	projects := NewCollection[struct{}](workspaces, "PROJ")
	sharded := NewCollection[struct{}](workspaces, "TCK", func(o *CollectionOptions) { o.Shards = 8 })
	tagged := NewEdge[struct{}](students, "TAGGED", projects)
	fromChild := NewEdge[struct{}](projects, "HAS", students)
	require.NoError(t, table.Check())

	check := func(id string, want [2]string, ids ...string) {
		t.Helper()
		pk, sk, fields := recordedKeys(t, table, id)
		require.Len(t, ids, len(fields), id)
		assert.Equal(t, want[0], pk.Render(ids), "%s partition key of %q", id, ids)
		assert.Equal(t, want[1], sk.Render(ids), "%s sort key of %q", id, ids)
		parsed := make([]string, len(fields))
		assert.True(t, pk.Parse(want[0], parsed) && sk.Parse(want[1], parsed), "%s parses %q", id, want)
		assert.Equal(t, ids, parsed)
	}
	key := func(pk, sk string, err error) [2]string {
		require.NoError(t, err)
		return [2]string{pk, sk}
	}
	for _, a := range ids {
		check("node STU PROFILE", key(students.Key(a)), a)
		check("node BILL ", key(bills.Key(a)), a)
		for _, b := range ids {
			k, err := enrolled.keys(a, b)
			check(enrolled.it.kind, key(k.pk, k.sk, err), a, b)
			k, err = unlabelled.keys(a, b)
			check(unlabelled.it.kind, key(k.pk, k.sk, err), a, b)
			check(projects.it.kind, key(projects.Key(a, b)), a, b)
			pk, sk, err := sharded.Key(a, b)
			check(sharded.it.kind, key(pk, sk, err), a, keycodec.Shard(b, 8), b)

			ref, err := projects.Ref(a, b)
			require.NoError(t, err)
			k, err = tagged.keys("s1", ref)
			check(tagged.it.kind, key(k.pk, k.sk, err), "s1", a, b)
			k, err = fromChild.keys(ref, "s1")
			check(fromChild.it.kind, key(k.pk, k.sk, err), a, b, "s1")
		}
	}
}
