// Page cursors (pagecursor_*.go): the root package wraps every refusal
// in adjlist.ErrInvalidCursor; the errors here only say why.

package paging
