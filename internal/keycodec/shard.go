package keycodec

import (
	"fmt"
	"strings"
)

// Shard picks an item's shard from key (a source id, a child's id, an
// index item's key): FNV-1a modulo n as two digits ("07"), so that shard
// keys sort alike for any n up to 100. Every sharded key uses it.
func Shard(key string, n int) string {
	var b strings.Builder
	b.Grow(2)
	appendShard(&b, key, n)
	return b.String()
}

func appendShard(b *strings.Builder, key string, n int) {
	h := uint32(2166136261) // FNV-1a, 32 bits
	for i := 0; i < len(key); i++ {
		h ^= uint32(key[i])
		h *= 16777619
	}
	s := h % uint32(n)
	b.WriteByte(byte('0' + s/10))
	b.WriteByte(byte('0' + s%10))
}

// ShardKeys lists the n shard partitions of key pk: pk#00, pk#01, …
func ShardKeys(pk string, n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("%s#%02d", pk, i)
	}
	return keys
}
