package adjlist

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/adjlist/adjlist/internal/ddbexpr"
	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/send"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// marshalData encodes an item's own data with the table's encoder into a
// fresh map. Data that maps to a key attribute is refused: keys come from
// ids, never from data.
func (t *Table) marshalData(data any) (Item, error) {
	av, err := t.enc.Encode(data)
	if err != nil {
		return nil, err
	}
	m, ok := av.(*types.AttributeValueMemberM)
	if !ok {
		if _, null := av.(*types.AttributeValueMemberNULL); null {
			return make(Item, 4), nil
		}
		return nil, fmt.Errorf("%w: data of type %T does not marshal to a map", ErrInvalidOption, data)
	}
	for name := range m.Value {
		if t.isKeyAttr(name) {
			return nil, fmt.Errorf("%w: %q", ErrKeyAttribute, name)
		}
	}
	return m.Value, nil
}

// decodeRaw is a handle's Decode: herr, else decode's result, zero with
// any error.
func decodeRaw[V any](herr error, item Item, decode func(Item) (V, bool, error)) (v V, ok bool, err error) {
	if herr != nil {
		return v, false, herr
	}
	if v, ok, err = decode(item); err != nil {
		var zero V
		return zero, ok, err
	}
	return v, ok, nil
}

// bySortKey is a handle's decoder of items, decodeAt given each item's
// sort key attribute.
func bySortKey[V any](t *Table, decodeAt func(Item, types.AttributeValue) (V, bool, error)) func(Item) (V, bool, error) {
	sk := t.opts.SortKey
	return func(item Item) (V, bool, error) { return decodeAt(item, item[sk]) }
}

// decodeItem is the one decode of an item of type it: its ids parsed
// into ids (len(it.keys.fields) strings) and its data decoded into out.
// ok is false, with nothing decoded, for an item whose keys the type
// cannot have built. It may modify item.
func (t *Table) decodeItem(it *itemType, item Item, ids []string, out any) (ok bool, err error) {
	return t.decodeItemAt(it, item, item[t.opts.SortKey], ids, out)
}

// decodeItemAt is decodeItem of an item whose sort key attribute skAV a
// read of several item types has looked up already.
func (t *Table) decodeItemAt(it *itemType, item Item, skAV types.AttributeValue, ids []string, out any) (ok bool, err error) {
	if !t.parseItemAt(it, item, skAV, ids) {
		return false, nil
	}
	return true, t.decodeData(it, ids, item, out)
}

// parseItem is decodeItem without the data.
func (t *Table) parseItem(it *itemType, item Item, ids []string) bool {
	return t.parseItemAt(it, item, item[t.opts.SortKey], ids)
}

// parseItemAt is parseItem given the sort key attribute skAV.
func (t *Table) parseItemAt(it *itemType, item Item, skAV types.AttributeValue, ids []string) bool {
	pk, okP := t.keyText(item, t.opts.PartitionKey)
	sk, okS := t.keyTextOf(t.opts.SortKey, skAV)
	return okP && okS && it.keys.parse(pk, sk, ids) && (it.edge == nil || t.edgeIndexKeysMatch(it.edge, item, pk, sk, ids[0]))
}

// decodeIDs is decodeItem for an item type of any number of ids, which
// it returns as an [IDs] of their own; ok=false costs no allocation (a
// read of several item types offers each item to every target).
func (t *Table) decodeIDs(it *itemType, item Item, skAV types.AttributeValue, out any) (IDs, bool, error) {
	var buf [8]string
	var ids []string
	if n := len(it.keys.fields); n <= len(buf) {
		ids = buf[:n]
	} else {
		ids = make([]string, n)
	}
	ok, err := t.decodeItemAt(it, item, skAV, ids, out)
	if !ok {
		return nil, false, nil
	}
	return slices.Clone(ids), true, err
}

// decodeData decodes item's data into out, an Entity's values its keys
// hold filled in from ids first (one kept only inside a key its template
// no longer parses back is an error: a write of what it read would lose
// it). It may modify item.
func (t *Table) decodeData(it *itemType, ids []string, item Item, out any) error {
	if d := it.data; d != nil {
		d.Fill(it.keys.fields, ids, item)
		if err := d.Unreadable(item, t.opts.PartitionKey, t.opts.SortKey); err != nil {
			return err
		}
	}
	return t.unmarshalData(item, out)
}

// unmarshalData decodes an item's own data into out, ignoring the key
// attributes (so a map-typed data never sees them). It may modify item. On
// failure out is reset to its zero value: the decoder stops at the first
// bad attribute, and a half-filled value must never reach a caller.
func (t *Table) unmarshalData(item Item, out any) error {
	// A struct ignores attributes it has no field for, and writes refuse
	// structs with key fields; only other data (maps) would see the keys.
	if rt := reflect.TypeOf(out); rt.Kind() != reflect.Pointer || rt.Elem().Kind() != reflect.Struct {
		o := &t.opts
		delete(item, o.PartitionKey)
		delete(item, o.SortKey)
		if t.layout != noIndex { // with NoIndex, GSI1PK and GSI1SK are data
			delete(item, o.IndexPartitionKey)
			delete(item, o.IndexSortKey)
		}
		for k := range t.derived {
			delete(item, k)
		}
	}
	if err := t.dec.Decode(&types.AttributeValueMemberM{Value: item}, out); err != nil {
		if v := reflect.ValueOf(out); v.Kind() == reflect.Pointer && !v.IsNil() {
			v.Elem().SetZero()
		}
		return err
	}
	return nil
}

// keys are t's key attributes and their types.
func (t *Table) keys() ddbitem.Keys {
	o := &t.opts
	return ddbitem.Keys{PartitionKey: o.PartitionKey, SortKey: o.SortKey, PartitionKeyType: o.PartitionKeyType, SortKeyType: o.SortKeyType}
}

// numKey reports whether name is a table key attribute of type N
// ([Options].PartitionKeyType, SortKeyType).
func (t *Table) numKey(name string) bool { return t.keys().Number(name) }

// numKeys reports whether either table key is of type N.
func (t *Table) numKeys() bool { return t.numKey(t.opts.PartitionKey) || t.numKey(t.opts.SortKey) }

// keyAV is the value of table key attribute name whose key text is s: a
// number on an N key, else a string.
func (t *Table) keyAV(name, s string) types.AttributeValue { return t.keys().Value(name, s) }

// keyText returns item[name], a table key attribute, as key text: a
// string, or on an N key a number's text.
func (t *Table) keyText(item Item, name string) (string, bool) { return t.keyTextOf(name, item[name]) }

// keyTextOf is keyText of key attribute name's value av.
func (t *Table) keyTextOf(name string, av types.AttributeValue) (string, bool) {
	if s, ok := av.(*types.AttributeValueMemberS); ok {
		return s.Value, true // every item read comes here twice: no Keys built for a string
	}
	return t.keys().TextOf(name, av)
}

// setKeys writes the primary key into item.
func (t *Table) setKeys(item Item, pk, sk string) {
	item[t.opts.PartitionKey] = t.keyAV(t.opts.PartitionKey, pk)
	item[t.opts.SortKey] = t.keyAV(t.opts.SortKey, sk)
}

// keyItem returns the primary key of one item as the SDK wants it.
func (t *Table) keyItem(pk, sk string) Item { return t.keys().Item(pk, sk) }

// opErr is the error of the operation op on the item (pk, sk), or the
// partition pk: an *OpError whose Err is err, inside a *ThrottlingError
// when err reports throttling.
func (t *Table) opErr(op, pk, sk string, err error) error {
	return &OpError{Op: op, Table: t.name, PK: pk, SK: sk, Err: t.throttled(err, pk, sk, "", "")}
}

// asOp returns err, of a call op is made of (the Tx.Commit of Edge.Move,
// the Node.Get of Collection.Load), as an *OpError naming op, with keys
// {pk, sk} in place of the inner call's where given; an error that is no
// *OpError (a bad ref refused first) gets one.
func (t *Table) asOp(err error, op string, keys ...string) error {
	var oe *OpError
	switch {
	case err == nil:
		return nil
	case !errors.As(err, &oe):
		return t.opErr(op, "", "", err)
	}
	own := *oe
	own.Op = op
	if len(keys) == 2 {
		own.PK, own.SK = keys[0], keys[1]
	}
	return &own
}

// put writes item, complete, with one PutItem under w's condition
// ([send.Put]: a retried create that finds its own item succeeds), or
// given a token as a one-action TransactWriteItems ([WriteOptions.Token]).
func (t *Table) put(ctx context.Context, op, pk, sk string, item Item, w *writeCond, token string) error {
	err := checkSize(item)
	var c send.Cond
	if err == nil {
		c, err = w.built()
	}
	switch {
	case err != nil:
	case token != "":
		err = send.Tokened(ctx, t.client, send.TxPut(t.tableName, item, c), token, &w.Cond, w.exists, w.missing, callOpts(ctx))
	default:
		err = send.Put(ctx, t.client, t.tableName, item, c, &w.Cond, w.exists, callOpts(ctx))
	}
	if err != nil {
		return t.opErr(op, pk, sk, err)
	}
	return nil
}

// getItemInput is getItem's request, which Describe shows too.
func (t *Table) getItemInput(pk, sk string, o ReadOptions) *dynamodb.GetItemInput {
	return &dynamodb.GetItemInput{TableName: t.tableName, Key: t.keyItem(pk, sk), ConsistentRead: o.consistentRead()}
}

// getItem reads one item with a GetItem (strongly consistent if o says
// so); a missing item is ErrNotFound.
func (t *Table) getItem(ctx context.Context, op, pk, sk string, o ReadOptions) (Item, error) {
	if o.err != nil {
		return nil, t.opErr(op, pk, sk, o.err)
	}
	res, err := t.client.GetItem(ctx, t.getItemInput(pk, sk, o), callOpts(ctx)...)
	switch {
	case err != nil:
	case res.Item == nil:
		err = ErrNotFound
	default:
		return res.Item, nil
	}
	return nil, t.opErr(op, pk, sk, err)
}

// buildUpdate builds the expressions of update of the item kc under w,
// with w's version and tracking and the derived index keys that follow,
// on a fresh builder: update is not changed. It returns the whole update
// built too.
func (t *Table) buildUpdate(it *itemType, kc *keyCtx, update Update, w *writeCond) (expression.Expression, Update, error) {
	ops, err := w.UpdateOps(update.ops, t.enc, t.isKeyAttr, it.keyData)
	if err == nil {
		update, err = deriveIndexUpdate(Update{ops: ops}, it.indexes, kc, t.enc, it.keyData)
	}
	if err != nil {
		return expression.Expression{}, Update{}, err
	}
	expr, err := w.BuildUpdate(t.opts.PartitionKey, update.ops, t.enc)
	return expr, update, err
}

// updateItem applies update with one UpdateItem under w's condition and
// returns the item as stored afterwards (ALL_NEW). An update that is not
// idempotent (ADD, SetTo) and checks no version is not re-sent after an
// attempt whose outcome is unknown; a locked update whose retry finds its
// own write applied succeeds ([send.Update]). Given a token it is a
// one-action TransactWriteItems ([WriteOptions.Token]), returning no item.
func (t *Table) updateItem(ctx context.Context, op string, it *itemType, kc *keyCtx, update Update, w *writeCond, token string) (Item, error) {
	expr, whole, err := t.buildUpdate(it, kc, update, w)
	var item Item
	switch {
	case err != nil:
	case token != "":
		c := send.Cond{Expr: expr.Condition(), Names: expr.Names(), Values: expr.Values()}
		err = send.Tokened(ctx, t.client, send.TxUpdate(t.tableName, t.keyItem(kc.PK, kc.SK), expr.Update(), c), token, &w.Cond, w.exists, w.missing, callOpts(ctx))
	default:
		var shows func(Item) bool
		if w.Checked && w.Next > 0 {
			shows = func(old Item) bool { return ddbexpr.Shows(whole.ops, t.enc, old) }
		}
		resend := w.Checked || ddbexpr.Idempotent(whole.ops)
		item, err = send.Update(ctx, t.client, t.tableName, t.keyItem(kc.PK, kc.SK), expr, &w.Cond, w.missing, shows, resend, callOpts(ctx))
	}
	if err != nil {
		return nil, t.opErr(op, kc.PK, kc.SK, err)
	}
	return item, nil
}

// del removes an existing item with one DeleteItem under w's condition,
// or given a token a one-action TransactWriteItems ([WriteOptions.Token]).
func (t *Table) del(ctx context.Context, op, pk, sk string, w *writeCond, token string) error {
	c, err := w.built()
	switch {
	case err != nil:
	case token != "":
		err = send.Tokened(ctx, t.client, send.TxDelete(t.tableName, t.keyItem(pk, sk), c), token, &w.Cond, w.exists, w.missing, callOpts(ctx))
	default:
		err = send.Delete(ctx, t.client, t.tableName, t.keyItem(pk, sk), c, &w.Cond, w.missing, callOpts(ctx))
	}
	if err != nil {
		return t.opErr(op, pk, sk, err)
	}
	return nil
}
