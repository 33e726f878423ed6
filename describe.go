package adjlist

import (
	"fmt"
	"io"

	"github.com/adjlist/adjlist/internal/modeldoc"
)

// Describer is a handle that can describe its item shape and access
// patterns for [Describe] and [DescribeModel]: *Node, *Edge, *Collection,
// *Entity and *Counter (its count items) implement it, and [AccessPattern]
// documents one query.
type Describer interface {
	describe() shape
}

// shape is what one handle tells the model: its item type (nil for an
// access pattern only) and the access patterns it serves.
type shape struct {
	t        *Table
	item     *ItemType
	it       *itemType // the item type's index keys
	op       string    // its ByIndex call: "Node.ByIndex"
	patterns []modeldoc.Pattern
	err      error
	// keys are the item type's keys as parts, from which item's key
	// strings are written; indexes its keys in the inverted index, as
	// item.Indexes has them.
	keys    modeldoc.KeyParts
	indexes []modeldoc.IndexFormats
}

// docTable is what access patterns name of t.
func (t *Table) docTable() modeldoc.Table {
	o := &t.opts
	return modeldoc.Table{PartitionKey: o.PartitionKey, SortKey: o.SortKey,
		Index: o.Index, IndexPartitionKey: o.IndexPartitionKey, IndexSortKey: o.IndexSortKey,
		SortKeyIndex: t.layout == sortKeyIndex, PartitionOnly: t.layout == sortKeyOnlyIndex, NoIndex: t.layout == noIndex}
}

// withInverted sets the item's entry in the inverted index, keyed pk
// then sk, on s and item.
func (s *shape) withInverted(pk, sk []modeldoc.Part, shards int) {
	x := s.t.docTable().Inverted(pk, sk)
	s.indexes = []modeldoc.IndexFormats{x}
	s.item.Indexes = []ItemKeys{ItemKeys(x.Keys(shards))}
}

// Describe writes t's single-table design as Markdown, the way design documents
// draw it: one table of item types (partition key | sort key | index keys |
// attributes, with ids as <placeholders>), the Time to Live attribute
// when the item types name one ([Model].TimeToLive), then for each index
// of [Options].Indexes its key attributes, projection and the item types
// in it with their key templates (e.g. `STATUS#<status>`, `<createdAt>`;
// a local index's partition is the item type's table partition), and
// one table of access patterns (which call, which DynamoDB request, which
// key condition, on the table or the index), the ByIndex reads of every
// declared index key included. Attributes are named as the table's
// encoder names them. It walks the model [DescribeModel] returns; it makes no
// request; it returns the first handle error (e.g. [ErrInvalidKey]) or
// write error. With no handles it describes every item type t records
// ([DescribeModel]).
func Describe(w io.Writer, t *Table, handles ...Describer) error {
	m, err := DescribeModel(t, handles...)
	if err != nil {
		return err
	}
	d := m.doc()
	switch t.layout {
	case explicitKeys:
		d.IndexColumns = []string{t.opts.IndexPartitionKey, t.opts.IndexSortKey}
	case sortKeyIndex:
		d.SortKeyIndex = true
	case sortKeyOnlyIndex:
		d.PartitionOnly = true
	}
	return modeldoc.Markdown(w, d)
}

func (n *Node[N]) describe() shape {
	k := n.it.formats()
	pk, sk := modeldoc.Text(k.PK), modeldoc.Text(k.SK)
	item := &ItemType{Name: "node " + n.typ, Kind: "node", Type: n.typ, PartitionKey: pk, SortKey: sk,
		Attributes: n.t.attributes(typeOf[N]()), Expiry: n.tr.Expiry}
	s := shape{t: n.t, err: n.err, item: item, it: &n.it, op: "Node.ByIndex", keys: k,
		patterns: []modeldoc.Pattern{modeldoc.GetPattern(n.t.docTable(), "get one "+n.typ, "Node.Get", item.Name, pk, sk)}}
	if n.t.layout.onSortKey() {
		s.withInverted(k.SK, k.PK, 0)
	}
	return s
}

func (e *Edge[E]) describe() shape {
	k := e.it.formats()
	ipkParts := k.Target
	if e.shards > 1 {
		ipkParts = modeldoc.Join(k.Target, modeldoc.ShardPart("from", e.shards))
	}
	from, sk := modeldoc.Text(k.PK), modeldoc.Text(k.SK)
	item := &ItemType{
		Name: fmt.Sprintf("edge %s (%s → %s)", e.label, e.src, e.dst), Kind: "edge",
		Type: e.label, From: e.src.String(), To: e.dst.String(), PartitionKey: from, SortKey: sk,
		Attributes: e.t.attributes(typeOf[E]()), Expiry: e.tr.Expiry,
	}
	if e.label == "" {
		item.Name = fmt.Sprintf("edge %s → %s", e.src, e.dst)
	}
	s := shape{t: e.t, err: e.err, item: item, it: &e.it, op: "Edge.ByIndex", keys: k}
	switch {
	case e.t.layout == explicitKeys:
		s.withInverted(ipkParts, k.PK, e.shards)
	case e.t.layout != noIndex:
		s.withInverted(k.SK, k.PK, 0)
	}
	s.patterns = modeldoc.EdgePatterns(e.t.docTable(), modeldoc.Edge{Item: item.Name,
		Label: e.label, Source: item.From, Target: item.To, SourceIsChild: e.src.isChild(),
		PartitionKey: from, SortKey: sk, InvertedKey: modeldoc.Text(ipkParts),
		Prefix: e.prefix, SourcePrefix: e.sourcePrefix, Shards: e.shards})
	return s
}

func (c *Collection[P, C]) describe() shape {
	k := c.it.formats()
	item := &ItemType{
		Name: fmt.Sprintf("child %s of %s", c.childType, c.parent.name()), Kind: "child",
		Type: c.childType, From: c.parent.name(), PartitionKey: modeldoc.Text(k.PK), SortKey: modeldoc.Text(k.SK),
		Attributes: c.t.attributes(typeOf[C]()), Expiry: c.tr.Expiry,
	}
	s := shape{t: c.t, err: c.err, item: item, it: &c.it, op: "Collection.ByIndex", keys: k}
	if c.t.layout.onSortKey() {
		s.withInverted(k.SK, k.PK, 0)
	}
	s.patterns = modeldoc.CollectionPatterns(c.t.docTable(), modeldoc.Collection{Item: item.Name,
		Parent: c.parent.name(), Child: c.childType, ParentKey: modeldoc.Text(k.Parent), PartitionKey: item.PartitionKey,
		Prefix: c.prefix, Shards: c.shards, Nested: c.parent.node == nil})
	return s
}

func (e *Entity[T]) describe() shape {
	k := e.it.formats()
	item := &ItemType{Name: "entity " + e.name, Kind: "entity", Type: e.name,
		PartitionKey: modeldoc.Text(k.PK), SortKey: modeldoc.Text(k.SK), Expiry: e.tr.Expiry}
	for _, a := range e.t.attributes(typeOf[T]()) {
		if !e.data.KeyOnlyIn(a.Name) { // those live in the keys alone
			item.Attributes = append(item.Attributes, a)
		}
	}
	s := shape{t: e.t, err: e.err, item: item, it: &e.it, op: "Entity.ByIndex", keys: k}
	if e.err != nil {
		return s
	}
	if e.t.layout.onSortKey() {
		s.withInverted(k.SK, k.PK, 0)
	}
	s.patterns = []modeldoc.Pattern{modeldoc.GetPattern(e.t.docTable(), fmt.Sprintf("one %s item", e.name), "Entity.Get",
		item.Name, item.PartitionKey, item.SortKey)}
	placeholders := make([]string, e.pkN)
	for i := range placeholders {
		placeholders[i] = "<" + e.fields[i] + ">"
	}
	if _, exact := e.it.keys.sk.Prefix(placeholders); !exact {
		// The request List builds, rendered: not a key condition written
		// apart from it.
		list := patternOnly[EntityItem[T]]{q: e.List(placeholders...)}.describe()
		if list.err == nil {
			p := list.patterns[0]
			p.Name, p.Call, p.Item = fmt.Sprintf("a partition's %s items", e.name), "Entity.List", item.Name
			s.patterns = append(s.patterns, p)
		}
	}
	return s
}

// formats are the item type's keys as Describe draws them, from its
// templates (itemType.pk ...).
func (it *itemType) formats() modeldoc.KeyParts {
	f := func(s spelling) []modeldoc.Part { return modeldoc.Spelled(s, it.shardField, it.shards) }
	return modeldoc.KeyParts{PK: f(it.pk), SK: f(it.sk), Self: f(it.self), Source: f(it.source), Target: f(it.target), Parent: f(it.parent)}
}

// AccessPattern documents a query as an access pattern of its own for
// [Describe], e.g. the workspaces design's "projects created since an id, active only":
//
//	adjlist.AccessPattern("a workspace's active projects since an id",
//		projects.List("<id>").GreaterThanEqual("<since>").
//			Filter(expression.Name("status").Equal(expression.Value("ACTIVE"))))
//
// Describe prints it as one row of its access-pattern table, with the
// exact key condition, filter and projection the query sends (placeholders
// resolved; ids such as "<id>" written as given). An invalid query makes
// Describe return its error.
func AccessPattern[T any](name string, q Query[T]) Describer {
	return patternOnly[T]{name: name, q: q}
}

type patternOnly[T any] struct {
	name string
	q    Query[T]
}

func (p patternOnly[T]) describe() shape {
	q := p.q
	if q.err != nil {
		return shape{t: q.t, err: q.err}
	}
	pat := modeldoc.QueryPattern(p.name, modeldoc.Query{In: &q.in, Op: q.op, Wraps: q.wraps, Calls: q.calls, Shards: len(q.shards)})
	return shape{t: q.t, patterns: []modeldoc.Pattern{pat}}
}
