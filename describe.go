package adjlist

import (
	"fmt"
	"io"
	"reflect"

	"github.com/adjlist/adjlist/internal/modeldoc"
)

// Describer is a handle that can describe its item shape and access
// patterns for [Describe] and [DescribeModel]: *Node, *Edge, *Collection
// and *Counter (its count items) implement it, and [AccessPattern]
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
	patterns []Pattern
	err      error
	// keys are the item type's keys as parts, from which item's key
	// strings are written; indexes its keys in the inverted index, as
	// item.Indexes has them.
	keys    keyParts
	indexes []modeldoc.IndexFormats
}

// invertedKeys is an item type's entry in the inverted index, keyed
// partition then sort on the table's index key attributes: an edge's
// endpoints' node keys, or on an index keyed on the table's sort key
// every item's sort and partition keys.
func invertedKeys(t *Table, pk, sk []modeldoc.Part) modeldoc.IndexFormats {
	o := &t.opts
	return modeldoc.IndexFormats{Index: o.Index,
		PartitionKey: []modeldoc.Format{{Attribute: o.IndexPartitionKey, Parts: pk}},
		SortKey:      []modeldoc.Format{{Attribute: o.IndexSortKey, Parts: sk}}}
}

// withInverted sets the item's inverted index entry x on s and item.
func (s *shape) withInverted(x modeldoc.IndexFormats, shards int) {
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
	}
	return modeldoc.Markdown(w, d)
}

func typeOf[T any]() reflect.Type { return reflect.TypeOf((*T)(nil)).Elem() }

func (n *Node[N]) describe() shape {
	o := n.t.opts
	k := n.it.formats()
	pk, sk := modeldoc.Text(k.pk), modeldoc.Text(k.sk)
	item := &ItemType{Name: "node " + n.typ, Kind: "node", Type: n.typ, PartitionKey: pk, SortKey: sk,
		Attributes: n.t.attributes(typeOf[N]()), Expiry: n.tr.expiry}
	cond := fmt.Sprintf("%s = %q AND %s = %q", o.PartitionKey, pk, o.SortKey, sk)
	s := shape{
		t: n.t, err: n.err, item: item, it: &n.it, op: "Node.ByIndex", keys: k,
		patterns: []Pattern{
			{Name: "get one " + n.typ, Call: "Node.Get", Request: "GetItem", KeyCondition: cond, On: "table", Item: item.Name},
		},
	}
	if n.t.layout == sortKeyIndex {
		s.withInverted(invertedKeys(n.t, k.sk, k.pk), 0)
	}
	return s
}

func (e *Edge[E]) describe() shape {
	o := e.t.opts
	k := e.it.formats()
	ipkParts := k.target
	if e.shards > 1 {
		ipkParts = modeldoc.Join(k.target, modeldoc.ShardPart("from", e.shards))
	}
	from, sk, ipk := modeldoc.Text(k.pk), modeldoc.Text(k.sk), modeldoc.Text(ipkParts)
	item := &ItemType{
		Name: fmt.Sprintf("edge %s (%s → %s)", e.label, e.src, e.dst), Kind: "edge",
		Type: e.label, From: e.src.String(), To: e.dst.String(), PartitionKey: from, SortKey: sk,
		Attributes: e.t.attributes(typeOf[E]()), Expiry: e.tr.expiry,
	}
	if e.label == "" {
		item.Name = fmt.Sprintf("edge %s → %s", e.src, e.dst)
	}
	s := shape{t: e.t, err: e.err, item: item, it: &e.it, op: "Edge.ByIndex", keys: k}
	switch {
	case e.t.layout == explicitKeys:
		s.withInverted(invertedKeys(e.t, ipkParts, k.pk), e.shards)
	case e.t.layout != noIndex:
		s.withInverted(invertedKeys(e.t, k.sk, k.pk), 0)
	}
	rev := fmt.Sprintf("%s = %q AND begins_with(%s, %q)", o.IndexPartitionKey, ipk, o.IndexSortKey, e.sourcePrefix)
	revRequest := "Query"
	if e.shards > 1 {
		revRequest = fmt.Sprintf("%d Queries in parallel, merged", e.shards)
	}
	if e.t.layout == sortKeyIndex {
		rev = fmt.Sprintf("%s = %q AND begins_with(%s, %q)", o.SortKey, sk, o.PartitionKey, e.sourcePrefix)
	} else {
		rev += fmt.Sprintf("; filter begins_with(%s, %q)", o.SortKey, e.prefix)
	}
	// Name the label: two edge kinds between the same node types must read
	// apart ("STU's ENROLL edges to CRS", "STU's WAITLIST edges to CRS").
	edges := "edges"
	if e.label != "" {
		edges = e.label + " edges"
	}
	patterns := []Pattern{
		{Name: fmt.Sprintf("%s's %s to %s (forward)", e.src, edges, e.dst), Call: "Edge.From", Request: "Query",
			KeyCondition: fmt.Sprintf("%s = %q AND begins_with(%s, %q)", o.PartitionKey, from, o.SortKey, e.prefix), On: "table"},
		{Name: fmt.Sprintf("%s's %s from %s (reverse)", e.dst, edges, e.src), Call: "Edge.To", Request: revRequest,
			KeyCondition: rev, Index: o.Index, On: o.Index + " (eventually consistent)"},
		{Name: "one edge", Call: "Edge.Get", Request: "GetItem",
			KeyCondition: fmt.Sprintf("%s = %q AND %s = %q", o.PartitionKey, from, o.SortKey, sk), On: "table"},
		{Name: fmt.Sprintf("%s item with its %s to %s", e.src, edges, e.dst), Call: "LoadNode", Request: "Query",
			KeyCondition: fmt.Sprintf("%s = %q", o.PartitionKey, from), On: "table"},
	}
	if e.src.isChild() {
		patterns = patterns[:3] // no node item to load with them
	}
	if e.t.layout == noIndex {
		patterns = append(patterns[:1], patterns[2:]...)
	}
	for i := range patterns {
		patterns[i].Item = item.Name
	}
	s.patterns = patterns
	return s
}

func (c *Collection[P, C]) describe() shape {
	o := c.t.opts
	k := c.it.formats()
	pk := modeldoc.Text(k.parent)
	item := &ItemType{
		Name: fmt.Sprintf("child %s of %s", c.childType, c.parent.typ), Kind: "child",
		Type: c.childType, From: c.parent.typ, PartitionKey: modeldoc.Text(k.pk), SortKey: modeldoc.Text(k.sk),
		Attributes: c.t.attributes(typeOf[C]()), Expiry: c.tr.expiry,
	}
	s := shape{t: c.t, err: c.err, item: item, it: &c.it, op: "Collection.ByIndex", keys: k}
	if c.t.layout == sortKeyIndex {
		s.withInverted(invertedKeys(c.t, k.sk, k.pk), 0)
	}
	list := fmt.Sprintf("%s = %q AND begins_with(%s, %q)", o.PartitionKey, pk, o.SortKey, c.prefix)
	patterns := []Pattern{
		{Name: fmt.Sprintf("%s's %s children, newest first", c.parent.typ, c.childType), Call: "Collection.List(id).Desc()", Request: "Query",
			KeyCondition: list + "; ScanIndexForward=false", On: "table"},
		{Name: fmt.Sprintf("count %s's %s children", c.parent.typ, c.childType), Call: "Collection.List(id).Count()", Request: "Query (keys only)",
			KeyCondition: list, On: "table"},
		{Name: "one " + c.childType, Call: "Collection.Get", Request: "GetItem",
			KeyCondition: fmt.Sprintf("%s = %q AND %s = %q", o.PartitionKey, pk, o.SortKey, c.prefix+"<child>"), On: "table"},
		{Name: fmt.Sprintf("%s and all its %s children", c.parent.typ, c.childType), Call: "Collection.Load", Request: "Query",
			KeyCondition: fmt.Sprintf("%s = %q", o.PartitionKey, pk), On: "table"},
	}
	if c.shards > 0 {
		shard := item.PartitionKey
		sharded := fmt.Sprintf("%d Queries in parallel, merged", c.shards)
		list = fmt.Sprintf("%s = %q AND begins_with(%s, %q)", o.PartitionKey, shard, o.SortKey, c.prefix)
		patterns[0].Request, patterns[0].KeyCondition = sharded, list+"; ScanIndexForward=false"
		patterns[1].Request, patterns[1].KeyCondition = sharded+" (keys only)", list
		patterns[2].KeyCondition = fmt.Sprintf("%s = %q AND %s = %q", o.PartitionKey, shard, o.SortKey, c.prefix+"<child>")
		patterns[3].Request = "GetItem of the parent, then " + sharded
		patterns[3].KeyCondition = list
	}
	for i := range patterns {
		patterns[i].Item = item.Name
	}
	s.patterns = patterns
	return s
}

func (e *Entity[T]) describe() shape {
	o := e.t.opts
	k := e.it.formats()
	item := &ItemType{Name: "entity " + e.name, Kind: "entity", Type: e.name,
		PartitionKey: modeldoc.Text(k.pk), SortKey: modeldoc.Text(k.sk), Expiry: e.tr.expiry}
	for _, a := range e.t.attributes(typeOf[T]()) {
		if !e.data.keyOnlyIn(a.Name) { // those live in the keys alone
			item.Attributes = append(item.Attributes, a)
		}
	}
	s := shape{t: e.t, err: e.err, item: item, it: &e.it, op: "Entity.ByIndex", keys: k}
	if e.err != nil {
		return s
	}
	if e.t.layout == sortKeyIndex {
		s.withInverted(invertedKeys(e.t, k.sk, k.pk), 0)
	}
	patterns := []Pattern{{Name: fmt.Sprintf("one %s item", e.name), Call: "Entity.Get", Request: "GetItem",
		KeyCondition: fmt.Sprintf("%s = %q AND %s = %q", o.PartitionKey, item.PartitionKey, o.SortKey, item.SortKey), On: "table"}}
	placeholders := make([]string, e.pkN)
	for i := range placeholders {
		placeholders[i] = "<" + e.fields[i] + ">"
	}
	if _, exact := e.sk.prefix(e.fields, placeholders); !exact {
		// The request List builds, rendered: not a key condition written
		// apart from it.
		list := patternOnly[EntityItem[T]]{q: e.List(placeholders...)}.describe()
		if list.err == nil {
			p := list.patterns[0]
			p.Name, p.Call = fmt.Sprintf("a partition's %s items", e.name), "Entity.List"
			patterns = append(patterns, p)
		}
	}
	for i := range patterns {
		patterns[i].Item = item.Name
	}
	s.patterns = patterns
	return s
}

// formats are the item type's keys as Describe draws them, from its
// templates (itemType.pk ...).
func (it *itemType) formats() keyParts {
	f := func(s spelling) []modeldoc.Part {
		if s == nil {
			return nil
		}
		groups := make([][]modeldoc.Part, len(s))
		for i, p := range s {
			switch {
			case p.kind != partField:
				groups[i] = []modeldoc.Part{modeldoc.TextPart(p.name)}
			case p.name == it.shardField:
				groups[i] = []modeldoc.Part{{Kind: modeldoc.PartShard, Name: fmt.Sprintf("%s, %d", p.name, it.shards)}}
			default:
				groups[i] = []modeldoc.Part{modeldoc.IDPart(p.name)}
			}
		}
		return modeldoc.Join(groups...)
	}
	return keyParts{pk: f(it.pk), sk: f(it.sk), self: f(it.self), source: f(it.source), target: f(it.target), parent: f(it.parent)}
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
	return shape{t: q.t, patterns: []Pattern{Pattern(pat)}}
}

// placeholderRE matches the expression package's placeholders (#0, :1).
var placeholderRE = modeldoc.Placeholders
