// Handle keys (handle*.go): holds what package adjlist's handles need of keys
// besides their table keys (which their compiled spellings,
// Spelling, build and parse): a Node's sort key space, an Edge's
// endpoints as its index key templates name them, an Entity's id
// checks, and the values a ByIndex query fills an index key template
// with.
//
// Package adjlist's Node, Edge, Collection and Entity hold the handles,
// their options and their promises; this package knows only names, ids,
// key templates (internal/keycodec) and keys. Its errors are adjlist's
// *KeyError (errs.KeyError).

package keycodec

import (
	"github.com/adjlist/adjlist/internal/errs"
)

// keyError is e as an error, or nil.
func keyError(e *Error) error { return errs.Key(e) }
