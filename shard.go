package adjlist

// MaxShards bounds EdgeOptions.Shards: a sharded reverse read makes one
// request per shard per page, and shard suffixes have two digits.
const MaxShards = 100
