package adjlist

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/keycodec"
)

// KeyPart is one part of an index key template ([Compose]): a constant name, a
// data attribute, or the key of a node the item belongs to. The zero
// KeyPart is invalid.
type KeyPart struct{ p keycodec.Part }

// Const is a constant name in a key, e.g. Const("STATUS") in
// "STATUS#ACTIVE": 1-64 ASCII letters, digits, '_', '-' or '.'.
func Const(name string) KeyPart { return KeyPart{keycodec.Part{Kind: keycodec.Const, Text: name}} }

// Attr is the value of the item's data attribute name, e.g. Attr("status")
// gives "ACTIVE" for an item whose status is "ACTIVE". A string is escaped
// as ids are ('#' and '%' percent-encoded), so it cannot reach into another
// part; a number is written in DynamoDB's decimal text, which sorts as
// bytes, not as numbers (use a native index, [Index].SortAttributes, for
// numeric order). An item whose data lacks the attribute (nil pointer,
// empty omitempty field, NULL or empty string) gets no key in that index:
// it is not in it (a sparse index).
func Attr(name string) KeyPart { return KeyPart{keycodec.Part{Kind: keycodec.Attr, Text: name}} }

// SelfKey is the item's own key: a node's node key ("STU#a91"), a child's
// sort key ("PROJ#2026-0042"), an edge's sort key ("ENROLL#CRS#math204"),
// an [Entity]'s sort key, its text and ids ("p#34567#u#56789" for
// "p#{postID}#u#{authorID}"), for which ByIndex takes the ids of the sort
// key's fields ("34567", "56789") and spells them as the key does.
func SelfKey() KeyPart { return KeyPart{keycodec.Part{Kind: keycodec.Self}} }

// SourceKey is an edge's source node key, e.g. "STU#a91". Edges only.
func SourceKey() KeyPart { return KeyPart{keycodec.Part{Kind: keycodec.Source}} }

// TargetKey is an edge's target node key, e.g. "CRS#math204". Edges only.
func TargetKey() KeyPart { return KeyPart{keycodec.Part{Kind: keycodec.Target}} }

// ParentKey is a child's parent node key, e.g. "WS#acme". Children only.
func ParentKey() KeyPart { return KeyPart{keycodec.Part{Kind: keycodec.Parent}} }

// KeyTemplate is how an item type builds one index key value: its parts
// joined by '#', e.g.
//
//	adjlist.Compose(adjlist.Const("STATUS"), adjlist.Attr("status"))    // "STATUS#ACTIVE"
//	adjlist.Compose(adjlist.Const("ENROLL"), adjlist.Attr("enrolledOn")) // "ENROLL#2026-09-01"
//	adjlist.Compose(adjlist.TargetKey())                                // "CRS#math204"
//
// or spelled as a design spells it ([Template]):
//
//	adjlist.Template("STATUS#{status}")                                  // "STATUS#ACTIVE"
//
// The zero KeyTemplate is no key. Build one with [Compose] or [Template].
type KeyTemplate struct {
	// parts are written one after the other: Compose's separators are
	// parts of their own.
	parts []keycodec.Part
	err   error // Template's, reported where the template is declared
}

// Compose returns the template of parts joined by '#'.
func Compose(parts ...KeyPart) KeyTemplate {
	out := make([]keycodec.Part, 0, 2*len(parts))
	for i, p := range parts {
		if i > 0 {
			out = append(out, keycodec.Part{Kind: keycodec.Lit, Text: "#"})
		}
		out = append(out, p.p)
	}
	return KeyTemplate{parts: out}
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
// (the table's keys: every {name} is one; an index key: a {name} that its
// table keys have), else the data attribute name, as [Attr]. A key
// field's value is an id: escaped as [NodeKey] escapes ids ('#' and '%'
// percent-encoded), so ids without them are spelled exactly as the design
// spells them, and parsed back from the key when an item is read; in an
// index key as in a table key ("F#{followerID}" is "F#a%23b" for the id
// "a#b"), so [Entity.ByIndex] finds the item by the same id. The text
// may be any valid UTF-8 without control characters, '{' or '}'; names are
// 1-64 ASCII letters, digits, '_', '-' or '.'. Two {name}s with no '#'
// between them ("{a}{b}", "{date}-{id}") cannot be told apart (an escaped
// id may hold any character but '#'): such a template, like any
// malformed one, is refused with [ErrInvalidOption] where it is declared
// (its item type's every call fails), never at a request.
func Template(s string) KeyTemplate {
	parts, err := keycodec.ParseTemplate(s)
	if err != nil {
		return KeyTemplate{err: fmt.Errorf("%w: key template %q: %w", ErrInvalidOption, s, err)}
	}
	return KeyTemplate{parts: parts}
}

// String shows the template with its variable parts as placeholders,
// e.g. STATUS#<status>, ENROLL#<target>, u#<userID>#follower. ([Describe]
// writes node keys with their type prefix instead: CRS#<to>.)
func (k KeyTemplate) String() string { return keycodec.String(k.parts) }

// IndexKeys declares an item type's keys in one derived-key index of its
// table ([Index]): how its partition and sort key values are built. Pass
// them in [NodeOptions], [EdgeOptions] or [CollectionOptions].Indexes,
// e.g. projects listed by status across workspaces, newest first:
//
//	adjlist.IndexKeys{Index: "GSI2",
//		PartitionKey: adjlist.Compose(adjlist.Const("STATUS"), adjlist.Attr("status")),
//		SortKey:      adjlist.Compose(adjlist.Attr("createdAt"))}
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
	// or 1: not sharded; at most [MaxShards]; global indexes only.
	Shards int
}

// boundIndex is one IndexKeys checked against its table.
type boundIndex struct {
	ix             *Index
	pkAttr, skAttr string // skAttr "" for an index without a sort key
	pk, sk         []keycodec.Part
	pkc, skc       keycodec.IndexKey // pk and sk compiled (compile)
	// skPrefix is the static prefix of sk (keycodec.StaticPrefix), which
	// every read of the index queries; skExact: sk is text only.
	skPrefix string
	skExact  bool
	shards   int
	attrs    []string // data attributes the keys read
}

// keyCtx holds the node keys an item's templates may name, and its table
// key (which picks its shard). In an item type's (itemType.prefixes) they
// hold the keys' static prefixes instead: "STU#", "ENROLL#CRS#".
type keyCtx = keycodec.Ctx

// bindIndexes checks an item type's index declarations; allowed lists the
// node-key parts the item type has (Self always), home the one that is its
// table partition key (a local index's partition).
func (t *Table) bindIndexes(kind string, decls []IndexKeys, fields []string, home keycodec.Kind, allowed ...keycodec.Kind) ([]boundIndex, error) {
	var out []boundIndex
	seen := map[string]bool{}
	for _, d := range decls {
		b, err := t.bindIndex(d, fields, home, slices.Concat(allowed, []keycodec.Kind{keycodec.Self, keycodec.Const, keycodec.Attr}))
		if err == nil && seen[d.Index] {
			err = fmt.Errorf("keys declared twice")
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %s in index %q: %w", ErrInvalidOption, kind, d.Index, err)
		}
		seen[d.Index] = true
		out = append(out, b)
	}
	return out, nil
}

func (t *Table) bindIndex(d IndexKeys, fields []string, home keycodec.Kind, allowed []keycodec.Kind) (boundIndex, error) {
	ix, err := t.index(d.Index)
	if err != nil {
		return boundIndex{}, err
	}
	if err := errors.Join(d.PartitionKey.err, d.SortKey.err); err != nil {
		return boundIndex{}, err // Template's own error, not its missing parts'
	}
	b := boundIndex{ix: ix, pk: d.PartitionKey.parts, sk: d.SortKey.parts, shards: d.Shards}
	pk, sk := ix.keyAttrs(t)
	switch {
	case ix.native():
		return b, fmt.Errorf("a native index is keyed on data attributes; declare no keys")
	case ix == &t.indexes[0] && t.layout != noIndex:
		return b, fmt.Errorf("the inverted index holds edges by their endpoints; declare no keys")
	case ix.Local && len(b.pk) > 0:
		return b, fmt.Errorf("a local index has the table's partition key; leave PartitionKey zero")
	case !ix.Local && len(b.pk) == 0:
		return b, fmt.Errorf("no PartitionKey")
	case (len(sk) > 0) != (len(b.sk) > 0):
		return b, fmt.Errorf("SortKey must be given exactly when the index has a sort key")
	case d.Shards < 0 || d.Shards > MaxShards:
		return b, fmt.Errorf("Shards %d, want 0 to %d", d.Shards, MaxShards)
	case d.Shards > 1 && ix.Local:
		return b, fmt.Errorf("a local index cannot be sharded")
	}
	b.pkAttr = pk[0]
	if len(sk) > 0 {
		b.skAttr = sk[0]
	}
	if ix.Local {
		// Not written (it is the table's partition key), but what a
		// query's value fills.
		b.pk = []keycodec.Part{{Kind: home}}
	}
	if b.shards < 2 {
		b.shards = 0
	}
	b.pk, b.sk = keycodec.ResolveVars(b.pk, fields), keycodec.ResolveVars(b.sk, fields)
	for _, p := range append(append([]keycodec.Part(nil), b.pk...), b.sk...) {
		switch {
		case p.Kind == keycodec.Lit:
		case !slices.Contains(allowed, p.Kind):
			return b, fmt.Errorf("part %s is not available to this item type", keycodec.String([]keycodec.Part{p}))
		case p.Kind == keycodec.Const:
			if err := checkName("key constant", p.Text); err != nil {
				return b, err
			}
		case p.Kind == keycodec.Attr && p.Text == "":
			return b, fmt.Errorf("Attr(\"\") names no data attribute")
		case p.Kind == keycodec.Attr && (p.Text == b.skAttr || p.Text == b.pkAttr && !ix.Local):
			native := "PartitionAttributes"
			if p.Text == b.skAttr {
				native = "SortAttributes"
			}
			return b, fmt.Errorf("Attr(%q) is index %s's own key attribute, which the template writes, not a data attribute it reads: "+
				"to key the index on the data attribute %s as the items hold it, declare the index with native keys (Index.%s: {{Name: %q}}) and no IndexKeys for it",
				p.Text, ix.Name, p.Text, native, p.Text)
		case p.Kind == keycodec.Attr && t.isKeyAttr(p.Text):
			return b, fmt.Errorf("Attr(%q) is a key attribute (%s), which this package writes, not a data attribute", p.Text, t.keyAttrRole(p.Text))
		case p.Kind == keycodec.Attr:
			b.attrs = append(b.attrs, p.Text)
		}
	}
	return b, nil
}

// keyAttrRole says which key attribute of the table name is: "the
// table's sort key", "index GSI2's partition key".
func (t *Table) keyAttrRole(name string) string {
	switch name {
	case t.opts.PartitionKey:
		return "the table's partition key"
	case t.opts.SortKey:
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

// compile compiles b's templates for an item type with node key
// prefixes and key fields prefixes (itemType.prefixes), once its parts
// are final.
func (b *boundIndex) compile(prefixes *keyCtx) {
	b.pkc, b.skc = keycodec.CompileIndexKey(b.pk, prefixes.Fields), keycodec.CompileIndexKey(b.sk, prefixes.Fields)
	b.skPrefix, b.skExact = keycodec.StaticPrefix(b.sk, prefixes)
}

// refused is adjlist's error for a data attribute no key can hold: the
// id's KeyError, or ErrInvalidOption for its type.
func refused(r *keycodec.Refusal) error {
	switch {
	case r == nil:
		return nil
	case r.ID != nil:
		return keyError(r.ID)
	}
	return fmt.Errorf("%w: attribute %q feeds an index key and is %T; want a string or number", ErrInvalidOption, r.Name, r.Value)
}

// attrKeyText is a data attribute's text in a key (keycodec.AttrText).
func attrKeyText(name string, av types.AttributeValue) (text string, present bool, err error) {
	text, present, bad := keycodec.AttrText(name, av)
	return text, present, refused(bad)
}

// partitionKey and sortKey compute b's key attribute values for an item
// with data and node keys kc; ok is false when a data attribute the
// template reads is missing.
//
// They are the one renderer of index keys, so every path that writes or
// checks them (a put, an update's re-derivation, Scan, Verify and Migrate)
// spells them alike: a key field's id escaped as [NodeKey] escapes ids, as
// the table keys and ByIndex's values spell it.
func (b *boundIndex) partitionKey(data Item, kc *keyCtx) (pk string, ok bool, err error) {
	pk, ok, bad := b.pkc.Render(data, kc)
	if !ok || bad != nil {
		return "", false, refused(bad)
	}
	if b.shards > 0 {
		pk += "#" + shardSuffix(kc.PK+"\x00"+kc.SK, b.shards)
	}
	return pk, true, checkLen(b.ix.Name, "index partition key", pk, MaxPartitionKeyLen)
}

func (b *boundIndex) sortKey(data Item, kc *keyCtx) (sk string, ok bool, err error) {
	sk, ok, bad := b.skc.Render(data, kc)
	if !ok || bad != nil {
		return "", false, refused(bad)
	}
	return sk, true, checkLen(b.ix.Name, "index sort key", sk, MaxSortKeyLen)
}

// derivedKey is one key attribute an item type derives: its attribute,
// the template's data attributes, and how to compute it.
type derivedKey struct {
	attr    string
	attrs   []string
	compute func(data Item, kc *keyCtx) (string, bool, error)
}

// derivedKeys lists the key attributes b writes: the partition key of a
// global index, and the sort key if the index has one.
func (b *boundIndex) derivedKeys() []derivedKey {
	var out []derivedKey
	if !b.ix.Local {
		out = append(out, derivedKey{b.pkAttr, keycodec.Attrs(b.pk), b.partitionKey})
	}
	if b.skAttr != "" {
		out = append(out, derivedKey{b.skAttr, keycodec.Attrs(b.sk), b.sortKey})
	}
	return out
}

// addIndexKeys writes into item every index key attribute the item type
// derives whose template's data attributes the item has. Each key
// attribute is kept on its own: an item lacking the partition key's data
// still carries its sort key, and is not in the index (DynamoDB indexes
// only items with every key attribute), so that an update giving the
// missing data completes the entry.
func addIndexKeys(indexes []boundIndex, item Item, kc *keyCtx) error {
	for i := range indexes {
		for _, d := range indexes[i].derivedKeys() {
			v, ok, err := d.compute(item, kc)
			if err != nil {
				return err
			}
			if ok {
				item[d.attr] = &types.AttributeValueMemberS{Value: v}
			}
		}
	}
	return nil
}

// itemType is what every modelled item type shares: a name for errors,
// the static prefixes of its node keys, and its keys in the table's
// derived-key indexes.
type itemType struct {
	kind     string // "node STU", "edge ENROLL (STU → CRS)", "child PROJ of WS"
	prefixes keyCtx
	home     keycodec.Kind // the part that is its table partition key
	// pk and sk are its table keys as templates, a preset's as an
	// Entity's: text, and its ids as key fields named as Describe draws
	// them ("STU#<id>", "ENROLL#CRS#<to>", "WS#<id>#<shard of child>").
	// The table records them (Table.Check, TypeOf, Verify) and Describe
	// draws them; TestPresetsAreTemplates holds each preset's own key
	// code to them. self, source, target and parent are the node keys its
	// index key templates may name ([SelfKey], [SourceKey], [TargetKey],
	// [ParentKey]); nil where it has none.
	pk, sk                       spelling
	self, source, target, parent spelling
	// shardField is the key field of pk that holds a sharded partition's
	// shard; "" unsharded.
	shardField string
	// byIDs: a native index keyed on its table keys takes their ids and
	// spells them (an Entity's; a local index's partition is pk); a
	// preset's takes the key values as they are.
	byIDs bool
	// shards is how many table partitions the type's items of one
	// partition key are spread over (a sharded Collection's); 0: one.
	shards int
	// ends are an edge's endpoints, whose keys its SourceKey, TargetKey
	// and SelfKey parts hold (a child endpoint's key is its whole ref);
	// nil for other item types.
	ends    *edgeEnds
	indexes []boundIndex
	// keyData are the data attributes an Entity's keys hold (its key
	// fields T declares, and what it keeps only inside keys), which an
	// update may not change.
	keyData []string
}

// edgeEnds are the endpoints of an edge item type and its label prefix
// ("ENROLL#", "" unlabelled): its sort key is the label and the target's
// key.
type edgeEnds struct {
	src, dst endpoint
	label    string
}

// partKey is the text node-key part p (or key field) holds for id in a
// key of the item type: its node key ("CRS#math204"), a child
// endpoint's ref as it is ("WS#acme#PROJ#p1", checked), an edge's own
// sort key ("ENROLL#CRS#math204"), or a key field's id escaped. It is
// what a write puts there (keyCtx), so a value filled in by a read
// (ByIndex) is spelled as the write spelled it.
func (it *itemType) partKey(p keycodec.Part, id string) (string, error) {
	if e := it.ends; e != nil {
		switch p.Kind {
		case keycodec.Source:
			return e.src.key(id)
		case keycodec.Target:
			return e.dst.key(id)
		case keycodec.Self:
			key, err := e.dst.key(id)
			return e.label + key, err
		}
	}
	if err := checkID(keycodec.String([]keycodec.Part{p}), id); err != nil {
		return "", err
	}
	if p.Kind == keycodec.Field {
		return keycodec.Join(id), nil
	}
	return it.prefixes.Node(p.Kind) + keycodec.Join(id), nil
}

// renderTemplate draws key template parts as Describe does, for error
// messages: constants as they are, variable parts as [itemType.partPattern]
// draws them, and a shard suffix when shards > 1.
func (it *itemType) renderTemplate(parts []keycodec.Part, shards int) string {
	var b strings.Builder
	for _, p := range parts {
		switch p.Kind {
		case keycodec.Const, keycodec.Lit:
			b.WriteString(p.Text)
		default:
			b.WriteString(it.partPattern(p))
		}
	}
	if shards > 1 {
		fmt.Fprintf(&b, "#<shard of key, %d>", shards)
	}
	return b.String()
}

// partPattern is how Describe draws variable part p of the item type:
// a placeholder for a data attribute or key field ("<status>"), a node
// key with its id a placeholder ("CRS#<to>"), a child endpoint's ref
// ("WS#<to parent>#PROJ#<to>").
func (it *itemType) partPattern(p keycodec.Part) string {
	v, ref := it.sample(p)
	switch {
	case p.Kind == keycodec.Attr || p.Kind == keycodec.Field:
		return v
	case !ref:
		return it.prefixes.Node(p.Kind) + v
	case p.Kind == keycodec.Self:
		return it.ends.label + v
	}
	return v
}

// sample is the value Describe fills variable part p with, as ByIndex
// takes it: a placeholder ("<to>"), or a child endpoint's ref pattern
// ("WS#<to parent>#PROJ#<to>"; ref is true).
func (it *itemType) sample(p keycodec.Part) (v string, ref bool) {
	if e := it.ends; e != nil {
		switch {
		case p.Kind == keycodec.Source && e.src.isChild():
			return it.source.String(), true
		case (p.Kind == keycodec.Target || p.Kind == keycodec.Self) && e.dst.isChild():
			return it.target.String(), true
		}
	}
	return it.placeholder(p), false
}

// newItemType binds an item type's index declarations; allowed are the
// node-key parts it has besides SelfKey.
func (t *Table) newItemType(kind string, prefixes keyCtx, decls []IndexKeys, home keycodec.Kind, allowed ...keycodec.Kind) (itemType, error) {
	it := itemType{kind: kind, prefixes: prefixes, home: home}
	if t.err != nil || len(decls) == 0 {
		return it, nil
	}
	var err error
	it.indexes, err = t.bindIndexes(kind, decls, prefixes.Fields, home, allowed...)
	for i := range it.indexes {
		it.indexes[i].compile(&it.prefixes)
	}
	return it, err
}

// indexIn returns the item type's keys in index name.
func (it *itemType) indexIn(name string) (*boundIndex, bool) {
	for i := range it.indexes {
		if it.indexes[i].ix.Name == name {
			return &it.indexes[i], true
		}
	}
	return nil, false
}
