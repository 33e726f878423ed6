package keycodec

import (
	"fmt"
	"slices"

	"github.com/adjlist/adjlist/internal/errs"
)

// IndexTarget is the index a declaration names, as its table declares it.
type IndexTarget struct {
	Name                    string
	Local, Native, Inverted bool
	// Together: the index's keys are written all or none
	// (adjlist.Index.KeysTogether).
	Together bool
	// PK and SK are the index's key attributes (its KeySchema's names; a
	// local index's PK is the table's partition key).
	PK, SK []string
}

// Decl is one declaration of an item type's keys in an index
// (adjlist.IndexKeys), its templates' parts as given.
type Decl struct {
	PK, SK    []Part
	Shards    int
	MaxShards int // adjlist.MaxShards
}

// Bind checks d against its index ix for an item type with key fields
// fields, whose table partition key is node-key part home and whose
// templates may use the parts allowed. role says which key attribute of
// the table name is ("the table's sort key"), "" for a data attribute.
// The error says what is wrong, for the caller to wrap with the index.
func Bind(ix IndexTarget, d Decl, fields []string, home Kind, allowed []Kind, role func(name string) string) (Index, error) {
	b := Index{Name: ix.Name, Local: ix.Local, Together: ix.Together, PK: d.PK, SK: d.SK, Shards: d.Shards}
	switch {
	case ix.Native:
		return b, fmt.Errorf("a native index is keyed on data attributes; declare no keys")
	case ix.Inverted:
		return b, fmt.Errorf("the inverted index holds edges by their endpoints; declare no keys")
	case ix.Local && len(b.PK) > 0:
		return b, fmt.Errorf("a local index has the table's partition key; leave PartitionKey zero")
	case !ix.Local && len(b.PK) == 0:
		return b, fmt.Errorf("no PartitionKey")
	case (len(ix.SK) > 0) != (len(b.SK) > 0):
		return b, fmt.Errorf("SortKey must be given exactly when the index has a sort key")
	case d.Shards < 0 || d.Shards > d.MaxShards:
		return b, fmt.Errorf("IndexKeys.Shards %d, want 0 to %d", d.Shards, d.MaxShards)
	case d.Shards > 1 && ix.Local:
		return b, fmt.Errorf("a local index cannot be sharded")
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
		case p.Kind == Const:
			if err := errs.Key(CheckName("key constant", p.Text)); err != nil {
				return b, err
			}
		case p.Kind == Attr && p.Text == "":
			return b, fmt.Errorf("Attr(\"\") names no data attribute")
		case p.Kind == Attr && (p.Text == b.SKAttr || p.Text == b.PKAttr && !ix.Local):
			native := "PartitionAttributes"
			if p.Text == b.SKAttr {
				native = "SortAttributes"
			}
			return b, fmt.Errorf("Attr(%q) is index %s's own key attribute, which the template writes, not a data attribute it reads: "+
				"to key the index on the data attribute %s as the items hold it, declare the index with native keys (Index.%s: {{Name: %q}}) and no IndexKeys for it",
				p.Text, ix.Name, p.Text, native, p.Text)
		case p.Kind == Attr && role(p.Text) != "":
			return b, fmt.Errorf("Attr(%q) is a key attribute (%s), which this package writes, not a data attribute", p.Text, role(p.Text))
		case p.Kind == Attr:
			b.Attrs = append(b.Attrs, p.Text)
		}
	}
	return b, nil
}
