// Query runs: these files (queryrun_*.go) runs adjlist's queries: the paging loops of Query.All,
// Collect, Count and Page over the SDK's Query paginator, a sharded
// read's merge of its partitions in sort key order, and the checks and
// sealing of page cursors around them. Package adjlist's Query builds the
// request and the decoder from items to its T and states the promises;
// this package knows only requests, items and strings, and its errors
// are the SDK's, the decoder's, or a [BadCursor] that the root package
// wraps in adjlist.ErrInvalidCursor.

package paging
