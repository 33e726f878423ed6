package adjlist

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/adjlist/adjlist/internal/pagecursor"
)

// cursor is a page cursor's JSON.
type cursor = pagecursor.Cursor

func badCursor(why string) error { return fmt.Errorf("%w: %s", ErrInvalidCursor, why) }

func (q Query[T]) encodeCursor(lek Item) (string, error) {
	key, num, err := pagecursor.KeyText(lek)
	if err != nil {
		return "", err
	}
	return q.sealCursor(cursor{Key: key, Num: num})
}

// sealCursor stamps c with the query's identity, encodes it and, with a
// CursorKey, signs it.
func (q Query[T]) sealCursor(c cursor) (string, error) {
	return pagecursor.Seal(c, q.cursorID(), q.t.opts.CursorKey)
}

// cursorID is what a cursor of q's carries to tie it to q.
func (q Query[T]) cursorID() pagecursor.Identity {
	return pagecursor.Identity{Index: aws.ToString(q.in.IndexName), Desc: !aws.ToBool(q.in.ScanIndexForward),
		Sharded: q.shards != nil, Query: q.fingerprint()}
}

// fingerprint is [pagecursor.Fingerprint]: everything that shapes the
// query's results besides its page size ([Options.CursorKey] guards
// against forging).
func (q Query[T]) fingerprint() string {
	if q.fp != "" {
		return q.fp
	}
	return pagecursor.Fingerprint(q.op, &q.in, q.shards, func(sh shard) string { return sh.pk })
}

// openCursor checks a cursor's encoding (strict: only the string issued
// opens), signature and identity (version, index, direction, query).
func (q Query[T]) openCursor(s string) (cursor, error) {
	c, err := pagecursor.Open(s, q.cursorID(), q.t.opts.CursorKey)
	if err != nil {
		return c, badCursor(err.Error())
	}
	return c, nil
}

// startKey validates a cursor's key against partition pk and the query's
// sort key range, and returns it as an ExclusiveStartKey.
func (q Query[T]) startKey(key, num map[string]string, pk string) (Item, error) {
	switch {
	case len(key)+len(num) != len(q.cursorKeys):
		return nil, badCursor("wrong key attributes")
	case q.keys.native != nil:
		for _, v := range q.keys.native.eq {
			if s, n := key[v.name], num[v.name]; pagecursor.AttrText(v.av) != s+n {
				return nil, badCursor("from another partition")
			}
		}
	case key[q.pkAttr] != pk:
		return nil, badCursor("from another partition")
	case !q.sk.op.Holds(key[q.skAttr], q.sk.lo, q.sk.hi, q.skPrefix):
		return nil, badCursor("outside the query's sort key range")
	}
	start, ok := pagecursor.StartKey(q.cursorKeys, key, num, numberText)
	if !ok {
		return nil, badCursor("wrong key attributes")
	}
	return start, nil
}

func (q Query[T]) decodeCursor(s string) (Item, error) {
	c, err := q.openCursor(s)
	if err != nil {
		return nil, err
	}
	return q.startKey(c.Key, c.Num, q.pk)
}
