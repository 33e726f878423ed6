package schema

import (
	"errors"
	"fmt"
	"slices"

	"github.com/adjlist/adjlist/internal/errs"
)

// Put returns list with r in place of the first record same holds for,
// else with r appended: a type declared again keeps its place.
func Put[R any](list []R, r R, same func(R) bool) []R {
	if i := slices.IndexFunc(list, same); i >= 0 {
		list[i] = r
		return list
	}
	return append(list, r)
}

// Type is a record's item type name and its declaration's error.
type Type struct {
	Name string
	Err  error
}

// Check joins own (the table's error), each record's own error once
// (named for its type) and an [errs.ErrInvalidOption] for each pair of
// records whose keys overlap, in declaration order.
func Check[R any](own error, records []R, typ func(R) Type, overlap func(a, b R) bool) error {
	all := []error{own}
	for i, r := range records {
		rt := typ(r)
		if rt.Err != nil {
			if !slices.ContainsFunc(all, func(e error) bool { return errors.Is(e, rt.Err) }) {
				all = append(all, fmt.Errorf("%s: %w", rt.Name, rt.Err))
			}
			continue
		}
		for _, o := range records[:i] {
			if ot := typ(o); ot.Err == nil && overlap(o, r) {
				all = append(all, fmt.Errorf("%w: %s and %s could have the same keys", errs.ErrInvalidOption, ot.Name, rt.Name))
			}
		}
	}
	return errors.Join(all...)
}
