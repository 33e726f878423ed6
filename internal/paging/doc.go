// Package paging reads query results page by page, on plain items and
// keys: a query's run, a sharded read merged in sort key order
// (queryrun_*.go); page cursors, sealed, signed and tied to their query
// (pagecursor_*.go); walks of several queries: a cascade's keys-only
// pages, two hops, items dealt to item types, a bounded poll (paged_*.go).
package paging
