package adjlist

import (
	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/walks"
)

// heldData is h, what an item of an entity whose keys relate to its
// attributes by d may hold, less the attributes kept only inside keys: a
// write leaves them out, so an item holding one loses it on a Replace
// ([FindingUndeclaredAttribute]).
func heldData(d *keycodec.Fields, h walks.Held) walks.Held {
	if h.Set == nil || len(d.KeyOnly) == 0 {
		return h
	}
	out := walks.Held{Set: make(map[string]bool, len(h.Set))}
	for _, name := range h.Names {
		if !d.KeyOnlyIn(name) {
			out.Set[name] = true
			out.Names = append(out.Names, name)
		}
	}
	return out
}
