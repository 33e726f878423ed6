package adjlist

import (
	"fmt"
	"hash/fnv"
)

// MaxShards bounds EdgeOptions.Shards: a sharded reverse read makes one
// request per shard per page, and shard suffixes have two digits.
const MaxShards = 100

// shardSuffix picks the shard of an edge from its source id: FNV-1a of the
// id modulo n, as two digits ("07"), so shard keys read and sort alike for
// any n up to MaxShards.
func shardSuffix(id string, n int) string {
	h := fnv.New32a()
	h.Write([]byte(id))
	return fmt.Sprintf("%02d", h.Sum32()%uint32(n))
}

// shardKeys lists the n index partitions of target key ipk: ipk#00 …
func shardKeys(ipk string, n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("%s#%02d", ipk, i)
	}
	return keys
}
