package writeexpr

import "errors"

// The root package's errors, which package adjlist sets to its own when it
// is loaded, so that errors.Is(err, adjlist.ErrInvalidOption) and
// the others hold for what Tracking, Write and Cond.Meaning return, word
// for word as adjlist wrote them. The defaults serve this package's own
// tests.
var (
	// ErrInvalidOption is adjlist.ErrInvalidOption.
	ErrInvalidOption = errors.New("adjlist: invalid option")
	// ErrKeyAttribute is adjlist.ErrKeyAttribute.
	ErrKeyAttribute = errors.New("adjlist: data maps to a key attribute")
	// ErrVersionConflict is adjlist.ErrVersionConflict.
	ErrVersionConflict = errors.New("adjlist: version conflict")
	// ErrConditionFailed is adjlist.ErrConditionFailed.
	ErrConditionFailed = errors.New("adjlist: condition failed")
)
