package indexkeys

import (
	"errors"

	"github.com/adjlist/adjlist/internal/keycodec"
)

// The root package's errors, which package adjlist sets to its own when it
// is loaded, so that errors.Is(err, adjlist.ErrInvalidOption) and the
// others hold for what this package and internal/keydata return, word for
// word as adjlist wrote them. The defaults serve their own tests.
var (
	// ErrInvalidOption is adjlist.ErrInvalidOption.
	ErrInvalidOption = errors.New("adjlist: invalid option")
	// ErrKeyAttribute is adjlist.ErrKeyAttribute.
	ErrKeyAttribute = errors.New("adjlist: data maps to a key attribute")
	// KeyError reports a refused key as adjlist's *KeyError; e is never nil.
	KeyError = func(e *keycodec.Error) error { return errors.New(e.Name + " " + e.ID + ": " + e.Reason) }
)

// keyError is e as KeyError reports it, or nil.
func keyError(e *keycodec.Error) error {
	if e == nil {
		return nil
	}
	return KeyError(e)
}
