package adjlist

import "github.com/adjlist/adjlist/internal/keycodec"

// MaxShards bounds EdgeOptions.Shards: a sharded reverse read makes one
// request per shard per page, and shard suffixes have two digits.
const MaxShards = 100

// shardSuffix picks the shard of an edge from its source id, or of a
// child from its id ([keycodec.Shard]).
func shardSuffix(id string, n int) string { return keycodec.Shard(id, n) }

// shardKeys lists the n index partitions of target key ipk: ipk#00 …
func shardKeys(ipk string, n int) []string { return keycodec.ShardKeys(ipk, n) }
