package adjlist

import (
	"reflect"

	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/walks"
)

// dataFields is how an [Entity]'s keys relate to its Go type's attributes
// (keycodec.Fields): a key field T declares is taken from the data on a
// write and filled in from the keys on a read; a [EntityOptions].KeyOnly
// attribute is parsed back from the key that holds it.
type dataFields struct{ keycodec.Fields }

// bindDataFields links an entity's key fields and index templates to rt's
// attributes.
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
