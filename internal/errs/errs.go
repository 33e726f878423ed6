// Package errs provides adjlist's errors, declared once: every sentinel
// error and [KeyError]. The internal packages return them, and package
// adjlist re-exports the sentinels (the same values, so errors.Is holds
// either way). It imports nothing of adjlist's: every layer may use it.
package errs

import (
	"errors"
	"fmt"
	"reflect"
)

// The sentinels; package adjlist documents each under its own name.
var (
	ErrInvalidKey                = errors.New("adjlist: invalid key")
	ErrKeyAttribute              = errors.New("adjlist: data maps to a key attribute")
	ErrItemTooLarge              = errors.New("adjlist: item too large")
	ErrNotFound                  = errors.New("adjlist: item not found")
	ErrExists                    = errors.New("adjlist: item already exists")
	ErrEdgeExists          error = &kindOf{msg: "adjlist: edge already exists", parent: ErrExists}
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
// Reason: "empty id"}: adjlist.KeyError, field for field. It matches
// [ErrInvalidKey] with errors.Is, and errors.As fills an
// *adjlist.KeyError from it ([KeyError.As]). Package adjlist converts one
// that is an OpError's Err itself ((*adjlist.KeyError)(e)).
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

// rootPkg and rootName name package adjlist's KeyError, which errors.As
// may ask for.
const rootPkg, rootName = "github.com/adjlist/adjlist", "KeyError"

// As fills target when it is a **adjlist.KeyError (errors.As(err, &ke)
// with ke an *adjlist.KeyError) with e as that type, the same fields:
// adjlist.KeyError is declared in the root package (its exported API),
// and this package cannot import it.
func (e *KeyError) As(target any) bool {
	v := reflect.ValueOf(target)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return false
	}
	t := v.Type().Elem()
	if t.Kind() != reflect.Pointer || t.Elem().PkgPath() != rootPkg || t.Elem().Name() != rootName || !reflect.TypeOf(e).ConvertibleTo(t) {
		return false
	}
	v.Elem().Set(reflect.ValueOf(e).Convert(t))
	return true
}

// Key is e as an error: nil when e is nil (a nil *KeyError never reaches
// an error interface), else e.
func Key(e *KeyError) error {
	if e == nil {
		return nil
	}
	return e
}
