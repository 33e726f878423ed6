// Verification: these files (verify_*.go) are the machinery of adjlist's Verify and Repair that
// works on plain items and keys, apart from the table and its handles:
// the faults one item shows against what its type declares (Inspect),
// how a finding reads and sorts, the rounds that confirm a counter's
// mismatch, and Repair's conditional writes of one finding. Package
// adjlist describes each recorded item type ([Type]) and the table
// ([Table]), and maps findings to its exported Finding.

package walks
