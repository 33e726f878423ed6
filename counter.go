package adjlist

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/counting"
	"github.com/adjlist/adjlist/internal/ddbexpr"
	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/modeldoc"
	"github.com/adjlist/adjlist/internal/walks"
)

// Count is the data of a count item kept by an [ItemCounter]. The count
// items of an edge's counter per target ([CounterOptions].Per "to") are
// also node items of the target type with the counter's name as marker:
// NewNode[Count](table, "CRS", "ENROLLED") reads them, and with a native
// index keyed on counter and count, its ByIndex lists the most counted
// targets in one Query.
type Count struct {
	// Counter is the counter's name, e.g. "ENROLLED".
	Counter string `dynamodbav:"counter"`
	// Count is the number of items counted, e.g. a course's enrolments.
	Count int64 `dynamodbav:"count"`
}

// CounterOptions configures [NewItemCounter].
type CounterOptions struct {
	// Stream, with Per "to", declares a counter kept from the table's
	// stream ([ItemCounter.Apply]): writes of its edges and cascades
	// ([DeleteNode], [DeleteChild], [DeletePartition]) change no count, and the stream's
	// records count them. Default false: the counter is kept at write
	// time. Without Per "to" it is [ErrInvalidOption].
	Stream bool
	// GroupBy names the top-level attribute whose value groups the
	// counted items, e.g. "status": one count per value, "OPEN#open",
	// "OPEN#closed". Default "": one count per parent. Per "to" refuses
	// it ([ErrInvalidOption]).
	GroupBy string
	// Per names the id of the counted items whose node the counts are
	// kept per, in that node's partition. Default "" (or the last id of
	// the items' partition key: "from" for an edge): per the items' own
	// partition, e.g. an edge's source node, its out-degree. "to", for an
	// [Edge] into nodes: per target node, its in-degree (PK
	// "CRS#math204", SK "ENROLLED"). Any other id is [ErrInvalidOption].
	Per string
}

// ItemCounter counts the items of one item type (a [Node], [Edge],
// [Collection] or [Entity]) under each parent, on count items in the
// parent's partition: per partition of the counted items (a collection's
// parent, an edge's source node) or per an edge's target node
// ([CounterOptions].Per "to"), and with [CounterOptions].GroupBy per value
// of one attribute. Issues of a project, counted by status:
//
//	PK = "PROJ#p1"  SK = "ISSUE#i1"       status = "open"
//	PK = "PROJ#p1"  SK = "OPEN#open"      counter = "OPEN", count = 2
//	PK = "PROJ#p1"  SK = "OPEN#closed"    counter = "OPEN", count = 5
//
// (SK "OPEN" without GroupBy.) One GetItem reads a count
// ([ItemCounter.Get]). Count items whose keys could be another type's are
// refused ([Table.Check]).
//
// Every write of the counted type keeps the counts true, in one
// TransactWriteItems with the write (about twice a plain write's capacity,
// plus 1 unit per count changed): Put adds 1 to its group, Delete
// subtracts 1, Replace and Update move 1 when the group changes. Writes
// that must learn the stored item (Replace; with GroupBy, Delete and an
// Update that sets or removes the attribute) read it first, strongly
// consistent, and are conditioned on what the counts read of it (its
// existence and GroupBy value): tried up to 3 times, then
// [ErrConditionFailed]; given [InTx] the read happens at the call, and a
// change of those before Commit fails Commit with [ErrConditionFailed]. In
// one transaction the changes of one count add up to one action. Items
// without the GroupBy attribute (missing or NULL) are not counted.
//
// Before any request: an update computing the GroupBy attribute (SetTo,
// Add, a nested path), a group value not a string, number or boolean,
// [WriteOptions].Token on a write that reads first, and bulk writes
// (PutMany, DeleteMany) are [ErrInvalidOption]; a group value that is not
// a valid id is [ErrInvalidKey]. The SDK's retries share one
// ClientRequestToken; after [ErrOutcomeUnknown] calling again counts
// nothing twice. Cascades ([DeleteNode], [DeleteChild], [DeletePartition]) count down what
// they delete; [Verify] checks the counts and [Repair] fixes them. A
// failed counted write's error names its counters ("counted by
// ENROLLED"). Writes leave a [CounterOptions].Stream counter alone.
// docs/modelling.md ("Counting items by group") walks through it. An
// ItemCounter is immutable and safe for concurrent use.
type ItemCounter struct {
	t    *Table
	name string
	by   string // CounterOptions.GroupBy; "" counts every item
	of   *itemType
	rid  string // the counted item type's record id
	agg  string // the count items' record id
	// parents is how many ids name a count's parent: the counted type's
	// partition key's, or 1 with per.
	parents int
	// keys are the count items' keys: the parent's partition, and SK
	// name, or name#{group} (the group the last id).
	keys keyCore
	// prefix is the counted type's sort key before its first id.
	prefix string
	// per is the index, in the counted type's ids, of the id the counts
	// are kept per (an edge's "to"); -1: the items' own partition.
	per int
	// into, with per, counts the items into node id, on the index.
	into   func(ctx context.Context, id string) (int, error)
	h      Describer
	stream bool // kept by [ItemCounter.Apply], not by the writes
	// node, for an edge's counter per target, is its count items as the
	// target type's node items, marker the counter's name: recorded as such,
	// so that a Node declared on them replaces the record; nil otherwise.
	node *Node[Count]
	// markers, with node, are the keys of Apply's per-edge markers, whose
	// ids are the edge's target and source: PK "CRS#{to}", SK
	// "ENROLLED##STU#{from}" (a child source's ref as it is).
	markers *keyCore
	err     error
}

// countable is a handle whose items an [ItemCounter] counts: a *Node,
// *Edge, *Collection or *Entity.
type countable interface {
	Describer
	handle() handle
}

// ended is a countable handle with an end the counts may be kept per
// ([CounterOptions].Per), apart from its partition: an edge's target.
type ended interface {
	countEnd(per, name string) (pk keycodec.Spelling, into func(ctx context.Context, id string) (int, error), node *Node[Count], markers *keyCore, err error)
}

// countEnd is the partition key spelling of the target nodes of e, per
// "to", the count of the edges into one on the index, counter name's
// count items as the target type's node items, and its stream's markers.
func (e *edgeCore) countEnd(per, name string) (keycodec.Spelling, func(context.Context, string) (int, error), *Node[Count], *keyCore, error) {
	switch {
	case per != "to":
		return nil, nil, nil, nil, fmt.Errorf("%w: an edge's counts are kept per \"from\" or \"to\", not %q", ErrInvalidOption, per)
	case e.dst.isChild():
		return nil, nil, nil, nil, fmt.Errorf("%w: edges into %s children have no node partition to keep counts in", ErrInvalidOption, e.dst)
	case name == e.dst.marker:
		return nil, nil, nil, nil, fmt.Errorf("%w: counter %s has the %s node items' marker", ErrInvalidOption, name, e.dst.typ)
	}
	markers := newKeyCore([]string{"to", "from"}, nodeSpelling(e.dst.typ, 0),
		keycodec.Text(name+"##").Then(e.src.keySpelling(1)), e.dst.typ, name)
	into := func(ctx context.Context, to string) (int, error) { // Edge.To(to).Count, judging items as its decoder does
		q := e.to(to)
		return qsCount(&q, ctx, func(item Item) (bool, error) {
			return e.t.decodeItem(&e.it, item, make([]string, 2), reflect.New(e.goType).Interface())
		})
	}
	node := newNode[Count](e.t, e.dst.typ, name, nil)
	return nodeSpelling(e.dst.typ, 0), into, node, &markers, node.err
}

// NewItemCounter returns the counter called name (1-64 ASCII letters,
// digits, '_', '-' or '.', e.g. "OPEN") of items' items, a *[Node],
// *[Edge], *[Collection] or *[Entity], per parent partition (or, with
// [CounterOptions].Per, per an edge's target node) and, with
// [CounterOptions].GroupBy, per value of that attribute. From then on
// every write of the type keeps the counts (see [ItemCounter]); declare
// it before writing. A bad name or handle, a sharded collection (its
// items of one parent span partitions), a Per that is no end of the
// items, Per with GroupBy, Stream without Per "to", a name that is the
// target's node marker, a table with a number sort key, or count keys
// that could be another item type's, make every call fail before any
// request ([ErrInvalidKey], [ErrInvalidOption]); [Table.Check] reports
// them too.
//
// The in-degree of an edge's targets (a course's enrolments), counted by
// every write of the edge, or, with Stream, by [ItemCounter.Apply]:
//
//	enrolments := adjlist.NewItemCounter(enrolled, "ENROLLED", func(o *adjlist.CounterOptions) { o.Per = "to" })
func NewItemCounter(items Describer, name string, optFns ...func(*CounterOptions)) *ItemCounter {
	var opts CounterOptions
	err := applyOptions(&opts, optFns)
	c := &ItemCounter{name: name, h: items, per: -1}
	h, ok := items.(countable)
	if !ok || isNil(items) {
		c.err = fmt.Errorf("%w: NewItemCounter counts the items of a *Node, *Edge, *Collection or *Entity", ErrInvalidOption)
		c.t = &Table{err: c.err}
		return c
	}
	hd := h.handle()
	c.t, c.of, c.rid, c.err = hd.t, hd.it, hd.it.kind, hd.err
	if n, ok := items.(interface{ recordID() string }); ok { // a node's names its marker
		c.rid = n.recordID()
	}
	c.err = cmp.Or(c.err, err)
	c.by = opts.GroupBy
	if c.err == nil {
		c.parents = c.of.keys.pk.Fields()
	}
	per := c.err == nil && opts.Per != "" && (c.parents == 0 || opts.Per != c.of.keys.fields[c.parents-1])
	var pk keycodec.Spelling
	switch {
	case c.err != nil:
	case opts.Stream && !per:
		c.err = fmt.Errorf("%w: counter %s: CounterOptions.Stream keeps an edge's counts per target (Per \"to\") only", ErrInvalidOption, name)
	case c.of.shards > 1:
		c.err = fmt.Errorf("%w: counter %s: the items of %s span %d partitions per parent", ErrInvalidOption, name, c.of.kind, c.of.shards)
	case c.t.numKey(c.t.opts.SortKey):
		c.err = fmt.Errorf("%w: counter %s: the table's sort key is a number", ErrInvalidOption, name)
	case c.by != "" && (c.t.isKeyAttr(c.by) || !ddbexpr.IsTopLevel(c.by)):
		c.err = fmt.Errorf("%w: counter %s: GroupBy %q is not a top-level data attribute", ErrInvalidOption, name, c.by)
	case per && c.by != "":
		c.err = fmt.Errorf("%w: counter %s: GroupBy with Per %q", ErrInvalidOption, name, opts.Per)
	case per:
		e, ok := items.(ended)
		if !ok {
			c.err = fmt.Errorf("%w: counter %s: Per %q names no end of %s", ErrInvalidOption, name, opts.Per, c.of.kind)
			break
		}
		var node *Node[Count]
		var markers *keyCore
		if pk, c.into, node, markers, c.err = e.countEnd(opts.Per, name); c.err != nil {
			c.err = fmt.Errorf("counter %s: %w", name, c.err)
			break
		}
		c.per, c.parents, c.node, c.markers, c.stream = slices.Index(c.of.keys.fields, opts.Per), 1, node, markers, opts.Stream
		c.err = checkName("counter", name)
	default:
		c.err = checkName("counter", name)
	}
	if c.err != nil {
		c.record()
		return c
	}
	fields := slices.Clip(c.of.keys.fields[:c.parents])
	if c.per < 0 {
		pk = c.of.keys.pk
		c.prefix, _ = c.of.keys.sk.Prefix(nil)
	} else {
		fields = []string{opts.Per}
	}
	sk := keycodec.Text(name)
	if c.by != "" {
		fields = append(fields, c.by)
		sk = keycodec.Text(name + "#").Then(keycodec.ID(len(fields)-1, c.by))
	}
	c.keys = newKeyCore(fields, pk, sk, c.of.keys.pkName, name)
	c.record()
	return c
}

// record records c's count items as an item type ("counter OPEN"),
// refused when it could have another type's keys, and c as a counter.
func (c *ItemCounter) record() {
	r := recorded{id: "counter " + c.name + " of " + c.rid, h: c, err: c.err, entity: true,
		Type: walks.Type{Name: "counter " + c.name, Match: c.parse}}
	if c.err == nil {
		r.pk, r.sk = c.keys.pk.Parts(c.keys.fields), c.keys.sk.Parts(c.keys.fields)
	}
	if n := c.node; n != nil {
		r = n.recorded()
		r.Name, r.h, r.spec, r.pk, r.sk = "counter "+c.name, c, n.scanSpec, n.it.pk, n.it.sk
		if c.err != nil { // not in place of a valid node type's record
			r.id, r.err, r.pk, r.sk = r.Name, c.err, nil, nil
		}
	}
	if err := c.t.record(r); err != nil && c.err == nil {
		c.err = err
	}
	if c.err != nil {
		return
	}
	c.agg = r.id
	c.t.recordCounter(c)
}

// marker reports whether item is one of Apply's per-edge markers.
func (c *ItemCounter) marker(item Item) bool {
	var ids [2]string
	return c.markers != nil && c.markers.parseItem(c.t, item, ids[:])
}

// parse reports whether item's keys are a count item's.
func (c *ItemCounter) parse(item Item) bool {
	if c.err != nil {
		return false
	}
	var buf [9]string
	ids := buf[:0]
	if len(c.keys.fields) > len(buf) {
		ids = make([]string, len(c.keys.fields))
	}
	return c.keys.parseItem(c.t, item, ids[:len(c.keys.fields)])
}

// describe is c's count items, "counter OPEN" of kind "counter": with
// Per, the target's node items; else in the partitions of what the
// counted items hang under, in no index.
func (c *ItemCounter) describe() shape {
	if c.err != nil {
		return shape{t: c.t, err: c.err}
	}
	var s shape
	var owner string
	if n := c.node; n != nil {
		s, owner = n.describe(), n.typ
	} else {
		s = c.h.describe()
		switch s.item.Kind {
		case "child", "edge":
			owner = s.item.From
		case "node":
			owner = s.item.Type
		}
		s.keys = modeldoc.KeyParts{PK: s.keys.PK, SK: modeldoc.Spelled(c.keys.sk.Parts(c.keys.fields), "", 0)}
		s.it, s.indexes = &itemType{kind: "counter " + c.name}, nil
	}
	item := *s.item
	item.Name, item.Kind, item.Type, item.From, item.To = "counter "+c.name, "counter", c.name, "", owner
	if c.node == nil {
		item.Indexes, item.Attributes, item.SortKey = nil, nil, modeldoc.Text(s.keys.SK)
	}
	s.item, s.patterns = &item, nil // Get's alone
	// Get's request for the partition as drawn and a placeholder group.
	ids := make([]string, len(c.keys.fields))
	c.keys.pk.Parse(item.PartitionKey, ids)
	what := fmt.Sprintf("the %s count of one %s parent", c.name, c.of.kind)
	if owner != "" {
		what = fmt.Sprintf("one %s's %s count", owner, c.name)
	}
	if c.by != "" {
		ids[len(ids)-1] = "<" + c.by + ">"
		what += " by " + c.by
	}
	pk, sk, err := c.keys.key(c.t, ids)
	s.add(c.t.getPattern(what, "ItemCounter.Get", Key{pk, sk}, nil, err))
	return s
}

// Get returns the count of the items under the parent with ids parent
// (the ids of the counted type's partition key: a collection's parent id,
// an edge's source id, a node's id, an Entity's partition key fields) in
// group (the GroupBy attribute's value as text, e.g. "open", "42",
// "true"; "" without GroupBy), with one GetItem: 0 when none was ever
// counted. Bad ids are [ErrInvalidKey] before any request.
func (c *ItemCounter) Get(ctx context.Context, parent IDs, group string, optFns ...func(*ReadOptions)) (int64, error) {
	const op = "ItemCounter.Get"
	ctx, sp := c.t.startSpan(ctx, op)
	if c.err != nil {
		return 0, sp.Done(c.t.opErr(op, "", "", c.err))
	}
	if len(parent) != c.parents || (c.by == "") != (group == "") {
		return 0, sp.Done(c.t.opErr(op, "", "", fmt.Errorf("%w: counter %s takes %d parent ids and %s", ErrInvalidKey, c.name, c.parents,
			map[bool]string{true: "no group", false: "a group"}[c.by == ""])))
	}
	ids := make([]string, len(c.keys.fields))
	copy(ids, parent)
	if c.by != "" {
		ids[len(ids)-1] = group
	}
	pk, sk, err := c.keys.key(c.t, ids)
	if err != nil {
		return 0, sp.Done(c.t.opErr(op, pk, sk, err))
	}
	item, err := c.t.getItem(ctx, op, pk, sk, readOptions(optFns))
	if errors.Is(err, ErrNotFound) {
		return 0, sp.Done(nil)
	}
	if err != nil {
		return 0, sp.Done(err)
	}
	var v Count
	if err := c.t.unmarshalData(item, &v); err != nil {
		return 0, sp.Done(c.t.opErr(op, pk, sk, err))
	}
	return v.Count, sp.Done(nil)
}

// Apply applies one DynamoDB Streams record of an edge counted by c, from
// → to, to the count of a counter declared with [CounterOptions].Stream
// (on another, [ErrInvalidOption] before any request): present is whether
// the edge exists after the record (true for INSERT and MODIFY, false for
// REMOVE), sequence is the record's SequenceNumber. It is idempotent:
// each edge has a marker item beside the count,
//
//	PK = "CRS#math204"  SK = "ENROLLED##STU#a91"   seq, present
//
// and one TransactWriteItems (a 2-item transaction, 4 write capacity
// units for small items) updates the marker, conditioned on the record
// changing the edge's presence and being newer than the last one applied
// to that edge, and adds ±1 to the count. A duplicate, a replay, a
// MODIFY or the REMOVE of an edge never counted fails the condition, and
// Apply returns nil with nothing changed. It relies only on DynamoDB
// Streams keeping each item's records in order, so records of different
// edges may be applied in any order and in parallel; once every record
// has been applied at least once, the count equals the edges present.
// Edges that existed before the stream was read from its start are not
// counted. The markers stay (a removed edge's records present = false).
//
// A sequence that is not 1 to 40 decimal digits, or bad ids, fail before
// any request with [ErrInvalidOption] or [ErrInvalidKey].
func (c *ItemCounter) Apply(ctx context.Context, sequence, from, to string, present bool) (err error) {
	const op = "ItemCounter.Apply"
	t := c.t
	ctx, sp := t.startSpan(ctx, op)
	defer sp.End(&err)
	if c.err != nil {
		return t.opErr(op, "", "", c.err)
	}
	if !c.stream {
		return t.opErr(op, "", "", fmt.Errorf("%w: counter %s is kept at write time: declare it with CounterOptions.Stream to apply stream records", ErrInvalidOption, c.name))
	}
	seq, ok := counting.Sequence(sequence)
	if !ok {
		return t.opErr(op, "", "", fmt.Errorf("%w: sequence number %q", ErrInvalidOption, sequence))
	}
	pk, aggSK, err := c.keys.key(t, []string{to})
	if err != nil {
		return t.opErr(op, pk, aggSK, err)
	}
	_, markerSK, err := c.markers.key(t, []string{to, from})
	if err != nil {
		return t.opErr(op, pk, markerSK, err)
	}
	actions, err := counting.Apply(t.tableName, t.opts.PartitionKey, c.name, t.keyItem(pk, markerSK), t.keyItem(pk, aggSK), seq, present)
	if err != nil {
		return t.opErr(op, pk, markerSK, err)
	}
	_, err = t.client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: actions}, callOpts(ctx)...)
	if codes, ok := cancelCodes(err); ok && len(codes) > 0 && codes[0] == "ConditionalCheckFailed" {
		return nil // applied before, or no change of presence
	}
	if err != nil {
		return t.opErr(op, pk, markerSK, err)
	}
	return nil
}

// group is the GroupBy value item holds as a count's key text; ok is
// false for an item not counted (no GroupBy attribute, or NULL).
func (c *ItemCounter) group(item Item) (g string, ok bool, err error) {
	if c.by == "" {
		return "", true, nil
	}
	switch v := item[c.by].(type) {
	case nil, *types.AttributeValueMemberNULL:
		return "", false, nil
	case *types.AttributeValueMemberS:
		return v.Value, true, nil
	case *types.AttributeValueMemberN:
		return v.Value, true, nil
	case *types.AttributeValueMemberBOOL:
		return strconv.FormatBool(v.Value), true, nil
	}
	return "", false, fmt.Errorf("%w: counter %s groups by %q, which holds neither a string, a number nor a boolean", ErrInvalidOption, c.name, c.by)
}

// target is the count item (with its table keys) counts towards; ok is
// false for an item not counted.
func (c *ItemCounter) target(item Item) (Key, bool, error) {
	g, ok, err := c.group(item)
	if !ok || err != nil {
		return Key{}, false, err
	}
	if c.per >= 0 {
		ids := make([]string, len(c.of.keys.fields))
		if !c.of.keys.parseItem(c.t, item, ids) {
			return Key{}, false, nil
		}
		pk, sk, err := c.keys.key(c.t, ids[c.per:c.per+1])
		return Key{pk, sk}, err == nil, err
	}
	pk, ok := c.t.keyText(item, c.t.opts.PartitionKey)
	if !ok {
		return Key{}, false, nil
	}
	if c.by == "" {
		return Key{pk, c.name}, true, nil
	}
	ids := make([]string, len(c.keys.fields))
	ids[len(ids)-1] = g
	sk, err := c.keys.sortKey(ids)
	if err == nil {
		err = c.t.checkKeys(c.name, pk, sk)
	}
	return Key{pk, sk}, err == nil, err
}

// recount counts the items counted towards the count item agg: a
// strongly consistent Query of its partition projecting keys and the
// GroupBy attribute; with per, the items into its node, on the index.
func (c *ItemCounter) recount(ctx context.Context, agg Key) (int64, error) {
	t := c.t
	if c.per >= 0 {
		var id [1]string
		if !c.keys.parseItem(t, t.keyItem(agg.PK, agg.SK), id[:]) {
			return 0, fmt.Errorf("adjlist: %v is not a count of counter %s", agg, c.name)
		}
		n, err := c.into(ctx, id[0])
		return int64(n), err
	}
	k := t.partitionKeys(agg.PK)
	k.skPrefix, k.keysOnly = c.prefix, c.by == ""
	q := newQuerySpec(t, "ItemCounter.recount", k)
	qsConsistentRead(&q)
	if c.by != "" {
		qsProjected(&q, []string{c.by})
	}
	if q.err != nil {
		return 0, q.err
	}
	n, err := q.run.Count(ctx, func(item Item) (bool, error) {
		if !c.of.keys.parseItem(t, item, make([]string, len(c.of.keys.fields))) {
			return false, nil
		}
		to, ok, _ := c.target(item)
		return ok && to == agg, nil
	})
	return int64(n), err
}

// countedAttempts bounds the tries of a counted write whose item changed
// between its read and its write.
const countedAttempts = 3

// countersOf returns the counters of item type it (of the same kind and
// keys, declared on any handle of it); nil, allocating nothing, when it
// has none.
func (t *Table) countersOf(it *itemType) []*ItemCounter {
	m := t.reg.items.Load()
	if m == nil {
		return nil
	}
	cs := (*m)[it.kind]
	other := func(c *ItemCounter) bool { return !slices.Equal(c.of.pk, it.pk) || !slices.Equal(c.of.sk, it.sk) }
	if !slices.ContainsFunc(cs, other) {
		return cs
	}
	if cs = slices.DeleteFunc(slices.Clone(cs), other); len(cs) == 0 {
		return nil
	}
	return cs
}

// grouped reports whether a counter of cs groups by an attribute.
func grouped(cs []*ItemCounter) bool {
	return slices.ContainsFunc(cs, func(c *ItemCounter) bool { return c.by != "" })
}

// stored is what a counted write read of its item.
type stored struct {
	found bool
	item  Item
}

// readStored reads the item k, strongly consistent.
func (t *Table) readStored(ctx context.Context, k Key) (stored, error) {
	res, err := t.client.GetItem(ctx, &dynamodb.GetItemInput{TableName: t.tableName, Key: t.keyItem(k.PK, k.SK),
		ConsistentRead: aws.Bool(true)}, callOpts(ctx)...)
	if err != nil {
		return stored{}, err
	}
	return stored{found: res.Item != nil, item: res.Item}, nil
}

// same reports whether s and o agree on what cs count: existence and each
// GroupBy attribute's value.
func (s stored) same(o stored, cs []*ItemCounter) bool {
	if s.found != o.found {
		return false
	}
	for _, c := range cs {
		if c.by != "" && s.found && !reflect.DeepEqual(s.item[c.by], o.item[c.by]) {
			return false
		}
	}
	return true
}

// cond is the condition that the item is still as s read it, for cs:
// absent, or present with each GroupBy attribute's value.
func (s stored) cond(t *Table, cs []*ItemCounter) expression.ConditionBuilder {
	pk := expression.Name(t.opts.PartitionKey)
	if !s.found {
		return expression.AttributeNotExists(pk)
	}
	cond := expression.AttributeExists(pk)
	seen := map[string]bool{}
	for _, c := range cs {
		if c.by == "" || seen[c.by] {
			continue
		}
		seen[c.by] = true
		n := expression.Name(c.by)
		switch v := s.item[c.by].(type) {
		case nil:
			cond = cond.And(expression.AttributeNotExists(n))
		case *types.AttributeValueMemberNULL:
			cond = cond.And(expression.AttributeType(n, expression.Null))
		case *types.AttributeValueMemberS, *types.AttributeValueMemberN, *types.AttributeValueMemberBOOL:
			cond = cond.And(n.Equal(expression.Value(v))) // the builder takes an AttributeValue as it is
		default:
			cond = cond.And(expression.AttributeExists(n)) // refused by group
		}
	}
	return cond
}

// moves adds to tx the changes of cs's counts from the item k before
// (found but not read: its keys only) to the item after (nil: deleted).
func (t *Table) moves(tx *Tx, cs []*ItemCounter, k Key, before stored, after Item) error {
	if before.found && before.item == nil { // a delete not read: ungrouped
		before.item = t.keyItem(k.PK, k.SK)
	}
	for _, c := range cs {
		var from, to Key
		var wasCounted, isCounted bool
		var err error
		if before.found {
			from, wasCounted, err = c.target(before.item)
		}
		if err == nil && after != nil {
			to, isCounted, err = c.target(after)
		}
		if err != nil {
			return err
		}
		if wasCounted && isCounted && from == to {
			continue
		}
		if wasCounted {
			t.txCount(tx, c.name, from, -1)
		}
		if isCounted {
			t.txCount(tx, c.name, to, 1)
		}
	}
	return nil
}

// txCount adds delta to counter name's count item k in tx, in one action
// with a change of that count tx has already.
func (t *Table) txCount(tx *Tx, name string, k Key, delta int64) {
	if d, ok := tx.counts[k]; ok { // added before: the Tx has its action
		tx.counts[k] = d + delta
		tx.w.Replace(k.PK, k.SK, counting.Add(t.tableName, t.keyItem(k.PK, k.SK), name, d+delta, ""))
		return
	}
	if tx.err != nil {
		return
	}
	tx.add(k, keySize(t, k)+32, counting.Add(t.tableName, t.keyItem(k.PK, k.SK), name, delta, ""), nil)
	if tx.err == nil {
		if tx.counts == nil {
			tx.counts = map[Key]int64{}
		}
		tx.counts[k] = delta
	}
}

// counted runs one write op of a counted item k with its counts' changes
// in one transaction: [WriteOptions.Tx]'s, or its own. add adds the
// item's write given what was stored before (read when reads is set;
// else found, unread); it is first run on a scratch Tx to refuse bad
// input before any request. A write that read the item is conditioned on
// it as read and tried [countedAttempts] times at most.
func (h handle) counted(ctx context.Context, op string, k *keyed, keyErr error, reads bool, optFns []func(*WriteOptions),
	add func(tx *Tx, o *WriteOptions, before stored) error) error {
	o := writeOptions(optFns)
	if keyErr == nil && reads && o.Token != "" && o.Tx == nil {
		keyErr = fmt.Errorf("%w: WriteOptions.Token on a write that reads the item first to keep its counters: call it again instead", ErrInvalidOption)
	}
	once := func(ctx context.Context, tx *Tx) (stored, error) {
		if keyErr != nil {
			return stored{}, keyErr
		}
		scratch := &Tx{t: h.t}
		if err := add(scratch, &o, stored{found: !reads}); err != nil || scratch.err != nil {
			return stored{}, cmp.Or(err, scratch.err)
		}
		before := stored{found: true}
		if reads {
			var err error
			if before, err = h.t.readStored(ctx, k.key()); err != nil {
				return before, err
			}
			o2 := o
			If(before.cond(h.t, h.t.countersOf(h.it)))(&o2)
			return before, add(tx, &o2, before)
		}
		return before, add(tx, &o, before)
	}
	if o.Tx != nil {
		return h.inTx(o.Tx, op, k, func() error { _, err := once(ctx, o.Tx); return err })
	}
	ctx, sp := h.t.startSpan(ctx, op)
	for attempt := 1; ; attempt++ {
		tx := NewTx(h.t)
		before, err := once(ctx, tx)
		if err == nil {
			err = tx.err
		}
		if err != nil {
			return sp.Done(h.t.opErr(op, k.kc.PK, k.kc.SK, err))
		}
		err = tx.Commit(ctx, func(to *TxOptions) { to.Token = o.Token })
		var oe *OpError
		if errors.As(err, &oe) && oe.Op == "Tx.Commit" {
			err = &OpError{Op: op, Table: h.t.name, PK: k.kc.PK, SK: k.kc.SK, Err: counterNames(oe.Err, h.t.countersOf(h.it)), Failed: oe.Failed}
		}
		if err == nil || !reads || attempt == countedAttempts || !errors.Is(err, ErrConditionFailed) {
			return sp.Done(err)
		}
		now, rerr := h.t.readStored(ctx, k.key())
		if rerr != nil {
			return sp.Done(h.t.opErr(op, k.kc.PK, k.kc.SK, rerr))
		}
		if now.same(before, h.t.countersOf(h.it)) {
			return sp.Done(err) // the caller's condition, not a change of the item
		}
	}
}

// counterNames wraps err, a counted write's failed transaction, with the
// names of the counters cs the write kept, e.g. "counted by ENROLLED".
func counterNames(err error, cs []*ItemCounter) error {
	if len(cs) == 0 {
		return err
	}
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.name
	}
	return fmt.Errorf("%w (counted by %s)", err, strings.Join(names, ", "))
}

// countedPut is put of a counted item: a Replace reads the item first to
// move it between counts.
func (h handle) countedPut(ctx context.Context, op string, g guardKind, k *keyed, keyErr error, data any, optFns []func(*WriteOptions), cs []*ItemCounter) error {
	return h.counted(ctx, op, k, keyErr, g != guardAbsent, optFns, func(tx *Tx, o *WriteOptions, before stored) error {
		w := new(writeCond) // the Tx keeps it until Commit
		kk := *k
		item, err := h.putItem(w, g, &kk, nil, data, o)
		if err != nil {
			return err
		}
		tx.put(op, kk.key(), item, w)
		if g == guardAbsent {
			before = stored{}
		}
		return h.t.moves(tx, cs, kk.key(), before, item)
	})
}

// countedDel is del of a counted item, read first when a counter groups.
func (h handle) countedDel(ctx context.Context, op string, k *keyed, keyErr error, optFns []func(*WriteOptions), cs []*ItemCounter) error {
	return h.counted(ctx, op, k, keyErr, grouped(cs), optFns, func(tx *Tx, o *WriteOptions, before stored) error {
		w, err := h.change(actDelete, nil, nil, o)
		if err != nil {
			return err
		}
		tx.del(op, k.key(), w)
		return h.t.moves(tx, cs, k.key(), before, nil)
	})
}

// groupsSet reports whether update sets or removes a GroupBy attribute
// of cs, and what each top-level attribute it names becomes; changing one
// to a value not known before it runs is ErrInvalidOption.
func (t *Table) groupsSet(update Update, cs []*ItemCounter) (map[string]ddbexpr.Assignment, bool, error) {
	if !grouped(cs) {
		return nil, false, nil
	}
	as, err := ddbexpr.Assignments(update.ops, t.enc)
	if err != nil {
		return nil, false, err
	}
	touched := false
	for _, c := range cs {
		a, ok := as[c.by]
		if c.by == "" || !ok {
			continue
		}
		if !a.Known {
			return nil, false, fmt.Errorf("%w: counter %s groups by %q, which an update may only Set to a value or Remove", ErrInvalidOption, c.name, c.by)
		}
		touched = true
	}
	return as, touched, nil
}

// countedUpdate is update of a counted item that sets or removes a
// GroupBy attribute (as): the item is read first, and read again after
// into out (left zero with [WriteOptions.Tx]). The update is applied once
// the transaction commits, so an item another writer deleted before the
// read back leaves out zero rather than fail the update with ErrNotFound.
func (h handle) countedUpdate(ctx context.Context, op string, k *keyed, keyErr error, update Update, optFns []func(*WriteOptions), cs []*ItemCounter, as map[string]ddbexpr.Assignment, out any) error {
	err := h.counted(ctx, op, k, keyErr, true, optFns, func(tx *Tx, o *WriteOptions, before stored) error {
		w, err := h.change(actUpdate, nil, nil, o)
		if err != nil {
			return err
		}
		kc := k.kc // kept by tx until Commit
		tx.update(op, h.it, &kc, update, w)
		if !before.found {
			return nil // the guard fails: ErrNotFound
		}
		after := maps.Clone(before.item)
		for _, c := range cs {
			if a, ok := as[c.by]; ok && c.by != "" {
				if a.Value == nil {
					delete(after, c.by)
				} else {
					after[c.by] = a.Value
				}
			}
		}
		return h.t.moves(tx, cs, k.key(), before, after)
	})
	if err != nil || writeOptions(optFns).Tx != nil {
		return err
	}
	err = h.get(ctx, op, k, nil, []func(*ReadOptions){func(o *ReadOptions) { o.ConsistentRead = true }}, out)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// countsOf is the counts of counted a cascade counts down when it
// deletes item k: none when the count's partition is deleted whole (a
// decrement would write it again) or the item is gone.
func (t *Table) countsOf(ctx context.Context, counted map[string][]*ItemCounter, whole func(pk string) bool, k Key) ([]counting.Counted, error) {
	if len(counted) == 0 {
		return nil, nil
	}
	r, ok := t.typeOf(t.keyItem(k.PK, k.SK))
	if !ok {
		return nil, nil
	}
	var out []counting.Counted
	for _, c := range counted[r.id] {
		item := t.keyItem(k.PK, k.SK)
		if c.by != "" {
			if whole(k.PK) { // the count's partition: not read
				continue
			}
			s, err := t.readStored(ctx, k)
			if err != nil {
				return nil, err
			}
			if !s.found {
				continue
			}
			item = s.item
		}
		if agg, ok, err := c.target(item); ok && err == nil && !whole(agg.PK) {
			out = append(out, counting.Counted{Name: c.name, Aggregate: t.keyItem(agg.PK, agg.SK)})
		}
	}
	return out, nil
}

// delCounting deletes a cascade's own item whatever its version
// (ErrNotFound when missing), counted down if its type has counters.
func (t *Table) delCounting(ctx context.Context, op string, it *itemType, pk, sk string) error {
	h := handle{t: t, it: it, tr: &tracking{}}
	k := keyed{kc: keyCtx{PK: pk, SK: sk}}
	if cs := t.countersOf(it); cs != nil {
		return h.countedDel(ctx, op, &k, nil, nil, cs)
	}
	w, err := h.change(actDelete, nil, nil, nil)
	if err != nil {
		return t.opErr(op, pk, sk, err)
	}
	return t.del(ctx, op, pk, sk, w, "")
}
