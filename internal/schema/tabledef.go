// Definitions: these files (tabledef*.go) are a table's definition checked once, on plain
// values: the key attribute names' defaults and checks, the declared
// secondary indexes' checks and what queries on each need, and the
// client that stands in for none. Package adjlist's NewTable fills
// these from its Options and keeps the results on its Table; errors
// wrap [errs.ErrInvalidOption].

package schema
