// Query runs (queryrun_*.go): errors are the SDK's, the decoder's, or a
// [BadCursor] the root package wraps in adjlist.ErrInvalidCursor.

package paging
