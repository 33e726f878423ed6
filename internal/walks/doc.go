// Package walks walks a whole table: the parallel, paced, resumable Scan
// and its positions (scanner_*.go); Migrate's rewrite or move of one item,
// conditioned on it as read and retried (migration_*.go); Verify's and
// Repair's inspection of each item against its type, their findings and
// the writes that repair them (verify_*.go); and their bookkeeping of
// what a walk met, items that need others and counters' counts
// (drift_*.go). It works on plain items, keys and functions the root
// package hands it, and knows nothing of item types.
package walks
