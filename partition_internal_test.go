package adjlist

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSortKeyLead: the text a read of several item types requires of an
// item's sort key before offering it to a target is text every sort key
// of the target's type starts with, and its handle's decoder refuses an
// item whose sort key does not start with it: typing items by it hands
// every item to the same target as offering it to each in turn. (An item
// without a sort key is offered to every target: TestDealer.)
func TestSortKeyLead(t *testing.T) {
	t.Parallel()
	h := newPresets("leads")
	table, students, bills, projects, sharded := h.table, h.students, h.bills, h.projects, h.sharded
	enrolled, unlabelled, tagged, toChild, fromChild := h.enrolled, h.unlabelled, h.tagged, h.toChild, h.fromChild
	items := NewEntity[struct{}](table, "item", "{playerID}", "ITEMS#{itemID}")
	dated := NewEntity[struct{}](table, "dated", "D#{userID}", "{day}#{seq}")
	require.NoError(t, table.Check())

	ref, err := projects.Ref("acme", "p1")
	require.NoError(t, err)
	keys := func(pk, sk string, err error) [2]string {
		require.NoError(t, err)
		return [2]string{pk, sk}
	}
	edge := func(k keyed, err error) [2]string { return keys(k.kc.PK, k.kc.SK, err) }
	nodeAccepts := func(n *Node[struct{}]) func(Item) bool {
		return func(item Item) bool { _, ok, err := n.decodeItem(item); return ok && err == nil }
	}
	edgeAccepts := func(e *Edge[struct{}]) func(Item) bool {
		return func(item Item) bool { _, ok, err := e.decodeItem(item); return ok && err == nil }
	}
	childAccepts := func(c *Collection[struct{}, struct{}]) func(Item) bool {
		return func(item Item) bool { _, ok, err := c.decodeItem(item); return ok && err == nil }
	}
	entityAccepts := func(e *Entity[struct{}]) func(Item) bool {
		return func(item Item) bool { _, ok, err := e.decodeItem(item); return ok && err == nil }
	}
	for _, tc := range []struct {
		name    string
		h       typedHandle
		lead    string
		key     [2]string // a key of the type
		accepts func(Item) bool
	}{
		{"node with a marker", students, "PROFILE", keys(students.Key("a91")), nodeAccepts(students)},
		{"self-keyed node", bills, "BILL#", keys(bills.Key("b1")), nodeAccepts(bills)},
		{"edge", enrolled, "ENROLL#", edge(enrolled.keyed("a91", "math204")), edgeAccepts(enrolled)},
		{"unlabelled edge", unlabelled, "CRS#", edge(unlabelled.keyed("a91", "math204")), edgeAccepts(unlabelled)},
		{"edge to a child", tagged, "TAGGED#", edge(tagged.keyed("a91", ref)), edgeAccepts(tagged)},
		{"unlabelled edge to a child", toChild, "WS#", edge(toChild.keyed("a91", ref)), edgeAccepts(toChild)},
		{"edge from a child", fromChild, "HAS#", edge(fromChild.keyed(ref, "a91")), edgeAccepts(fromChild)},
		{"child", projects, "PROJ#", keys(projects.Key("acme", "p1")), childAccepts(projects)},
		{"sharded child", sharded, "TCK#", keys(sharded.Key("acme", "t1")), childAccepts(sharded)},
		{"entity", items, "ITEMS#", keys(items.Key("player001", "001")), entityAccepts(items)},
		{"entity whose sort key starts with a field", dated, "", keys(dated.Key("u1", "2026-11-26", "1")), entityAccepts(dated)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.lead, sortKeyLead(tc.h))
			pk, sk := tc.key[0], tc.key[1]
			item := func(sk string) Item {
				return Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}}
			}
			require.True(t, strings.HasPrefix(sk, tc.lead), "sort key %q starts with %q", sk, tc.lead)
			require.True(t, tc.accepts(item(sk)), "the handle takes its own item (%q, %q)", pk, sk)
			if tc.lead == "" {
				return
			}
			for _, other := range []string{sk[1:], "x" + sk, strings.ToLower(sk[:1]) + sk[1:], "Z" + sk[len(tc.lead):], tc.lead[:len(tc.lead)-1]} {
				if other != "" && !strings.HasPrefix(other, tc.lead) {
					assert.False(t, tc.accepts(item(other)), "sort key %q", other)
				}
			}
		})
	}
	assert.Empty(t, sortKeyLead(nil), "no handle")
}

// TestZeroHandleInto: a zero handle's Into makes a Target of no table
// without panicking, as it did before targets learned the table's sort
// key attribute.
func TestZeroHandleInto(t *testing.T) {
	t.Parallel()
	var edges []EdgeItem[struct{}]
	var children []Child[struct{}]
	var nodes []NodeItem[struct{}]
	var items []EntityItem[struct{}]
	for name, into := range map[string]func() Target{
		"edge":       func() Target { return new(Edge[struct{}]).Into(&edges) },
		"collection": func() Target { return new(Collection[struct{}, struct{}]).Into(&children) },
		"node":       func() Target { return new(Node[struct{}]).Into(&nodes) },
		"entity":     func() Target { return new(Entity[struct{}]).Into(&items) },
	} {
		var tg Target
		require.NotPanics(t, func() { tg = into() }, name)
		assert.Nil(t, tg.t, name)
		assert.NotNil(t, tg.into, name)
	}
}
