package ddbexpr

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
)

// Write is the condition of one write by a handle ([Cond]) and the SETs
// an update adds for the handle's tracking. It is a value so that a
// single write keeps it on its stack.
type Write struct {
	Cond
	// Tr is the handle's tracking; Sets are an update's SETs for it
	// (updatedAt, the expiry), added in name order.
	Tr   *Tracking
	Sets map[string]any
}

// Init fills w with the condition of action a under guard g on the
// partition key pk by a handle tracking tr: expiresAt, optVersion and user
// are the write's options (zero: not given), dataVersion the version in a
// put's data. What the action cannot take is errs.ErrInvalidOption.
func (w *Write) Init(pk string, tr *Tracking, a Action, g Guard, expiresAt time.Time, optVersion, dataVersion int64, user expression.ConditionBuilder) error {
	*w = Write{Tr: tr}
	if a == Update {
		var err error
		if w.Sets, err = tr.UpdateSets(expiresAt); err != nil {
			return err
		}
	} else if a != Put && !expiresAt.IsZero() {
		return fmt.Errorf("%w: ExpiresAt on a delete or check", errs.ErrInvalidOption)
	}
	if err := w.Cond.Init(pk, a, g, tr.Version, optVersion, dataVersion, user); err != nil {
		return fmt.Errorf("%w: %w", errs.ErrInvalidOption, err)
	}
	return nil
}

// UpdateOps checks the actions ops of an update under w and returns them
// plus w's own: the version written (SET version = Next) and Sets, in
// name order; ops is not changed. Refused, before any request: no
// actions, an action the expression builder refuses, or one that names an
// attribute w's tracking maintains (errs.ErrInvalidOption); one that names a
// key attribute (isKey) or one the item's keys hold (keyData,
// errs.ErrKeyAttribute).
func (w *Write) UpdateOps(ops []Op, enc *attributevalue.Encoder, isKey func(string) bool, keyData []string) ([]Op, error) {
	if len(ops) == 0 {
		return nil, fmt.Errorf("%w: the update changes nothing", errs.ErrInvalidOption)
	}
	// The update alone names exactly the attributes it touches.
	ub, err := Builder(ops, enc)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errs.ErrInvalidOption, err)
	}
	alone, err := expression.NewBuilder().WithUpdate(ub).Build()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errs.ErrInvalidOption, err)
	}
	for _, name := range alone.Names() {
		switch {
		case isKey(name):
			return nil, fmt.Errorf("%w: %q", errs.ErrKeyAttribute, name)
		case slices.Contains(keyData, name):
			return nil, fmt.Errorf("%w: %q is held by the item's keys: write the item anew (Replace) to change it", errs.ErrKeyAttribute, name)
		case w.Tr.Maintained(name):
			return nil, fmt.Errorf("%w: the update names %q, which the handle's Tracking maintains", errs.ErrInvalidOption, name)
		}
	}
	ops = slices.Clip(ops)
	if w.Next > 0 {
		ops = append(ops, Op{Kind: OpSet, Path: w.Version, Value: w.Next})
	}
	for _, name := range slices.Sorted(maps.Keys(w.Sets)) {
		ops = append(ops, Op{Kind: OpSet, Path: name, Value: w.Sets[name]})
	}
	return ops, nil
}

// BuildUpdate builds the whole update ops (see UpdateOps), values
// marshalled by enc, with w's condition on the partition key pk, on a
// fresh SDK builder.
func (w *Write) BuildUpdate(pk string, ops []Op, enc *attributevalue.Encoder) (expression.Expression, error) {
	ub, err := Builder(ops, enc)
	if err != nil {
		return expression.Expression{}, fmt.Errorf("%w: %w", errs.ErrInvalidOption, err)
	}
	return expression.NewBuilder().WithUpdate(ub).WithCondition(w.Condition(pk)).Build()
}
