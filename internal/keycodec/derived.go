package keycodec

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/errs"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// IndexTarget is the index a declaration names, as its table declares it.
type IndexTarget struct {
	Name                    string
	Local, Native, Inverted bool
	Together                bool // adjlist.Index.KeysTogether
	// PK and SK are its KeySchema's names (a local index's PK the table's).
	PK, SK []string
}

// Decl is one declaration of an item type's keys in an index
// (adjlist.IndexKeys), its templates' parts as given.
type Decl struct {
	PK, SK    []Part
	Shards    int
	MaxShards int // adjlist's bound, 100
}

// Bind checks d against index ix for an item type with key fields
// fields, table partition key part home and template parts allowed. role
// names the table key attribute a name is ("the table's sort key"), ""
// for a data attribute. The caller wraps the error with the index.
func Bind(ix IndexTarget, d Decl, fields []string, home Kind, allowed []Kind, role func(name string) string) (Index, error) {
	b := Index{Name: ix.Name, Local: ix.Local, Together: ix.Together, PK: d.PK, SK: d.SK, Shards: d.Shards}
	switch {
	case ix.Native:
		return b, errors.New("a native index is keyed on data attributes; declare no keys")
	case ix.Inverted:
		return b, errors.New("the inverted index holds edges by their endpoints; declare no keys")
	case ix.Local && len(b.PK) > 0:
		return b, errors.New("a local index has the table's partition key; leave PartitionKey zero")
	case !ix.Local && len(b.PK) == 0:
		return b, errors.New("no PartitionKey")
	case (len(ix.SK) > 0) != (len(b.SK) > 0):
		return b, errors.New("SortKey must be given exactly when the index has a sort key")
	case d.Shards < 0 || d.Shards > d.MaxShards:
		return b, fmt.Errorf("IndexKeys.Shards %d, want 0 to %d", d.Shards, d.MaxShards)
	case d.Shards > 1 && ix.Local:
		return b, errors.New("a local index cannot be sharded")
	}
	b.PKAttr = ix.PK[0]
	if len(ix.SK) > 0 {
		b.SKAttr = ix.SK[0]
	}
	if ix.Local {
		// Not written (it is the table's partition key), but what a
		// query's value fills.
		b.PK = []Part{{Kind: home}}
	}
	if b.Shards < 2 {
		b.Shards = 0
	}
	b.PK, b.SK = ResolveVars(b.PK, fields), ResolveVars(b.SK, fields)
	for _, p := range append(append([]Part(nil), b.PK...), b.SK...) {
		switch {
		case p.Kind == Lit:
		case !slices.Contains(allowed, p.Kind):
			return b, fmt.Errorf("part %s is not available to this item type", String([]Part{p}))
		case p.Kind == Attr && p.Text == "":
			return b, errors.New("{} names no data attribute")
		case p.Kind == Attr && (p.Text == b.SKAttr || p.Text == b.PKAttr && !ix.Local):
			native := "PartitionAttributes"
			if p.Text == b.SKAttr {
				native = "SortAttributes"
			}
			return b, fmt.Errorf("{%s} is index %s's own key attribute, which the template writes, not a data attribute it reads: "+
				"to key the index on the data attribute %s as the items hold it, declare the index with native keys (Index.%s: {{Name: %q}}) and no IndexKeys for it",
				p.Text, ix.Name, p.Text, native, p.Text)
		case p.Kind == Attr && role(p.Text) != "":
			return b, fmt.Errorf("{%s} is a key attribute (%s), which this package writes, not a data attribute", p.Text, role(p.Text))
		case p.Kind == Attr:
			b.Attrs = append(b.Attrs, p.Text)
		}
	}
	return b, nil
}

// Index is an item type's keys in one derived-key index ([Bind],
// [Index.Compile]).
type Index struct {
	Name           string
	Local          bool
	PKAttr, SKAttr string // SKAttr "": no sort key
	PK, SK         []Part
	PKC, SKC       Spelling // PK and SK compiled
	// SKPrefix is SK's [StaticPrefix], which every read of the index
	// queries; SKExact: SK is text only.
	SKPrefix string
	SKExact  bool
	Shards   int      // 0: the partition is not sharded
	Attrs    []string // data attributes the keys read
	Together bool     // written all or none, else each on its own
}

// Compile compiles b's templates once its parts are final: ids are the
// key fields', then the data attributes' values.
func (b *Index) Compile(prefixes *Ctx) {
	fields := slices.Concat(prefixes.Fields, Attrs(b.PK), Attrs(b.SK))
	b.PKC, b.SKC = Compile(b.PK, fields), Compile(b.SK, fields)
	b.SKPrefix, b.SKExact = StaticPrefix(b.SK, prefixes)
}

// KeyValue renders b's sort key (sort) or partition key for an item with
// data and node keys kc; ok is false when a data attribute it reads is
// missing. It is the one renderer of index keys, so a put, an update's
// re-derivation, Scan, Verify and Migrate spell them alike.
func (b *Index) KeyValue(sort bool, data map[string]types.AttributeValue, kc *Ctx) (v string, ok bool, err error) {
	k, attr, limit := b.PKC, "index partition key", MaxPartitionKeyLen
	if sort {
		k, attr, limit = b.SKC, "index sort key", MaxSortKeyLen
	}
	v, ok, err = k.Value(data, kc)
	if !ok || err != nil {
		return "", false, err
	}
	if !sort && b.Shards > 0 {
		v += "#" + Shard(kc.PK+"\x00"+kc.SK, b.Shards)
	}
	return v, true, errs.Key(CheckLen(b.Name, attr, v, limit))
}

// DerivedKeys lists the key attributes b writes: a global index's
// partition key, then its sort key if it has one.
func (b *Index) DerivedKeys() []DerivedKey {
	out := make([]DerivedKey, 0, 2)
	if !b.Local {
		out = append(out, DerivedKey{b.PKAttr, Attrs(b.PK), false})
	}
	if b.SKAttr != "" {
		out = append(out, DerivedKey{b.SKAttr, Attrs(b.SK), true})
	}
	return out
}

// DerivedKey is a key attribute an index derives ("GSI2PK"), the data
// attributes it reads, and whether it is the sort key.
type DerivedKey struct {
	Attr  string
	Attrs []string
	Sort  bool
}

// Written appends to dst the key attributes of b that an item with data
// and node keys kc carries. A key whose data is absent or empty is not
// written (sparse index); under b.Together, then none of b's is.
func (b *Index) Written(dst []ddbitem.Attr, data map[string]types.AttributeValue, kc *Ctx) ([]ddbitem.Attr, error) {
	n := len(dst)
	for _, d := range b.DerivedKeys() {
		v, ok, err := b.KeyValue(d.Sort, data, kc)
		switch {
		case err != nil:
			return dst[:n], err
		case ok:
			dst = append(dst, ddbitem.Attr{Name: d.Attr, Value: v})
		case b.Together:
			return dst[:n], nil
		}
	}
	return dst, nil
}

// Add writes into item the index key attributes it carries
// ([Index.Written]): one key without the other leaves the item out of the
// index until an update gives the missing data.
func Add(indexes []Index, item map[string]types.AttributeValue, kc *Ctx) error {
	var buf [8]ddbitem.Attr
	attrs, err := Derived(indexes, item, kc, buf[:0])
	for _, a := range attrs {
		item[a.Name] = &types.AttributeValueMemberS{Value: a.Value}
	}
	return err
}

// Derived appends to want item's derived attributes ([Index.Written]).
func Derived(indexes []Index, item map[string]types.AttributeValue, kc *Ctx, want []ddbitem.Attr) ([]ddbitem.Attr, error) {
	var err error
	for i := range indexes {
		if want, err = indexes[i].Written(want, item, kc); err != nil {
			return want, err
		}
	}
	return want, nil
}

// Owned lists the derived attributes an item type writes: inverted (an
// edge's inverted index keys), then indexes'.
func Owned(indexes []Index, inverted ...string) []string {
	out := slices.Clone(inverted)
	for i := range indexes {
		for _, d := range indexes[i].DerivedKeys() {
			out = append(out, d.Attr)
		}
	}
	return out
}

// Foreign lists, sorted, the table's derived attributes not in owned.
func Foreign(derived map[string]bool, owned []string) []string {
	return slices.DeleteFunc(slices.Sorted(maps.Keys(derived)), func(name string) bool { return slices.Contains(owned, name) })
}

// Feeds lists the data attributes indexes' keys are computed from.
func Feeds(indexes []Index) []string {
	var out []string
	for i := range indexes {
		out = append(out, indexes[i].Attrs...)
	}
	return out
}
