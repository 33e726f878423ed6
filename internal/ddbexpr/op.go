package ddbexpr

import (
	"math/big"
	"strings"

	"github.com/adjlist/adjlist/internal/keycodec"
)

// CmpOp is the kind of sort key condition a query sends.
type CmpOp int

const (
	None       CmpOp = iota // begins_with(the item type's prefix)
	Between                 // BETWEEN lo AND hi
	BeginsWith              // begins_with(lo)
	// On an index sort key with no item type prefix (a template that
	// starts with a data attribute), conditions compare whole values.
	GT // > lo
	GE // >= lo
	LT // < lo
	LE // <= lo
	EQ // = lo
)

// Holds reports whether sort key v meets op with lo and hi as DynamoDB
// evaluates it (None: begins_with prefix): any cursor the query issues
// holds.
func (op CmpOp) Holds(v, lo, hi, prefix string) bool {
	switch op {
	case Between:
		return lo <= v && v <= hi
	case BeginsWith:
		return strings.HasPrefix(v, lo)
	case GT:
		return v > lo
	case GE:
		return v >= lo
	case LT:
		return v < lo
	case LE:
		return v <= lo
	case EQ:
		return v == lo
	}
	return strings.HasPrefix(v, prefix)
}

// HoldsNumber is [CmpOp.Holds] on a number (N) sort key; under None any
// number holds.
func (op CmpOp) HoldsNumber(v, lo, hi string) bool {
	if _, ok := new(big.Rat).SetString(v); !ok {
		return false
	}
	c := keycodec.CompareNumbers(v, lo)
	switch op {
	case Between:
		return c >= 0 && keycodec.CompareNumbers(v, hi) <= 0
	case GT:
		return c > 0
	case GE:
		return c >= 0
	case LT:
		return c < 0
	case LE:
		return c <= 0
	case EQ:
		return c == 0
	case BeginsWith:
		return false
	}
	return true
}

// Named is the condition of Query method name ("GreaterThan": GT).
func Named(name string) CmpOp {
	switch name {
	case "Between":
		return Between
	case "GreaterThan":
		return GT
	case "GreaterThanEqual":
		return GE
	case "LessThan":
		return LT
	case "LessThanEqual":
		return LE
	case "BeginsWith":
		return BeginsWith
	case "Equal":
		return EQ
	}
	return None
}

// Args is how Describe shows condition method name's arguments.
func Args(name string) string {
	if name == "Between" {
		return "(lo, hi)"
	}
	return "(v)"
}
