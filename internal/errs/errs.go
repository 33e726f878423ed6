// Package errs provides adjlist's errors, declared once: every sentinel
// error and [KeyError]. The internal packages return them, and package
// adjlist re-exports the sentinels (the same values, so errors.Is holds
// either way). It imports nothing of adjlist's: every layer may use it.
package errs

import (
	"errors"
	"fmt"
)

// The sentinels; package adjlist documents each under its own name.
var (
	ErrInvalidKey                = errors.New("adjlist: invalid key")
	ErrKeyAttribute              = errors.New("adjlist: data maps to a key attribute")
	ErrItemTooLarge              = errors.New("adjlist: item too large")
	ErrNotFound                  = errors.New("adjlist: item not found")
	ErrExists                    = errors.New("adjlist: item already exists")
	ErrEdgeExists          error = &kindOf{msg: "adjlist: edge already exists", parent: ErrExists} // an edge's ErrExists, its text naming the edge
	ErrConditionFailed           = errors.New("adjlist: condition failed")
	ErrVersionConflict           = errors.New("adjlist: version conflict")
	ErrOutcomeUnknown            = errors.New("adjlist: outcome unknown: the write may have been applied")
	ErrInvalidCursor             = errors.New("adjlist: invalid cursor")
	ErrIndexConsistentRead       = errors.New("adjlist: global secondary indexes support only eventually consistent reads")
	ErrUnprocessed               = errors.New("adjlist: batch left unprocessed")
	ErrNotVisible                = errors.New("adjlist: not visible in the index yet")
	ErrNodeNotFound        error = &kindOf{msg: "adjlist: node not found", parent: ErrNotFound}
	ErrTxConflict                = errors.New("adjlist: transaction conflict")
	ErrTxLimit                   = errors.New("adjlist: transaction over DynamoDB's limits")
	ErrDuplicateKey              = errors.New("adjlist: duplicate key in a batch")
	ErrInvalidOption             = errors.New("adjlist: invalid option")
)

// Sentinels lists every sentinel above, whose texts are fixed.
var Sentinels = []error{
	ErrInvalidKey, ErrKeyAttribute, ErrItemTooLarge, ErrNotFound, ErrExists,
	ErrEdgeExists, ErrConditionFailed, ErrVersionConflict, ErrInvalidCursor,
	ErrIndexConsistentRead, ErrUnprocessed, ErrNotVisible, ErrNodeNotFound,
	ErrTxConflict, ErrTxLimit, ErrDuplicateKey, ErrInvalidOption,
	ErrOutcomeUnknown,
}

// kindOf is a sentinel that also matches a more general one.
type kindOf struct {
	msg    string
	parent error
}

func (k *kindOf) Error() string        { return k.msg }
func (k *kindOf) Is(target error) bool { return target == k.parent }

// KeyError is a name, id or key refused, e.g. {Name: "STU", ID: "",
// Reason: "empty id"}; package adjlist declares it as an alias
// (adjlist.KeyError), so there is one type. It matches [ErrInvalidKey]
// with errors.Is.
type KeyError struct {
	// Name is the node type, edge label or key attribute concerned, if known.
	Name string
	// ID is the offending id or key value, as given (it may be invalid UTF-8).
	ID string
	// Reason says what is wrong, e.g. "empty id".
	Reason string
}

// Error says which name and id were refused, and why.
func (e *KeyError) Error() string {
	if e.Name == "" {
		return fmt.Sprintf("adjlist: invalid key %q: %s", e.ID, e.Reason)
	}
	return fmt.Sprintf("adjlist: invalid key %s %q: %s", e.Name, e.ID, e.Reason)
}

// Unwrap returns [ErrInvalidKey].
func (e *KeyError) Unwrap() error { return ErrInvalidKey }

// Key is e as an error: nil for a nil e, which as an error would not be
// nil.
func Key(e *KeyError) error {
	if e == nil {
		return nil
	}
	return e
}
