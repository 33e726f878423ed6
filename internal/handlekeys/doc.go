// Package handlekeys holds what package adjlist's handles need of keys
// besides their table keys (which their compiled spellings,
// keycodec.Spelling, build and parse): a Node's sort key space, an Edge's
// endpoints as its index key templates name them, an Entity's id
// checks, and the values a ByIndex query fills an index key template
// with.
//
// Package adjlist's Node, Edge, Collection and Entity hold the handles,
// their options and their promises; this package knows only names, ids,
// key templates (internal/keycodec) and keys. Its errors are adjlist's
// *KeyError, built by [KeyError], which the root package sets before any
// of it runs.
package handlekeys

import (
	"errors"

	"github.com/adjlist/adjlist/internal/keycodec"
)

// KeyError reports a refused key as adjlist's *KeyError (which matches
// adjlist.ErrInvalidKey); package adjlist sets it when it is loaded. e is
// never nil. The default serves this package's own tests.
var KeyError = func(e *keycodec.Error) error { return errors.New(e.Name + " " + e.ID + ": " + e.Reason) }

// keyError is e as KeyError reports it, or nil.
func keyError(e *keycodec.Error) error {
	if e == nil {
		return nil
	}
	return KeyError(e)
}
