// Definitions: these files (tabledef*.go) are a table's definition checked once, on plain
// values: the key attribute names' defaults and checks, the declared
// secondary indexes' checks and what queries on each need, and the
// client that stands in for none. Package adjlist's NewTable fills
// these from its Options and keeps the results on its Table; errors
// wrap adjlist's ErrInvalidOption, which the root package sets here
// ([ErrInvalidOption]) before any of it runs.

package schema

import "errors"

// ErrInvalidOption is adjlist.ErrInvalidOption, set by package adjlist
// when it is loaded; the default serves this package's own tests.
var ErrInvalidOption = errors.New("adjlist: invalid option")
