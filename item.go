package adjlist

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/attempt"
	"github.com/adjlist/adjlist/internal/ddbitem"
)

// marshalData encodes an item's own data with the table's
// attributevalue.Encoder (as attributevalue.Marshal does) into a fresh map
// that the caller adds the key attributes to. Data that maps to a key
// attribute is refused: keys come from ids, never from data.
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

// decodeRaw is a handle's Decode of a raw item: the handle's error herr,
// else what decode makes of item, with a zero value when the data does
// not fit.
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

// unmarshalData decodes an item's own data into out, ignoring the key
// attributes (so a map-typed data never sees them). It may modify item. On
// failure out is reset to its zero value: the decoder stops at the first
// bad attribute, and a half-filled value must never reach a caller.
func (t *Table) unmarshalData(item Item, out any) error {
	// A struct ignores attributes it has no field for, and writes refuse
	// structs with key fields; only other data (maps) would see the keys.
	if rt := reflect.TypeOf(out); rt.Kind() != reflect.Pointer || rt.Elem().Kind() != reflect.Struct {
		o := &t.opts
		for _, k := range [...]string{o.PartitionKey, o.SortKey, o.IndexPartitionKey, o.IndexSortKey} {
			delete(item, k)
		}
		for k := range t.derived {
			delete(item, k)
		}
	}
	// As attributevalue.UnmarshalMap, with the table's decoder.
	if err := t.dec.Decode(&types.AttributeValueMemberM{Value: item}, out); err != nil {
		if v := reflect.ValueOf(out); v.Kind() == reflect.Pointer && !v.IsNil() {
			v.Elem().SetZero()
		}
		return err
	}
	return nil
}

// stringAttr returns item[name] if it is a string attribute.
func stringAttr(item Item, name string) (string, bool) {
	s, ok := item[name].(*types.AttributeValueMemberS)
	if !ok {
		return "", false
	}
	return s.Value, true
}

// setKeys writes the primary key into item.
func (t *Table) setKeys(item Item, pk, sk string) {
	item[t.opts.PartitionKey] = &types.AttributeValueMemberS{Value: pk}
	item[t.opts.SortKey] = &types.AttributeValueMemberS{Value: sk}
}

// keyItem returns the primary key of one item as the SDK wants it.
func (t *Table) keyItem(pk, sk string) Item {
	return Item{
		t.opts.PartitionKey: &types.AttributeValueMemberS{Value: pk},
		t.opts.SortKey:      &types.AttributeValueMemberS{Value: sk},
	}
}

// The single-item operations below serve nodes, edges and collection
// children alike; pk and sk are already validated keys.

// opErr is the error of the operation op on the item (pk, sk), or the
// partition pk: an *OpError whose Err is err, inside a *ThrottlingError
// when err reports throttling.
func (t *Table) opErr(op, pk, sk string, err error) error {
	return &OpError{Op: op, Table: t.name, PK: pk, SK: sk, Err: t.throttled(err, pk, sk, "", "")}
}

// put writes item (data plus pk, sk, any index keys and w's version,
// already set by putCond) with one PutItem under w's condition, if
// any, asking for the stored item when it fails (ALL_OLD).
//
// A failed create, or a failed put without a condition of the caller's,
// whose stored item is exactly the one being written is a success only
// when an earlier attempt of the call may have been applied (internal/attempt):
// its outcome was unknown (a 5xx, a reset connection), so it must have
// written the item. Otherwise, after a throttled (4xx) attempt too, it is
// another writer's item, and reported. (An
// overwrite's own condition may fail on an item that merely looks the same,
// so it is reported.) Otherwise the failure is classified by w (exists,
// ErrVersionConflict, ErrConditionFailed), wrapping the SDK's error, whose
// Item holds the stored item.
func (t *Table) put(ctx context.Context, op, pk, sk string, item Item, w *writeCond) error {
	if err := checkSize(item); err != nil {
		return t.opErr(op, pk, sk, err)
	}
	c, err := w.built()
	if err != nil {
		return t.opErr(op, pk, sk, err)
	}
	call := &attempt.Put{Context: ctx, In: dynamodb.PutItemInput{TableName: t.tableName, Item: item}}
	in := &call.In
	if c.expr != nil {
		in.ConditionExpression = c.expr
		in.ExpressionAttributeNames = c.names
		in.ExpressionAttributeValues = c.values
		in.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	}
	opts := callOpts(ctx)
	if c.expr != nil {
		opts = attempt.Watch(opts)
		ctx = call
	}
	_, err = t.client.PutItem(ctx, in, opts...)
	if err == nil {
		return nil
	}
	// Only on failure: errors.As's target escapes to the heap.
	var ccf *types.ConditionalCheckFailedException
	if c.expr != nil && errors.As(err, &ccf) {
		if (!w.User || w.Guard == guardAbsent) && call.MaybeApplied() && ddbitem.Equal(ccf.Item, item) {
			return nil
		}
		err = fmt.Errorf("%w: %w", w.classify(ccf.Item), err)
	}
	return t.opErr(op, pk, sk, err)
}

// getItem reads one item with a GetItem (strongly consistent if o says
// so); a missing item is ErrNotFound.
func (t *Table) getItem(ctx context.Context, op, pk, sk string, o ReadOptions) (Item, error) {
	if o.err != nil {
		return nil, t.opErr(op, pk, sk, o.err)
	}
	res, err := t.client.GetItem(ctx, &dynamodb.GetItemInput{TableName: t.tableName, Key: t.keyItem(pk, sk), ConsistentRead: o.consistentRead()}, callOpts(ctx)...)
	switch {
	case err != nil:
	case res.Item == nil:
		err = ErrNotFound
	default:
		return res.Item, nil
	}
	return nil, t.opErr(op, pk, sk, err)
}

// buildUpdate builds the expressions of an update of the item kc under
// w's condition: update itself, w's version (SET version = next) and
// tracking, and the item type's derived index keys that follow from them
// (deriveIndexUpdate), on a fresh SDK builder: update is not changed. An
// empty update is ErrInvalidOption, one that names a key attribute
// ErrKeyAttribute, one that names an attribute Tracking maintains or that
// the derived keys cannot follow ErrInvalidOption
// ([writeexpr.Write.UpdateOps]).
func (t *Table) buildUpdate(it *itemType, kc *keyCtx, update Update, w *writeCond) (expression.Expression, error) {
	ops, err := w.UpdateOps(update.ops, t.enc, t.isKeyAttr, it.keyData)
	if err == nil {
		update, err = deriveIndexUpdate(Update{ops: ops}, it.indexes, kc, t.enc, it.keyData)
	}
	if err != nil {
		return expression.Expression{}, err
	}
	return w.BuildUpdate(t.opts.PartitionKey, update.ops, t.enc)
}

// updateItem applies update to an existing item with one UpdateItem under
// w's condition (attribute_exists(PK), the version, the caller's) and
// returns the item as stored afterwards (ALL_NEW). Bad updates fail before
// any request (buildUpdate); a failed condition is classified by w with
// the stored item (ALL_OLD): ErrNotFound for a missing item.
func (t *Table) updateItem(ctx context.Context, op string, it *itemType, kc *keyCtx, update Update, w *writeCond) (Item, error) {
	pk, sk := kc.PK, kc.SK
	expr, err := t.buildUpdate(it, kc, update, w)
	if err != nil {
		return nil, t.opErr(op, pk, sk, err)
	}
	res, err := t.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                           t.tableName,
		Key:                                 t.keyItem(pk, sk),
		UpdateExpression:                    expr.Update(),
		ConditionExpression:                 expr.Condition(),
		ExpressionAttributeNames:            expr.Names(),
		ExpressionAttributeValues:           expr.Values(),
		ReturnValues:                        types.ReturnValueAllNew,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}, callOpts(ctx)...)
	if err != nil {
		return nil, t.opErr(op, pk, sk, w.failure(err))
	}
	return res.Attributes, nil
}

// del removes an existing item with one DeleteItem under w's condition
// (attribute_exists(PK), the version, the caller's); a failed condition is
// classified by w with the stored item (ALL_OLD): ErrNotFound for a
// missing item.
func (t *Table) del(ctx context.Context, op, pk, sk string, w *writeCond) error {
	c, err := w.built()
	if err == nil {
		_, err = t.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
			TableName:                           t.tableName,
			Key:                                 t.keyItem(pk, sk),
			ConditionExpression:                 c.expr,
			ExpressionAttributeNames:            c.names,
			ExpressionAttributeValues:           c.values,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		}, callOpts(ctx)...)
		err = w.failure(err)
	}
	if err != nil {
		return t.opErr(op, pk, sk, err)
	}
	return nil
}
