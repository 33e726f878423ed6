package adjlist

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Model is the one read-only description of a single-table design:
// the table, its key attributes, every secondary index with its
// projection, each item type's keys (in the table and in every index it
// lands in) and attributes, and the access patterns they serve. [Describe]
// renders it as Markdown and [Model.Mermaid] as a diagram; the
// subpackages workbench and cloudformation export it. Build one with
// [DescribeModel]. A Model is plain data: changing it changes no table.
type Model struct {
	// Table is the DynamoDB table name, e.g. "adjlist-enrollment".
	Table string
	// PartitionKey and SortKey are the table's key attributes, e.g. "PK"
	// and "SK" (strings).
	PartitionKey, SortKey string
	// Indexes are the table's secondary indexes as [Table.Indexes] returns
	// them: the inverted index first (its Projection empty: CreateTable's
	// [CreateTableOptions] chooses it, ALL by default), then
	// [Options].Indexes with their projections.
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
}

// ItemType describes one modelled item type: a node type's items, an edge
// kind's or a collection's children.
type ItemType struct {
	// Name names the item type as Describe shows it: "node STU",
	// "edge ENROLL (STU → CRS)", "child PROJ of WS".
	Name string
	// Kind is "node", "edge" or "child".
	Kind string
	// Type is the node type ("STU"), the edge label ("ENROLL", empty for
	// an unlabelled edge) or the child type ("PROJ").
	Type string
	// From and To are an edge's source and target node types, or for an
	// end at a collection's children "WS/PROJ" (parent type / child type,
	// see [Endpoint]); for a child From is its parent's node type and To
	// is empty; both are empty for a node.
	From, To string
	// PartitionKey and SortKey are the item's table key values with ids
	// as placeholders: "STU#<id>" and "PROFILE", "STU#<from>" and
	// "ENROLL#CRS#<to>", "WS#<id>" and "PROJ#<child>".
	PartitionKey, SortKey string
	// Attributes are the data attributes, read from the Go type's
	// dynamodbav tags in field order.
	Attributes []Attribute
	// Indexes are the item's keys in every index it lands in, in the
	// order of [Model].Indexes.
	Indexes []ItemKeys
}

// Attribute is one data attribute of an item type.
type Attribute struct {
	// Name is the attribute name, e.g. "enrolledOn".
	Name string
	// Type is the DynamoDB type its Go field marshals to, read from the
	// field's Go kind and tag options as attributevalue encodes them: S
	// (strings, time.Time), N (numbers, ",unixtime"), B ([]byte), BOOL,
	// SS, NS, BS (",stringset", ",numberset", ",binaryset"), L (other
	// slices and arrays) or M (maps, structs). An interface field is S; a
	// field with a custom marshaler is typed by its Go kind, which may
	// differ from what the marshaler writes.
	Type string
}

// ItemKeys is an item type's keys in one secondary index, with ids and
// data attributes as placeholders: for a derived-key index the template
// strings ([KeyTemplate.String], e.g. "STATUS#<status>" and
// "<createdAt>"), for the inverted index an edge's endpoints' node keys
// ("CRS#<to>", "STU#<from>") or, on an index keyed on the table's sort
// key, every item's sort and partition keys, for a native index the key
// attributes ("<status>", "<year>, <title>").
type ItemKeys struct {
	// Index is the index name, e.g. "GSI2".
	Index string
	// PartitionKey is the index partition key value; for a local index,
	// the item's table partition key. A sharded partition ends in
	// "#<shard of from, N>" (an edge's inverted index key) or
	// "#<shard of key, N>" (a derived key sharded by table key).
	PartitionKey string
	// SortKey is the index sort key value, empty for an index without one.
	SortKey string
	// Shards is the number of partitions the index partition is spread
	// over; 0 when it is not sharded.
	Shards int
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
// patterns of handles: the one description that [Describe], [Model.Mermaid]
// and the exports walk. With no handles it describes every item type the
// table records, in the order they were declared ([Table.Check]): the
// model as the table knows it. It makes no request. It returns the
// table's option error, the first handle error (e.g. [ErrInvalidKey]; with
// no handles, [Table.Check]'s), or [ErrInvalidOption] for a handle of
// another table.
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
	m := &Model{Table: t.name, PartitionKey: t.opts.PartitionKey, SortKey: t.opts.SortKey, Indexes: t.Indexes()}
	for i := range m.Indexes { // deep: the model shares nothing with the table
		ix := &m.Indexes[i]
		ix.PartitionAttributes = slices.Clone(ix.PartitionAttributes)
		ix.SortAttributes = slices.Clone(ix.SortAttributes)
		ix.NonKeyAttributes = slices.Clone(ix.NonKeyAttributes)
	}
	if t.layout != noIndex {
		m.InvertedIndex = t.opts.Index
	}
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
			item := *s.item
			item.Indexes = append(item.Indexes, t.derivedItemKeys(s.it)...)
			item.Indexes = append(item.Indexes, t.nativeItemKeys(t.carried(item), keyTemplates(t, item))...)
			m.Items = append(m.Items, item)
			s.patterns = append(s.patterns, indexPatterns(s)...)
		}
		m.AccessPatterns = append(m.AccessPatterns, s.patterns...)
	}
	return m, nil
}

// Index returns the model's index called name, and whether there is one.
func (m *Model) Index(name string) (Index, bool) {
	for _, ix := range m.Indexes {
		if ix.Name == name {
			return ix, true
		}
	}
	return Index{}, false
}

// renderTemplate writes a derived key template of item type it as design
// documents draw keys: constants as they are, data attributes and ids as
// placeholders, node keys with their type prefix ("SKILL#<to>"), and the
// shard suffix of a sharded partition.
func (it *itemType) renderTemplate(parts []KeyPart, shards int) string {
	var b strings.Builder
	for _, p := range parts {
		switch p.kind {
		case partConst, partLit:
			b.WriteString(p.name)
		default:
			b.WriteString(it.partPattern(p))
		}
	}
	if shards > 1 {
		fmt.Fprintf(&b, "#<shard of key, %d>", shards)
	}
	return b.String()
}

// derivedItemKeys lists an item type's keys in the derived-key indexes it
// declares ([IndexKeys]), in the table's index order.
func (t *Table) derivedItemKeys(it *itemType) []ItemKeys {
	if it == nil {
		return nil
	}
	var out []ItemKeys
	for _, ix := range t.indexes {
		b, ok := it.indexIn(ix.Name)
		if !ok {
			continue
		}
		k := ItemKeys{Index: ix.Name, SortKey: it.renderTemplate(b.sk, 0), Shards: b.shards}
		if ix.Local {
			k.PartitionKey = it.homeKey()
		} else {
			k.PartitionKey = it.renderTemplate(b.pk, b.shards)
		}
		out = append(out, k)
	}
	return out
}

// homeKey is an item type's table partition key with its id as a
// placeholder, as Describe writes it.
func (it *itemType) homeKey() string {
	switch {
	case it.prefixes.source != "":
		return it.prefixes.source + "<from>"
	case it.prefixes.parent != "":
		return it.prefixes.parent + "<id>"
	}
	return it.prefixes.self + "<id>"
}

// carried lists every attribute items of the type carry: their data, the
// table's keys, an edge's inverted index keys, and the keys derived for
// the indexes they declare (a native index may be keyed on any of them).
func (t *Table) carried(item ItemType) []Attribute {
	attrs := slices.Clone(item.Attributes)
	add := func(names ...string) {
		for _, n := range names {
			if n != "" {
				attrs = append(attrs, Attribute{Name: n, Type: "S"})
			}
		}
	}
	add(t.opts.PartitionKey, t.opts.SortKey)
	if item.Kind == "edge" && t.layout == explicitKeys {
		add(t.opts.IndexPartitionKey, t.opts.IndexSortKey)
	}
	for _, k := range item.Indexes {
		if m := t.meta[k.Index]; m != nil && !m.ix.native() {
			add(m.pk...)
			add(m.sk...)
		}
	}
	return attrs
}

// keyTemplates maps the key attributes an item type carries to their
// templates: the table's keys and those of every index it has keys in.
func keyTemplates(t *Table, item ItemType) map[string]string {
	out := map[string]string{t.opts.PartitionKey: item.PartitionKey, t.opts.SortKey: item.SortKey}
	for _, k := range item.Indexes {
		if m := t.meta[k.Index]; m != nil && !m.ix.native() {
			if !m.ix.Local && len(m.pk) > 0 {
				out[m.pk[0]] = k.PartitionKey
			}
			if len(m.sk) > 0 {
				out[m.sk[0]] = k.SortKey
			}
		}
	}
	return out
}

// nativeItemKeys lists the native indexes an item type with attrs lands
// in: those whose every key attribute is among the attributes it carries.
//
// A key attribute the item type derives (the table's keys, an index's) is
// shown by its template, e.g. GSI1PK as CRS#<to>; a data attribute as
// <name>.
func (t *Table) nativeItemKeys(attrs []Attribute, templates map[string]string) []ItemKeys {
	var out []ItemKeys
	has := func(ks []KeyAttribute) bool {
		return !slices.ContainsFunc(ks, func(k KeyAttribute) bool {
			return !slices.ContainsFunc(attrs, func(a Attribute) bool { return a.Name == k.Name })
		})
	}
	list := func(ks []KeyAttribute) string {
		names := make([]string, len(ks))
		for i, k := range ks {
			names[i] = "<" + k.Name + ">"
			if tpl, ok := templates[k.Name]; ok {
				names[i] = tpl
			}
		}
		return strings.Join(names, ", ")
	}
	for _, ix := range t.indexes {
		if !ix.native() || !has(ix.PartitionAttributes) || !has(ix.SortAttributes) {
			continue
		}
		k := ItemKeys{Index: ix.Name, PartitionKey: list(ix.PartitionAttributes), SortKey: list(ix.SortAttributes)}
		if ix.Local {
			k.PartitionKey = t.opts.PartitionKey
		}
		out = append(out, k)
	}
	return out
}

// indexPatterns are the ByIndex reads of an item type: one per
// derived-key index it declares keys in, with the key condition the query
// sends for placeholder values.
func indexPatterns(s shape) []Pattern {
	if s.it == nil {
		return nil
	}
	var out []Pattern
	for i := range s.it.indexes {
		b := &s.it.indexes[i]
		var values []any
		var shown []string
		for _, p := range b.pk {
			if !p.variable() {
				continue
			}
			v, _ := s.it.sample(p)
			values = append(values, v)
			shown = append(shown, fmt.Sprintf("%q", v))
		}
		q := indexQuery(s.t, s.op, s.it, b.ix.Name, values, func(Item) (Item, bool, error) { return nil, false, nil })
		ps := patternOnly[Item]{q: q}.describe()
		if ps.err != nil || len(ps.patterns) == 0 {
			continue // cannot happen for a bound index; show nothing rather than a wrong row
		}
		p := ps.patterns[0]
		name := fmt.Sprintf("%s in %s by %s", s.item.Name, b.ix.Name, s.it.renderTemplate(b.pk, b.shards))
		if b.ix.Local {
			name = fmt.Sprintf("%s in %s by %s", s.item.Name, b.ix.Name, s.it.homeKey())
		}
		if len(b.sk) > 0 {
			name += ", sorted by " + s.it.renderTemplate(b.sk, 0)
		}
		p.Name = name
		p.Call = fmt.Sprintf("%s(%q", s.op, b.ix.Name)
		for _, v := range shown {
			p.Call += ", " + v
		}
		p.Call += ")"
		p.Item = s.item.Name
		out = append(out, p)
	}
	return out
}

// placeholder is the value Describe gives a variable part of a partition
// key template: an attribute's name or an id's, in angle brackets.
func (it *itemType) placeholder(p KeyPart) string {
	switch p.kind {
	case partAttr, partField:
		return "<" + p.name + ">"
	case partSource:
		return "<from>"
	case partTarget:
		return "<to>"
	case partSelf:
		switch {
		case it.prefixes.source != "":
			return "<to>"
		case it.prefixes.parent != "":
			return "<child>"
		}
	}
	return "<id>"
}

// attributes lists the data attributes a Go type marshals to, in field
// order, with their DynamoDB types, following attributevalue's rules for
// dynamodbav tags: a tag name wins, "-" skips, untagged exported fields use
// the field name, embedded structs are flattened.
func attributes(t reflect.Type) []Attribute {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return []Attribute{{Name: "(" + t.String() + ")", Type: dynamoType(t, "")}}
	}
	var out []Attribute
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("dynamodbav")
		name, opts, _ := strings.Cut(tag, ",")
		switch {
		case name == "-", !f.IsExported() && !f.Anonymous:
			continue
		case f.Anonymous && name == "" && (f.Type.Kind() == reflect.Struct || f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct):
			out = append(out, attributes(f.Type)...)
			continue
		case name == "":
			name = f.Name
		}
		out = append(out, Attribute{Name: name, Type: dynamoType(f.Type, opts)})
	}
	return out
}

// dynamoType is the DynamoDB type attributevalue marshals a field of type
// t with tag options opts to.
func dynamoType(t reflect.Type, opts string) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tagged := func(o string) bool { return slices.Contains(strings.Split(opts, ","), o) }
	switch {
	case tagged("stringset"):
		return "SS"
	case tagged("numberset"):
		return "NS"
	case tagged("binaryset"):
		return "BS"
	case tagged("unixtime"):
		return "N"
	case t.PkgPath() == "time" && t.Name() == "Time":
		return "S"
	case t.PkgPath() == "time" && t.Name() == "Duration":
		return "N"
	}
	switch t.Kind() {
	case reflect.String:
		return "S"
	case reflect.Bool:
		return "BOOL"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "N"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "B"
		}
		return "L"
	case reflect.Map, reflect.Struct:
		return "M"
	}
	return string(types.ScalarAttributeTypeS)
}
