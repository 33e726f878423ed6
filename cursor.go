package adjlist

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/adjlist/adjlist/internal/pagecursor"
	"github.com/adjlist/adjlist/internal/queryrun"
)

func badCursor(why string) error { return fmt.Errorf("%w: %s", ErrInvalidCursor, why) }

// cursors is what q's page cursors carry ([pagecursor.Fingerprint]:
// everything that shapes the query's results besides its page size;
// [Options.CursorKey] guards against forging) and are checked against.
func (q Query[T]) cursors() queryrun.Cursors {
	cs := queryrun.Cursors{Key: q.t.opts.CursorKey, Names: q.cursorKeys, PKAttr: q.pkAttr, SKAttr: q.skAttr,
		Prefix: q.skPrefix, Op: q.sk.op, Lo: q.sk.lo, Hi: q.sk.hi}
	cs.ID = pagecursor.Identity{Index: aws.ToString(q.in.IndexName), Desc: !aws.ToBool(q.in.ScanIndexForward), Sharded: q.shards != nil,
		Query: pagecursor.Fingerprint(q.op, &q.in, q.shards, func(sh queryrun.Shard) string { return sh.PK })}
	if nk := q.keys.native; nk != nil {
		cs.Native, cs.Eq = true, nk.eq
	}
	return cs
}
