// Query runs (queryrun_*.go): the paging loops of Query.All, Collect,
// Count and Page, and a sharded read's merge in sort key order. Errors are
// the SDK's, the decoder's, or a [BadCursor] the root package wraps in
// adjlist.ErrInvalidCursor.

package paging
