// Package paging reads query results page by page: a query's run (its
// paging loops, a sharded read's partitions merged in sort key order)
// (queryrun_*.go); page cursors and scan positions, sealed, signed and
// opened, with the query fingerprint they carry (pagecursor_*.go); and the
// walks that take several queries (the keys-only pages a cascade deletes,
// the two-hop fan-out, a read's items dealt to several item types, a
// bounded poll) (paged_*.go). It works on plain items and keys, and knows
// nothing of item types.
package paging
