package adjlist

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/walks"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Entity is a handle on one item type of a [Table] whose keys are spelled
// as its design spells them ([Template]), with T the Go type of the item's
// own attributes: any published single-table design, or an existing table,
// e.g. the AWS guide's social network:
//
//	users := adjlist.NewEntity[UserInfo](t, "user", "u#{userID}", "info")
//	followers := adjlist.NewEntity[Follower](t, "follower", "u#{userID}#follower", "u#{followerID}")
//
//	PK = "u#12345"            SK = "info"       a user (name, imageUrl)
//	PK = "u#12345#follower"   SK = "u#34567"    one of their followers
//
// Its key fields are the {names} of its partition key template, then those
// of its sort key template not in it (userID, followerID);
// calls name an item by their ids in that order ([IDs]), and items read
// back carry them. A key field T declares as an attribute ("complaint_id"
// of "{complaint_id}") is the item's own value: writes take it from the
// data, reads fill it in; [EntityOptions].KeyOnly keeps it inside the keys
// alone. Ids are escaped as in [Node.Key] ('#' → "%23", '%' → "%25"), so
// ids without those are spelled as the design spells them. An Entity is
// immutable and safe for concurrent use.
type Entity[T any] struct {
	entityCore
	// decodeItem is decodeAt of an item alone, bound once rather than per query.
	decodeItem func(Item) (EntityItem[T], bool, error)
}

// entityCore is an [Entity] without T: compiled once, not per item type.
type entityCore struct {
	t    *Table
	name string

	fields   []string // the key fields, the partition key's first
	pkN      int      // how many of fields the partition key names
	numIDs   []int    // indexes in fields of number keys' fields (type N)
	it       itemType
	tr       tracking
	data     keycodec.Fields                         // how its keys relate to T's attributes
	goType   reflect.Type                            // T
	keyedIDs func(ids IDs, item Item) (keyed, error) // keyedData, bound once
	err      error
}

// IDs are the ids of one item of an [Entity], one per key field in the
// order of its templates' {names} (the partition key's, then the sort
// key's others), e.g. IDs{"12345", "34567"} for the follower
// 34567 of user 12345.
type IDs []string

// EntityItem is one item of an [Entity] read back: its ids, parsed from
// its keys, and its data.
type EntityItem[T any] struct {
	IDs  IDs
	Data T
}

// EntityOptions configures an [Entity] ([NewEntity]'s optFns).
type EntityOptions struct {
	// Indexes declares the items' keys in the table's derived-key indexes
	// ([IndexKeys]); their templates may name the entity's key fields
	// (Template("{userID}")) and data attributes. Default none.
	Indexes []IndexKeys

	// KeyOnly names attributes of T (by their attribute names) that the
	// design keeps only inside keys, never as attributes of their own: a
	// key field ({orderID} of "o#{orderID}"), or a value that only an
	// index key template holds (GSI1SK = Template("{Date}") on an order
	// item that holds no Date attribute). A write puts the value into the
	// keys and leaves the attribute out; a read parses it back from the
	// keys into T, from the first key holding it that matches its
	// template whole. The first index key holding one must have '#' after
	// each of its {names}, so that it parses back. An item whose keys hold
	// one only in a key its template cannot parse back (written under
	// another template) is not read: Get, List and Decode return a
	// [*KeyError] (ErrInvalidKey) rather than T without the value (an
	// Update of other attributes is applied, and reading its result back
	// returns that error), and [Migrate] leaves the item
	// ([MigrateResult].Unread). A name T does
	// not declare, or that no key template holds, is [ErrInvalidOption]. A write whose
	// data holds one that no key written holds (a sparse index key another
	// of whose values is empty) is [ErrInvalidKey], and an update that
	// would remove the key holding one [ErrKeyAttribute], before any
	// request: the value would be lost. [Verify], [Repair] and [Migrate]
	// keep an index key that alone holds one where the item's other
	// values no longer make it (another program removed them). An item that
	// holds one as an attribute of its own loses it on a Replace of the
	// value Get read, and [Verify] reports it
	// ([FindingUndeclaredAttribute]). Default none: every attribute T
	// declares is stored as its own attribute.
	KeyOnly []string

	// Tracking adds a version, timestamps or an expiry to every write
	// ([Tracking]). Default: nothing.
	Tracking
}

// NewEntity returns a handle on the items of t named name (1-64 ASCII
// letters, digits, '_', '-' or '.', e.g. "follower") whose partition and
// sort keys are spelled by the templates partitionKey and sortKey
// ([Template]), e.g. NewEntity[Post](t, "post", "u#{userID}#post",
// "p#{postID}"). A key may be a bare id ("{playerID}"), a constant alone
// ("info"), or join several ids ("p#{postID}#u#{authorID}").
//
// On a table whose key is a number ([Options].PartitionKeyType or
// SortKeyType N) that key's template is one {field}, e.g. "{version}",
// whose id is the number's text as DynamoDB stores it ("10", "-1.5";
// other text is [ErrInvalidKey]); the key is written and queried as an N
// attribute, so [Entity.List] returns numeric order and its range
// conditions take numbers.
//
// The table records the entity ([Table.Check], [DescribeModel]). It is
// refused, making every call fail with [ErrInvalidOption] before any
// request, when a template is malformed or a {field} in it is followed by
// text other than '#' (the key could not be parsed back), when a number
// key's template is not one {field}, when an
// attribute or index is declared wrongly, or when another item type the
// table records could have the same keys (two templates that can spell the
// same key make an item's type ambiguous). An invalid name is
// [ErrInvalidKey].
func NewEntity[T any](t *Table, name, partitionKey, sortKey string, optFns ...func(*EntityOptions)) *Entity[T] {
	e := new(Entity[T])
	e.init(t, name, partitionKey, sortKey, optFns, reflect.TypeFor[T]())
	e.decodeItem = bySortKey(e.t, e.decodeAt)
	return e
}

// init declares e, whose data is a goType, and records it.
func (e *entityCore) init(t *Table, name, partitionKey, sortKey string, optFns []func(*EntityOptions), goType reflect.Type) {
	var opts EntityOptions
	optErr := applyOptions(&opts, optFns)
	*e = entityCore{t: t, name: name, goType: goType, err: t.err}
	if e.err == nil {
		e.err = optErr
	}
	if e.err == nil {
		e.err = checkName("entity", name)
	}
	var pk, sk []keycodec.Part // the bound templates, the item type's pk and sk
	if e.err == nil {
		var pkErr, skErr error
		pk, pkErr = bindSpelling("partition key", Template(partitionKey))
		sk, skErr = bindSpelling("sort key", Template(sortKey))
		e.err = errors.Join(pkErr, skErr)
	}
	if e.err == nil {
		e.err = errors.Join(t.checkNumberKey("partition key", t.opts.PartitionKey, pk), t.checkNumberKey("sort key", t.opts.SortKey, sk))
	}
	if e.err == nil {
		e.fields = keycodec.FieldNames(nil, pk)
		e.pkN = len(e.fields)
		e.fields = keycodec.FieldNames(e.fields, sk)
		for _, k := range [...]struct {
			attr string
			s    []keycodec.Part
		}{{t.opts.PartitionKey, pk}, {t.opts.SortKey, sk}} {
			if i := slices.Index(e.fields, k.s[0].Text); t.numKey(k.attr) && !slices.Contains(e.numIDs, i) {
				e.numIDs = append(e.numIDs, i)
			}
		}
		keys := newKeyCore(e.fields, keycodec.Compile(pk, e.fields), keycodec.Compile(sk, e.fields), name, name)
		e.it, e.err = t.newItemType("entity "+name, keyCtx{Self: "", Fields: e.fields}, opts.Indexes, keycodec.Self, keycodec.Field)
		e.it.keys, e.it.pk, e.it.sk, e.it.self, e.it.byIDs = keys, pk, sk, sk, true
		for i := range e.it.indexes {
			b := &e.it.indexes[i]
			if b.Local {
				b.PK = pk // the table's partition key
			}
			b.PK, b.SK = keycodec.WithSelf(b.PK, sk), keycodec.WithSelf(b.SK, sk)
			b.Compile(&e.it.prefixes)
		}
	}
	if e.err == nil {
		e.data, e.err = keycodec.BindFields(goType, t.encoderTagKey(), e.fields, e.it.indexes, opts.KeyOnly)
		e.it.keyData = e.data.Names(e.fields)
		if e.data.Types != nil || len(e.data.KeyOnly) > 0 {
			e.it.data = &e.data
		}
	}
	if e.err == nil {
		e.tr, e.err = t.newTracking(opts.Tracking)
	}
	if err := t.record(e.recorded()); e.err == nil {
		e.err = err
	}
	e.keyedIDs = e.keyedData
}

// Key returns the primary key of the item with ids, e.g. ("u#12345#follower",
// "u#34567") for IDs{"12345", "34567"}. It returns [ErrInvalidKey] for the
// wrong number of ids, an empty, non-UTF-8 or control-character id, or a
// key over DynamoDB's limits (2048 bytes for a partition key, 1024 for a sort key), and
// the handle's error, with pk and sk "" as with [Node.Key]. It makes no
// request.
func (e *Entity[T]) Key(ids ...string) (pk, sk string, err error) { return whole(e.key(ids...)) }

// key is [Entity.Key].
func (e *entityCore) key(ids ...string) (pk, sk string, err error) {
	if e.err != nil {
		return "", "", e.err
	}
	if err := keycodec.CheckIDs(e.name, e.fields, ids, len(e.fields)); err != nil {
		return "", "", err
	}
	if err := e.checkNumberIDs(ids); err != nil {
		return "", "", err
	}
	return e.it.keys.key(e.t, ids)
}

// checkNumberKey refuses a template s of a number table key attr that is
// not one {field}.
func (t *Table) checkNumberKey(what, attr string, s []keycodec.Part) error {
	if !t.numKey(attr) {
		return nil
	}
	if err := keycodec.NumberKey(s); err != nil {
		return fmt.Errorf("%w: %s %s template %s: %w", ErrInvalidOption, what, attr, keycodec.String(s), err)
	}
	return nil
}

// checkNumberIDs refuses ids (all, or leading ones) whose id of a number
// key's field is not a number as DynamoDB stores it.
func (e *entityCore) checkNumberIDs(ids []string) error {
	for _, i := range e.numIDs {
		if i < len(ids) {
			if err := keycodec.CheckNumberID(e.fields[i], ids[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// keyCtx is what the item (pk, sk)'s index key templates may name.
func (e *entityCore) keyCtx(pk, sk string, ids []string) *keyCtx {
	return &keyCtx{Self: sk, PK: pk, SK: sk, Fields: e.fields, IDs: ids}
}

// Put creates the item with ids with one PutItem guarded by
// attribute_not_exists(PK), the guarded create every handle's Put is
// ([Node.Put]); [Entity.Replace] is the overwrite. An item stored there is
// left unchanged and the error matches [ErrExists] (with the SDK's
// *types.ConditionalCheckFailedException, its Item the stored item); only
// this call's own retry after a lost response may find its item already
// written and succeed. optFns may AND a condition of the caller's ([If]),
// whose failure is [ErrConditionFailed]; on a handle with
// [Tracking.Version] the item is written with version 1. ids may be nil
// when T declares every key field: the data's values are the ids
// (Put(ctx, nil, Complaint{ComplaintID: "Complaint123"}) writes PK =
// "Complaint123"). Bad ids, ids that differ from the data's values of the
// same key fields, a key field neither gives, or a value kept only
// inside an index key the data leaves out ([EntityOptions].KeyOnly), are
// [ErrInvalidKey] (a [*KeyError]), as is the id of a key field T holds
// as a number in another text than DynamoDB stores the number in ("007",
// "1.50", "+5" or "1e2"; "7", "1.5", "100"), which would make the item's
// attribute and keys disagree; data naming a key attribute is
// [ErrKeyAttribute]: all before any request.
func (e *Entity[T]) Put(ctx context.Context, ids IDs, data T, optFns ...func(*WriteOptions)) error {
	return e.handle().put(ctx, "Entity.Put", guardAbsent, &keyed{kc: keyCtx{IDs: ids}}, nil, data, optFns)
}

// Replace writes the item with ids (nil: from the data, as [Entity.Put])
// with one PutItem, replacing any item with the same key, with the options
// and version handling of [Node.Replace], and like it writing only what T
// declares (attributes the stored item holds that T does not declare are
// dropped, even when data is the value [Entity.Get] read; [Entity.Update]
// keeps them; [Verify] reports them). Bad ids are [ErrInvalidKey], data
// naming a key attribute [ErrKeyAttribute], before any request.
func (e *Entity[T]) Replace(ctx context.Context, ids IDs, data T, optFns ...func(*WriteOptions)) error {
	return e.handle().put(ctx, "Entity.Replace", guardNone, &keyed{kc: keyCtx{IDs: ids}}, nil, data, optFns)
}

// Get reads the item with ids with one GetItem, eventually consistent
// unless optFns ask for a strongly consistent read ([Consistent]), and
// returns its attributes decoded into T. It returns [ErrNotFound] if there
// is no such item, [ErrInvalidKey] for bad ids, and with any error T's
// zero value.
func (e *Entity[T]) Get(ctx context.Context, ids IDs, optFns ...func(*ReadOptions)) (T, error) {
	k, err := e.keyed(ids)
	var data T
	err = e.handle().get(ctx, "Entity.Get", &k, err, optFns, &data)
	return data, err
}

// Update changes the data of the existing item with ids with one
// UpdateItem guarded by attribute_exists(PK), and returns its data T as
// stored afterwards (ALL_NEW), as [Node.Update] does: update ([Update],
// e.g. adjlist.Update{}.Add("ItemCount", -1)) is not changed by the call; a missing
// item is [ErrNotFound]; a condition of the caller's ([If]) is ANDed after
// the guard; derived index keys follow in the same request; a version is
// checked and set one higher. [ErrKeyAttribute], [ErrInvalidOption] and
// [ErrInvalidKey] come before any request. With any error, T's zero
// value. An update of a counter's GroupBy attribute is
// three requests, as [Node.Update] says.
func (e *Entity[T]) Update(ctx context.Context, ids IDs, update Update, optFns ...func(*WriteOptions)) (T, error) {
	k, err := e.keyed(ids)
	var data T
	err = e.handle().update(ctx, "Entity.Update", &k, err, update, optFns, &data)
	return data, err
}

// handle is the implementation of e's single-item verbs.
func (e *entityCore) handle() handle {
	return handle{t: e.t, it: &e.it, tr: &e.tr, exists: ErrExists, err: e.err, keyIDs: e.keyedIDs}
}

// keyedData is the keys of the item with ids whose data is item, which
// gives the ids of the key fields T declares.
func (e *entityCore) keyedData(ids IDs, item Item) (keyed, error) {
	ids, err := e.data.IDs(e.name, e.fields, ids, item)
	if err != nil {
		return keyed{}, err
	}
	return e.keyed(ids)
}

func (e *entityCore) keyed(ids IDs) (keyed, error) {
	pk, sk, err := e.key(ids...)
	return keyed{kc: *e.keyCtx(pk, sk, ids)}, err
}

// Delete removes the item with ids with one DeleteItem guarded by
// attribute_exists(PK); it returns [ErrNotFound] if there was none, with
// the options and version handling of [Node.Delete].
func (e *Entity[T]) Delete(ctx context.Context, ids IDs, optFns ...func(*WriteOptions)) error {
	k, err := e.keyed(ids)
	return e.handle().del(ctx, "Entity.Delete", &k, err, optFns)
}

// List returns the query over the entity's items in one partition, one
// Query per page on the table: ids are the partition key's fields, then
// optionally leading fields of the sort key, which narrow the sort key
// prefix. For followers ("u#{userID}#follower", "u#{followerID}"),
//
//	followers.List("12345")  is  PK = "u#12345#follower" AND begins_with(SK, "u#")
//
// and for the AWS gaming profile's items ("{playerID}", "ITEMS#{itemID}")
// List("player001") is PK = "player001" AND begins_with(SK, "ITEMS#"). A
// sort key all of whose fields are given (or that has none, as "info") is
// an equality: PK = "u#12345" AND SK = "info". Items are in ascending sort
// key order ([Query.Desc] for descending); sort key conditions
// ([Query.Between], [Query.BeginsWith], ...) apply to the sort key after
// that prefix, or to the whole sort key when it starts with a field
// ("{date}#{orderID}": GreaterThan("2026-01-01")). Items of other types that share the prefix are skipped. Too
// few or too many ids, or bad ones, fail when run, before any request
// ([ErrInvalidKey]).
func (e *Entity[T]) List(ids ...string) Query[EntityItem[T]] {
	return Query[EntityItem[T]]{querySpec: e.list(ids), decode: e.decodeItem}
}

// list is [Entity.List] without its decoder.
func (e *entityCore) list(ids []string) querySpec {
	const op = "Entity.List"
	if e.err != nil {
		return errSpec(e.t, op, e.err)
	}
	if err := keycodec.CheckListIDs(e.name, e.fields, ids, e.pkN); err != nil {
		return errSpec(e.t, op, err)
	}
	if err := e.checkNumberIDs(ids); err != nil {
		return errSpec(e.t, op, err)
	}
	pk := e.it.keys.pk.Render(ids)
	prefix, exact := e.it.keys.sk.Prefix(ids)
	if err := e.t.checkKeys(e.name, pk, prefix); err != nil {
		return errSpec(e.t, op, err)
	}
	// A sort key that starts with a field has no prefix: conditions then
	// compare whole values.
	return newQuerySpec(e.t, op, queryKeys{pk: pk, skPrefix: prefix, skExact: exact, freeSK: prefix == "",
		skRest: e.it.keys.sk.Rest(len(ids)), kind: e.it.kind,
		pkNum: e.t.numKey(e.t.opts.PartitionKey), skNum: e.t.numKey(e.t.opts.SortKey)})
}

// ByIndex returns the query over one partition of a secondary index for
// the entity's items, as [Node.ByIndex] does. On a derived-key index
// values fill the variable parts of the entity's partition key template
// in that index, in order: an id for a key field, escaped as in the
// table keys (Template("F#{followerID}") and the id "a#b" is
// GSI2PK = "F#a%23b", the value its items hold), a data attribute's
// value encoded as a write encodes it (see [Node.ByIndex]), and for {@self} the ids of the sort key's fields in
// order, spelled as the sort key is (on sort key "p#{postID}#u#{authorID}",
// Template("{@self}") with "34567", "56789" is GSI2PK = "p#34567#u#56789");
// for a local index, the ids of the table's partition key. A range
// condition on an index sort key holding {@self} takes the sort key after
// its leading text, as on [Entity.List] ("34567#u#56789").
//
// On a native index values are the key attributes' values in order
// (every partition attribute's, then optionally the leading sort
// attributes'), except that a key attribute the entity spells, its
// table's PK or SK, takes the ids of its {fields}, spelled as its keys
// are. For mappings := NewEntity[M](t, "mapping", "ORG#{org}",
// "USER#{username}") on an index keyed on SK, then PK (an inverted index;
// the table's own inverted index keyed so, [Options].IndexPartitionKey
// "SK", reads alike):
//
//	mappings.ByIndex("InvertedIndex", "carrpatrick")          SK = "USER#carrpatrick"
//	mappings.ByIndex("InvertedIndex", "carrpatrick", "acme")  ... AND PK = "ORG#acme"
//
// and a range condition on such a key takes its ids as on [Entity.List],
// after its leading text: BeginsWith("ac") is ... AND begins_with(PK, "ORG#ac").
//
// On a native local index the partition key's ids come first. Each
// [EntityItem] has its ids, from the table keys every index projects. A
// wrong number or type of values, or a bad id, fails with
// [ErrInvalidOption] when run, before any request.
func (e *Entity[T]) ByIndex(index string, values ...any) Query[EntityItem[T]] {
	return Query[EntityItem[T]]{querySpec: indexSpec(e.t, "Entity.ByIndex", e.err, &e.it, index, values), decode: e.decodeItem}
}

// Decode turns a raw item (from a Scan, an export, a stream record's
// image) into an EntityItem with its ids parsed from its keys. ok is false
// for an item whose keys the entity's templates cannot have built. When
// the data does not fit T, err is set, ok is true and the EntityItem is
// zero. Decode makes no request and may modify item.
func (e *Entity[T]) Decode(item Item) (v EntityItem[T], ok bool, err error) {
	return decodeRaw(e.err, item, e.decodeItem)
}

// decodeAt is Decode without the handle's error, skAV the item's sort key.
func (e *Entity[T]) decodeAt(item Item, skAV types.AttributeValue) (v EntityItem[T], ok bool, err error) {
	v.IDs, ok, err = e.t.decodeIDs(&e.it, item, skAV, &v.Data)
	return v, ok, err
}

// parseKeys reads the ids from an item's table keys; ok=false costs no
// allocation.
func (e *entityCore) parseKeys(item Item) (IDs, bool) {
	return e.it.keys.ids(e.t, item)
}

// check is Verify's check of an item: its key fields' attributes agree
// with its keys, and its data decodes into T.
func (e *entityCore) check() func(Item) error {
	decodes := walks.DataCheck(e.goType, e.t.dec, e.t.unmarshalData)
	if e.data.Types == nil {
		return decodes
	}
	return func(item Item) error {
		if ids, ok := e.parseKeys(item); ok {
			if attr, have, want, ok := e.data.Mismatch(e.fields, ids, item); ok {
				return &walks.MismatchError{Attr: attr, Have: have, Want: want}
			}
		}
		return decodes(item)
	}
}

// Into returns a [Target] that appends to *dst, in the order read, every
// item of this entity that a read of several item types meets ([Load],
// [PageIndex], and [LoadPartition] of an entity heading its partition).
// A nil dst is [ErrInvalidOption] when used.
func (e *Entity[T]) Into(dst *[]EntityItem[T]) Target {
	return into(e.t, "", "entity "+e.name, e.err, dst, e.decodeAt, &e.entityCore)
}

// TxCheck adds to tx a check that the item with ids exists, as
// [Node.TxCheck] does; a missing item makes Commit fail with [ErrNotFound],
// a failed condition with [ErrConditionFailed], a stale version with
// [ErrVersionConflict].
func (e *Entity[T]) TxCheck(tx *Tx, ids IDs, optFns ...func(*WriteOptions)) {
	k, err := e.keyed(ids)
	e.handle().txCheck(tx, "Entity.TxCheck", &k, err, nil, optFns)
}

// TxGet adds to rt the read of the item with ids and returns its [Read],
// filled in by [ReadTx.Run]. Bad ids make Run fail with [ErrInvalidKey]
// before any request.
func (e *Entity[T]) TxGet(rt *ReadTx, ids IDs) *Read[T] {
	k, err := e.keyed(ids)
	r := new(Read[T])
	e.handle().txGet(rt, &k, err, &r.Found, &r.Data)
	return r
}
