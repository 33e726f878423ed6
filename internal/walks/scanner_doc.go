// Scans: these files (scanner_*.go) runs the parallel, resumable, paced Scans under
// adjlist's Scan, Migrate and Verify: [Run] reads each segment of a table
// or index in its own goroutine (an errgroup) with the SDK's Scan
// paginator, one page ahead of the items being handed on, and a
// [Position] records where each segment resumes; [Segments], [CheckRange],
// [Start] and [Request] set a walk up from its options. It works on plain
// DynamoDB items; package adjlist decides what an item is and what to do
// with it, and maps this package's errors to its own.

package walks
