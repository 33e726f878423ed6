package adjlist

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Update describes what one UpdateItem does to an item's data, as data:
// the SET, REMOVE, ADD and DELETE actions in the order they were added,
// rendered with the SDK's expression builder when the request is built.
// Start one with [Set] or [Remove] and chain:
//
//	adjlist.Set("status", "ACTIVE").Remove("draft")
//
// sends "SET #0 = :0\nREMOVE #1\n" with #0 = status, :0 = "ACTIVE", #1 =
// draft. An Update is immutable: every method returns a new Update and
// leaves its receiver as it was, so one Update can be sent again (the read
// again and retry after [ErrVersionConflict]), kept in a variable, or
// shared by goroutines. The zero Update changes nothing, and sending it is
// [ErrInvalidOption].
//
// Attribute names are paths as [expression.Name] reads them: "a.b" is
// attribute b of map a, "l[0]" the first element of list l. Values are
// marshalled with attributevalue, as item data is.
//
// A handle keeps its item's derived index keys true in the same UpdateItem
// (see [IndexKeys]): for every index key whose template reads an attribute
// the update changes, it adds a SET of the key recomputed from the new
// values, or a REMOVE when the data it needs goes (the attribute removed,
// or set to NULL or ""), which takes the item out of the index. It can
// recompute a key only from values set outright ([Update.Set] of a
// top-level attribute): an attribute that feeds an index key changed any
// other way ([Update.Add], [Update.Delete], [Update.SetTo], a nested
// path), or a composite key whose other attributes the update does not
// set, makes the update fail with [ErrInvalidOption] before any request,
// since the stored key would go stale.
type Update struct {
	ops []updateOp
}

// updateKind is the action of one updateOp.
type updateKind uint8

const (
	updSet    updateKind = iota // SET path = :value
	updSetTo                    // SET path = operand (arithmetic, if_not_exists, list_append, ...)
	updRemove                   // REMOVE path
	updAdd                      // ADD path :value
	updDelete                   // DELETE path :value
)

// updateOp is one action of an Update on one attribute path.
type updateOp struct {
	kind    updateKind
	path    string
	value   any                       // updSet, updAdd, updDelete
	operand expression.OperandBuilder // updSetTo
}

// Set returns the Update that sets attribute name to value: SET name =
// :value. See [Update.Set].
func Set(name string, value any) Update { return Update{}.Set(name, value) }

// Remove returns the Update that removes the named attributes: REMOVE
// name, .... See [Update.Remove].
func Remove(names ...string) Update { return Update{}.Remove(names...) }

// Set adds SET name = :value: the attribute (or path) takes value,
// marshalled with attributevalue as item data is; a nil value sets NULL.
// A top-level attribute set this way can feed derived index keys.
func (u Update) Set(name string, value any) Update {
	return u.with(updateOp{kind: updSet, path: name, value: value})
}

// SetTo adds SET name = value for a value the SDK's expression builder
// computes from the item, e.g. a counter increment,
//
//	u.SetTo("likes", expression.Name("likes").Plus(expression.Value(1)))
//
// or expression.IfNotExists and expression.ListAppend. An attribute
// changed this way cannot feed a derived index key (ErrInvalidOption).
func (u Update) SetTo(name string, value expression.OperandBuilder) Update {
	return u.with(updateOp{kind: updSetTo, path: name, operand: value})
}

// Remove adds REMOVE name for each of names: the attributes (or paths) go.
// A removed top-level attribute takes the item out of the indexes whose
// derived keys read it.
func (u Update) Remove(names ...string) Update {
	ops := slices.Clip(u.ops)
	for _, name := range names {
		ops = append(ops, updateOp{kind: updRemove, path: name})
	}
	return Update{ops: ops}
}

// Add adds ADD name :value: a number added to a number attribute (created
// as value when missing), or the elements of a set added to a set
// attribute.
func (u Update) Add(name string, value any) Update {
	return u.with(updateOp{kind: updAdd, path: name, value: value})
}

// Delete adds DELETE name :value: the elements of set value removed from
// a set attribute.
func (u Update) Delete(name string, value any) Update {
	return u.with(updateOp{kind: updDelete, path: name, value: value})
}

// with returns u plus op, never sharing u's backing array: slices.Clip
// makes append copy, so two Updates grown from one never see each other's
// actions.
func (u Update) with(op updateOp) Update {
	return Update{ops: append(slices.Clip(u.ops), op)}
}

// builder renders the actions as a fresh SDK UpdateBuilder, in order, with
// values marshalled by enc (the table's encoder).
func (u Update) builder(enc *attributevalue.Encoder) (expression.UpdateBuilder, error) {
	var b expression.UpdateBuilder
	for _, op := range u.ops {
		name := expression.Name(op.path)
		var v expression.ValueBuilder
		if op.kind == updSet || op.kind == updAdd || op.kind == updDelete {
			av, err := enc.Encode(op.value)
			if err != nil {
				return b, fmt.Errorf("%w: the value for %q: %w", ErrInvalidOption, op.path, err)
			}
			v = expression.Value(encoded{av})
		}
		switch op.kind {
		case updSet:
			b = b.Set(name, v)
		case updSetTo:
			b = b.Set(name, op.operand)
		case updRemove:
			b = b.Remove(name)
		case updAdd:
			b = b.Add(name, v)
		case updDelete:
			b = b.Delete(name, v)
		}
	}
	return b, nil
}

// encoded is a value already marshalled: the expression builder takes it
// as it is (its own encoder would ignore the table's options).
type encoded struct{ av types.AttributeValue }

func (e encoded) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	if e.av == nil {
		return &types.AttributeValueMemberNULL{Value: true}, nil
	}
	return e.av, nil
}

// assignment is what an update does to one top-level attribute.
type assignment struct {
	value types.AttributeValue // the value SET, when known
	known bool                 // SET to a plain value, or REMOVEd
}

// isTopLevel reports whether path names a top-level attribute, not a
// nested path.
func isTopLevel(path string) bool { return !strings.ContainsAny(path, ".[") }

// topLevel is the top-level attribute a path starts in.
func topLevel(path string) string {
	if i := strings.IndexAny(path, ".["); i >= 0 {
		return path[:i]
	}
	return path
}

// assignments reads what u does to each top-level attribute, from its
// actions (the last action on an attribute wins, as each would be
// refused by DynamoDB if two touched the same path).
func (u Update) assignments(enc *attributevalue.Encoder) (map[string]assignment, error) {
	out := make(map[string]assignment, len(u.ops))
	for _, op := range u.ops {
		top := topLevel(op.path)
		switch {
		case op.kind == updRemove && isTopLevel(op.path):
			out[top] = assignment{known: true}
		case op.kind == updSet && isTopLevel(op.path):
			av, err := enc.Encode(op.value)
			if err != nil {
				return nil, fmt.Errorf("%w: the value set for %q: %w", ErrInvalidOption, op.path, err)
			}
			out[top] = assignment{value: av, known: true}
		default:
			out[top] = assignment{}
		}
	}
	return out, nil
}

// deriveIndexUpdate returns u plus the changes of the derived index keys
// that follow from it (see [Update]).
func deriveIndexUpdate(u Update, indexes []boundIndex, kc *keyCtx, enc *attributevalue.Encoder) (Update, error) {
	if len(indexes) == 0 {
		return u, nil
	}
	changes, err := u.assignments(enc)
	if err != nil {
		return u, err
	}
	for i := range indexes {
		ixName := indexes[i].ix.Name
		for _, d := range indexes[i].derivedKeys() {
			data, leaves := Item{}, false
			var set, missing []string
			for _, name := range d.attrs {
				a, ok := changes[name]
				switch {
				case !ok:
					missing = append(missing, name)
					continue
				case !a.known:
					return u, fmt.Errorf("%w: the update changes %q, which feeds index %s's key %s, by more than a plain SET or REMOVE", ErrInvalidOption, name, ixName, d.attr)
				}
				set = append(set, name)
				if _, present, err := attrKeyText(name, a.value); err != nil {
					return u, err
				} else if !present {
					leaves = true
				}
				data[name] = a.value
			}
			switch {
			case len(set) == 0:
				continue
			case leaves:
				u = u.Remove(d.attr)
				continue
			case len(missing) > 0:
				return u, fmt.Errorf("%w: the update sets %q but not %q, which together make index %s's key %s; set them all, or Put the whole item", ErrInvalidOption, set, missing, ixName, d.attr)
			}
			v, _, err := d.compute(data, kc)
			if err != nil {
				return u, err
			}
			u = u.Set(d.attr, v)
		}
	}
	return u, nil
}
