package adjlist

import (
	"cmp"
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/adjlist/adjlist/internal/ddbexpr"
	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// handle is the one implementation of the single-item verbs of [Node],
// [Edge], [Collection] and [Entity]. It is not generic: data written is
// an any, data read is decoded into out, a pointer. It is made per call,
// on the stack.
type handle struct {
	t  *Table
	it *itemType
	tr *tracking
	// exists is what a failed create means: ErrExists, or an edge's (errs.ErrEdgeExists, matching it).
	exists error
	err    error // the handle's own (an invalid declaration)
	// keyIDs builds an Entity's keys for a write from the ids given and
	// the data, which holds those of the key fields T declares; nil for
	// the presets, whose keys come built.
	keyIDs func(ids IDs, item Item) (keyed, error)
}

// keyed is one item's keys: its table keys and what its index key
// templates may name (kc), and an edge's inverted index keys (ipk, isk;
// else ""). When building them failed, kc.PK and kc.SK are set as far as
// built, for the error to name.
type keyed struct {
	kc       keyCtx
	ipk, isk string
}

func (k *keyed) key() Key { return Key{k.kc.PK, k.kc.SK} }

// item builds the item k with data, as a create or an overwrite (o may
// be nil), less what an Entity keeps only inside keys (a value no key
// written holds is a [*KeyError]); keyErr is the error of building k.
func (h handle) item(k *keyed, keyErr error, data any, create bool, o *WriteOptions) (Item, Key, error) {
	if keyErr != nil {
		return nil, k.key(), keyErr
	}
	item, err := h.t.marshalData(data)
	if err == nil && h.keyIDs != nil {
		*k, err = h.keyIDs(k.kc.IDs, item)
	}
	if err != nil {
		return nil, k.key(), err
	}
	h.t.setKeys(item, k.kc.PK, k.kc.SK)
	var at time.Time // the write's own expiry
	if o != nil {
		at = o.ExpiresAt
	}
	if err := h.tr.Stamp(item, create, at); err != nil {
		return nil, k.key(), err
	}
	if k.ipk != "" && h.t.layout == explicitKeys {
		item[h.t.opts.IndexPartitionKey] = &types.AttributeValueMemberS{Value: k.ipk}
		item[h.t.opts.IndexSortKey] = &types.AttributeValueMemberS{Value: k.isk}
	}
	if len(h.it.indexes) > 0 {
		kc := k.kc // a copy made here alone: keycodec.Add keeps it
		err = keycodec.Add(h.it.indexes, item, &kc)
	}
	if d := h.it.data; d != nil {
		if err == nil {
			err = d.Unwritten(item)
		}
		d.Drop(item)
	}
	return item, k.key(), err
}

// putItem builds the item k and the condition of its put under guard g
// into w, and writes the version put, if any, into the item.
func (h handle) putItem(w *writeCond, g guardKind, k *keyed, keyErr error, data any, o *WriteOptions) (Item, error) {
	item, _, err := h.item(k, keyErr, data, g == guardAbsent, o)
	if err == nil {
		err = h.t.newWriteCond(w, h.tr, ddbexpr.Put, g, o, ddbexpr.VersionOf(item, h.tr.Version))
	}
	if err != nil {
		return item, err
	}
	w.exists = h.exists
	w.SetVersion(item)
	return item, nil
}

// put writes the item k with data with one PutItem: a create (g
// guardAbsent, Put) or an overwrite (guardNone, Replace); with
// [WriteOptions.Tx], it adds the put to that transaction instead.
func (h handle) put(ctx context.Context, op string, g guardKind, k *keyed, keyErr error, data any, optFns []func(*WriteOptions)) error {
	if cs := h.t.countersOf(h.it); cs != nil {
		return h.countedPut(ctx, op, g, k, keyErr, data, optFns, cs)
	}
	o := writeOptions(optFns)
	if o.Tx != nil {
		return h.inTx(o.Tx, op, k, func() error {
			w := new(writeCond) // the Tx keeps it until Commit
			item, err := h.putItem(w, g, k, keyErr, data, &o)
			if err == nil {
				o.Tx.put(op, k.key(), item, w)
			}
			return err
		})
	}
	ctx, sp := h.t.startSpan(ctx, op)
	var w writeCond // on the stack: t.put keeps no reference
	item, err := h.putItem(&w, g, k, keyErr, data, &o)
	if err != nil {
		return sp.Done(h.t.opErr(op, k.kc.PK, k.kc.SK, err))
	}
	return sp.Done(h.t.put(ctx, op, k.kc.PK, k.kc.SK, item, &w, o.Token))
}

// inTx runs add, which adds write op of the item k to tx, when tx is of
// h's table, and returns the Tx's error so far as an [*OpError], naming
// k's keys when the error is this write's own.
func (h handle) inTx(tx *Tx, op string, k *keyed, add func() error) error {
	had := tx.err
	if tx.sameTable(h.t) {
		tx.setErr(add())
	}
	switch {
	case tx.err == nil:
		return nil
	case had == nil:
		return h.t.opErr(op, k.kc.PK, k.kc.SK, tx.err)
	}
	return h.t.opErr(op, "", "", tx.err)
}

// get reads the item k with one GetItem and decodes its data into out,
// which an error leaves zero.
func (h handle) get(ctx context.Context, op string, k *keyed, keyErr error, optFns []func(*ReadOptions), out any) (err error) {
	ctx, sp := h.t.startSpan(ctx, op)
	defer sp.End(&err)
	if keyErr != nil {
		return h.t.opErr(op, k.kc.PK, k.kc.SK, keyErr)
	}
	item, err := h.t.getItem(ctx, op, k.kc.PK, k.kc.SK, readOptions(optFns))
	if err != nil {
		return err
	}
	if err = h.t.decodeData(h.it, k.kc.IDs, item, out); err != nil {
		return h.t.opErr(op, k.kc.PK, k.kc.SK, err)
	}
	return nil
}

// txGet adds to rt the read of the item k into a [Read]'s Found and Data
// (found, out).
func (h handle) txGet(rt *ReadTx, k *keyed, keyErr error, found *bool, out any) {
	ids := k.kc.IDs // kept until Run
	rt.add(h.t, h.err, k.key(), keyErr, func(item Item) error {
		if *found = item != nil; !*found {
			reflect.ValueOf(out).Elem().SetZero() // a Read run again
			return nil
		}
		return h.t.decodeData(h.it, ids, item, out)
	})
}

// change is the condition of an update, delete or check (a): the guard
// attribute_exists, whose failure is missing (nil: ErrNotFound), the
// version and the caller's condition (o may be nil); or keyErr.
func (h handle) change(a action, keyErr error, missing error, o *WriteOptions) (*writeCond, error) {
	if keyErr != nil {
		return nil, keyErr
	}
	if o == nil {
		o = new(WriteOptions)
	}
	w := new(writeCond)
	if err := h.t.newWriteCond(w, h.tr, a, guardPresent, o, 0); err != nil {
		return nil, err
	}
	w.missing = cmp.Or(missing, ErrNotFound)
	return w, nil
}

// update changes the existing item k with one UpdateItem and decodes
// its data as stored afterwards into out, which an error leaves zero;
// with [WriteOptions.Tx], it adds the update to that transaction instead
// and leaves out zero.
func (h handle) update(ctx context.Context, op string, k *keyed, keyErr error, update Update, optFns []func(*WriteOptions), out any) (err error) {
	if cs := h.t.countersOf(h.it); cs != nil {
		if as, touched, err := h.t.groupsSet(update, cs); err != nil || touched {
			return h.countedUpdate(ctx, op, k, cmp.Or(keyErr, err), update, optFns, cs, as, out)
		}
	}
	o := writeOptions(optFns)
	if o.Tx != nil {
		return h.inTx(o.Tx, op, k, func() error {
			w, err := h.change(actUpdate, keyErr, nil, &o)
			if err == nil {
				o.Tx.update(op, h.it, &k.kc, update, w)
			}
			return err
		})
	}
	ctx, sp := h.t.startSpan(ctx, op)
	defer sp.End(&err)
	w, err := h.change(actUpdate, keyErr, nil, &o)
	if err != nil {
		return h.t.opErr(op, k.kc.PK, k.kc.SK, err)
	}
	item, err := h.t.updateItem(ctx, op, h.it, &k.kc, update, w, o.Token)
	if err != nil || o.Token != "" {
		return err
	}
	if err = h.t.decodeData(h.it, k.kc.IDs, item, out); err != nil {
		return h.t.opErr(op, k.kc.PK, k.kc.SK, err)
	}
	return nil
}

// del removes the existing item k with one DeleteItem; with
// [WriteOptions.Tx], it adds the delete to that transaction instead.
func (h handle) del(ctx context.Context, op string, k *keyed, keyErr error, optFns []func(*WriteOptions)) error {
	if cs := h.t.countersOf(h.it); cs != nil {
		return h.countedDel(ctx, op, k, keyErr, optFns, cs)
	}
	o := writeOptions(optFns)
	if o.Tx != nil {
		return h.inTx(o.Tx, op, k, func() error {
			w, err := h.change(actDelete, keyErr, nil, &o)
			if err == nil {
				o.Tx.del(op, k.key(), w)
			}
			return err
		})
	}
	ctx, sp := h.t.startSpan(ctx, op)
	w, err := h.change(actDelete, keyErr, nil, &o)
	if err != nil {
		return sp.Done(h.t.opErr(op, k.kc.PK, k.kc.SK, err))
	}
	return sp.Done(h.t.del(ctx, op, k.kc.PK, k.kc.SK, w, o.Token))
}

// txCheck adds to tx a check that the item k exists (missing as in
// change). [WriteOptions.Tx] on it is refused: tx is its Tx.
func (h handle) txCheck(tx *Tx, op string, k *keyed, keyErr error, missing error, optFns []func(*WriteOptions)) {
	if !tx.sameTable(h.t) {
		return
	}
	o := writeOptions(optFns)
	if o.Tx != nil && tx.setErr(fmt.Errorf("%w: %s takes its Tx as its first argument, not WriteOptions.Tx", ErrInvalidOption, op)) {
		return
	}
	w, err := h.change(actCheck, keyErr, missing, &o)
	if tx.setErr(err) {
		return
	}
	tx.check(op, k.key(), w)
}

func (h handle) deleteReq(k *keyed, keyErr error) (writeReq, error) {
	if keyErr != nil {
		return writeReq{key: k.key()}, keyErr
	}
	return h.t.deleteReq(k.key()), nil
}
