package adjlist

import "testing"

// BenchmarkKeyPaths measures the hot key paths of every preset: building
// an item's keys from ids and reading ids back from an item, with plain
// and escaped ids. Allocations are the figure to watch: a key renders in
// one.
func BenchmarkKeyPaths(b *testing.B) {
	h := newPresets("bench")
	ref, err := h.projects.Ref("acme", "p1")
	if err != nil {
		b.Fatal(err)
	}
	edgeItem, _, _ := built(h.enrolled.handle(), struct{}{})(h.enrolled.keyed("a91", "math204"))
	childItem, _, _ := built(h.projects.handle(), struct{}{})(h.projects.keyed("acme", "p1"))
	taggedItem, _, _ := built(h.tagged.handle(), struct{}{})(h.tagged.keyed("a91", ref))
	nodeItem, _, _ := built(h.students.handle(), struct{}{})(h.students.keyed("a91"))
	for _, bm := range []struct {
		name string
		run  func() error
	}{
		{"NodeKey", func() error { _, _, err := h.students.Key("a91"); return err }},
		{"NodeKeyEscaped", func() error { _, _, err := h.students.Key("x#1%"); return err }},
		{"SelfKeyedNodeKey", func() error { _, _, err := h.bills.Key("a91"); return err }},
		{"EdgeKey", func() error { _, err := h.enrolled.keyed("a91", "math204"); return err }},
		{"EdgeKeyToChild", func() error { _, err := h.tagged.keyed("a91", ref); return err }},
		{"ChildKey", func() error { _, _, err := h.projects.Key("acme", "p1"); return err }},
		{"ShardedChildKey", func() error { _, _, err := h.sharded.Key("acme", "p1"); return err }},
		{"ChildRef", func() error { _, err := h.projects.Ref("acme", "p1"); return err }},
		{"ParseNode", func() error { _ = h.students.hasKeys(nodeItem); return nil }},
		{"ParseEdge", func() error { _, _, _ = h.enrolled.split(edgeItem); return nil }},
		{"ParseEdgeToChild", func() error { _, _, _ = h.tagged.split(taggedItem); return nil }},
		{"ParseChild", func() error { _, _, _ = h.projects.ids(childItem); return nil }},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := bm.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
