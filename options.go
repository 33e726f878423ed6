package adjlist

import "fmt"

// errNilOptFn is the error of a nil option function: calling it would
// panic in the caller's goroutine, or in one a call starts.
var errNilOptFn = fmt.Errorf("%w: nil option function", ErrInvalidOption)

// applyOptions applies optFns to o in order. A nil function is
// errNilOptFn, and the functions after it are not applied.
func applyOptions[O any](o *O, optFns []func(*O)) error {
	for _, fn := range optFns {
		if fn == nil {
			return errNilOptFn
		}
		fn(o)
	}
	return nil
}
