package adjlist

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/adjlist/adjlist/internal/ddbexpr"
	"github.com/adjlist/adjlist/internal/keycodec"
)

// Update describes what one UpdateItem does to an item's data: SET,
// REMOVE, ADD and DELETE actions, rendered with the SDK's expression
// builder (one clause per kind, in its order ADD, DELETE, REMOVE, SET).
// Start one with [Set] or [Remove] and chain:
//
//	adjlist.Set("status", "ACTIVE").Remove("draft")
//	// [Node.Update] sends "REMOVE #1\nSET #2 = :0\n", #1 = draft, #2 = status, :0 = "ACTIVE"
//
// An Update is immutable: every method returns a new one, so it can be
// sent again, kept or shared by goroutines. The zero Update is
// [ErrInvalidOption] when sent. Names are paths as [expression.Name] reads
// them ("a.b", "l[0]"); values are marshalled as item data is.
//
// A handle keeps derived index keys ([IndexKeys]) true in the same
// UpdateItem: an index key whose template reads an attribute set outright
// is SET again, or REMOVEd when its data goes. An attribute feeding an
// index key changed any other way ([Update.Add], [Update.Delete],
// [Update.SetTo], a nested path), or part of a composite key without the
// rest (all keys with [Index].KeysTogether), is [ErrInvalidOption] before
// any request. docs/modelling.md explains how indexes are kept true.
type Update struct {
	ops []ddbexpr.Op
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
	return u.with(ddbexpr.Op{Kind: ddbexpr.OpSet, Path: name, Value: value})
}

// SetTo adds SET name = value for a value the SDK's expression builder
// computes from the item, e.g. a counter increment,
//
//	u.SetTo("likes", expression.Name("likes").Plus(expression.Value(1)))
//
// or expression.IfNotExists and expression.ListAppend. An attribute
// changed this way cannot feed a derived index key (ErrInvalidOption).
func (u Update) SetTo(name string, value expression.OperandBuilder) Update {
	return u.with(ddbexpr.Op{Kind: ddbexpr.OpSetTo, Path: name, Operand: value})
}

// Remove adds REMOVE name for each of names: the attributes (or paths) go.
// A removed top-level attribute takes the item out of the indexes whose
// derived keys read it.
func (u Update) Remove(names ...string) Update {
	ops := slices.Clip(u.ops)
	for _, name := range names {
		ops = append(ops, ddbexpr.Op{Kind: ddbexpr.OpRemove, Path: name})
	}
	return Update{ops: ops}
}

// Add adds ADD name :value: a number added to a number attribute (created
// as value when missing), or the elements of a set added to a set
// attribute.
//
// An update with Add or [Update.SetTo] adds again each time it is
// applied: on a handle without [Tracking.Version], whose version check
// would refuse a second application, it is sent without the SDK's
// retries after an attempt whose outcome is unknown (a 5xx, a dropped
// connection) and then fails with [ErrOutcomeUnknown]; throttling and
// other 4xx, which DynamoDB answers for requests it did not apply, are
// still retried. Give it a [WriteOptions.Token] to have it retried and
// applied exactly once.
func (u Update) Add(name string, value any) Update {
	return u.with(ddbexpr.Op{Kind: ddbexpr.OpAdd, Path: name, Value: value})
}

// Delete adds DELETE name :value: the elements of set value removed from
// a set attribute.
//
// Add's and Delete's value is marshalled by the table's encoder, as every
// value is: a set is a value that marshals as one (SS, NS, BS), such as a
// type implementing attributevalue.Marshaler. A []string marshals as a
// list, and a types.AttributeValue as a map, which DynamoDB refuses here
// with a ValidationException.
func (u Update) Delete(name string, value any) Update {
	return u.with(ddbexpr.Op{Kind: ddbexpr.OpDelete, Path: name, Value: value})
}

// with returns u plus op; slices.Clip makes append copy, so two Updates
// grown from one never see each other's actions.
func (u Update) with(op ddbexpr.Op) Update {
	return Update{ops: append(slices.Clip(u.ops), op)}
}

// deriveIndexUpdate returns u plus the derived index key changes that
// follow from it; keyOnly are the attributes an Entity keeps only in keys.
func deriveIndexUpdate(u Update, indexes []keycodec.Index, kc *keyCtx, enc *attributevalue.Encoder, keyOnly []string) (Update, error) {
	ops, err := ddbexpr.DeriveUpdate(u.ops, indexes, kc, enc, keyOnly)
	return Update{ops: ops}, err
}
