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

// Write is one write's [Cond] and the SETs an update adds for the
// handle's tracking; a value, kept on the write's stack.
type Write struct {
	Cond
	Tr   *Tracking
	Sets map[string]any // an update's SETs for Tr, added in name order
}

// Init fills w as [Cond.Init] does, for a handle tracking tr and a write
// expiring at expiresAt; what the action cannot take is
// errs.ErrInvalidOption.
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

// UpdateOps checks an update's ops and returns them (unchanged) plus w's
// own: SET version = Next, then Sets in name order. No ops, ones the
// builder refuses or naming a tracked attribute are errs.ErrInvalidOption;
// naming a key attribute (isKey) or one the keys hold (keyData),
// errs.ErrKeyAttribute.
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

// BuildUpdate builds [Write.UpdateOps]'s ops with w's condition.
func (w *Write) BuildUpdate(pk string, ops []Op, enc *attributevalue.Encoder) (expression.Expression, error) {
	ub, err := Builder(ops, enc)
	if err != nil {
		return expression.Expression{}, fmt.Errorf("%w: %w", errs.ErrInvalidOption, err)
	}
	return expression.NewBuilder().WithUpdate(ub).WithCondition(w.Condition(pk)).Build()
}
