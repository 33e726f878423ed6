package ddbexpr

import (
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/ddbitem"
)

// Kind is the action of one Op.
type Kind uint8

// The actions of an update, as UpdateItem's clauses name them.
const (
	OpSet    Kind = iota // SET path = :value
	OpSetTo              // SET path = operand (arithmetic, if_not_exists, list_append, ...)
	OpRemove             // REMOVE path
	OpAdd                // ADD path :value
	OpDelete             // DELETE path :value
)

// Op is one action of an update on one attribute path; adjlist.Update
// holds a slice of them, which building a request never changes.
type Op struct {
	Kind    Kind
	Path    string
	Value   any                       // OpSet, OpAdd, OpDelete
	Operand expression.OperandBuilder // OpSetTo
}

// Builder renders ops as a fresh SDK UpdateBuilder, in order, with values
// marshalled by enc (the table's encoder).
func Builder(ops []Op, enc *attributevalue.Encoder) (expression.UpdateBuilder, error) {
	var b expression.UpdateBuilder
	for _, op := range ops {
		name := expression.Name(op.Path)
		var v expression.ValueBuilder
		if op.Kind == OpSet || op.Kind == OpAdd || op.Kind == OpDelete {
			av, err := enc.Encode(op.Value)
			if err != nil {
				return b, fmt.Errorf("the value for %q: %w", op.Path, err)
			}
			v = expression.Value(AV{av})
		}
		switch op.Kind {
		case OpSet:
			b = b.Set(name, v)
		case OpSetTo:
			b = b.Set(name, op.Operand)
		case OpRemove:
			b = b.Remove(name)
		case OpAdd:
			b = b.Add(name, v)
		case OpDelete:
			b = b.Delete(name, v)
		}
	}
	return b, nil
}

// Assignment is what an update does to one top-level attribute, for the
// derived index keys that follow from it.
type Assignment struct {
	Value types.AttributeValue // the value SET, when known
	Known bool                 // SET to a plain value, or REMOVEd
}

// IsTopLevel reports whether path is a top-level attribute, not nested.
func IsTopLevel(path string) bool { return !strings.ContainsAny(path, ".[") }

// TopLevel is the top-level attribute a path starts in.
func TopLevel(path string) string {
	if i := strings.IndexAny(path, ".["); i >= 0 {
		return path[:i]
	}
	return path
}

// Assignments reads what ops do to each top-level attribute, the last
// action winning (DynamoDB refuses two on one path).
func Assignments(ops []Op, enc *attributevalue.Encoder) (map[string]Assignment, error) {
	out := make(map[string]Assignment, len(ops))
	for _, op := range ops {
		top := TopLevel(op.Path)
		switch {
		case op.Kind == OpRemove && IsTopLevel(op.Path):
			out[top] = Assignment{Known: true}
		case op.Kind == OpSet && IsTopLevel(op.Path):
			av, err := enc.Encode(op.Value)
			if err != nil {
				return nil, fmt.Errorf("the value set for %q: %w", op.Path, err)
			}
			out[top] = Assignment{Value: av, Known: true}
		default:
			out[top] = Assignment{}
		}
	}
	return out, nil
}

// Idempotent reports whether applying ops twice leaves an item as once:
// no ADD and no SET computed from the item.
func Idempotent(ops []Op) bool {
	for _, op := range ops {
		if op.Kind == OpAdd || op.Kind == OpSetTo {
			return false
		}
	}
	return true
}

// Shows reports whether item holds what ops write: each top-level plain
// SET's value, each REMOVE's absence. Any other action (ADD, DELETE, a
// computed SET, a nested path) the stored item cannot show: false.
func Shows(ops []Op, enc *attributevalue.Encoder, item map[string]types.AttributeValue) bool {
	if item == nil {
		return false
	}
	for _, op := range ops {
		if !IsTopLevel(op.Path) {
			return false
		}
		switch op.Kind {
		case OpSet:
			av, err := enc.Encode(op.Value)
			if err != nil {
				return false
			}
			if av == nil {
				av = &types.AttributeValueMemberNULL{Value: true}
			}
			if !ddbitem.EqualValue(item[op.Path], av) {
				return false
			}
		case OpRemove:
			if _, ok := item[op.Path]; ok {
				return false
			}
		default:
			return false
		}
	}
	return true
}
