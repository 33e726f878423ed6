package adjlist

import (
	"fmt"
	"reflect"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/modeldoc"
)

// Model is the read-only description of a single-table design: the table,
// its key attributes, its secondary indexes, each item type's keys and
// attributes, the Time to Live attribute and the access patterns. Build one
// with [DescribeModel]; [Describe] renders it as Markdown, [Model.Mermaid]
// as a diagram, and the subpackages workbench and cloudformation export
// it. Changing a Model changes no table.
type Model struct {
	// Table is the DynamoDB table name, e.g. "adjlist-enrollment".
	Table string
	// PartitionKey and SortKey are the table's key attributes, e.g. "PK"
	// and "SK".
	PartitionKey, SortKey string
	// PartitionKeyType and SortKeyType are their types, as
	// [Options].PartitionKeyType and SortKeyType give them: "" for a
	// string (S), types.ScalarAttributeTypeN for a number.
	PartitionKeyType, SortKeyType types.ScalarAttributeType
	// Indexes are the table's secondary indexes: the inverted index of
	// [Options] first (e.g. GSI1 on GSI1PK/GSI1SK; its Projection empty:
	// [CreateTableOptions] chooses it, ALL by default), then
	// [Options].Indexes in order, default projections filled in.
	Indexes []Index
	// InvertedIndex names the inverted index of [Options] that serves
	// reverse edge reads ("GSI1"), the first of Indexes; empty with
	// [Options].NoIndex.
	InvertedIndex string
	// Items are the item types, in the order their handles were given.
	Items []ItemType
	// AccessPatterns are the queries and reads the item types serve,
	// then those documented with [AccessPattern], in handle order.
	AccessPatterns []Pattern
	// Templates are the keys of Items in parts, one per item type in the
	// order of Items, to build or [KeyFormat.Match] key values.
	Templates []ItemTemplate
	// TimeToLive is the Time to Live attribute the item types name in
	// [Tracking].Expiry, e.g. "expiresAt"; empty when none does. [CreateTable]
	// enables TTL on it; package cloudformation exports it as
	// TimeToLiveSpecification.
	TimeToLive string
}

// ItemType describes one modelled item type: a node type's items, an edge
// kind's, a collection's children or an [Entity]'s items.
type ItemType struct {
	// Name names the item type as Describe shows it: "node STU",
	// "edge ENROLL (STU → CRS)", "child PROJ of WS", "entity follower",
	// "counter ENROLLED" (an [ItemCounter]'s count items).
	Name string
	// Kind is "node", "edge", "child", "entity" or "counter".
	Kind string
	// Type is the node type ("STU"), the edge label ("ENROLL", empty for
	// an unlabelled edge), the child type ("PROJ"), the entity's name
	// ("follower") or the counter's name ("ENROLLED").
	Type string
	// From and To are an edge's source and target node types, or for an
	// end at a collection's children "WS/PROJ" (parent type / child type,
	// see [Endpoint]); for a child From is its parent's node type and To
	// is empty; for a counter To is what owns the partitions holding its
	// count items, a node type ("CRS") or a collection's children
	// ("ORG/PROJ"), empty when it counts an [Entity]'s items, and From is
	// empty; both are empty for a node.
	From, To string
	// PartitionKey and SortKey are the item's table key values with ids
	// as placeholders: "STU#<id>" and "PROFILE", "STU#<from>" and
	// "ENROLL#CRS#<to>", "WS#<id>" and "PROJ#<child>", an entity's
	// "u#<userID>#follower" and "u#<followerID>".
	PartitionKey, SortKey string
	// Attributes are the data attributes, in field order, named as the
	// table's attributevalue encoder names them (dynamodbav tags, or
	// [Options].EncoderOptions' TagKey); "-" and unexported fields skipped,
	// embedded structs flattened.
	Attributes []Attribute
	// Indexes are the item's keys in every index it lands in, in the
	// order of [Model].Indexes.
	Indexes []ItemKeys
	// Expiry is the attribute the item type's [Tracking].Expiry names,
	// which holds its items' expiry in epoch seconds (a Number), e.g.
	// "expiresAt"; empty when its items do not expire.
	Expiry string
}

// Attribute is one data attribute of an item type.
type Attribute struct {
	// Name is the attribute name, e.g. "enrolledOn".
	Name string
	// Type is the DynamoDB type its Go field marshals to, read from the
	// field's Go kind and tag options as attributevalue encodes them: S
	// (strings, time.Time, numbers tagged ",string"), N (numbers,
	// json.Number, a time tagged ",unixtime"), B ([]byte), BOOL, SS, NS,
	// BS (slices tagged ",stringset", ",numberset", ",binaryset";
	// [][]byte), L (other slices and arrays) or M (maps, structs). An
	// interface field is S; a field with a custom marshaler is typed by
	// its Go kind, which may differ from what the marshaler writes.
	Type string
}

// ItemKeys is an item type's keys in one secondary index, with ids and
// data attributes as placeholders, e.g. "STATUS#<status>" and "<createdAt>"
// in a derived-key index, "CRS#<to>" and "STU#<from>" for an edge in the
// inverted index, "<status>" in a native index ([IndexTemplate] in parts).
type ItemKeys struct {
	// Index is the index name, e.g. "GSI2".
	Index string
	// PartitionKey is the index partition key value; for a local index,
	// the item's table partition key ("WS#<id>", an entity's
	// "u#<userID>#follower"). A sharded partition ends in
	// "#<shard of from, N>" (an edge's inverted index key) or
	// "#<shard of key, N>" (a derived key sharded by table key).
	PartitionKey string
	// SortKey is the index sort key value, empty for an index without one.
	SortKey string
	// Shards is the number of partitions the index partition is spread
	// over; 0 when it is not sharded.
	Shards int
}

// ItemTemplate is one item type's keys as templates ([Model].Templates):
// the keys [ItemType] shows as placeholder strings, in parts.
type ItemTemplate struct {
	// Item is the item type's [ItemType].Name, e.g. "entity follower".
	Item string
	// PartitionKey and SortKey are its table keys.
	PartitionKey, SortKey KeyFormat
	// Indexes are its keys in every index it lands in, in the order of
	// [ItemType].Indexes.
	Indexes []IndexTemplate
}

// IndexTemplate is an item type's keys in one secondary index, as parts:
// one [KeyFormat] per key attribute, in key schema order. A local index's
// partition key is the item type's table partition key.
type IndexTemplate struct {
	// Index is the index name, e.g. "GSI2".
	Index string
	// PartitionKey are the index partition key attributes' templates.
	PartitionKey []KeyFormat
	// SortKey are the index sort key attributes' templates; empty for an
	// index without a sort key.
	SortKey []KeyFormat
}

// KeyFormat is how one key attribute's value is built: its literal text
// and variable parts in order. An entity's partition key
// "u#{userID}#follower" is
//
//	adjlist.KeyFormat{Attribute: "PK", Parts: []adjlist.KeyFormatPart{
//		{Kind: "text", Text: "u#"},
//		{Kind: "id", Name: "userID"},
//		{Kind: "text", Text: "#follower"},
//	}}
//
// which [ItemType] shows as "u#<userID>#follower" (each variable part as
// <Name>), and which matches "u#12345#follower".
type KeyFormat struct {
	// Attribute is the key attribute, e.g. "PK", "GSI2PK" or a native
	// index's "status".
	Attribute string
	// Parts are the value's parts, adjacent text joined into one part.
	Parts []KeyFormatPart
}

// KeyFormatPart is one part of a [KeyFormat]: literal text, or a part
// that differs from item to item.
type KeyFormatPart struct {
	// Kind is "text", literal text written as it is; "id", an id (a
	// node's, an edge end's, a child's or an [Entity]'s key field),
	// escaped as [Node.Key] escapes ids so that it holds no '#';
	// "attribute", a data attribute's value ([Template]'s {name}): a string escaped as
	// ids are, or a number's decimal text; or "shard", a shard's two
	// digits, "00" to "NN" (N = shards - 1).
	Kind string
	// Text is a "text" part's text, e.g. "u#" or "#follower".
	Text string
	// Name names a variable part as its placeholder does: an id ("id",
	// "from", "to", "to parent", "child", an entity's "userID"), a data
	// attribute ("status"), a shard ("shard of key, 4", "shard of from,
	// 8", "shard of child, 4").
	Name string
}

// Match reports whether key could be a value of f: every text part in its
// place, each "id" or "attribute" part an id escaped as [Node.Key] escapes
// ids (non-empty valid UTF-8 without '#' or control characters, every
// '%' starting "%23" or "%25"; a number's text is one), a shard part two
// digits. For example "u#<userID>#follower" matches "u#12345#follower"
// and "u#a%23b#follower", not "u#12345", "u#1#2#follower" nor
// "u#a%2#follower".
func (f KeyFormat) Match(key string) bool {
	parts := make([]modeldoc.Part, len(f.Parts))
	for i, p := range f.Parts {
		parts[i] = modeldoc.Part(p)
	}
	return modeldoc.Spelling(parts).Matches(key, false)
}

// keyFormat and keyFormats copy modeldoc's formats; the appends keep a
// nil part list nil.
func keyFormat(f modeldoc.Format) KeyFormat {
	out := KeyFormat{Attribute: f.Attribute}
	for _, p := range f.Parts {
		out.Parts = append(out.Parts, KeyFormatPart(p))
	}
	return out
}

func keyFormats(fs []modeldoc.Format) (out []KeyFormat) {
	for _, f := range fs {
		out = append(out, keyFormat(f))
	}
	return out
}

// Pattern is one access pattern: a read an item type serves, or a query
// documented with [AccessPattern].
type Pattern struct {
	// Name says what it reads, e.g. "CRS's ENROLL edges from STU (reverse)".
	Name string
	// Call is the library call, e.g. "Edge.To" or
	// `Collection.ByIndex("GSI2", "<status>")`.
	Call string
	// Request is the DynamoDB request: "GetItem", "Query",
	// "4 Queries in parallel, merged", "Query (keys only)".
	Request string
	// KeyCondition is the key condition it sends, with any filter,
	// projection and ScanIndexForward=false after "; ".
	KeyCondition string
	// Index is the index it reads, empty for the table.
	Index string
	// On is where it reads as Describe shows it: "table", or the index
	// and its consistency, "GSI1 (eventually consistent)".
	On string
	// Item is the [ItemType].Name of the item type it reads, empty for a
	// pattern documented with [AccessPattern].
	Item string
}

// DescribeModel returns the model of t with the item types and access
// patterns of handles; with none, of every item type the table records
// ([Table.Check]), in declaration order. It makes no request. Errors: the
// table's option error, the first handle error (e.g. [ErrInvalidKey]; with
// no handles, [Table.Check]'s), [ErrInvalidOption] for a handle of another
// table or for two item types naming different [Tracking].Expiry
// attributes (a table has one Time to Live attribute).
func DescribeModel(t *Table, handles ...Describer) (*Model, error) {
	if t.err != nil {
		return nil, t.err
	}
	if len(handles) == 0 {
		if err := t.Check(); err != nil {
			return nil, err
		}
		for _, r := range t.recordedTypes() {
			handles = append(handles, r.h)
		}
	}
	m := &Model{Table: t.name, PartitionKey: t.opts.PartitionKey, SortKey: t.opts.SortKey, Indexes: cloneIndexes(t.indexes),
		PartitionKeyType: t.opts.PartitionKeyType, SortKeyType: t.opts.SortKeyType}
	if t.layout != noIndex {
		m.InvertedIndex = t.opts.Index
	}
	var ttl modeldoc.TimeToLive
	for _, h := range handles {
		s := h.describe()
		if s.err != nil {
			return nil, s.err
		}
		if s.t != t {
			name := "access pattern"
			if s.item != nil {
				name = s.item.Name
			}
			return nil, fmt.Errorf("%w: %s belongs to table %s, not %s", ErrInvalidOption, name, s.t.name, t.name)
		}
		if s.item != nil {
			item, tpl := t.itemModel(&s)
			if err := ttl.Add(item.Expiry, item.Name, ErrInvalidOption); err != nil {
				return nil, err
			}
			m.Items = append(m.Items, item)
			m.Templates = append(m.Templates, tpl)
			s.patterns = append(s.patterns, indexPatterns(s)...)
		}
		for _, p := range s.patterns {
			m.AccessPatterns = append(m.AccessPatterns, Pattern(p))
		}
	}
	m.TimeToLive = ttl.Attr
	return m, nil
}

// timeToLive is [Model].TimeToLive of DescribeModel(t), refused
// declarations left out; two attributes are [ErrInvalidOption].
func (t *Table) timeToLive() (string, error) {
	var ttl modeldoc.TimeToLive
	for _, r := range t.recordedTypes() {
		if r.err != nil {
			continue
		}
		if s := r.h.describe(); s.err == nil && s.item != nil {
			if err := ttl.Add(s.item.Expiry, s.item.Name, ErrInvalidOption); err != nil {
				return "", err
			}
		}
	}
	return ttl.Attr, nil
}

// itemModel completes the item type s describes with its keys in every
// index it lands in, and returns it with its templates, from which every
// key string is written.
func (t *Table) itemModel(s *shape) (ItemType, ItemTemplate) {
	item := *s.item
	slots := make([]modeldoc.Slot, len(t.indexes))
	for i, ix := range t.indexes {
		slot := modeldoc.Slot{Name: ix.Name, Local: ix.Local, Native: ix.native(),
			Partition: attrNames(ix.PartitionAttributes), Sort: attrNames(ix.SortAttributes)}
		if b, ok := s.it.indexIn(ix.Name); ok {
			pk, sk, _ := t.keyFormats(ix.Name, s.it)
			slot.Declared, slot.Shards = true, b.Shards
			slot.PartitionKey = modeldoc.Format{Attribute: b.PKAttr, Parts: pk}
			if b.SKAttr != "" {
				slot.SortKey = modeldoc.Format{Attribute: b.SKAttr, Parts: sk}
			}
		}
		slots[i] = slot
	}
	attrs := make([]string, len(item.Attributes))
	for i, a := range item.Attributes {
		attrs[i] = a.Name
	}
	tpl, keys := modeldoc.Templates(item.Name, modeldoc.Format{Attribute: t.opts.PartitionKey, Parts: s.keys.PK},
		modeldoc.Format{Attribute: t.opts.SortKey, Parts: s.keys.SK}, s.indexes, attrs, slots)
	for _, k := range keys {
		item.Indexes = append(item.Indexes, ItemKeys(k))
	}
	out := ItemTemplate{Item: tpl.Item, PartitionKey: keyFormat(tpl.PartitionKey), SortKey: keyFormat(tpl.SortKey)}
	for _, x := range tpl.Indexes {
		out.Indexes = append(out.Indexes, IndexTemplate{Index: x.Index, PartitionKey: keyFormats(x.PartitionKey), SortKey: keyFormats(x.SortKey)})
	}
	return item, out
}

// attrNames are the names of attrs, nil for none.
func attrNames(attrs []KeyAttribute) (out []string) {
	for _, a := range attrs {
		out = append(out, a.Name)
	}
	return out
}

// indexPatterns are the ByIndex reads of an item type, one per
// derived-key index it declares keys in, for placeholder values.
func indexPatterns(s shape) []modeldoc.Pattern {
	if s.it == nil {
		return nil
	}
	var out []modeldoc.Pattern
	for i := range s.it.indexes {
		b := &s.it.indexes[i]
		var values []any
		var shown []string
		for _, p := range b.PK {
			if !p.Variable() {
				continue
			}
			v := s.it.sample(p)
			values, shown = append(values, v), append(shown, v)
		}
		ps := patternOnly{q: indexSpec(s.t, s.op, nil, s.it, b.Name, values)}.describe()
		if ps.err != nil || len(ps.patterns) == 0 {
			continue // cannot happen for a bound index; show nothing rather than a wrong row
		}
		by, sorted, _ := s.t.keyFormats(b.Name, s.it)
		out = append(out, modeldoc.ByIndex(ps.patterns[0], s.item.Name, s.op, b.Name, by, sorted, shown))
	}
	return out
}

// attributes lists the data attributes Go type rt marshals to under t's
// encoder; a type that is not a struct is one attribute named after it,
// "(map[string]interface {})".
func (t *Table) attributes(rt reflect.Type) []Attribute {
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	if rt.Kind() != reflect.Struct {
		return []Attribute{{Name: "(" + rt.String() + ")", Type: ddbitem.DynamoTypeOf(rt)}}
	}
	attrs, _ := ddbitem.Of(rt, t.encoderTagKey())
	var out []Attribute
	for _, a := range attrs {
		out = append(out, Attribute{Name: a.Name, Type: a.DynamoType})
	}
	return out
}

// encoderTagKey is the struct tag key of t's encoder, "dynamodbav" by
// default.
func (t *Table) encoderTagKey() string {
	o := attributevalue.EncoderOptions{TagKey: ddbitem.DefaultTagKey}
	if t.opts.EncoderOptions != nil {
		t.opts.EncoderOptions(&o)
	}
	return o.TagKey
}

// decoderTagKey is the struct tag key of t's decoder, "dynamodbav" by
// default.
func (t *Table) decoderTagKey() string {
	o := attributevalue.DecoderOptions{TagKey: ddbitem.DefaultTagKey}
	if t.opts.DecoderOptions != nil {
		t.opts.DecoderOptions(&o)
	}
	return o.TagKey
}
