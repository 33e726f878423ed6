package adjlist

// maxShards bounds [EdgeOptions].Shards, [CollectionOptions].Shards and
// [IndexKeys].Shards: a sharded read makes one request per shard per page,
// and shard suffixes have two digits.
const maxShards = 100
