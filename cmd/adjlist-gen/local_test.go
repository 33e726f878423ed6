package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLocalIndexes: a model's LocalSecondaryIndexes are declared as
// adjlist local indexes (Index.Local), which CreateTable creates as local
// secondary indexes: one whose sort key values are composed ("STATUS#OPEN#
// 2026-01-02") with a derived SortKey, which each item type that has it
// writes from its template (IndexKeys without a PartitionKey: the table's
// is the index's); one on a plain attribute with a native sort attribute,
// typed, with the model's projection. The package's own test, run by
// TestGeneratedPackages (variant-lsi), creates the table on DynamoDB Local
// and writes the model's items through the entities, byte for byte.
func TestLocalIndexes(t *testing.T) {
	g := built(t, "testdata/variants/lsi.json")
	tbl := g.m.tables[0]
	require.Len(t, tbl.indexes, 2)
	assert.Equal(t, index{name: "LSI1", local: true, pk: "PK", sk: "LSI1SK", pkType: "S", skType: "S", projection: "ALL", derived: true,
		why: "local: the table's partition key PK, sorted on LSI1SK, which adjlist writes from each item type's template: its values are composed, with '#'"}, *tbl.indexes[0])
	assert.Equal(t, "LSI1", tbl.indexes[0].name)
	assert.True(t, tbl.indexes[1].local)
	assert.False(t, tbl.indexes[1].derived)
	got := map[string]string{}
	for _, e := range tbl.entities {
		got[e.name] = spelledAs(e)
	}
	assert.Equal(t, map[string]string{
		"profile": "c#{cID} | profile | cID",
		"o":       "c#{cID} | o#{oID} | cID,oID | LSI1: c#{cID} STATUS#{status}#{date}",
	}, got)

	files, err := g.render()
	require.NoError(t, err)
	code := string(files[0].text)
	assert.Contains(t, code, `{Name: "LSI1", Local: true, SortKey: "LSI1SK"},`)
	assert.Contains(t, code, `{Name: "byTotal", Local: true, SortAttributes: []adjlist.KeyAttribute{{Name: "total", Type: types.ScalarAttributeTypeN}}, Projection: types.ProjectionTypeInclude, NonKeyAttributes: []string{"status"}},`)
	assert.Contains(t, code, `{Index: "LSI1", SortKey: adjlist.Template("STATUS#{status}#{date}")},`)
	assert.NotContains(t, code, "left out")
	test := string(files[1].text)
	assert.Contains(t, test, `var keyAttributes = []string{"PK", "SK", "LSI1SK"}`, "the index's partition key is the table's, listed once")
}
