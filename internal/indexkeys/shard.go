package indexkeys

import (
	"fmt"
	"hash/fnv"
)

// Shard picks the shard of a sharded index partition from key: FNV-1a of
// key modulo n, two digits ("07"), as adjlist's shard suffixes are.
func Shard(key string, n int) string {
	h := fnv.New32a()
	h.Write([]byte(key))
	return fmt.Sprintf("%02d", h.Sum32()%uint32(n))
}
