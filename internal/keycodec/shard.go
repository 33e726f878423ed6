package keycodec

import (
	"fmt"
	"hash/fnv"
)

// Shard picks the shard of an item from key (an edge's source id, a
// child's id, an index partition's item key): FNV-1a of key modulo n, as
// two digits ("07"), so that shard keys read and sort alike for any n up
// to 100. Every sharded key, table or index, is spelled with it.
func Shard(key string, n int) string {
	h := fnv.New32a()
	h.Write([]byte(key))
	return fmt.Sprintf("%02d", h.Sum32()%uint32(n))
}

// ShardKeys lists the n shard partitions of key pk: pk#00, pk#01, …
func ShardKeys(pk string, n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("%s#%02d", pk, i)
	}
	return keys
}
