package adjlist

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/adjlist/adjlist/internal/counting"
	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/modeldoc"
)

// Count is the data of an aggregate item kept by a [Counter].
type Count struct {
	// Counter is the counter's name, e.g. "ENROLLED". A native index keyed
	// on it (partition) and on count (sort, a number) lists the nodes with
	// the highest counts: see [Counter.Node].
	Counter string `dynamodbav:"counter"`
	// Count is the number of edges counted, e.g. a course's enrolments.
	Count int64 `dynamodbav:"count"`
}

// Counter keeps the in-degree of target nodes for one kind of edge (a
// course's enrolment count, a person's follower count, the people per
// skill) on an aggregate item in each target node's partition:
//
//	PK = "CRS#math204"  SK = "ENROLLED"   counter = "ENROLLED", count = 2
//
// It is kept one of two ways; use one per counter, not both:
//
//   - From DynamoDB Streams, after the fact: [Counter.Apply] applies one
//     stream record of an edge, idempotently, so at-least-once delivery
//     (duplicates, a batch replayed after a crash) cannot change the
//     result. See Apply for what it costs and promises. Declare such a
//     counter with [CounterOptions].Stream.
//   - At write time: [Counter.Put] and [Counter.Delete] write the edge and
//     the count in one TransactWriteItems, so the count is exact the moment
//     the write returns.
//
// A Counter is immutable and safe for concurrent use.
type Counter[E any] struct {
	edge *Edge[E]
	name string
	opts CounterOptions
	node *Node[Count]
	// marker is the keys of the per-edge markers of Apply, whose ids
	// are the edge's target and source: PK "CRS#{to}", SK
	// "ENROLLED##STU#{from}" (a child source's ref as it is).
	marker *keyCore
	err    error
}

// CounterOptions configures [NewCounter].
type CounterOptions struct {
	// Stream declares the counter kept from the table's stream
	// ([Counter.Apply]): a cascade ([DeleteNode], [DeleteChild]) deletes
	// its counted edges as it deletes any edge, and the stream's REMOVE
	// records count them down. Default false: the counter is kept at write
	// time, and a cascade deletes each counted edge and counts it down in
	// one transaction.
	Stream bool
}

// NewCounter returns the counter called name (1-64 ASCII letters, digits,
// '_', '-' or '.', e.g. "ENROLLED") of edge's edges into each target node.
// name must differ from the target node type's item marker; an invalid name
// or edge makes every call fail before any request ([ErrInvalidKey],
// [ErrInvalidOption]). The edge must end at nodes, in whose partitions the
// counts live: an edge into a collection's children ([Endpoint]) is
// [ErrInvalidOption]. Its source may be children; their refs then stand in
// the per-edge markers. A nil option function is [ErrInvalidOption].
func NewCounter[E any](edge *Edge[E], name string, optFns ...func(*CounterOptions)) *Counter[E] {
	c := &Counter[E]{edge: edge, name: name, err: edge.err}
	if c.err == nil {
		c.err = applyOptions(&c.opts, optFns)
	}
	if c.err == nil {
		c.err = checkName("counter", name)
	}
	if c.err == nil && edge.dst.isChild() {
		c.err = fmt.Errorf("%w: counter %s: edges into %s children have no node partition to keep counts in", ErrInvalidOption, name, edge.dst)
	}
	if c.err == nil && name == edge.dst.marker {
		c.err = fmt.Errorf("%w: counter %s has the %s node items' marker", ErrInvalidOption, name, edge.dst.typ)
	}
	c.node = newNode[Count](edge.t, edge.dst.typ, name, nil)
	marker := newKeyCore([]string{"to", "from"}, nodeSpelling(edge.dst.typ, 0),
		keycodec.Text(name+"##").Then(edge.src.keySpelling(1)), edge.dst.typ, name)
	c.marker = &marker
	if c.err == nil {
		c.err = c.node.err
	}
	_ = edge.t.record(c.recordedType())
	if c.err == nil {
		edge.t.recordCounter(c.recorded())
	}
	return c
}

// recordedType is the item type of c's aggregates as the table records
// it, "counter ENROLLED", whatever c's error: the item type of its node's
// items ([Node.recordID], so that either replaces the other when declared
// again), walked as they are.
func (c *Counter[E]) recordedType() recorded {
	r := c.node.recorded()
	r.name, r.h, r.spec = "counter "+c.name, c, c.node.scanSpec
	if c.err != nil {
		// Not in place of a valid node type's record (name may be the
		// target's marker).
		r.id, r.err, r.pk, r.sk = r.name, c.err, nil, nil
	}
	return r
}

// recorded is c as the table's record keeps it, for [Verify] and [Repair].
func (c *Counter[E]) recorded() counterRecord {
	target := func(item Item) (itemKey, bool) {
		_, to, ok := c.edge.split(item)
		pk, sk, err := c.node.Key(to)
		return itemKey{pk, sk}, ok && err == nil
	}
	return counterRecord{name: c.name, edge: c.edge.it.kind, aggregate: c.node.recordID(),
		target: target,
		marker: func(item Item) bool {
			_, ok, _ := c.Decode(keysOf(c.edge.t, item))
			return ok && !c.isAggregate(item)
		},
		counted: func(item Item) (counting.Counted, bool) {
			t := c.edge.t
			from, to, ok := c.edge.split(item)
			pk, sk, err := c.marker.key(t, []string{to, from})
			return counting.Counted{Name: c.name, Aggregate: t.keyItem(pk, c.name),
				Marker: t.keyItem(pk, sk)}, ok && err == nil
		},
		stream: c.opts.Stream,
		recount: func(ctx context.Context, agg itemKey) (int64, error) {
			v, ok, _ := c.node.decode(c.edge.t.keyItem(agg.pk, agg.sk))
			if !ok {
				return 0, fmt.Errorf("adjlist: %v is not an aggregate of counter %s", agg, c.name)
			}
			n, err := c.edge.To(v.ID).Count(ctx)
			return int64(n), err
		}}
}

// isAggregate reports whether item's keys are an aggregate item's.
func (c *Counter[E]) isAggregate(item Item) bool {
	_, ok, _ := c.node.decode(keysOf(c.edge.t, item))
	return ok
}

// Node returns the aggregate items as node items of the target type with
// marker name: Node().Get(ctx, "math204") reads one count, and with a
// native index on the counter and count attributes,
//
//	Options.Indexes = []adjlist.Index{{Name: "ByCount",
//		PartitionAttributes: []adjlist.KeyAttribute{{Name: "counter"}},
//		SortAttributes:      []adjlist.KeyAttribute{{Name: "count", Type: "N"}}}}
//
// Node().ByIndex("ByCount", "ENROLLED").Desc().Limit(10) lists the ten
// most counted targets in one Query.
func (c *Counter[E]) Node() *Node[Count] { return c.node }

// describe makes a Counter a [Describer]: its aggregate items, "counter
// ENROLLED" of kind "counter", in the target node type's partitions under
// sort key name (and in every native index keyed on the counter and count
// attributes), read by [Counter.Get].
func (c *Counter[E]) describe() shape {
	s := c.node.describe()
	if c.err != nil {
		s.err = c.err
	}
	item := s.item
	item.Name, item.Kind, item.Type, item.To = "counter "+c.name, "counter", c.name, c.node.typ
	s.op = "Counter.Node().ByIndex"
	s.patterns = []modeldoc.Pattern{modeldoc.GetPattern(c.edge.t.docTable(), fmt.Sprintf("one %s's %s count", c.node.typ, c.name),
		"Counter.Get", item.Name, item.PartitionKey, item.SortKey)}
	return s
}

// Get returns target node to's count with one GetItem: 0 when no edge was
// ever counted. Bad ids are [ErrInvalidKey] before any request.
func (c *Counter[E]) Get(ctx context.Context, to string) (int64, error) {
	ctx, sp := c.edge.t.startSpan(ctx, "Counter.Get")
	if c.err != nil {
		return 0, sp.done(c.edge.t.opErr("Counter.Get", "", "", c.err))
	}
	v, err := c.node.Get(ctx, to)
	if errors.Is(err, ErrNotFound) {
		return 0, sp.done(nil)
	}
	return v.Count, sp.done(err)
}

// Decode recognises the counter's own items (a stream of the table
// carries their changes too): an aggregate item decodes to its node id and
// Count, a per-edge marker item to its target node's id and a Count
// holding only the counter's name. ok is false for any other item. With
// it a Router of package github.com/adjlist/adjlist/streams can pass
// them over:
//
//	streams.On(r, counter, func(context.Context, streams.Event[adjlist.NodeItem[adjlist.Count]]) error { return nil })
//
// It makes no request and may modify item.
func (c *Counter[E]) Decode(item Item) (v NodeItem[Count], ok bool, err error) {
	if c.err != nil {
		return v, false, c.err
	}
	if v, ok, err = c.node.decode(item); ok || err != nil {
		return v, ok, err
	}
	var ids [2]string
	if !c.marker.parseItem(c.edge.t, item, ids[:]) {
		return NodeItem[Count]{}, false, nil
	}
	return NodeItem[Count]{ID: ids[0], Data: Count{Counter: c.name}}, true, nil
}

// Apply applies one DynamoDB Streams record of an edge of this kind, from
// → to, to the count: present is whether the edge exists after the record
// (true for INSERT and MODIFY, false for REMOVE), sequence is the record's
// SequenceNumber. It is idempotent and safe under at-least-once delivery.
// Each edge has a marker item beside the aggregate,
//
//	PK = "CRS#math204"  SK = "ENROLLED##STU#a91"   seq, present
//
// and the count changes only when the record changes the edge's presence
// and is newer than the last one applied to that edge: one
// TransactWriteItems updating the marker, conditioned on its seq and
// present attributes, and adding ±1 to the aggregate. A record already
// applied (a duplicate, or a replay after a crash), one that changes
// nothing (MODIFY), or the REMOVE of an edge never counted, makes the
// condition fail and the call return nil with nothing changed. (Codec keys
// never hold "##", so marker items cannot collide with nodes, edges or
// children.)
//
// What it promises follows from what DynamoDB Streams guarantees: each
// record appears once in the stream, and the records of one item appear
// in the order of its changes, within a shard and across a shard and its
// children. Apply relies on that per-item order and on nothing across
// items, so records of different edges may be applied in any order, and in
// parallel. Once every record has been applied at least once, the count
// equals the number of edges present; before that it lags. Edges that
// existed before the stream was read from its start are not counted.
//
// Cost: a 2-item transaction, 4 write capacity units for small items, per
// INSERT or REMOVE record (MODIFY records are answered from the condition
// and cost the same; filter them out before calling if they are many). The
// marker items stay (a removed edge's marker records present = false).
//
// A sequence that is not 1 to 40 decimal digits, or bad ids, fail before
// any request with [ErrInvalidOption] or [ErrInvalidKey].
func (c *Counter[E]) Apply(ctx context.Context, sequence, from, to string, present bool) (err error) {
	const op = "Counter.Apply"
	t := c.edge.t
	ctx, sp := t.startSpan(ctx, op)
	defer sp.end(&err)
	if c.err != nil {
		return t.opErr(op, "", "", c.err)
	}
	seq, ok := counting.Sequence(sequence)
	if !ok {
		return t.opErr(op, "", "", fmt.Errorf("%w: sequence number %q", ErrInvalidOption, sequence))
	}
	pk, aggSK, err := c.node.Key(to)
	if err != nil {
		return t.opErr(op, pk, aggSK, err)
	}
	_, markerSK, err := c.marker.key(t, []string{to, from})
	if err != nil {
		return t.opErr(op, pk, markerSK, err)
	}
	actions, err := counting.Apply(t.tableName, t.opts.PartitionKey, c.name, t.keyItem(pk, markerSK), t.keyItem(pk, aggSK), seq, present)
	if err != nil {
		return t.opErr(op, pk, markerSK, err)
	}
	_, err = t.client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: actions}, callOpts(ctx)...)
	if err != nil && c.conditionFailed(err) {
		return nil // applied before, or no change of presence
	}
	if err != nil {
		return t.opErr(op, pk, markerSK, err)
	}
	return nil
}

// conditionFailed reports a transaction cancelled only by its first
// action's condition.
func (c *Counter[E]) conditionFailed(err error) bool {
	codes, ok := cancelCodes(err)
	return ok && len(codes) > 0 && codes[0] == "ConditionalCheckFailed"
}

// Put creates the edge from → to with data and adds 1 to to's count, in
// one TransactWriteItems: the edge's guarded put (as [Edge.Put], with its
// options: a condition of the caller's, a version, an expiry) and ADD
// count 1 on the aggregate item. Both happen or neither: if the edge
// exists, it fails with [ErrEdgeExists] and the count is unchanged. It
// costs a 2-item transaction (4 write capacity units for small items,
// against 1 for [Edge.Put]). With [InTx], both actions join that
// transaction instead ([WriteOptions.Tx]); that is also how to send the
// transaction with [TxOptions] (a ClientRequestToken that makes a retried
// call idempotent, conflict retries): add Put to a [Tx] and Commit it with
// them.
func (c *Counter[E]) Put(ctx context.Context, from, to string, data E, optFns ...func(*WriteOptions)) error {
	return c.write(ctx, "Counter.Put", to, 1, optFns, func(tx *Tx) error {
		k, err := c.edge.keyed(from, to)
		return c.edge.handle().put(ctx, c.op("Put"), guardAbsent, &k, err, data, append(slices.Clip(optFns), InTx(tx)))
	})
}

// Delete removes the edge from → to and subtracts 1 from to's count, in
// one TransactWriteItems (the edge's guarded delete, as [Edge.Delete] with
// its options, and ADD count -1): a missing edge fails with [ErrNotFound]
// and the count is unchanged. With [InTx], both actions join that
// transaction instead, as for [Counter.Put]. The edge action's error in
// the transaction's names the counter: an [*OpError] with Op
// "Counter.Delete ENROLLED" ("Counter.Put ENROLLED" for Put) and the
// edge's keys.
func (c *Counter[E]) Delete(ctx context.Context, from, to string, optFns ...func(*WriteOptions)) error {
	return c.write(ctx, "Counter.Delete", to, -1, optFns, func(tx *Tx) error {
		k, err := c.edge.keyed(from, to)
		return c.edge.handle().del(ctx, c.op("Delete"), &k, err, append(slices.Clip(optFns), InTx(tx)))
	})
}

// op names the edge's action of the counter's write verb in errors, e.g.
// "Counter.Delete ENROLLED", so that a failed transaction names the
// counter as well as the counted edge's keys.
func (c *Counter[E]) op(verb string) string { return "Counter." + verb + " " + c.name }

// write adds to a transaction the count's change by delta and the edge's
// write (edge): to the Tx optFns name, or to its own, committed here.
func (c *Counter[E]) write(ctx context.Context, op, to string, delta int64, optFns []func(*WriteOptions), edge func(*Tx) error) error {
	if o := writeOptions(optFns); o.Tx != nil {
		c.txCount(o.Tx, to, delta)
		return edge(o.Tx)
	}
	ctx, sp := c.edge.t.startSpan(ctx, op)
	tx := NewTx(c.edge.t)
	c.txCount(tx, to, delta)
	tx.setErr(edge(tx)) // refused before joining tx (a nil option): no count
	return sp.done(tx.Commit(ctx))
}

func (c *Counter[E]) txCount(tx *Tx, to string, delta int64) {
	tx.setErr(c.err)
	if !tx.sameTable(c.edge.t) {
		return
	}
	pk, sk, err := c.node.Key(to)
	if tx.setErr(err) {
		return
	}
	t := c.edge.t
	tx.add(itemKey{pk, sk}, keySize(t, itemKey{pk, sk})+32, counting.Add(t.tableName, t.keyItem(pk, sk), c.name, delta), nil)
}
