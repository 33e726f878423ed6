package adjlist

import (
	"errors"
	"fmt"
	"slices"

	"github.com/adjlist/adjlist/internal/keycodec"
)

// KeyTemplate is how an item type builds one index key value, spelled
// as a design spells it ([Template]), e.g.
//
//	adjlist.Template("STATUS#{status}")     // "STATUS#ACTIVE"
//	adjlist.Template("ENROLL#{enrolledOn}") // "ENROLL#2026-09-01"
//	adjlist.Template("{@target}")           // "CRS#math204"
//
// The zero KeyTemplate is no key.
type KeyTemplate struct {
	// parts are written one after the other.
	parts []keycodec.Part
	err   error // Template's, reported where the template is declared
}

// Template returns the key template spelled s, as a design document
// spells its keys: text written as it is, and {name} for a part that
// differs from item to item, e.g.
//
//	adjlist.Template("u#{userID}#follower")         // "u#12345#follower"
//	adjlist.Template("p#{postID}#u#{authorID}")     // "p#34567#u#56789"
//	adjlist.Template("{playerID}")                  // "player001": a bare id
//	adjlist.Template("#METADATA#{playerID}")        // "#METADATA#player001"
//	adjlist.Template("info")                        // a constant alone
//
// A {name} is a key field of the [Entity] whose keys the template spells
// (in an index key, one its table keys have), else the value of the
// item's data attribute name: a string escaped as ids are ('#' and '%'
// percent-encoded), so it cannot reach into another part; a number in
// DynamoDB's decimal text, which sorts as bytes, not as numbers (use a
// native index, [Index].SortAttributes, for numeric order). An item whose
// data lacks the attribute (nil pointer, empty omitempty field, NULL or
// empty string) gets no key in that index: it is not in it (a sparse
// index). A key field's value is an id, escaped as [Node.Key] escapes ids
// ("F#{followerID}" is "F#a%23b" for "a#b") in table and index keys alike,
// and parsed back on reads.
//
// In an index key, four placeholders name the node keys the item has:
//
//	adjlist.Template("{@self}")          // a node's node key "STU#a91", a child's sort key "PROJ#2026-0042", an edge's sort key "ENROLL#CRS#math204"
//	adjlist.Template("IN#{@parent}")     // a child's parent node key: "IN#WS#acme" (children only)
//	adjlist.Template("BY#{@source}")     // an edge's source node key: "BY#STU#a91" (edges only)
//	adjlist.Template("{@target}#{date}") // an edge's target node key: "CRS#math204#2026-09-01" (edges only)
//
// An [Entity]'s {@self} is its sort key, its text and ids
// ("p#34567#u#56789" for "p#{postID}#u#{authorID}"), for which ByIndex
// takes the ids of the sort key's fields ("34567", "56789") and spells
// them as the key does.
//
// Text is valid UTF-8 without control characters, '{' or '}'; names are
// 1-64 ASCII letters, digits, '_', '-' or '.'. Two placeholders with no
// '#' between them ("{a}{b}", "{@source}-{x}") cannot be told apart.
// Such a template, like any malformed one, an unknown {@name}, or a
// placeholder the item type has not ({@parent} on a node, any in a table
// key) is [ErrInvalidOption] on its item type's every call, never at a
// request.
func Template(s string) KeyTemplate {
	parts, err := keycodec.ParseTemplate(s)
	if err != nil {
		return KeyTemplate{err: fmt.Errorf("%w: key template %q: %w", ErrInvalidOption, s, err)}
	}
	return KeyTemplate{parts: parts}
}

// IndexKeys declares an item type's keys in one derived-key index of its
// table ([Index]): how its partition and sort key values are built. Pass
// them in the Indexes of [NodeOptions], [EdgeOptions], [CollectionOptions]
// or [EntityOptions], e.g. projects listed by status across workspaces,
// newest first:
//
//	adjlist.IndexKeys{Index: "GSI2",
//		PartitionKey: adjlist.Template("STATUS#{status}"),
//		SortKey:      adjlist.Template("{createdAt}")}
//
// writes GSI2PK = "STATUS#ACTIVE", GSI2SK = "2026-09-01T10:00:00Z" on every
// project whose data has both attributes, and on no other.
type IndexKeys struct {
	// Index is the name of one of the table's [Options].Indexes with
	// derived keys.
	Index string
	// PartitionKey builds the index partition key value. Required for a
	// global index; a local index's partition is the table's, so leave it
	// zero.
	PartitionKey KeyTemplate
	// SortKey builds the index sort key value; zero exactly when the index
	// has no sort key.
	SortKey KeyTemplate
	// Shards spreads the index partition over Shards partitions (suffix
	// "#00" to "#NN", chosen from the item's table key), for partitions too
	// busy for one ("STATUS#ACTIVE" with millions of projects). Reads query
	// every shard in parallel and merge them in sort key order. Default 0
	// or 1: not sharded; at most 100; global indexes only.
	Shards int
}

// keyCtx holds the node keys an item's templates may name, and its table
// key (which picks its shard); in itemType.prefixes, the keys' static
// prefixes instead: "STU#", "ENROLL#CRS#".
type keyCtx = keycodec.Ctx

// bindIndexes checks an item type's index declarations; allowed lists the
// node-key parts the item type has (Self always), home the one that is its
// table partition key (a local index's partition).
func (t *Table) bindIndexes(kind string, decls []IndexKeys, fields []string, home keycodec.Kind, allowed ...keycodec.Kind) ([]keycodec.Index, error) {
	var out []keycodec.Index
	seen := map[string]bool{}
	allowed = slices.Concat(allowed, []keycodec.Kind{keycodec.Self, keycodec.Attr})
	for _, d := range decls {
		b, err := t.bindIndex(d, fields, home, allowed)
		if err == nil && seen[d.Index] {
			err = errors.New("keys declared twice")
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %s in index %q: %w", ErrInvalidOption, kind, d.Index, err)
		}
		seen[d.Index] = true
		out = append(out, b)
	}
	return out, nil
}

// bindIndex checks d against its index ([keycodec.Bind]).
func (t *Table) bindIndex(d IndexKeys, fields []string, home keycodec.Kind, allowed []keycodec.Kind) (keycodec.Index, error) {
	ix, err := t.index(d.Index)
	if err != nil {
		return keycodec.Index{}, err
	}
	if err := errors.Join(d.PartitionKey.err, d.SortKey.err); err != nil {
		return keycodec.Index{}, err // Template's own error, not its missing parts'
	}
	pk, sk := ix.keyAttrs(t)
	target := keycodec.IndexTarget{Name: ix.Name, Local: ix.Local, Native: ix.native(), Inverted: ix == &t.indexes[0] && t.layout != noIndex, Together: ix.KeysTogether, PK: pk, SK: sk}
	decl := keycodec.Decl{PK: d.PartitionKey.parts, SK: d.SortKey.parts, Shards: d.Shards, MaxShards: maxShards}
	return keycodec.Bind(target, decl, fields, home, allowed, t.keyAttrRole)
}

// keyAttrRole names the key attribute name is, "index GSI2's partition
// key"; "" for a data attribute.
func (t *Table) keyAttrRole(name string) string {
	switch {
	case !t.isKeyAttr(name):
		return ""
	case name == t.opts.PartitionKey:
		return "the table's partition key"
	case name == t.opts.SortKey:
		return "the table's sort key"
	}
	for _, ix := range t.indexes {
		switch name {
		case ix.PartitionKey:
			return "index " + ix.Name + "'s partition key"
		case ix.SortKey:
			return "index " + ix.Name + "'s sort key"
		}
	}
	return "a key attribute"
}

// itemType is what every modelled item type shares.
type itemType struct {
	kind     string // "node STU", "edge ENROLL (STU → CRS)", "child PROJ of WS"
	prefixes keyCtx
	home     keycodec.Kind // the part that is its table partition key
	// pk and sk are its table keys as templates drawn from keys, its ids
	// as key fields named as Describe draws them ("ENROLL#CRS#<to>");
	// self, target and parent are the node keys its index key templates
	// may name ({@self} ...; an edge's {@source} is pk), nil where none.
	pk, sk               []keycodec.Part
	self, target, parent []keycodec.Part
	// shardField is the key field of pk that holds a sharded partition's
	// shard; "" unsharded.
	shardField string
	// byIDs: a native index keyed on its table keys takes their ids (an
	// Entity's); a preset's takes the key values as they are.
	byIDs bool
	// shards is how many table partitions the type's items of one
	// partition key are spread over (a sharded Collection's); 0: one.
	shards int
	// ends are an edge's endpoints, whose keys its {@source}, {@target}
	// and {@self} parts hold (a child endpoint's key is its whole ref);
	// nil for other item types.
	ends *keycodec.Ends
	// parentEnd is a nested collection's parent, whose ref its {@parent}
	// parts hold; nil for other item types.
	parentEnd *keycodec.End
	indexes   []keycodec.Index
	keys      keyCore // its table keys compiled
	// keyData are the data attributes an Entity's keys hold (its key
	// fields T declares, and what it keeps only inside keys), which an
	// update may not change.
	keyData []string
	// data fills in an Entity's data values that its keys hold
	// ([Table.decodeData]); nil for other item types and for an Entity
	// whose keys hold none.
	data *keycodec.Fields
	edge *edgeIndexed // an edge's, which [Table.decodeItem] checks; else nil
}

// keyParts spells the item type's index key parts from ByIndex's values
// as a write to t spells them.
func (it *itemType) keyParts(t *Table) keycodec.Parts {
	return keycodec.Parts{Prefixes: &it.prefixes, Ends: it.ends, Parent: it.parentEnd, Enc: t.enc}
}

// sample is the value Describe fills variable part p with, as ByIndex
// takes it: a placeholder ("<status>", "<to>"), or a child endpoint's ref
// pattern ("WS#<to parent>#PROJ#<to>").
func (it *itemType) sample(p keycodec.Part) string {
	e := it.ends
	switch {
	case p.Kind == keycodec.Attr || p.Kind == keycodec.Field:
		return "<" + p.Text + ">"
	case p.Kind == keycodec.Source && e != nil && e.Src.IsChild():
		return keycodec.String(it.pk)
	case (p.Kind == keycodec.Target || p.Kind == keycodec.Self) && e != nil && e.Dst.IsChild():
		return keycodec.String(it.target)
	case p.Kind == keycodec.Source:
		return "<from>"
	case p.Kind == keycodec.Target, p.Kind == keycodec.Self && it.prefixes.Source != "":
		return "<to>"
	case p.Kind == keycodec.Self && it.prefixes.Parent != "":
		return "<child>"
	}
	return "<id>"
}

// newItemType binds an item type's index declarations; allowed are the
// node-key parts it has besides Self.
func (t *Table) newItemType(kind string, prefixes keyCtx, decls []IndexKeys, home keycodec.Kind, allowed ...keycodec.Kind) (itemType, error) {
	it := itemType{kind: kind, prefixes: prefixes, home: home}
	if t.err == nil && prefixes.Fields == nil && t.numKeys() {
		// Only an Entity has key fields, and only its keys can be numbers.
		return it, fmt.Errorf("%w: %s: a table whose partition or sort key is a number (Options.PartitionKeyType, SortKeyType N) holds only entities (NewEntity) whose number key is one {field}; this item type's keys are text", ErrInvalidOption, kind)
	}
	if t.err != nil || len(decls) == 0 {
		return it, nil
	}
	var err error
	it.indexes, err = t.bindIndexes(kind, decls, prefixes.Fields, home, allowed...)
	for i := range it.indexes {
		it.indexes[i].Compile(&it.prefixes)
	}
	return it, err
}

func (it *itemType) indexIn(name string) (*keycodec.Index, bool) {
	for i := range it.indexes {
		if it.indexes[i].Name == name {
			return &it.indexes[i], true
		}
	}
	return nil, false
}
