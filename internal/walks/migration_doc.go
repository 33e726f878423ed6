// Migrations: these files (migration_*.go) rewrites one stored item into the layout its type
// declares now, for adjlist's Migrate and Repair: an UpdateItem of its
// stale derived key attributes, or a transaction moving it to another
// partition key, each conditioned on the item being as it was read, and
// computed again from a fresh read when it was not. It works on plain
// DynamoDB items; package adjlist says what an item's derived attributes
// and home should be ([MigrateType]) and how the table is spelled ([Table]).

package walks
