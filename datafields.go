package adjlist

import (
	"fmt"
	"reflect"

	"github.com/adjlist/adjlist/internal/keycodec"
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
func (d *dataFields) held(h held) held {
	if h.set == nil || len(d.KeyOnly) == 0 {
		return h
	}
	out := held{set: make(map[string]bool, len(h.set))}
	for _, name := range h.names {
		if !d.KeyOnlyIn(name) {
			out.set[name] = true
			out.names = append(out.names, name)
		}
	}
	return out
}

// keyMismatch is Verify's check failing on an entity item whose
// attribute of a key field differs from the id its keys hold
// ([FindingKeyMismatch]).
type keyMismatch struct{ attr, have, want string }

func (e *keyMismatch) Error() string {
	return fmt.Sprintf("adjlist: attribute %s is %q, its keys hold %q", e.attr, e.have, e.want)
}

// mismatch reports the first key field of item (read with ids) whose
// attribute differs from its id.
func (d *dataFields) mismatch(fields []string, ids []string, item Item) error {
	if attr, have, want, ok := d.Mismatch(fields, ids, item); ok {
		return &keyMismatch{attr: attr, have: have, want: want}
	}
	return nil
}

// held is the attributes the items of one recorded type may hold without
// loss ([FindingUndeclaredAttribute], verify.Held): the table's key
// attributes and derived index key attributes, the attributes its handle
// tracks, and those its data type declares. The zero value, for a data
// type that holds any attribute (a map, an interface, a type that marshals
// itself) or a type recorded without it, checks nothing.
type held struct {
	set   map[string]bool
	names []string // set's, to count those an item holds
}
