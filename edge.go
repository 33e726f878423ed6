package adjlist

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"time"

	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/errs"
	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/paging"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Edge is a handle on one kind of edge (relationship) between two node
// types in a [Table], with E the Go type of the edge's own data. Each edge is
// one item, written once, stored in its source node's partition and
// projected into the inverted index with its keys swapped:
//
//	PK     = fromType#from          e.g. "STU#a91"
//	SK     = label#toType#to        e.g. "ENROLL#CRS#math204"
//	GSI1PK = toType#to              e.g. "CRS#math204"
//	GSI1SK = fromType#from          e.g. "STU#a91"
//
// plus E's attributes (enrolledOn, grade). [Edge.From] reads the edges of a
// source node with a Query on the table; [Edge.To] reads the edges into a
// target node with a Query on the index. Either end may instead be the
// children of an item collection, named by their refs ([Endpoint]). An
// Edge is immutable and safe for concurrent use.
type Edge[E any] struct {
	edgeCore
	// decodeItem is decodeAt of an item alone, bound once rather than per query.
	decodeItem func(Item) (EdgeItem[E], bool, error)
}

// edgeCore is an [Edge] without E: compiled once, not per item type.
type edgeCore struct {
	t     *Table
	label string
	// src and dst are the edge's ends: node types, or collections'
	// children ([Endpoint]).
	src, dst     endpoint
	shards       int    // index partitions per target; 0: not sharded
	prefix       string // the sort key prefix: label#toType# ("ENROLL#CRS#")
	labelLen     int    // len("ENROLL#"); 0 unlabelled: where the target's key starts in SK
	sourcePrefix string // the source keys' prefix "STU#", the index sort key prefix of To
	it           itemType
	tr           tracking
	goType       reflect.Type // E
	err          error
}

// EdgeItem is one edge read back: both endpoint ids, decoded from the keys,
// and the edge's data. Data is E's zero value when the index does not
// project it (KEYS_ONLY).
type EdgeItem[E any] struct {
	// From and To are the endpoints' ids: a node's id, e.g. "a91", or for
	// the children of a collection the child's ref, e.g.
	// "WS#acme#PROJ#2026-0042" ([Collection.ParseRef] splits it).
	From string
	To   string
	Data E
}

// NewEdge returns a handle on the edges labelled label from from's items to
// to's items, each a node type (*[Node]) or the children of an item
// collection (*[Collection]; see [Endpoint] for their keys), e.g.
//
//	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
//	tagged := adjlist.NewEdge[Tagging](tags, "TAGGED", projects) // into children
//
// label is 1-64 ASCII letters, digits, '_', '-' or '.', or empty: an
// unlabelled edge's sort key is the target's node key alone
// ("COURSE#Math"), as in layouts where only one kind of edge joins two node
// types. An invalid label, an invalid endpoint, or endpoints in two
// different tables make every call on the edge fail before any request
// ([ErrInvalidKey], [ErrInvalidOption]).
//
// An edge into a collection's children shares its sort key prefix with an
// edge of the same label into their parent's nodes ("TAGGED#WS#"): reads
// tell them apart by the key's shape, but Limit and Count see both, so
// give such edges labels of their own.
//
// An unlabelled edge between self-keyed nodes of one type (PK = SK =
// "USER#u1") is refused the same way, with [ErrInvalidOption]: the node
// items would read as edges. Give such an edge a label ("FRIEND#USER#u2").
func NewEdge[E any](from Endpoint, label string, to Endpoint, optFns ...func(*EdgeOptions)) *Edge[E] {
	e := new(Edge[E])
	e.init(from.endpoint(), label, to.endpoint(), optFns, reflect.TypeFor[E]())
	e.decodeItem = bySortKey(e.t, e.decodeAt)
	e.record()
	return e
}

// init declares e, whose data is a goType.
func (e *edgeCore) init(src endpoint, label string, dst endpoint, optFns []func(*EdgeOptions), goType reflect.Type) {
	var opts EdgeOptions
	optErr := applyOptions(&opts, optFns)
	*e = edgeCore{t: src.t, label: label, src: src, dst: dst, goType: goType}
	e.err = errors.Join(src.err, dst.err, optErr)
	switch {
	case e.err != nil:
	case opts.Shards < 0 || opts.Shards > maxShards:
		e.err = fmt.Errorf("%w: Shards %d, want 0 to %d", ErrInvalidOption, opts.Shards, maxShards)
	case opts.Shards > 1 && src.t.layout != explicitKeys:
		e.err = fmt.Errorf("%w: sharding needs explicit index keys", ErrInvalidOption)
	case opts.Shards > 1:
		e.shards = opts.Shards
	}
	if e.err == nil && label != "" {
		e.err = checkName("edge label", label)
	}
	if e.err == nil && src.t != dst.t {
		e.err = fmt.Errorf("%w: edge %s joins items of different tables", ErrInvalidOption, label)
	}
	fields := []string{"from", "to"}
	source, target, sk := src.keySpelling(0), dst.keySpelling(1), dst.keySpelling(1)
	skName := dst.typ
	if label != "" {
		sk, skName = keycodec.Text(label+"#").Then(target), label
		e.labelLen = len(label) + 1
	}
	keys := newKeyCore(fields, source, sk, src.typ, skName)
	e.it.keys = keys
	e.prefix, _ = sk.Prefix(nil)
	e.sourcePrefix, _ = source.Prefix(nil)
	targetPrefix, _ := target.Prefix(nil)
	if e.err == nil && !src.isChild() && src.marker == "" && src.typ+"#" == e.prefix {
		e.err = fmt.Errorf("%w: an unlabelled edge from self-keyed %s nodes to %s nodes has the node items' keys (%s<id>): give it a label", ErrInvalidOption, src.typ, dst, e.prefix)
	}
	if e.err == nil {
		// The kind names both ends: edges of one label into one type
		// from two source types are two item types.
		e.it, e.err = e.t.newItemType(e.kindName(), keyCtx{Self: e.prefix, Source: e.sourcePrefix, Target: targetPrefix},
			opts.Indexes, keycodec.Source, keycodec.Source, keycodec.Target)
		e.it.setKeys(keys)
		e.it.ends = &keycodec.Ends{Src: src.spell(), Dst: dst.spell(), Label: e.prefix[:e.labelLen]}
		e.it.target = target.Parts(fields)
		e.it.self = e.it.sk
	}
	e.it.edge = &edgeIndexed{labelLen: e.labelLen, shards: e.shards}
	if e.err == nil {
		e.tr, e.err = e.t.newTracking(opts.Tracking)
	}
}

// keyed derives the edge from → to's keys, each checked against the
// limits of every place it lands: with explicit index keys the source key
// is also the index sort key, so it must fit keycodec.MaxSortKeyLen (the
// index partition key, the sort key's target and a shard suffix, cannot
// reach 2,048 bytes).
func (e *edgeCore) keyed(from, to string) (keyed, error) {
	if e.err != nil {
		return keyed{}, e.err
	}
	pk, sk, err := e.it.keys.key(e.t, []string{from, to})
	if err != nil {
		return keyed{kc: keyCtx{PK: pk, SK: sk}}, err
	}
	k := e.keyedAt(pk, sk, from)
	if e.t.layout == explicitKeys {
		err = checkLen(e.src.typ, "index sort key", k.isk, keycodec.MaxSortKeyLen)
	}
	return k, err
}

// keyedAt is the keys of the edge item (pk, sk) from from (read only when
// sharded); ipk and isk are its inverted index keys, written only on the
// explicitKeys layout.
func (e *edgeCore) keyedAt(pk, sk, from string) keyed {
	k := keyed{kc: keyCtx{Self: sk, Source: pk, Target: sk[e.labelLen:], PK: pk, SK: sk}}
	k.ipk, k.isk = e.t.layout.edgeIndexKeys(pk, sk, e.labelLen)
	if e.shards > 1 {
		k.ipk += "#" + keycodec.Shard(from, e.shards)
	}
	return k
}

// sortKey is the edge's sort key for target to, "ENROLL#CRS#math204".
func (e *edgeCore) sortKey(to string) (string, error) {
	return e.it.keys.sortKey([]string{"", to})
}

// sourceKey is the partition key of the edges from from.
func (e *edgeCore) sourceKey(from string) (string, error) {
	return e.it.keys.partition([]string{from, ""})
}

// Put creates the edge from → to with data, in one PutItem that writes the
// four key attributes and data's attributes, guarded by
// attribute_not_exists(PK) ("attribute_not_exists (#0)") as [Node.Put]
// is: an edge stored there is left unchanged and the error matches
// [ErrExists] (its text "edge already exists"), with the SDK's
// *types.ConditionalCheckFailedException whose Item is the stored item;
// only this call's own retry may find its edge already written and succeed.
// [Edge.Replace] is the overwrite.
//
// optFns may AND a condition of the caller's after the guard ([If]),
// evaluated against the missing item; its failure is [ErrConditionFailed].
// On a handle with [Tracking.Version] the edge is written with version 1.
// data must marshal (attributevalue) to a map with no key attribute, else
// [ErrKeyAttribute]; bad ids give [ErrInvalidKey]; both before any request.
func (e *Edge[E]) Put(ctx context.Context, from, to string, data E, optFns ...func(*WriteOptions)) error {
	if o := writeOptions(optFns); o.err == nil && o.CheckEnds {
		return e.putChecked(ctx, from, to, data, o, optFns)
	}
	k, err := e.keyed(from, to)
	return e.handle().put(ctx, "Edge.Put", guardAbsent, &k, err, data, optFns)
}

// putChecked is Put with [WriteOptions.CheckEnds]: the endpoints'
// ConditionChecks and the put in o.Tx, or in a Tx of their own.
func (e *Edge[E]) putChecked(ctx context.Context, from, to string, data E, o WriteOptions, optFns []func(*WriteOptions)) error {
	in := func(tx *Tx, token string) error {
		if e.err != nil {
			tx.setErr(e.err)
		}
		e.src.txCheck(tx, from, "from")
		e.dst.txCheck(tx, to, "to")
		return e.Put(ctx, from, to, data, append(slices.Clip(optFns), func(o *WriteOptions) { o.CheckEnds, o.Tx, o.Token = false, tx, token })...)
	}
	if o.Tx != nil {
		return in(o.Tx, o.Token) // a token here is refused
	}
	ctx, sp := e.t.startSpan(ctx, "Edge.Put")
	tx := NewTx(e.t)
	_ = in(tx, "") // its error is tx's, which Commit returns
	pk, sk, _ := e.Key(from, to)
	return sp.Done(e.t.asOp(tx.Commit(ctx, func(to *TxOptions) { to.Token = o.Token }), "Edge.Put", pk, sk))
}

// Replace writes the edge from → to with one PutItem, replacing any item
// with the same key: the overwrite beside the guarded create [Edge.Put],
// with the options and version handling of [Node.Replace] (no condition
// expression unless [If] or [Tracking.Version] asks for one), and like it
// writing only what E declares (attributes the stored item holds that E
// does not declare are dropped; [Edge.Update] keeps them). Bad ids are
// [ErrInvalidKey] and data naming a key attribute [ErrKeyAttribute],
// before any request.
func (e *Edge[E]) Replace(ctx context.Context, from, to string, data E, optFns ...func(*WriteOptions)) error {
	k, err := e.keyed(from, to)
	return e.handle().put(ctx, "Edge.Replace", guardNone, &k, err, data, optFns)
}

// handle is the implementation of e's single-item verbs.
func (e *edgeCore) handle() handle {
	return handle{t: e.t, it: &e.it, tr: &e.tr, exists: errs.ErrEdgeExists, err: e.err}
}

// Get reads the edge from → to with one GetItem on the table, eventually
// consistent unless optFns ask for a strongly consistent read
// ([Consistent]), and returns its data E. It returns [ErrNotFound] if
// there is no such edge, [ErrInvalidKey] for bad ids, and with any error
// E's zero value.
func (e *Edge[E]) Get(ctx context.Context, from, to string, optFns ...func(*ReadOptions)) (E, error) {
	k, err := e.keyed(from, to)
	var data E
	err = e.handle().get(ctx, "Edge.Get", &k, err, optFns, &data)
	return data, err
}

// Update changes the data of the existing edge from → to with one
// UpdateItem guarded by attribute_exists(PK), and returns its data E as
// stored afterwards (ALL_NEW), as [Node.Update] does: update ([Update],
// e.g. adjlist.Set("grade", "A")) is not changed by the call; a missing
// edge is [ErrNotFound], so an update never creates a half-formed edge; a
// condition of the caller's ([If]) is ANDed after the guard, its failure
// [ErrConditionFailed] (the SDK's exception holding the stored edge,
// ALL_OLD); on a handle with [Tracking.Version] the version
// read is required ([IfVersion]) and set one higher, a stale one
// [ErrVersionConflict]; derived index keys follow in the same request.
// [ErrKeyAttribute], [ErrInvalidOption] and [ErrInvalidKey] come before
// any request. With any error, E's zero value. An update of a
// counter's GroupBy attribute is three requests, as [Node.Update] says.
func (e *Edge[E]) Update(ctx context.Context, from, to string, update Update, optFns ...func(*WriteOptions)) (E, error) {
	k, err := e.keyed(from, to)
	var data E
	err = e.handle().update(ctx, "Edge.Update", &k, err, update, optFns, &data)
	return data, err
}

// Delete removes the edge from → to with one DeleteItem guarded by
// attribute_exists(PK), with the options and version handling of
// [Node.Delete]. It returns [ErrNotFound] if there was no such edge,
// [ErrInvalidKey] for bad ids. The index entry goes with the item.
func (e *Edge[E]) Delete(ctx context.Context, from, to string, optFns ...func(*WriteOptions)) error {
	k, err := e.keyed(from, to)
	return e.handle().del(ctx, "Edge.Delete", &k, err, optFns)
}

// From returns the forward query: every edge of this kind that starts at
// node from, in one Query per page on the table,
//
//	PK = "STU#a91" AND begins_with(SK, "ENROLL#CRS#")
//
// in ascending order of the target's key. The prefix names the target type
// as well as the label, so edges with the same label to another node type
// are not mixed in. Reads are eventually consistent unless run with
// [Consistent]. For an edge from a collection's children,
// from is the child's ref and the partition is the ref's: PK =
// "WS#acme#PROJ#2026-0042" ([Endpoint]).
func (e *Edge[E]) From(from string) Query[EdgeItem[E]] {
	return Query[EdgeItem[E]]{querySpec: e.from(from), decode: e.decodeItem}
}

// from is [Edge.From] without its decoder.
func (e *edgeCore) from(from string) querySpec {
	const op = "Edge.From"
	if e.err != nil {
		return errSpec(e.t, op, e.err)
	}
	pk, err := e.sourceKey(from)
	if err != nil {
		return errSpec(e.t, op, err)
	}
	return newQuerySpec(e.t, op, queryKeys{pk: pk, skPrefix: e.prefix, skRest: e.it.ends.Dst.Key.Rest(0), kind: e.it.kind})
}

// To returns the reverse query: every edge of this kind that ends at node
// to, in one Query per page on the inverted index,
//
//	GSI1PK = "CRS#math204" AND begins_with(GSI1SK, "STU#")
//	filter begins_with(SK, "ENROLL#CRS#")
//
// in ascending order of the source's key. The filter drops edges of other
// labels between the same node types (they still count toward
// [Query.Limit]). On an index keyed on the table's sort key (see [Options])
// the query is GSI1 partition = "ENROLL#CRS#math204", with no filter. On
// one keyed on the sort key alone ([Options].IndexPartitionOnly) it is
//
//	SK = "BILL#4224663"
//	filter begins_with(PK, "INVOICE#")
//
// which reads, and pays for, every item of the index partition, the
// target's own item and edges from other types included, and returns
// the edges in no defined order ([Query.Desc] changes nothing); a sort
// key condition on it ([Query.Between], ...) is [ErrInvalidOption].
//
// For an edge into a collection's children, to is the child's ref and the
// index partition is the ref: GSI1PK = "WS#acme#PROJ#2026-0042"
// ([Endpoint]).
//
// Global secondary indexes are eventually consistent: an edge written a
// moment ago may not be listed yet, and one deleted may still be. Running it
// with [Consistent] fails with [ErrIndexConsistentRead]. With a
// KEYS_ONLY index the items carry ids only and Data is E's zero value.
func (e *Edge[E]) To(to string) Query[EdgeItem[E]] {
	return Query[EdgeItem[E]]{querySpec: e.to(to), decode: e.decodeItem}
}

// to is [Edge.To] without its decoder.
func (e *edgeCore) to(to string) querySpec {
	const op = "Edge.To"
	if e.err != nil {
		return errSpec(e.t, op, e.err)
	}
	if err := e.t.errNoIndex(); err != nil {
		return errSpec(e.t, op, err)
	}
	sk, err := e.sortKey(to)
	if err != nil {
		return errSpec(e.t, op, err)
	}
	k := e.reverseKeys(sk, e.sourcePrefix, false)
	if e.shards > 1 {
		k.shardPKs = keycodec.ShardKeys(k.pk, e.shards)
	}
	return newQuerySpec(e.t, op, k)
}

// reverseKeys is the index partition of the edges with sort key sk, with
// a sort key prefix (or exact value) source; on an index without a sort
// key, a filter on the table's partition key.
func (e *edgeCore) reverseKeys(sk, source string, exact bool) queryKeys {
	k := queryKeys{index: e.t.opts.Index, skPrefix: source, skExact: exact, skRest: e.it.ends.Src.Key.Rest(0), kind: e.it.kind}
	k.pk, _ = e.t.layout.edgeIndexKeys("", sk, e.labelLen)
	if e.t.layout == sortKeyOnlyIndex {
		k.skPrefix, k.skExact, k.skRest = "", false, nil
		k.sourceFilter, k.sourceExact = source, exact
		return k
	}
	if e.t.layout != sortKeyIndex {
		// The index partition (the target's key) is shared by every label.
		k.filterPrefix = e.prefix
	}
	return k
}

// WaitIndexed waits until the edge from → to is visible in the inverted
// index, for read-your-writes flows and tests: global secondary indexes are
// updated asynchronously, so [Edge.To] may miss an edge just written. It
// polls with one Query on the index per attempt (GSI1PK = "CRS#math204" AND
// GSI1SK = "STU#a91"; on an index without a sort key, SK =
// "BILL#4224663" with filter PK = "INVOICE#92551"), waiting between attempts as the SDK's waiters do
// (smithy-go waiter.ComputeDelay, 20 ms to 1 s), for at most maxWait.
//
// It returns nil once the edge is listed, an error matching
// [ErrNotVisible] when maxWait passes first, the context's error if ctx
// ends, and [ErrInvalidKey] for bad ids before any request.
func (e *Edge[E]) WaitIndexed(ctx context.Context, from, to string, maxWait time.Duration) error {
	return e.waitIndexed(ctx, from, to, maxWait)
}

// waitIndexed is [Edge.WaitIndexed].
func (e *edgeCore) waitIndexed(ctx context.Context, from, to string, maxWait time.Duration) (err error) {
	const op = "Edge.WaitIndexed"
	ctx, sp := e.t.startSpan(ctx, op)
	defer sp.End(&err)
	k, err := e.keyed(from, to)
	fail := func(err error) error { return e.t.opErr(op, k.kc.PK, k.kc.SK, err) }
	if err = cmp.Or(err, e.t.errNoIndex()); err != nil {
		return fail(err)
	}
	rk := e.reverseKeys(k.kc.SK, k.kc.PK, true)
	rk.pk = k.ipk // the one shard that holds this edge
	q := newQuerySpec(e.t, op, rk)
	waitFail := func(err error) error { // ErrNotVisible, ctx's: the index read, as a Query's error names it
		oe := fail(err).(*OpError)
		oe.Index = e.t.opts.Index
		return oe
	}
	return paging.Poll(ctx, maxWait, ErrNotVisible, waitFail, func() (bool, error) {
		n, err := qsCount(&q, ctx, func(item Item) (bool, error) {
			var ids [2]string
			return e.t.parseItem(&e.it, item, ids[:]), nil
		})
		return n > 0, err
	})
}

// Decode turns a raw item (from a Scan, an export, a stream record's
// image) into an EdgeItem with both endpoint ids parsed from the keys. ok
// is false for an item that is not an edge of this kind (another label or
// node type, or index keys that do not follow from its table keys). When
// the data does not fit E, err is set, ok is true and the EdgeItem is
// zero. A keys-only item decodes with zero Data. Decode makes no request
// and may modify item.
func (e *Edge[E]) Decode(item Item) (v EdgeItem[E], ok bool, err error) {
	return decodeRaw(e.err, item, e.decodeItem)
}

// decodeAt is Decode without the handle's error, skAV the item's sort key.
func (e *Edge[E]) decodeAt(item Item, skAV types.AttributeValue) (v EdgeItem[E], ok bool, err error) {
	var ids [2]string
	ok, err = e.t.decodeItemAt(&e.it, item, skAV, ids[:], &v.Data)
	v.From, v.To = ids[0], ids[1]
	return v, ok, err
}

// split parses an edge item's table keys into its endpoint ids; ok is
// false for any other item.
func (e *edgeCore) split(item Item) (from, to string, ok bool) {
	pk, _ := ddbitem.String(item, e.t.opts.PartitionKey)
	sk, _ := ddbitem.String(item, e.t.opts.SortKey)
	return e.splitKeys(pk, sk)
}

func (e *edgeCore) splitKeys(pk, sk string) (from, to string, ok bool) {
	var ids [2]string
	if !e.it.keys.parse(pk, sk, ids[:]) {
		return "", "", false
	}
	return ids[0], ids[1], true
}

// edgeIndexed is what an edge's explicit index keys follow from besides
// its table keys: len("ENROLL#") and its shards.
type edgeIndexed struct{ labelLen, shards int }

// edgeIndexKeysMatch reports whether the index keys an edge item carries,
// if any, are the ones its table keys pk and sk give. Another program's
// item with GSI1PK = "CRS#math204" but SK = "ENROLL#CRS#cs101" would
// otherwise come back from To("math204") as an edge to cs101: it is
// skipped as foreign on every read.
func (t *Table) edgeIndexKeysMatch(e *edgeIndexed, item Item, pk, sk, from string) bool {
	if t.layout != explicitKeys {
		return true // the index keys are the table keys
	}
	o := &t.opts
	ipk, hasIPK := ddbitem.String(item, o.IndexPartitionKey)
	isk, hasISK := ddbitem.String(item, o.IndexSortKey)
	if !hasIPK && !hasISK {
		return true // not in the index: a forward read of a bare item
	}
	wantIPK, wantISK := t.layout.edgeIndexKeys(pk, sk, e.labelLen)
	if e.shards <= 1 {
		return ipk == wantIPK && isk == wantISK
	}
	// ipk is wantIPK#NN, compared in parts rather than built per item.
	rest, ok := strings.CutPrefix(ipk, wantIPK)
	return ok && isk == wantISK && strings.HasPrefix(rest, "#") && rest[1:] == keycodec.Shard(from, e.shards)
}

// NodeWithEdges is a node's own data and the edges that start at it, as
// read by [LoadNode].
type NodeWithEdges[N, E any] struct {
	ID    string        // node id, e.g. "a91"
	Node  N             // the node item's data
	Edges []EdgeItem[E] // outgoing edges in ascending target key order
}

// LoadNode reads node id's item and all its outgoing edges of kind edge in
// one Query per page on the table (PK = "STU#a91", no sort key condition):
// the node's profile and every enrolment in one read. Items of other kinds
// in the partition are skipped. It returns [ErrNotFound] if the node item
// does not exist, [ErrInvalidOption] if edge does not start at node's type (an
// edge from a collection's children never does),
// and [ErrInvalidKey] for a bad id. Reads are eventually consistent unless
// optFns ask for strongly consistent ones ([Consistent]).
func LoadNode[N, E any](ctx context.Context, node *Node[N], edge *Edge[E], id string, optFns ...func(*ReadOptions)) (NodeWithEdges[N, E], error) {
	res := NodeWithEdges[N, E]{ID: id}
	tg := edge.Into(&res.Edges)
	if tg.err == nil && (edge.t != node.t || !edge.src.same(node.endpoint())) {
		tg.err = fmt.Errorf("%w: edge %s does not start at node type %s", ErrInvalidOption, edge.label, node.typ)
	}
	other := 0 // items of other kinds, skipped
	if _, err := node.head().read(ctx, "LoadNode", id, nil, 0, readOptions(optFns), []Target{tg}, &other, &res.Node); err != nil {
		return NodeWithEdges[N, E]{ID: id}, err
	}
	if res.Edges == nil {
		res.Edges = []EdgeItem[E]{} // none: empty, not nil
	}
	return res, nil
}

// EdgeOptions configures an [Edge] ([NewEdge]'s optFns).
type EdgeOptions struct {
	// Shards spreads the edges into one target over Shards index
	// partitions (docs/modelling.md, "Hot partitions and cost"): the index
	// partition key gains a suffix chosen from the source id,
	// "USER#celeb#07", so writes spread across shards; [Edge.To] then
	// queries every shard in parallel and merges them in source key order,
	// and its cursor resumes them all. Each page costs one request per
	// unfinished shard. Default 0 or 1: no sharding. Only for explicit index
	// keys (not a sort-key index), at most 100; more is an [ErrInvalidOption].
	//
	// Changing Shards for existing edges moves their index partition: edges
	// written with the old count are not found by reads with the new one
	// until they are rewritten (read with the old count, [Edge.PutMany]
	// with the new).
	Shards int

	// Indexes declares the edge items' keys in the table's derived-key
	// indexes ([IndexKeys]), e.g. a course's roster in enrolment order:
	// {Index: "GSI2", PartitionKey: Template("{@target}"), SortKey:
	// Template("ENROLL#{enrolledOn}")}. Default none.
	Indexes []IndexKeys

	// Tracking adds a version, timestamps or an expiry to every write
	// ([Tracking]). Default: nothing.
	Tracking
}

// TxCheck adds to tx a check that the edge from → to exists, as
// [Node.TxCheck] does; a missing edge makes Commit fail with [ErrNotFound],
// a failed condition with [ErrConditionFailed], a stale version with
// [ErrVersionConflict].
func (e *Edge[E]) TxCheck(tx *Tx, from, to string, optFns ...func(*WriteOptions)) {
	k, err := e.keyed(from, to)
	e.handle().txCheck(tx, "Edge.TxCheck", &k, err, nil, optFns)
}

// Move replaces the edge from → to by newFrom → newTo carrying data, in one
// TransactWriteItems: the guarded delete of the old edge and the guarded
// put of the new one, so readers never see both or neither. It fails,
// changing nothing, with [ErrNotFound] if the old edge is missing and
// [ErrExists] if the new one exists; moving an edge onto itself is
// [ErrTxLimit] (two actions on one item), before any request.
func (e *Edge[E]) Move(ctx context.Context, from, to, newFrom, newTo string, data E, optFns ...func(*TxOptions)) error {
	ctx, sp := e.t.startSpan(ctx, "Edge.Move")
	tx := NewTx(e.t)
	if e.err != nil {
		tx.err = e.err
	}
	e.Delete(ctx, from, to, InTx(tx))
	e.Put(ctx, newFrom, newTo, data, InTx(tx))
	return sp.Done(e.t.asOp(tx.Commit(ctx, optFns...), "Edge.Move", "", ""))
}

// TxGet adds to rt the read of the edge from → to and returns its [Read],
// filled in by [ReadTx.Run]. Bad ids make Run fail with [ErrInvalidKey]
// before any request.
func (e *Edge[E]) TxGet(rt *ReadTx, from, to string) *Read[E] {
	k, err := e.keyed(from, to)
	r := new(Read[E])
	e.handle().txGet(rt, &k, err, &r.Found, &r.Data)
	return r
}
