package modeldoc

import "slices"

// IndexFormats are an item type's keys in one secondary index, one
// [Format] per key attribute, as adjlist.IndexTemplate has them.
type IndexFormats struct {
	Index                 string
	PartitionKey, SortKey []Format
}

// Keys are x as placeholder strings, as adjlist.ItemKeys shows them.
func (x IndexFormats) Keys(shards int) Keys {
	return Keys{Index: x.Index, PartitionKey: List(x.PartitionKey), SortKey: List(x.SortKey), Shards: shards}
}

// Template is an item type's keys as formats, as adjlist.ItemTemplate
// has them.
type Template struct {
	Item                  string
	PartitionKey, SortKey Format
	Indexes               []IndexFormats
}

// Slot is one secondary index of the table, in the table's order, as an
// item type's keys see it: declared (a derived-key index the item type
// declares keys in) or native (keyed on attributes the item type may
// carry).
type Slot struct {
	Name  string
	Local bool
	// Declared says the item type declares keys in the index: its
	// PartitionKey and SortKey (Attribute "" for none) in Shards shards.
	Declared              bool
	PartitionKey, SortKey Format
	Shards                int
	// Native says the index is keyed on attributes, named in order by
	// Partition and Sort.
	Native          bool
	Partition, Sort []string
}

// Templates completes the templates of item type item, whose table keys
// are pk and sk and whose inverted index entry (if any) is inverted: its
// keys in the indexes it declares, then in the native indexes it lands
// in, those whose every key attribute it carries, its data attrs or a key
// attribute it derives (the table's keys, an index's), shown by its
// format, e.g. GSI1PK as CRS#<to>; a data attribute is one variable
// part, <status>. A local index's partition is the item's table
// partition. It returns the templates and the keys it added, as
// placeholder strings.
func Templates(item string, pk, sk Format, inverted []IndexFormats, attrs []string, slots []Slot) (Template, []Keys) {
	tpl := Template{Item: item, PartitionKey: pk, SortKey: sk, Indexes: slices.Clone(inverted)}
	var keys []Keys
	for _, ix := range slots {
		if !ix.Declared {
			continue
		}
		x := IndexFormats{Index: ix.Name, PartitionKey: []Format{ix.PartitionKey}}
		if ix.Local {
			x.PartitionKey = []Format{pk} // the table's, with the item's own template
		}
		if ix.SortKey.Attribute != "" {
			x.SortKey = []Format{ix.SortKey}
		}
		keys = append(keys, x.Keys(ix.Shards))
		tpl.Indexes = append(tpl.Indexes, x)
	}
	derived := map[string]Format{pk.Attribute: pk, sk.Attribute: sk}
	for _, x := range tpl.Indexes {
		for _, f := range slices.Concat(x.PartitionKey, x.SortKey) {
			derived[f.Attribute] = f
		}
	}
	formats := func(names []string) ([]Format, bool) {
		var out []Format
		for _, name := range names {
			f, ok := derived[name]
			if !ok && !slices.Contains(attrs, name) {
				return nil, false
			}
			if !ok {
				f = Format{Attribute: name, Parts: []Part{{Kind: PartAttribute, Name: name}}}
			}
			out = append(out, f)
		}
		return out, true
	}
	var native []IndexFormats
	for _, ix := range slots {
		if !ix.Native {
			continue
		}
		pks, okPK := formats(ix.Partition)
		sks, okSK := formats(ix.Sort)
		if !okPK || !okSK {
			continue
		}
		if ix.Local {
			pks = []Format{pk}
		}
		native = append(native, IndexFormats{Index: ix.Name, PartitionKey: pks, SortKey: sks})
	}
	for _, x := range native {
		keys = append(keys, x.Keys(0))
	}
	tpl.Indexes = append(tpl.Indexes, native...)
	return tpl, keys
}
