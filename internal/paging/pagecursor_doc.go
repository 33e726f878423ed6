// Page cursors: these files (pagecursor_*.go) is the machinery behind adjlist's page cursors
// (Query.Page) and scan positions (Scan's ScanOptions.From): their JSON,
// its strict base64url spelling, the HMAC signature under a table's
// CursorKey, the fingerprint that ties a cursor to the query that issued
// it, and a LastEvaluatedKey as text and back. The root package states the
// promises and wraps every refusal in adjlist.ErrInvalidCursor; the errors
// here only say why.

package paging
