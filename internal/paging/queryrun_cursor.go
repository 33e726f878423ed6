package paging

import (
	"context"

	"github.com/adjlist/adjlist/internal/ddbexpr"
	"github.com/adjlist/adjlist/internal/telemetry"
)

// Cursors is what a query's cursors carry (ID, signed with Key if set)
// and what their key must lie within: attributes Names, the partition and
// the sort key range.
type Cursors struct {
	ID           Identity
	Key          []byte
	Names        []string
	PKAttr       string
	SKAttr       string
	Prefix       string // the item type's sort key prefix, "" for none
	Op           ddbexpr.CmpOp
	Lo, Hi       string
	Native       bool // the partition is Eq's attributes, not PKAttr
	Eq           []ddbexpr.NativeValue
	PKNum, SKNum bool // number (N) keys, in a cursor's numbers
}

// Page makes one Query request (one per unfinished shard) resuming after
// cursor ("": the first page) and returns the next page's cursor, ""
// when none is left; grow is handed an unsharded page's size first.
func (r *Run) Page(ctx context.Context, cursor string, decode func(Item) (bool, error), grow func(n int)) (string, error) {
	if r.Shards != nil {
		return r.pageMerged(ctx, cursor, decode)
	}
	in := r.In
	if cursor != "" {
		c, err := Open(cursor, r.Cursor.ID, r.Cursor.Key)
		if err != nil {
			return "", err
		}
		if in.ExclusiveStartKey, err = r.Cursor.startKey(c.Key, c.Num, r.PK); err != nil {
			return "", err
		}
	}
	out, err := r.Client.Query(ctx, &in, telemetry.CallOpts(ctx)...)
	if err != nil {
		return "", err
	}
	r.fetched(out.Items)
	grow(len(out.Items))
	for _, item := range out.Items {
		if _, err := r.take(decode, item); err != nil {
			return "", err
		}
	}
	if len(out.LastEvaluatedKey) == 0 {
		return "", nil
	}
	key, num, err := KeyText(out.LastEvaluatedKey)
	if err != nil {
		return "", err
	}
	return Seal(Cursor{Key: key, Num: num}, r.Cursor.ID, r.Cursor.Key)
}

// startKey checks a cursor's key against partition pk and the sort key
// range, as an ExclusiveStartKey.
func (cs *Cursors) startKey(key, num map[string]string, pk string) (Item, error) {
	switch {
	case len(key)+len(num) != len(cs.Names):
		return nil, BadCursor("wrong key attributes")
	case cs.Native:
		for _, v := range cs.Eq {
			if s, n := key[v.Name], num[v.Name]; AttrText(v.AV) != s+n {
				return nil, BadCursor("from another partition")
			}
		}
	case pick(key, num, cs.PKAttr, cs.PKNum) != pk:
		return nil, BadCursor("from another partition")
	case cs.SKNum && !cs.Op.HoldsNumber(pick(key, num, cs.SKAttr, true), cs.Lo, cs.Hi):
		return nil, BadCursor("outside the query's sort key range")
	case !cs.SKNum && !cs.Op.Holds(key[cs.SKAttr], cs.Lo, cs.Hi, cs.Prefix):
		return nil, BadCursor("outside the query's sort key range")
	}
	for _, name := range cs.Names {
		if _, ok := num[name]; key[name] == "" && !ok {
			return nil, BadCursor("wrong key attributes")
		}
	}
	start, err := StartKey(key, num, ddbexpr.NumberText)
	if err != nil {
		return nil, BadCursor("wrong key attributes")
	}
	return start, nil
}

func pick(key, num map[string]string, name string, isNum bool) string {
	if isNum {
		v, ok := num[name]
		if !ok {
			return "\x00" // no number: matches no partition
		}
		return v
	}
	return key[name]
}

// advance records item as the last taken from a shard.
func (cs *Cursors) advance(st *CursorShard, item Item) error {
	key := make(Item, len(cs.Names))
	for _, name := range cs.Names {
		if key[name] = item[name]; key[name] == nil {
			return BadCursor("item lacks key attribute " + name)
		}
	}
	var err error
	*st = CursorShard{}
	st.Key, st.Num, err = KeyText(key) // a number-keyed table's keys are numbers
	return err
}
