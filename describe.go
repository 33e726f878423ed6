package adjlist

import (
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/modeldoc"
)

// Describer is a handle that can describe its item shape and access
// patterns for [Describe] and [DescribeModel]: *Node, *Edge, *Collection,
// *Entity and *ItemCounter (its count items) implement it, and [AccessPattern]
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

// newShape is the shape of item type it, with its entry in the inverted
// index if its items are in it ([Table.keyFormats]).
func (t *Table) newShape(err error, item *ItemType, it *itemType, op string, k modeldoc.KeyParts) shape {
	s := shape{t: t, err: err, item: item, it: it, op: op, keys: k}
	if t.layout == noIndex || err != nil {
		return s
	}
	if pk, sk, in := t.keyFormats(t.opts.Index, it); in {
		o := &t.opts
		x := modeldoc.Table{Index: o.Index, IndexPartitionKey: o.IndexPartitionKey, IndexSortKey: o.IndexSortKey,
			PartitionOnly: t.layout == sortKeyOnlyIndex}.Inverted(pk, sk)
		shards := 0
		if it.edge != nil {
			shards = it.edge.shards
		}
		s.indexes = []modeldoc.IndexFormats{x}
		s.item.Indexes = []ItemKeys{ItemKeys(x.Keys(shards))}
	}
	return s
}

// Describe writes t's single-table design as Markdown: a table of item
// types (partition key | sort key | index keys | attributes, ids as
// <placeholders>), the Time to Live attribute, each index of
// [Options].Indexes with its keys, projection and the item types in it
// (`STATUS#<status>`, `<createdAt>`), and a table of access patterns
// (call, request, key condition, table or index). It renders
// [DescribeModel]'s model (with no handles, every recorded item type) and
// makes no request. It returns the first handle error (e.g.
// [ErrInvalidKey]) or write error.
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

func (n *nodeCore) describe() shape {
	k := n.it.formats()
	pk, sk := modeldoc.Text(k.PK), modeldoc.Text(k.SK)
	item := &ItemType{Name: "node " + n.typ, Kind: "node", Type: n.typ, PartitionKey: pk, SortKey: sk,
		Attributes: n.t.attributes(n.goType), Expiry: n.tr.Expiry}
	s := n.t.newShape(n.err, item, &n.it, "Node.ByIndex", k)
	g, err := n.keyed("<id>")
	s.add(n.t.getPattern("get one "+n.typ, "Node.Get", g.key(), nil, err))
	return s
}

func (e *edgeCore) describe() shape {
	k := e.it.formats()
	from, sk := modeldoc.Text(k.PK), modeldoc.Text(k.SK)
	item := &ItemType{
		Name: fmt.Sprintf("edge %s (%s → %s)", e.label, e.src, e.dst), Kind: "edge",
		Type: e.label, From: e.src.String(), To: e.dst.String(), PartitionKey: from, SortKey: sk,
		Attributes: e.t.attributes(e.goType), Expiry: e.tr.Expiry,
	}
	if e.label == "" {
		item.Name = fmt.Sprintf("edge %s → %s", e.src, e.dst)
	}
	s := e.t.newShape(e.err, item, &e.it, "Edge.ByIndex", k)
	if e.err != nil {
		return s
	}
	// The requests the reads send for placeholder ids: a node's "<from>",
	// a child's ref as drawn ("WS#<from parent>#PROJ#<from>").
	fromID, toID := "<from>", "<to>"
	if e.src.isChild() {
		fromID = modeldoc.Text(k.PK)
	}
	if e.dst.isChild() {
		toID = modeldoc.Text(k.Target)
	}
	// Name the label: two edge kinds between the same node types must read
	// apart ("STU's ENROLL edges to CRS", "STU's WAITLIST edges to CRS").
	edges := "edges"
	if e.label != "" {
		edges = e.label + " edges"
	}
	fq := e.from(fromID)
	s.add(queryPattern(&fq, fmt.Sprintf("%s's %s to %s (forward)", e.src, edges, e.dst), "Edge.From", false, ""))
	if e.t.layout != noIndex {
		to := e.to(toID)
		s.add(queryPattern(&to, fmt.Sprintf("%s's %s from %s (reverse)", e.dst, edges, e.src), "Edge.To", false, "from"))
	}
	g, err := e.keyed(fromID, toID)
	s.add(e.t.getPattern("one edge", "Edge.Get", g.key(), nil, err))
	if !e.src.isChild() { // no node item to load with them
		pk, _, err := e.src.item(fromID)
		q := partitionSpec(e.t, "LoadNode", pk, err)
		s.add(queryPattern(&q, fmt.Sprintf("%s item with its %s to %s", e.src, edges, e.dst), "LoadNode", false, ""))
	}
	return s
}

func (c *collectionCore) describe() shape {
	k := c.it.formats()
	item := &ItemType{
		Name: fmt.Sprintf("child %s of %s", c.childType, c.parent.name()), Kind: "child",
		Type: c.childType, From: c.parent.name(), PartitionKey: modeldoc.Text(k.PK), SortKey: modeldoc.Text(k.SK),
		Attributes: c.t.attributes(c.goType), Expiry: c.tr.Expiry,
	}
	s := c.t.newShape(c.err, item, &c.it, "Collection.ByIndex", k)
	if c.err != nil {
		return s
	}
	// The requests the reads send for a placeholder parent: a node's
	// "<id>", a parent child's ref as drawn ("ORG#<id>#PROJ#<PROJ id>").
	parentID, parent, child := "<id>", c.parent.name(), c.childType
	if c.parent.node == nil {
		parentID = modeldoc.Text(k.Parent)
	}
	list := c.list(parentID)
	desc := list
	qsDesc(&desc)
	s.add(queryPattern(&desc, fmt.Sprintf("%s's %s children, newest first", parent, child), "Collection.List(id).Desc()", false, "child"))
	s.add(queryPattern(&list, fmt.Sprintf("count %s's %s children", parent, child), "Collection.List(id).Count()", true, "child"))
	g, err := c.keyed(parentID, "<child>")
	var shard map[string]string
	if c.shards > 0 && err == nil {
		// The child's own shard, written as the placeholder List's is.
		shard = map[string]string{g.kc.PK: fmt.Sprintf("%s#<shard of child, %d>", list.run.PK, c.shards)}
	}
	s.add(c.t.getPattern("one "+child, "Collection.Get", g.key(), shard, err))
	load := fmt.Sprintf("%s and all its %s children", parent, child)
	if c.shards > 0 || c.parent.node == nil {
		// The parent item is not in the children's partition: Load reads
		// it with a GetItem, then the children as List does.
		p, err := queryPattern(&list, load, "Collection.Load", false, "child")
		p.Request = "GetItem of the parent, then " + p.Request
		s.add(p, err)
	} else {
		pk, _, err := c.parent.node.key(parentID)
		q := partitionSpec(c.t, "Collection.Load", pk, err)
		s.add(queryPattern(&q, load, "Collection.Load", false, ""))
	}
	return s
}

func (e *entityCore) describe() shape {
	k := e.it.formats()
	item := &ItemType{Name: "entity " + e.name, Kind: "entity", Type: e.name,
		PartitionKey: modeldoc.Text(k.PK), SortKey: modeldoc.Text(k.SK), Expiry: e.tr.Expiry}
	for _, a := range e.t.attributes(e.goType) {
		if !e.data.KeyOnlyIn(a.Name) { // those live in the keys alone
			item.Attributes = append(item.Attributes, a)
		}
	}
	s := e.t.newShape(e.err, item, &e.it, "Entity.ByIndex", k)
	if e.err != nil {
		return s
	}
	// The requests the reads send for ids "<field>"; a number key's field
	// takes a number that stands in for it, written as "<field>".
	ids := make([]string, len(e.fields))
	subst := map[string]string{}
	for i, f := range e.fields {
		ids[i] = "<" + f + ">"
		if slices.Contains(e.numIDs, i) {
			n := strconv.Itoa(numberStandIn + i)
			ids[i], subst[n] = n, "<"+f+">"
		}
	}
	g, err := e.keyed(ids)
	s.add(e.t.getPattern(fmt.Sprintf("one %s item", e.name), "Entity.Get", g.key(), subst, err))
	if _, exact := e.it.keys.sk.Prefix(ids[:e.pkN]); !exact {
		// List's request, written as AccessPattern writes it.
		if q := e.list(ids[:e.pkN]); q.err == nil {
			p := modeldoc.QueryPattern(fmt.Sprintf("a partition's %s items", e.name),
				modeldoc.Query{In: &q.run.In, Keys: q.t.projected(""), Op: q.op, Values: subst})
			p.Call = "Entity.List"
			s.add(p, nil)
		}
	}
	return s
}

// numberStandIn is the first of the numbers that stand in for a number
// key's ids in Describe's requests, unlike any number a key template
// holds.
const numberStandIn = 900719925474099

// add appends p, of s's item type, to s's patterns; an error is s's if
// s has none.
func (s *shape) add(p modeldoc.Pattern, err error) {
	if err != nil {
		if s.err == nil {
			s.err = err
		}
		return
	}
	if s.item != nil {
		p.Item = s.item.Name
	}
	s.patterns = append(s.patterns, p)
}

// getPattern is the access pattern name of the GetItem call sends for the
// item k, the values subst names written as it says.
func (t *Table) getPattern(name, call string, k Key, subst map[string]string, keyErr error) (modeldoc.Pattern, error) {
	if keyErr != nil {
		return modeldoc.Pattern{}, keyErr
	}
	in := t.getItemInput(k.PK, k.SK, ReadOptions{})
	return modeldoc.QueryPattern(name, modeldoc.Query{Get: in, Keys: t.tableCursorKeys, Op: call, Values: subst}), nil
}

// queryPattern is the access pattern name of the Query that q sends (or
// its Count, keys only, if count) made by call, its key condition
// written plainly; a sharded read's partition is written with its shard
// placeholder, the shard picked by shardOf's id ("child").
func queryPattern(q *querySpec, name, call string, count bool, shardOf string) (modeldoc.Pattern, error) {
	if q.err != nil {
		return modeldoc.Pattern{}, q.err
	}
	in := q.run.In
	if count {
		e, err := qsExpressions(q, true)
		if err == nil {
			in.ExpressionAttributeValues, err = e.Values(q.run.PK)
		}
		if err != nil {
			return modeldoc.Pattern{}, err
		}
		in.KeyConditionExpression, in.FilterExpression, in.ProjectionExpression = e.KeyCond, e.Filter, e.Proj
		in.ExpressionAttributeNames = e.Names
	}
	mq := modeldoc.Query{In: &in, Keys: q.t.projected(q.keys.index), Op: q.op, Calls: q.calls, Wraps: q.wraps, Shards: len(q.run.Shards), Plain: true}
	if len(q.run.Shards) > 0 && shardOf != "" {
		mq.Values = map[string]string{q.run.PK: fmt.Sprintf("%s#<shard of %s, %d>", q.run.PK, shardOf, len(q.run.Shards))}
	}
	p := modeldoc.QueryPattern(name, mq)
	p.Call = call
	return p, nil
}

// formats are the item type's keys as Describe draws them.
func (it *itemType) formats() modeldoc.KeyParts {
	f := func(s []keycodec.Part) []modeldoc.Part { return modeldoc.Spelled(s, it.shardField, it.shards) }
	return modeldoc.KeyParts{PK: f(it.pk), SK: f(it.sk), Self: f(it.self), Target: f(it.target), Parent: f(it.parent)}
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
	return patternOnly{name: name, q: q.querySpec}
}

type patternOnly struct {
	name string
	q    querySpec
}

func (p patternOnly) describe() shape {
	q := &p.q
	if q.err != nil {
		return shape{t: q.t, err: q.err}
	}
	pat := modeldoc.QueryPattern(p.name, modeldoc.Query{In: &q.run.In, Keys: q.t.projected(q.keys.index), Op: q.op, Wraps: q.wraps, Calls: q.calls, Shards: len(q.run.Shards)})
	return shape{t: q.t, patterns: []modeldoc.Pattern{pat}}
}
