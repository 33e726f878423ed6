// Page cursors (pagecursor_*.go): Query.Page's cursors and Scan's
// positions, sealed, signed with a table's CursorKey and tied to their
// query by a fingerprint. The root package wraps every refusal in
// adjlist.ErrInvalidCursor; the errors here only say why.

package paging
