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

// presets is one handle of every preset kind on one table, declared
// alike by the tests that walk them all.
type presets struct {
	table                                            *Table
	students, bills, courses, workspaces             *Node[struct{}]
	enrolled, unlabelled, tagged, toChild, fromChild *Edge[struct{}]
	projects, sharded                                *Collection[struct{}, struct{}]
}

// newPresets declares them on a table named name (with no client): a
// caller may add handles before it checks the table.
func newPresets(name string) presets {
	var h presets
	h.table = NewTable(nil, name)
	h.students = NewNode[struct{}](h.table, "STU", "PROFILE")
	h.bills = NewNode[struct{}](h.table, "BILL", "")
	h.courses = NewNode[struct{}](h.table, "CRS", "METADATA")
	h.enrolled = NewEdge[struct{}](h.students, "ENROLL", h.courses)
	h.unlabelled = NewEdge[struct{}](h.students, "", h.courses)
	h.workspaces = NewNode[struct{}](h.table, "WS", "META")
	h.projects = NewCollection[struct{}](h.workspaces, "PROJ")
	h.sharded = NewCollection[struct{}](h.workspaces, "TCK", func(o *CollectionOptions) { o.Shards = 8 })
	h.tagged = NewEdge[struct{}](h.students, "TAGGED", h.projects)
	h.toChild = NewEdge[struct{}](h.students, "", h.projects)
	h.fromChild = NewEdge[struct{}](h.projects, "HAS", h.students)
	return h
}

// TestPresetsAreTemplates: the templates the table records for Node,
// Edge and Collection spell exactly the keys their own code writes, and
// parse them back, for hostile ids too: the presets are these templates.
func TestPresetsAreTemplates(t *testing.T) {
	t.Parallel()
	ids := []string{"a91", "x#1%", "%23", "é 日本", "a#b#c", "PROFILE"}
	h := newPresets("presets")
	table, students, bills, projects, sharded := h.table, h.students, h.bills, h.projects, h.sharded
	enrolled, unlabelled, tagged, toChild, fromChild := h.enrolled, h.unlabelled, h.tagged, h.toChild, h.fromChild
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
			k, err = toChild.keys("s1", ref)
			check(toChild.it.kind, key(k.pk, k.sk, err), "s1", a, b)
			k, err = fromChild.keys(ref, "s1")
			check(fromChild.it.kind, key(k.pk, k.sk, err), a, b, "s1")
		}
	}
}
