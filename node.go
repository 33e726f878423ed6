package adjlist

import (
	"context"
	"reflect"

	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Node is a handle on one type of node (entity) in a [Table], with N the Go
// type of the node item's own attributes. A node's item lives at the head of
// its partition:
//
//	PK = type#id             e.g. "STU#a91"
//	SK = item marker         e.g. "PROFILE"
//
// plus N's attributes (name, year, major). The partition also holds the
// edges that start at the node (see [Edge]), so one Query can read a node and
// its edges together ([LoadNode]). A Node is immutable and safe for
// concurrent use.
type Node[N any] struct {
	nodeCore
	// decodeItem is decodeAt of an item alone, bound once rather than per query.
	decodeItem func(Item) (NodeItem[N], bool, error)
}

// nodeCore is a [Node] without N: compiled once, not per item type.
type nodeCore struct {
	t      *Table
	typ    string
	marker string
	it     itemType
	tr     tracking
	goType reflect.Type // N
	err    error
}

// NodeOptions configures a [Node] ([NewNode]'s optFns).
type NodeOptions struct {
	// Indexes declares the node items' keys in the table's derived-key
	// indexes ([IndexKeys]), e.g. students by major:
	// {Index: "GSI2", PartitionKey: Template("MAJOR#{major}"),
	// SortKey: Template("{@self}")}. Default none: node items carry no keys
	// of those indexes and are not in them.
	Indexes []IndexKeys

	// Tracking adds a version, timestamps or an expiry to every write
	// ([Tracking]). Default: nothing.
	Tracking
}

// NewNode returns a handle on the nodes of nodeType in t, whose own item has
// sort key marker. nodeType and marker are 1-64 ASCII letters, digits, '_',
// '-' or '.', e.g. NewNode[Student](t, "STU", "PROFILE"). An empty marker
// makes the node item's sort key its own node key (PK = SK = "BILL#42"), the
// AWS developer guide's layout: on an index keyed on the sort key, each node
// item then sits in its own index partition with the edges pointing at it,
// instead of all nodes of a type crowding one "METADATA" partition. An
// invalid name makes every call on the node (and on edges that use it) fail
// with [ErrInvalidKey] before any request; invalid [NodeOptions] with
// [ErrInvalidOption].
func NewNode[N any](t *Table, nodeType, marker string, optFns ...func(*NodeOptions)) *Node[N] {
	n := newNode[N](t, nodeType, marker, optFns)
	_ = t.record(n.recorded())
	return n
}

// newNode is [NewNode] without recording the node in t's record: a
// counter's aggregate items are recorded as the counter's.
func newNode[N any](t *Table, nodeType, marker string, optFns []func(*NodeOptions)) *Node[N] {
	n := new(Node[N])
	n.init(t, nodeType, marker, optFns, reflect.TypeFor[N]())
	n.decodeItem = bySortKey(n.t, n.decodeAt)
	return n
}

// init declares n, whose data is a goType.
func (n *nodeCore) init(t *Table, nodeType, marker string, optFns []func(*NodeOptions), goType reflect.Type) {
	var opts NodeOptions
	optErr := applyOptions(&opts, optFns)
	*n = nodeCore{t: t, typ: nodeType, marker: marker, goType: goType, err: t.err}
	if n.err == nil {
		n.err = optErr
	}
	if n.err == nil {
		n.err = checkName("node type", nodeType)
	}
	if n.err == nil && marker != "" {
		n.err = checkName("item marker", marker)
	}
	if n.err == nil {
		n.it, n.err = t.newItemType("node "+nodeType, keyCtx{Self: nodeType + "#"}, opts.Indexes, keycodec.Self)
	}
	key := nodeSpelling(nodeType, 0)
	sk := key
	if marker != "" {
		sk = keycodec.Text(marker)
	}
	n.it.setKeys(newKeyCore([]string{"id"}, key, sk, nodeType, nodeType))
	n.it.self = n.it.pk
	if n.err == nil {
		n.tr, n.err = t.newTracking(opts.Tracking)
	}
}

// Key returns the primary key of node id's item: PK = type + "#" + escaped
// id and SK = the item marker, e.g. ("STU#a91", "PROFILE"), or PK again for
// an empty marker. The id may be any non-empty valid UTF-8 string without
// control characters; '%' and '#' in it become "%25" and "%23" ("x#1%" →
// "CRS#x%231%25"), every other byte is kept, so keys sort in the ids' byte
// order and no id reaches past the '#' of another type's prefix. Errors are
// a [*KeyError] (errors.Is [ErrInvalidKey]), also for a key over 2048
// bytes, or over 1024 as the sort key of an empty marker. With an error,
// pk and sk are "": every handle's Key returns no part of a key it
// refused ([Edge.Key], [Collection.Key], [Entity.Key]). It makes no
// request.
func (n *Node[N]) Key(id string) (pk, sk string, err error) { return whole(n.key(id)) }

// whole is a key, or "", "" with its error: the internal key builders keep
// a partly built key for the [*OpError] to name, which Key does not return.
func whole(pk, sk string, err error) (string, string, error) {
	if err != nil {
		return "", "", err
	}
	return pk, sk, nil
}

// key is [Node.Key].
func (n *nodeCore) key(id string) (pk, sk string, err error) {
	if n.err != nil {
		return "", "", n.err
	}
	return n.it.keys.key(n.t, []string{id})
}

// nodeSpelling is the node key "STU#{id}" of a node of typ whose id is
// ids[field].
func nodeSpelling(typ string, field int) keycodec.Spelling {
	return keycodec.Text(typ + "#").Then(keycodec.ID(field, typ))
}

// Put creates node id's item with one PutItem guarded by
// attribute_not_exists(PK), the guarded create every handle's Put is
// ([Edge.Put], [Collection.Put]); [Node.Replace] is the overwrite. If an
// item is stored there, it is left unchanged and the error matches
// [ErrExists] and, with errors.As, the SDK's
// *types.ConditionalCheckFailedException, whose Item holds the stored item
// (ReturnValuesOnConditionCheckFailure ALL_OLD). Only this call's own
// retry may find its item already written: when the SDK retried after a
// lost response and the stored item is exactly the one being written, Put
// succeeds; a second, separate Put of the same data is [ErrExists].
//
// The condition expression sent is "attribute_not_exists (#0)" with #0
// the partition key; a condition of the caller's ([If]) is ANDed after it,
// "(attribute_not_exists (#0)) AND (#1 = :0)", and its failure is
// [ErrConditionFailed]. On a handle with [Tracking.Version] the item is
// written with version 1. data must marshal to a map with no key
// attribute ([ErrKeyAttribute]); a bad id gives [ErrInvalidKey]; both
// before any request.
func (n *Node[N]) Put(ctx context.Context, id string, data N, optFns ...func(*WriteOptions)) error {
	k, err := n.keyed(id)
	return n.handle().put(ctx, "Node.Put", guardAbsent, &k, err, data, optFns)
}

// Replace writes node id's item with one PutItem, replacing any item with
// the same key: the overwrite beside the guarded create [Node.Put]
// ([Edge.Replace] and [Collection.Replace] are the same). data must
// marshal (attributevalue) to a map with no key attribute, else
// [ErrKeyAttribute]; a bad id gives [ErrInvalidKey]. Both are reported
// before any request.
//
// With no condition and no version the request has no condition
// expression. optFns may add a condition of the caller's ([If]), sent as
// the whole condition expression, e.g. "#0 = :0"; when it fails, nothing is
// written and the error matches [ErrConditionFailed]. On a handle with
// [Tracking.Version], the put is conditioned on the stored version being
// the one expected ([WriteOptions.Version], else the version in data,
// else none: "attribute_not_exists (#0)"; with one,
// "#0 = :0"), ANDed before the caller's condition, writes that version
// plus one, and fails with [ErrVersionConflict] when another writer got
// there first.
//
// The item written holds exactly what data marshals to, the keys, the
// derived index keys and what the handle tracks, as PutItem writes: an
// attribute the stored item holds that N does not declare is dropped,
// even when data is the value [Node.Get] read ([Node.Update] keeps it,
// changing only what it names). [Verify] reports the items N cannot hold
// without loss ([FindingUndeclaredAttribute]).
func (n *Node[N]) Replace(ctx context.Context, id string, data N, optFns ...func(*WriteOptions)) error {
	k, err := n.keyed(id)
	return n.handle().put(ctx, "Node.Replace", guardNone, &k, err, data, optFns)
}

// handle is the implementation of n's single-item verbs.
func (n *nodeCore) handle() handle {
	return handle{t: n.t, it: &n.it, tr: &n.tr, exists: ErrExists, err: n.err}
}

func (n *nodeCore) keyed(id string) (keyed, error) {
	pk, sk, err := n.key(id)
	return keyed{kc: *n.keyCtx(pk, sk)}, err
}

// keyCtx is what the node item (pk, sk)'s index key templates may name.
func (n *nodeCore) keyCtx(pk, sk string) *keyCtx {
	return &keyCtx{Self: pk, PK: pk, SK: sk}
}

// Get reads node id's item with one GetItem, eventually consistent unless
// optFns ask for a strongly consistent read ([Consistent]), and returns its
// attributes decoded into N, as every handle's Get returns the data of the
// item whose ids it is given. It returns [ErrNotFound] if there is no such
// item, [ErrInvalidKey] for a bad id, and with any error N's zero value,
// never a partly decoded item.
func (n *Node[N]) Get(ctx context.Context, id string, optFns ...func(*ReadOptions)) (N, error) {
	k, err := n.keyed(id)
	var data N
	err = n.handle().get(ctx, "Node.Get", &k, err, optFns, &data)
	return data, err
}

// Update changes the data of node id's existing item with one UpdateItem
// and returns its data N as stored afterwards (ReturnValues ALL_NEW), as
// every handle's Update returns the data of the item whose ids it is
// given. update describes the change ([Update]), e.g.
//
//	adjlist.Set("major", "Physics")
//
// and is not changed by the call: send it again after [ErrVersionConflict],
// or from several goroutines.
// The condition expression sent is "attribute_exists (#0)", #0 the
// partition key, so an update never creates a half-formed node: a missing
// item gives [ErrNotFound]. optFns may AND a condition of the caller's
// after it ([If]): "(attribute_exists (#0)) AND (#1 = :0)", whose failure is
// [ErrConditionFailed] with the stored item in the SDK's
// *types.ConditionalCheckFailedException (ALL_OLD). On a handle with
// [Tracking.Version] the update needs the version read ([IfVersion]),
// checks it ("(attribute_exists (#0)) AND (#1 = :0)" before any condition
// of the caller's), sets it one higher and fails with [ErrVersionConflict]
// when it is stale. Derived index keys are kept in step in the same
// request ([IndexKeys]). [ErrKeyAttribute] if update names a key
// attribute, [ErrInvalidOption] for an update the derived keys cannot
// follow or a missing version, [ErrInvalidKey] for a bad id: all before
// any request. With any error, N's zero value. An update that sets or
// removes the GroupBy attribute of an [ItemCounter] counting the type is
// three requests instead: a GetItem, a TransactWriteItems with the counts,
// and a GetItem whose data it returns (read after the write, not with it).
func (n *Node[N]) Update(ctx context.Context, id string, update Update, optFns ...func(*WriteOptions)) (N, error) {
	k, err := n.keyed(id)
	var data N
	err = n.handle().update(ctx, "Node.Update", &k, err, update, optFns, &data)
	return data, err
}

// Delete removes node id's item with one DeleteItem guarded by
// attribute_exists(PK) (the condition expression "attribute_exists (#0)");
// it returns [ErrNotFound] if the item did not exist. optFns may AND a
// condition of the caller's after the guard ([If]), whose failure is
// [ErrConditionFailed]; on a handle with [Tracking.Version] the version
// read is required ([IfVersion]) and checked, [ErrVersionConflict] when
// stale. Edges to and from the node, and children in its partition, are
// not touched (see [DeleteNode]).
func (n *Node[N]) Delete(ctx context.Context, id string, optFns ...func(*WriteOptions)) error {
	k, err := n.keyed(id)
	return n.handle().del(ctx, "Node.Delete", &k, err, optFns)
}

// NodeItem is one node item read back by a query or [Node.GetMany]: its
// id, decoded from its keys, and its data.
type NodeItem[N any] struct {
	ID   string // node id, e.g. "a91"
	Data N
}

// Decode turns a raw item (from a Scan, an export, a stream record's
// image) into a NodeItem with its id parsed from the keys. ok is false for
// an item that is not one of this type's node items (another item type's
// keys, or keys the codec cannot have built). When the data does not fit
// N, err is set, ok is true and the NodeItem is zero. A keys-only item
// decodes with zero Data. Decode makes no request and may modify item.
func (n *Node[N]) Decode(item Item) (v NodeItem[N], ok bool, err error) {
	return decodeRaw(n.err, item, n.decodeItem)
}

// decodeAt is Decode without the handle's error, skAV the item's sort key.
func (n *Node[N]) decodeAt(item Item, skAV types.AttributeValue) (v NodeItem[N], ok bool, err error) {
	var ids [1]string
	ok, err = n.t.decodeItemAt(&n.it, item, skAV, ids[:], &v.Data)
	v.ID = ids[0]
	return v, ok, err
}

// hasKeys reports whether item's table keys are one of n's items', without
// decoding its data.
func (n *nodeCore) hasKeys(item Item) bool {
	var ids [1]string
	return n.it.keys.parseItem(n.t, item, ids[:])
}

// TxCheck adds to tx a check that node id's item exists (ConditionCheck
// "attribute_exists (#0)"), ANDed with a condition of the caller's ([If])
// and, on a handle with [Tracking.Version], the version given
// ([IfVersion], optional here). If the item is missing Commit fails with a
// [*NodeNotFoundError]; if the caller's condition fails, with
// [ErrConditionFailed]; if the version is stale, [ErrVersionConflict].
func (n *Node[N]) TxCheck(tx *Tx, id string, optFns ...func(*WriteOptions)) {
	k, err := n.keyed(id)
	n.handle().txCheck(tx, "Node.TxCheck", &k, err, &NodeNotFoundError{Type: n.typ, ID: id}, optFns)
}

// TxGet adds to rt the read of node id's item and returns its [Read],
// filled in by [ReadTx.Run]. A bad id makes Run fail with [ErrInvalidKey]
// before any request.
func (n *Node[N]) TxGet(rt *ReadTx, id string) *Read[N] {
	k, err := n.keyed(id)
	r := new(Read[N])
	n.handle().txGet(rt, &k, err, &r.Found, &r.Data)
	return r
}
