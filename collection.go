package adjlist

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Collection is a handle on a one-to-many relationship stored as an item
// collection: a parent node's item and its children share the parent's
// partition key. With parent NewNode[Workspace](t, "WS", "META") and child
// type "PROJ":
//
//	PK = "WS#acme"  SK = "META"             the parent (a [Node] item)
//	PK = "WS#acme"  SK = "PROJ#2026-0007"   a child: childType#id
//
// [Collection.Load] reads the parent and every child in one Query;
// [Collection.List] lists the children alone, begins_with(SK, "PROJ#"), in
// sort key order (zero-padded ids, "2026-0007", or ULIDs list in creation order).
// Children carry index keys only where [CollectionOptions].Indexes declares
// them. All of a parent's children share one partition, unless
// [CollectionOptions].Shards spreads them; collections may nest under
// children ([NewNestedCollection]). A Collection is immutable and safe for
// concurrent use.
type Collection[C, P any] struct {
	collectionCore
	// parentNode is the parent nodes' handle; nil under a collection.
	parentNode *Node[P]
	// getParent reads a parent item's data, its id a node id or a ref.
	getParent func(ctx context.Context, id string, optFns []func(*ReadOptions)) (P, error)
	// decodeItem is decodeAt of an item alone, bound once rather than per query.
	decodeItem func(Item) (Child[C], bool, error)
}

// collectionCore is a [Collection] without C and P: compiled once, not
// per pair of item types.
type collectionCore struct {
	parent    parentOf
	t         *Table
	childType string
	prefix    string // childType#
	shards    int    // table partitions per parent; 0: not sharded
	// ref is how a child's ref is spelled, "WS#{id}#PROJ#{child}".
	ref    *keycodec.Ref
	it     itemType
	tr     tracking
	goType reflect.Type // C
	err    error
}

// Child is one child item read back: its parent's id and its own, decoded
// from the keys, and its data.
type Child[C any] struct {
	Parent string // parent node id, e.g. "acme"; a nested collection's parent ref
	ID     string // child id, e.g. "2026-0007"
	Data   C
}

// NewCollection returns a handle on the children of type childType (1-64
// ASCII letters, digits, '_', '-' or '.') under parent's nodes, with C the
// Go type of a child's data, e.g.
//
//	projects := adjlist.NewCollection[Project](workspaces, "PROJ")
//
// childType should differ from the labels of edges stored in the same
// partitions. A childType equal to parent's item marker, or to the type of
// a self-keyed parent (whose item's sort key "WS#acme" a child "WS#acme"
// would share), makes every call fail with [ErrInvalidOption]; an invalid
// name with [ErrInvalidKey]; both before any request.
//
// Type parameters are in one order on every collection name: the child's
// type first, then its parent's (then the grandparent's, for
// [NewNestedCollection]): Go infers P from parent, so a call names only C
// (NewCollection[Project](workspaces, "PROJ")), and the handle is a
// *Collection[Project, Workspace].
func NewCollection[C, P any](parent *Node[P], childType string, optFns ...func(*CollectionOptions)) *Collection[C, P] {
	c := &Collection[C, P]{parentNode: parent,
		getParent: func(ctx context.Context, id string, optFns []func(*ReadOptions)) (P, error) {
			return parent.Get(ctx, id, optFns...)
		}}
	return c.bind(parentOf{end: parent.endpoint(), node: &parent.nodeCore}, childType, optFns)
}

// NewNestedCollection returns a handle on the children of type childType
// under parent's children, to any depth: the issues of an organisation's
// projects,
//
//	projects := adjlist.NewCollection[Project](orgs, "PROJ")
//	issues := adjlist.NewNestedCollection[Issue](projects, "ISSUE")
//
// A nested child is named by its parent's ref ([Collection.Ref], which
// escapes every id) and its own id, and lives in the partition the ref
// keys, the parent child's own item collection, not in its grandparent's
// (docs/modelling.md, "Nested collections", walks through it):
//
//	PK = "ORG#acme"              SK = "PROJ#p1"    a project
//	PK = "ORG#acme#PROJ#p1"      SK = "ISSUE#i7"   an issue of project p1
//
// [Collection.Load] of a nested collection reads the parent item with one
// GetItem (it is in its own parent's partition) and the children as List
// does. Every method of [Collection] works on it, the ids it takes being
// (parent ref, child id); [DeleteChild] of a parent child deletes its
// nested children with it, and [DeleteNode] those under the node's
// children. childType must differ from parent's: [ErrInvalidOption]; an
// invalid name is [ErrInvalidKey]; both before any request.
func NewNestedCollection[C, P, G any](parent *Collection[P, G], childType string, optFns ...func(*CollectionOptions)) *Collection[C, P] {
	c := &Collection[C, P]{
		getParent: func(ctx context.Context, ref string, optFns []func(*ReadOptions)) (P, error) {
			parentID, id, err := parent.ParseRef(ref)
			if err != nil {
				var zero P
				return zero, err
			}
			return parent.Get(ctx, parentID, id, optFns...)
		}}
	return c.bind(parentOf{end: parent.endpoint()}, childType, optFns)
}

// parentOf is what a collection's children hang under: nodes, or another
// collection's children.
type parentOf struct {
	end  endpoint
	node *nodeCore // the parent nodes' handle; nil under a collection
}

// name names the parent type in messages and models: "WS", or "ORG/PROJ"
// for the PROJ children of ORG nodes.
func (p *parentOf) name() string { return p.end.String() }

// bind declares c, binds its decoder and records it.
func (c *Collection[C, P]) bind(parent parentOf, childType string, optFns []func(*CollectionOptions)) *Collection[C, P] {
	c.collectionCore.init(parent, childType, optFns, reflect.TypeFor[C]())
	c.decodeItem = bySortKey(c.t, c.decodeAt)
	c.record()
	return c
}

// init declares c, whose data is a goType.
func (c *collectionCore) init(parent parentOf, childType string, optFns []func(*CollectionOptions), goType reflect.Type) {
	var opts CollectionOptions
	optErr := applyOptions(&opts, optFns)
	pe := parent.end
	*c = collectionCore{parent: parent, t: pe.t, childType: childType, prefix: childType + "#", goType: goType, err: pe.err}
	if c.err == nil {
		c.err = optErr
	}
	if c.err == nil {
		c.err = checkName("child type", childType)
	}
	switch {
	case c.err != nil:
	case opts.Shards < 0 || opts.Shards > maxShards:
		c.err = fmt.Errorf("%w: Shards %d, want 0 to %d", ErrInvalidOption, opts.Shards, maxShards)
	case opts.Shards > 1:
		c.shards = opts.Shards
	}
	switch {
	case c.err != nil:
	case !pe.isChild() && childType == pe.marker:
		c.err = fmt.Errorf("%w: child type %s equals the parent's item marker", ErrInvalidOption, childType)
	case !pe.isChild() && keycodec.SortKeySpace(pe.typ, pe.marker) == c.prefix:
		c.err = fmt.Errorf("%w: children %s of self-keyed %s nodes have the node items' keys (%s<id>)", ErrInvalidOption, childType, pe.typ, c.prefix)
	case pe.isChild() && childType == pe.typ:
		c.err = fmt.Errorf("%w: child type %s equals its parent's", ErrInvalidOption, childType)
	}
	// A parent child's key is its ref "ORG#{id}#PROJ#{child}", as it is.
	fields, parentKey := []string{"id", "child"}, pe.keySpelling(0)
	lead, _ := parentKey.Prefix(nil)
	if c.err == nil {
		c.it, c.err = c.t.newItemType(fmt.Sprintf("child %s of %s", childType, pe),
			keyCtx{Self: c.prefix, Parent: lead}, opts.Indexes, keycodec.Parent, keycodec.Parent)
		c.it.shards = c.shards
	}
	child := keycodec.Text(c.prefix).Then(keycodec.ID(1, childType))
	c.it.setKeys(newKeyCore(fields, parentKey.Then(keycodec.ShardSuffix(1, c.shards)), child, childType, childType))
	c.it.parent, c.it.self = parentKey.Parts(fields), c.it.sk
	if c.shards > 0 {
		c.it.shardField = keycodec.ShardField("child")
	}
	if pe.isChild() {
		end := pe.spell()
		c.it.parentEnd = &end
		// Described by level, "ORG#<id>#PROJ#<PROJ id>", rather than by
		// the ref's nesting.
		levels := strings.Split(pe.String(), "/")
		names := make([]string, len(levels))
		for i, l := range levels {
			names[i] = l + " id"
		}
		names[0] = "id"
		c.it.pk, c.it.parent = nameLevels(c.it.pk, names), nameLevels(c.it.parent, names)
	}
	shape := fmt.Sprintf("%s#<id>", pe.typ)
	if pe.isChild() {
		shape = fmt.Sprintf("<%s ref>", pe)
	}
	c.ref = &keycodec.Ref{Spelling: parentKey.Then(keycodec.Text("#"), child), Name: childType, Names: []string{"parent", ""},
		Reason: fmt.Sprintf("not a ref of a %s child of %s (%s#%s#<id>)", childType, pe, shape, childType)}
	if c.err == nil {
		c.tr, c.err = c.t.newTracking(opts.Tracking)
	}
}

// nameLevels renames the id fields of a nested collection's key
// template, in order, to names; a shard field keeps its name.
func nameLevels(parts []keycodec.Part, names []string) []keycodec.Part {
	out := slices.Clone(parts)
	n := 0
	for i, p := range out {
		if p.Kind == keycodec.Field && !strings.HasPrefix(p.Text, keycodec.ShardField("")) && n < len(names) {
			out[i].Text = names[n]
			n++
		}
	}
	return out
}

// parentKey is the partition key of parentID's item collection, with no
// shard: the node key "WS#acme", or the parent child's ref, checked.
func (c *collectionCore) parentKey(parentID string) (string, error) {
	if c.parent.node != nil {
		pk, _, err := c.parent.node.key(parentID)
		return pk, err
	}
	if err := c.parent.end.ref.Check(parentID); err != nil {
		return "", err
	}
	return parentID, nil
}

// CollectionOptions configures a [Collection] ([NewCollection]'s optFns).
type CollectionOptions struct {
	// Indexes declares the children's keys in the table's derived-key
	// indexes ([IndexKeys]), e.g. projects by status across workspaces:
	// {Index: "GSI2", PartitionKey: Template("STATUS#{status}"),
	// SortKey: Template("{createdAt}")}. Default none.
	Indexes []IndexKeys

	// Tracking adds a version, timestamps or an expiry to every write
	// ([Tracking]). Default: nothing.
	Tracking

	// Shards spreads a parent's children over Shards partitions of the
	// table, for parents with too many children, or too much traffic, for
	// one partition ("a workspace with millions of projects"):
	// a child's partition key is the parent's key plus a suffix chosen
	// from the child id, "WS#acme#07", while the parent item stays at
	// "WS#acme". [Collection.List] then queries every shard in parallel and
	// merges them in sort key order (ascending or [Query.Desc]), with one
	// cursor that resumes every shard; Count, ranges and filters work
	// across them; [Collection.Load] reads the parent item and the merged
	// children. Each page costs one request per unfinished shard. Default
	// 0 or 1: one partition. At most 100; more is an [ErrInvalidOption].
	//
	// Sharded children are not in the parent's partition: [LoadPartition]
	// cannot read them ([Collection.Into] is [ErrInvalidOption]), and
	// [DeleteNode] deletes them only when the collection is passed to it
	// (it implements [Incoming]). Changing Shards (0 to N, N to M, N to
	// 0) changes the primary key of existing children, "WS#acme" to
	// "WS#acme#05": until [Migrate] with the new handle has moved them
	// (one TransactWriteItems each), the new handle's Get, Update and
	// Delete of them are [ErrNotFound] and its List and Load miss them,
	// while [Scan] and [Collection.Decode] recognise them at either place,
	// and [Verify] reports them ([FindingMisplaced]), which [Repair]
	// moves. See Migrate for what writers do meanwhile.
	Shards int
}

// Key returns the primary key of a child: the parent's node key and
// childType#childID, e.g. ("WS#acme", "PROJ#2026-0007"). Errors
// match [ErrInvalidKey]; the sort key must fit in 1024 bytes. With an
// error, pk and sk are "" as with [Node.Key].
//
// With [CollectionOptions].Shards the partition key carries the child's
// shard, "WS#acme#07": FNV-1a of the child id modulo Shards, two digits.
func (c *Collection[C, P]) Key(parentID, childID string) (pk, sk string, err error) {
	return whole(c.key(parentID, childID))
}

// key is [Collection.Key].
func (c *collectionCore) key(parentID, childID string) (pk, sk string, err error) {
	if c.err != nil {
		return "", "", c.err
	}
	return c.it.keys.key(c.t, []string{parentID, childID})
}

// Put creates a child with one PutItem guarded by attribute_not_exists(PK)
// ("attribute_not_exists (#0)") as [Node.Put] does: a child stored there is
// left unchanged and the error matches [ErrExists] (with the SDK's
// *types.ConditionalCheckFailedException, its Item the stored item); only this call's own
// retry may find its child already written and succeed.
// [Collection.Replace] is the overwrite. The parent item need not exist.
// optFns may AND a condition of the caller's after the guard ([If]),
// whose failure is [ErrConditionFailed]; on a handle with
// [Tracking.Version] the child is written with version 1. data must
// marshal to a map with no key attribute ([ErrKeyAttribute]); bad ids give
// [ErrInvalidKey]; both before any request.
func (c *Collection[C, P]) Put(ctx context.Context, parentID, childID string, data C, optFns ...func(*WriteOptions)) error {
	k, err := c.keyed(parentID, childID)
	return c.handle().put(ctx, "Collection.Put", guardAbsent, &k, err, data, optFns)
}

// Replace writes a child with one PutItem, replacing any item with the same
// key: the overwrite beside the guarded create [Collection.Put], with the
// options and version handling of [Node.Replace], and like it writing only
// what C declares (attributes the stored item holds that C does not
// declare are dropped; [Collection.Update] keeps them). Bad ids are
// [ErrInvalidKey] and data naming a key attribute [ErrKeyAttribute],
// before any request.
func (c *Collection[C, P]) Replace(ctx context.Context, parentID, childID string, data C, optFns ...func(*WriteOptions)) error {
	k, err := c.keyed(parentID, childID)
	return c.handle().put(ctx, "Collection.Replace", guardNone, &k, err, data, optFns)
}

// handle is the implementation of c's single-item verbs.
func (c *collectionCore) handle() handle {
	return handle{t: c.t, it: &c.it, tr: &c.tr, exists: ErrExists, err: c.err}
}

func (c *collectionCore) keyed(parentID, childID string) (keyed, error) {
	pk, sk, err := c.key(parentID, childID)
	return keyed{kc: *c.keyCtx(pk, sk)}, err
}

// keyCtx is what the child (pk, sk)'s index key templates may name.
func (c *collectionCore) keyCtx(pk, sk string) *keyCtx {
	parent := pk // the parent's node key, before the shard suffix
	if c.shards > 0 {
		parent = pk[:len(pk)-len("#07")]
	}
	return &keyCtx{Self: sk, Parent: parent, PK: pk, SK: sk}
}

// Get reads one child with a GetItem, e.g. GetItem(PK="WS#acme",
// SK="PROJ#2026-0042"), eventually consistent unless optFns ask for a
// strongly consistent read ([Consistent]), and returns its data C. It
// returns [ErrNotFound] if there is no such child, [ErrInvalidKey] for bad
// ids, and with any error C's zero value.
func (c *Collection[C, P]) Get(ctx context.Context, parentID, childID string, optFns ...func(*ReadOptions)) (C, error) {
	k, err := c.keyed(parentID, childID)
	var data C
	err = c.handle().get(ctx, "Collection.Get", &k, err, optFns, &data)
	return data, err
}

// Update changes an existing child's data with one UpdateItem guarded by
// attribute_exists(PK) and returns its data C as stored afterwards
// (ALL_NEW), as [Node.Update] does: update ([Update], e.g.
// adjlist.Set("status", "DONE")) is not changed by the call; a missing
// child is [ErrNotFound]; a condition of the caller's ([If]) is ANDed
// after the guard, its failure [ErrConditionFailed] (the SDK's exception
// holding the stored child, ALL_OLD); on a handle with
// [Tracking.Version] the version read is required ([IfVersion]) and set
// one higher, a stale one [ErrVersionConflict]; derived index keys follow
// in the same request. [ErrKeyAttribute], [ErrInvalidOption] and
// [ErrInvalidKey] come before any request. With any error, C's zero value.
// An update of a counter's GroupBy attribute is three requests, as
// [Node.Update] says.
func (c *Collection[C, P]) Update(ctx context.Context, parentID, childID string, update Update, optFns ...func(*WriteOptions)) (C, error) {
	k, err := c.keyed(parentID, childID)
	var data C
	err = c.handle().update(ctx, "Collection.Update", &k, err, update, optFns, &data)
	return data, err
}

// Delete removes one child with one DeleteItem guarded by
// attribute_exists(PK), with the options and version handling of
// [Node.Delete]. It returns [ErrNotFound] if there was no such child,
// [ErrInvalidKey] for bad ids.
func (c *Collection[C, P]) Delete(ctx context.Context, parentID, childID string, optFns ...func(*WriteOptions)) error {
	k, err := c.keyed(parentID, childID)
	return c.handle().del(ctx, "Collection.Delete", &k, err, optFns)
}

// List returns the query over a parent's children, one Query per page on
// the table:
//
//	PK = "WS#acme" AND begins_with(SK, "PROJ#")
//
// in ascending sort key order (oldest first, for time-ordered ids); add
// [Query.Desc] for newest first (ScanIndexForward=false), and run it with
// [Query.All], [Query.Page] or [Query.Count] (keys only, nothing decoded).
func (c *Collection[C, P]) List(parentID string) Query[Child[C]] {
	return Query[Child[C]]{querySpec: c.list(parentID), decode: c.decodeItem}
}

// list is [Collection.List] without its decoder.
func (c *collectionCore) list(parentID string) querySpec {
	const op = "Collection.List"
	if c.err != nil {
		return errSpec(c.t, op, c.err)
	}
	pk, err := c.parentKey(parentID)
	if err != nil {
		return errSpec(c.t, op, err)
	}
	k := queryKeys{pk: pk, skPrefix: c.prefix, kind: c.it.kind}
	if c.shards > 0 {
		k.shardPKs = keycodec.ShardKeys(pk, c.shards)
	}
	return newQuerySpec(c.t, op, k)
}

// Decode turns a raw item (from a Scan, an export, a stream record's
// image) into a Child with its parent's id and its own parsed from the
// keys. ok is false for an item that is not one of this collection's
// children. A child is recognised under any shard layout of its parent's
// key, whatever the handle's [CollectionOptions].Shards: "WS#acme",
// "WS#acme#07" and "WS#acme#93" all decode with Parent "acme", so items
// still where an earlier shard count put them (not yet moved by
// [Migrate]) decode too. When the data does not fit C, err is set, ok is
// true and the Child is zero. A keys-only item decodes with zero Data.
// Decode makes no request and may modify item.
func (c *Collection[C, P]) Decode(item Item) (v Child[C], ok bool, err error) {
	return decodeRaw(c.err, item, c.decodeItem)
}

// decodeAt is Decode without the handle's error, skAV the item's sort key.
func (c *Collection[C, P]) decodeAt(item Item, skAV types.AttributeValue) (v Child[C], ok bool, err error) {
	var ids [2]string
	ok, err = c.t.decodeItemAt(&c.it, item, skAV, ids[:], &v.Data)
	v.Parent, v.ID = ids[0], ids[1]
	return v, ok, err
}

// ids parses one of c's children's table keys, under any shard layout;
// ok is false for any other item.
func (c *collectionCore) ids(item Item) (parentID, id string, ok bool) {
	var ids [2]string
	if !c.it.keys.parseItem(c.t, item, ids[:]) {
		return "", "", false
	}
	return ids[0], ids[1], true
}

// Family is a parent's data and its children, as read by
// [Collection.Load].
type Family[C, P any] struct {
	ID       string     // parent id, e.g. "acme"
	Parent   P          // the parent item's data
	Children []Child[C] // in ascending sort key order
	// Other counts the items in the partition that are neither the parent
	// nor this collection's children (other child types, edges); they are
	// not decoded.
	Other int
}

// Load reads a parent and all its children with one Query per page on the
// table, PK = "WS#acme", with no sort key condition: the item collection in
// one read. It returns [ErrNotFound] if the parent item does not exist and
// [ErrInvalidKey] for a bad id. Reads are eventually consistent unless
// optFns ask for strongly consistent ones ([Consistent]).
//
// With [CollectionOptions].Shards it reads the parent item with one
// GetItem and the children as [Collection.List] does (one Query per shard
// per page, merged in sort key order); Other is then 0, since only the
// shards' children are read.
func (c *Collection[C, P]) Load(ctx context.Context, parentID string, optFns ...func(*ReadOptions)) (_ Family[C, P], err error) {
	ctx, sp := c.t.startSpan(ctx, "Collection.Load")
	defer sp.End(&err)
	res := Family[C, P]{ID: parentID}
	if c.err == nil && (c.shards > 0 || c.parentNode == nil) {
		if res.Parent, err = c.getParent(ctx, parentID, optFns); err == nil {
			res.Children, err = c.List(parentID).Collect(ctx, optFns...)
		}
		if err != nil {
			return Family[C, P]{ID: parentID}, c.t.asOp(err, "Collection.Load")
		}
		return res, nil
	}
	h := headSpec{t: c.t, err: c.err} // a nested collection's error
	if c.parentNode != nil {
		h = c.parentNode.head()
	}
	if _, err = h.read(ctx, "Collection.Load", parentID, nil, 0, readOptions(optFns), []Target{c.Into(&res.Children)}, &res.Other, &res.Parent); err != nil {
		return Family[C, P]{ID: parentID}, err
	}
	if res.Children == nil {
		res.Children = []Child[C]{} // none: empty, not nil
	}
	return res, nil
}

// TxCheck adds to tx a check that a child exists, as [Node.TxCheck] does;
// a missing child makes Commit fail with [ErrNotFound], a failed condition
// with [ErrConditionFailed], a stale version with [ErrVersionConflict].
func (c *Collection[C, P]) TxCheck(tx *Tx, parentID, childID string, optFns ...func(*WriteOptions)) {
	k, err := c.keyed(parentID, childID)
	c.handle().txCheck(tx, "Collection.TxCheck", &k, err, nil, optFns)
}

// TxGet adds to rt the read of a child and returns its [Read], filled in
// by [ReadTx.Run]. Bad ids make Run fail with [ErrInvalidKey] before any
// request.
func (c *Collection[C, P]) TxGet(rt *ReadTx, parentID, childID string) *Read[C] {
	k, err := c.keyed(parentID, childID)
	r := new(Read[C])
	c.handle().txGet(rt, &k, err, &r.Found, &r.Data)
	return r
}
