package keycodec

import (
	"slices"
)

// Reach is whether a query's key condition can match an item type's
// items, which a read of several item types checks of each target.
type Reach uint8

const (
	Reachable      Reach = iota // it may, or cannot be judged
	OtherPartition              // the items are in no partition it reads
	OtherSortKeys               // its item type prefix excludes them
)

// Query is what [Reaches] judges of a query's key condition: its
// partition key (or the shards' of a sharded read), and its sort key
// prefix (Exact: the one value; "" without one, which holds any).
type Query struct {
	PK       string
	ShardPKs []string
	SKPrefix string
	Exact    bool
}

// Reaches judges whether q can match an item whose keys have patterns pk
// and sk (sk nil: not judged; [KeyPattern]): the partition, and
// the item type prefix; range conditions are left out, the caller's own
// narrowing.
func (q *Query) Reaches(pk, sk []Part) Reach {
	if !q.partitionOf(pk) {
		return OtherPartition
	}
	if sk != nil && !Spells(sk, q.SKPrefix, !q.Exact) {
		return OtherSortKeys
	}
	return Reachable
}

// partitionOf reports whether a key of pattern pk can be a partition key
// q reads (any shard of a sharded read).
func (q *Query) partitionOf(pk []Part) bool {
	if len(q.ShardPKs) == 0 {
		return Spells(pk, q.PK, false)
	}
	return slices.ContainsFunc(q.ShardPKs, func(v string) bool { return Spells(pk, v, false) })
}
