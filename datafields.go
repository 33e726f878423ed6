package adjlist

import (
	"reflect"

	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/walks"
)

// dataFields is how an [Entity]'s keys relate to the attributes of its Go
// type: a key field T declares is the item's own value, taken from the
// data on a write and filled in from the keys on a read, so that a design
// whose key parts are attributes too is written and read with the item
// alone; an attribute kept only inside keys ([EntityOptions].KeyOnly) is
// parsed back from the key that holds it (keycodec.Fields).
type dataFields struct{ keycodec.Fields }

// bindDataFields links the key fields and the index templates of an
// entity to rt's attributes (keycodec.BindFields).
func bindDataFields(rt reflect.Type, tag string, fields []string, indexes []keycodec.Index, keyOnly []string) (dataFields, error) {
	d, err := keycodec.BindFields(rt, tag, fields, indexes, keyOnly)
	return dataFields{d}, err
}

// held is h, what an item of the entity may hold, less the attributes
// kept only inside keys: a write leaves them out, so an item holding one
// loses it on a Replace ([FindingUndeclaredAttribute]).
func (d *dataFields) held(h walks.Held) walks.Held {
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
