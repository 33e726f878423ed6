// Package handlekeys spells and parses the keys of package adjlist's
// handles on plain strings: a Node's item key and sort key space, a
// Collection child's keys and refs, an Edge endpoint's key, an Entity's
// ids, and the values a ByIndex query fills an index key template with.
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
