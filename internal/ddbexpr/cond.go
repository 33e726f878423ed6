package ddbexpr

import (
	"fmt"
	"strconv"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Guard is the library's own condition on a write.
type Guard int

// The guards, on the partition key.
const (
	GuardNone    Guard = iota // an overwrite: Replace
	GuardAbsent               // attribute_not_exists(PK): a create
	GuardPresent              // attribute_exists(PK): update, delete, check
)

// Action is the kind of a write, for the version rules.
type Action int

// The kinds of write.
const (
	Put Action = iota
	Update
	Delete
	Check
)

// GuardCond is guard g's condition on the partition key pk.
func GuardCond(pk string, g Guard) expression.ConditionBuilder {
	name := expression.Name(pk)
	if g == GuardAbsent {
		return expression.AttributeNotExists(name)
	}
	return expression.AttributeExists(name)
}

// Cond is the condition of one write (guard, version check, the caller's)
// and the version written; a value, kept on the write's stack.
type Cond struct {
	Guard Guard
	// Expr is the whole condition; unset when it is the guard alone (or,
	// under GuardNone, when there is none).
	Expr expression.ConditionBuilder
	User bool // Expr includes the caller's condition
	// Version is the version attribute ("" none); Checked: Expr compares
	// it with Expected; Next is the version written (0: none).
	Version        string
	Checked        bool
	Expected, Next int64
}

// Init fills c for action a under guard g on partition key pk: version is
// the handle's attribute ("": none), optVersion the version the caller
// read (0: none), dataVersion a put's data's, user the caller's condition.
// It refuses a version the action cannot take.
func (c *Cond) Init(pk string, a Action, g Guard, version string, optVersion, dataVersion int64, user expression.ConditionBuilder) error {
	*c = Cond{Guard: g, Version: version}
	switch {
	case optVersion < 0:
		return fmt.Errorf("WriteOptions.Version %d", optVersion)
	case optVersion != 0 && version == "":
		return fmt.Errorf("WriteOptions.Version %d on a handle without Tracking.Version", optVersion)
	case version == "":
	case g == GuardAbsent:
		if optVersion != 0 {
			return fmt.Errorf("WriteOptions.Version %d on a create, which writes version 1", optVersion)
		}
		c.Next = 1
	case g == GuardNone:
		c.Expected = dataVersion
		if optVersion != 0 {
			c.Expected = optVersion
		}
		c.Checked, c.Next = true, c.Expected+1
		v := expression.Name(version)
		if c.Expected == 0 {
			c.Expr = expression.AttributeNotExists(v)
		} else {
			c.Expr = v.Equal(expression.Value(c.Expected))
		}
	default: // GuardPresent: update, delete, check
		if optVersion == 0 && a != Check {
			return fmt.Errorf("a write of an item with a version (Tracking.Version %q) needs the version read: IfVersion", version)
		}
		if optVersion != 0 {
			c.Expected, c.Checked = optVersion, true
			c.Expr = GuardCond(pk, g).And(expression.Name(version).Equal(expression.Value(c.Expected)))
			if a == Update {
				c.Next = c.Expected + 1
			}
		}
	}
	if user.IsSet() {
		c.User = true
		switch {
		case c.Expr.IsSet():
			c.Expr = c.Expr.And(user)
		case g != GuardNone:
			c.Expr = GuardCond(pk, g).And(user)
		default:
			c.Expr = user
		}
	}
	return nil
}

// GuardOnly: the guard is the whole condition, built once per table.
func (c *Cond) GuardOnly() bool { return !c.Checked && !c.User }

// Condition is c's condition as a builder, the guard's when it stands
// alone, for a request built whole (an update).
func (c *Cond) Condition(pk string) expression.ConditionBuilder {
	if c.Expr.IsSet() || c.Guard == GuardNone {
		return c.Expr
	}
	return GuardCond(pk, c.Guard)
}

// Failure is what a failed condition means.
type Failure int

// The meanings of a failed condition.
const (
	Exists          Failure = iota // a create found an item
	Missing                        // an update, delete or check found none
	VersionConflict                // the stored version is not the one read
	ConditionFailed                // the caller's condition failed
)

// Classify says what the failure of c's condition means, given the item
// stored when it failed (ALL_OLD; nil if there was none).
func (c *Cond) Classify(old Item) Failure {
	switch {
	case !c.User && !c.Checked && c.Guard != GuardNone:
		// Nothing else can have failed, whether or not the item came back.
		if c.Guard == GuardAbsent {
			return Exists
		}
		return Missing
	case c.Guard == GuardAbsent && old != nil:
		return Exists
	case c.Guard == GuardPresent && old == nil:
		return Missing
	case c.Checked && VersionOf(old, c.Version) != c.Expected:
		return VersionConflict
	case c.User:
		return ConditionFailed
	case c.Checked:
		return VersionConflict
	}
	return ConditionFailed
}

// Meaning is [Cond.Classify] as an error: exists, missing,
// errs.ErrVersionConflict or errs.ErrConditionFailed.
func (c *Cond) Meaning(old Item, exists, missing error) error {
	switch c.Classify(old) {
	case Exists:
		return exists
	case Missing:
		return missing
	case VersionConflict:
		return errs.ErrVersionConflict
	}
	return errs.ErrConditionFailed
}

// VersionOf reads a version attribute; 0 when absent or not a number.
func VersionOf(item Item, name string) int64 {
	n, ok := item[name].(*types.AttributeValueMemberN)
	if !ok {
		return 0
	}
	v, err := strconv.ParseInt(n.Value, 10, 64)
	if err != nil {
		return 0
	}
	return v
}

// SetVersion writes the version c puts, if any, into item.
func (c *Cond) SetVersion(item Item) {
	if c.Version != "" && c.Next > 0 {
		item[c.Version] = &types.AttributeValueMemberN{Value: strconv.FormatInt(c.Next, 10)}
	}
}
