package modeldoc

import "slices"

// IndexFormats are adjlist.IndexTemplate: a [Format] per key attribute.
type IndexFormats struct {
	Index                 string
	PartitionKey, SortKey []Format
}

// Keys are x as placeholder strings.
func (x IndexFormats) Keys(shards int) Keys {
	return Keys{Index: x.Index, PartitionKey: List(x.PartitionKey), SortKey: List(x.SortKey), Shards: shards}
}

// Template is adjlist.ItemTemplate.
type Template struct {
	Item                  string
	PartitionKey, SortKey Format
	Indexes               []IndexFormats
}

// Slot is one of the table's secondary indexes as an item type sees it:
// Declared (it declares keys there) or Native (keyed on attributes).
type Slot struct {
	Name                  string
	Local                 bool
	Declared              bool // SortKey.Attribute "" for none
	PartitionKey, SortKey Format
	Shards                int
	Native                bool
	Partition, Sort       []string
}

// Templates completes item type item's templates (table keys pk, sk,
// inverted index entry inverted): its declared indexes, then the native
// ones whose every key attribute it carries, as data (<status>) or as a
// key it derives (GSI1PK as CRS#<to>). It returns them and the keys it
// added as placeholder strings.
func Templates(item string, pk, sk Format, inverted []IndexFormats, attrs []string, slots []Slot) (Template, []Keys) {
	tpl := Template{Item: item, PartitionKey: pk, SortKey: sk, Indexes: slices.Clone(inverted)}
	var keys []Keys
	for _, ix := range slots {
		if !ix.Declared {
			continue
		}
		x := IndexFormats{Index: ix.Name, PartitionKey: []Format{ix.PartitionKey}}
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
