// Package walks walks a whole table: the parallel, paced, resumable Scan
// (scanner_*.go); Migrate's rewrite or move of one item (migration_*.go);
// Verify's and Repair's checks and writes (verify_*.go) and their tally of
// what a walk met (drift_*.go). It works on plain items, keys and
// functions, and knows nothing of item types.
package walks
