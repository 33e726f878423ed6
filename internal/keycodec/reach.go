package keycodec

import "slices"

// Reach is whether a query's key condition can match an item type's
// items, which a read of several item types checks of each target.
type Reach uint8

const (
	Reachable      Reach = iota // it may, or cannot be judged
	OtherPartition              // the items are in no partition it reads
	OtherSortKeys               // its item type prefix excludes them
)

// Query is a query's key condition for [Query.Reaches]: its partition
// key (or its shards'), and sort key prefix (Exact: the value; "": any).
type Query struct {
	PK       string
	ShardPKs []string
	SKPrefix string
	Exact    bool
}

// Reaches judges whether q can match an item whose keys s spells pk and
// sk (nil: not judged), by [Spelling.Matches]; range conditions are not.
func (q *Query) Reaches(pk, sk Spelling) Reach {
	if !q.partitionOf(pk) {
		return OtherPartition
	}
	if sk != nil && !sk.Matches(q.SKPrefix, !q.Exact) {
		return OtherSortKeys
	}
	return Reachable
}

func (q *Query) partitionOf(pk Spelling) bool {
	if len(q.ShardPKs) == 0 {
		return pk.Matches(q.PK, false)
	}
	return slices.ContainsFunc(q.ShardPKs, func(v string) bool { return pk.Matches(v, false) })
}
