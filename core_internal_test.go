package adjlist

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKeyCoreBytes: every preset's keys are the bytes the documented
// layouts give, hostile ids escaped ('#' → "%23", '%' → "%25"), and each
// item built parses back, as its handle decodes it, into the ids it was
// built from.
func TestKeyCoreBytes(t *testing.T) {
	t.Parallel()
	h := newPresets("core")
	followers := NewEntity[struct{}](h.table, "follower", "u#{userID}#follower", "u#{followerID}")
	require.NoError(t, h.table.Check())
	const ref = "WS#a%23b#PROJ#%25x" // the ref of child "%x" of "a#b"
	keys := func(pk, sk string, err error) func() (string, string, error) {
		return func() (string, string, error) { return pk, sk, err }
	}
	edge := func(e *Edge[struct{}], from, to string) func() (string, string, error) {
		k, err := e.keyed(from, to)
		return keys(k.kc.PK, k.kc.SK, err)
	}
	for _, tc := range []struct {
		name   string
		key    func() (string, string, error)
		pk, sk string
		parse  func(Item) ([]string, bool)
		ids    []string
	}{
		{"node", keys(h.students.Key("x#1%")), "STU#x%231%25", "PROFILE", nodeIDs(h.students), []string{"x#1%"}},
		{"node, an id like its marker", keys(h.students.Key("PROFILE")), "STU#PROFILE", "PROFILE", nodeIDs(h.students), []string{"PROFILE"}},
		{"self-keyed node", keys(h.bills.Key("a#b")), "BILL#a%23b", "BILL#a%23b", nodeIDs(h.bills), []string{"a#b"}},
		{"node, unicode", keys(h.courses.Key("é 日本")), "CRS#é 日本", "METADATA", nodeIDs(h.courses), []string{"é 日本"}},
		{"child", keys(h.projects.Key("a#b", "%x")), "WS#a%23b", "PROJ#%25x", childIDs(h.projects), []string{"a#b", "%x"}},
		{"sharded child", keys(h.sharded.Key("acme", "p1")), "WS#acme#02", "TCK#p1", childIDs(h.sharded), []string{"acme", "p1"}},
		{"sharded child, escaped", keys(h.sharded.Key("a#b", "%x")), "WS#a%23b#00", "TCK#%25x", childIDs(h.sharded), []string{"a#b", "%x"}},
		{"edge", edge(h.enrolled, "a#1", "math204"), "STU#a%231", "ENROLL#CRS#math204", edgeIDs(h.enrolled), []string{"a#1", "math204"}},
		{"unlabelled edge", edge(h.unlabelled, "a91", "%23"), "STU#a91", "CRS#%2523", edgeIDs(h.unlabelled), []string{"a91", "%23"}},
		{"edge into a child", edge(h.tagged, "s1", ref), "STU#s1", "TAGGED#" + ref, edgeIDs(h.tagged), []string{"s1", ref}},
		{"unlabelled edge into a child", edge(h.toChild, "s1", ref), "STU#s1", ref, edgeIDs(h.toChild), []string{"s1", ref}},
		{"edge from a child", edge(h.fromChild, ref, "s#1"), ref, "HAS#STU#s%231", edgeIDs(h.fromChild), []string{ref, "s#1"}},
		{"entity", keys(followers.Key("a#b", "%c")), "u#a%23b#follower", "u#%25c", entityIDs(followers), []string{"a#b", "%c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pk, sk, err := tc.key()
			require.NoError(t, err)
			assert.Equal(t, [2]string{tc.pk, tc.sk}, [2]string{pk, sk})
			ids, ok := tc.parse(h.table.keyItem(pk, sk))
			require.True(t, ok, "parses back")
			assert.Equal(t, tc.ids, ids)
		})
	}
	got, err := h.projects.Ref("a#b", "%x")
	require.NoError(t, err)
	assert.Equal(t, ref, got)
	parent, child, err := h.projects.ParseRef(ref)
	require.NoError(t, err)
	assert.Equal(t, [2]string{"a#b", "%x"}, [2]string{parent, child})
}

// TestKeyCoreRefuses: keys no preset can have built parse as no item of
// it, and bad ids and refs are refused with ErrInvalidKey.
func TestKeyCoreRefuses(t *testing.T) {
	t.Parallel()
	h := newPresets("core")
	followers := NewEntity[struct{}](h.table, "follower", "u#{userID}#follower", "u#{followerID}")
	for _, tc := range []struct {
		name   string
		parse  func(Item) ([]string, bool)
		pk, sk string
	}{
		{"node: another marker", nodeIDs(h.students), "STU#a", "PROFILEX"},
		{"node: another type", nodeIDs(h.students), "CRS#a", "PROFILE"},
		{"node: a raw '#' in the id", nodeIDs(h.students), "STU#a#b", "PROFILE"},
		{"node: a malformed escape", nodeIDs(h.students), "STU#a%2", "PROFILE"},
		{"node: a control character", nodeIDs(h.students), "STU#a\x01", "PROFILE"},
		{"node: an empty id", nodeIDs(h.students), "STU#", "PROFILE"},
		{"self-keyed node: sort key another node's", nodeIDs(h.bills), "BILL#a", "BILL#b"},
		{"self-keyed node: a marker", nodeIDs(h.bills), "BILL#a", "PROFILE"},
		{"child: another child type", childIDs(h.projects), "WS#acme", "TCK#p1"},
		{"child: a one-digit shard", childIDs(h.projects), "WS#acme#7", "PROJ#p1"},
		{"child: a shard of letters", childIDs(h.projects), "WS#acme#x7", "PROJ#p1"},
		{"child: another parent type", childIDs(h.projects), "CRS#acme", "PROJ#p1"},
		{"child: the parent's item", childIDs(h.projects), "WS#acme", "META"},
		{"edge: another label", edgeIDs(h.enrolled), "STU#a91", "TAGGED#CRS#x"},
		{"edge: another target type", edgeIDs(h.enrolled), "STU#a91", "ENROLL#WS#x"},
		{"edge: a raw '#' in the target", edgeIDs(h.enrolled), "STU#a91", "ENROLL#CRS#a#b"},
		{"edge: another source type", edgeIDs(h.enrolled), "CRS#a91", "ENROLL#CRS#x"},
		{"edge into a child: a node key", edgeIDs(h.tagged), "STU#a91", "TAGGED#WS#acme"},
		{"edge into a child: another child type", edgeIDs(h.tagged), "STU#a91", "TAGGED#WS#acme#TCK#p1"},
		{"edge from a child: a node key", edgeIDs(h.fromChild), "WS#acme", "HAS#STU#s1"},
		{"entity: a raw '#' in an id", entityIDs(followers), "u#a#b#follower", "u#c"},
		{"entity: another sort key", entityIDs(followers), "u#a#follower", "info"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ok := tc.parse(h.table.keyItem(tc.pk, tc.sk))
			assert.False(t, ok)
		})
	}
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"node: an empty id", err3(h.students.Key(""))},
		{"child: a bad parent id", err3(h.projects.Key("a\x00", "p1"))},
		{"child: an empty child id", err3(h.projects.Key("acme", ""))},
		{"ref: an empty id", err2(h.projects.Ref("acme", ""))},
		{"ref: not a ref", err3(h.projects.ParseRef("WS#acme"))},
		{"ref: another child type", err3(h.projects.ParseRef("WS#acme#TCK#p1"))},
		{"edge: an empty target", err2(h.enrolled.keyed("a91", ""))},
		{"edge into a child: not a ref", err2(h.tagged.keyed("a91", "p1"))},
		{"edge from a child: a ref of other children", err2(h.fromChild.keyed("WS#acme#TCK#p1", "s1"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.ErrorIs(t, tc.err, ErrInvalidKey)
			var ke *KeyError
			require.ErrorAs(t, tc.err, &ke)
		})
	}
}

func nodeIDs[N any](n *Node[N]) func(Item) ([]string, bool) {
	return func(item Item) ([]string, bool) { ids, ok := n.it.keys.ids(n.t, item); return ids, ok }
}

func childIDs[P, C any](c *Collection[C, P]) func(Item) ([]string, bool) {
	return func(item Item) ([]string, bool) { p, id, ok := c.ids(item); return []string{p, id}, ok }
}

func edgeIDs[E any](e *Edge[E]) func(Item) ([]string, bool) {
	return func(item Item) ([]string, bool) { from, to, ok := e.split(item); return []string{from, to}, ok }
}

func entityIDs[T any](e *Entity[T]) func(Item) ([]string, bool) {
	return func(item Item) ([]string, bool) { ids, ok := e.parseKeys(item); return ids, ok }
}

func err2[T any](_ T, err error) error         { return err }
func err3[A, B any](_ A, _ B, err error) error { return err }

// built builds with h the item of keys k (err: building them failed)
// and data, as a create, as PutMany does.
func built(h handle, data any) func(k keyed, err error) (Item, Key, error) {
	return func(k keyed, err error) (Item, Key, error) { return h.item(&k, err, data, true, nil) }
}
