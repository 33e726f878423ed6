package adjlist

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// An update keeps the item's derived index keys true in the same
// UpdateItem: for every index key attribute whose template reads an
// attribute the update changes, it SETs the key recomputed from the new
// values, or REMOVEs it when the data it needs goes (an attribute removed,
// or set to NULL or ""), which takes the item out of the index. It can
// recompute a key only from values the update sets outright (SET status =
// :v); an attribute changed any other way (arithmetic, if_not_exists, ADD,
// a nested path), or a composite key whose other attributes the update
// does not set, makes the update fail with ErrInvalidOption before any
// request: the stored key would go stale.

// assignment is what an update does to one top-level attribute.
type assignment struct {
	value types.AttributeValue // the value SET, when known
	known bool                 // SET to a plain value, or REMOVEd
}

var (
	leadingName = regexp.MustCompile(`^#[0-9]+`)
	plainValue  = regexp.MustCompile(`^= (:[0-9]+)$`) // SET's right-hand side when it is one value
)

// assignments reads a built update expression (the SDK builder's
// "SET #0 = :0, #1 = :1\nREMOVE #2\n") into what it does to each top-level
// attribute.
func assignments(e expression.Expression) map[string]assignment {
	out := map[string]assignment{}
	names, values := e.Names(), e.Values()
	for _, line := range strings.Split(strings.TrimSpace(*e.Update()), "\n") {
		mode, rest, _ := strings.Cut(line, " ")
		for _, clause := range splitTopLevel(rest) {
			path, rhs, _ := strings.Cut(clause, " ")
			top := leadingName.FindString(path)
			name := names[top]
			whole := top != "" && path == top
			switch {
			case mode == "REMOVE" && whole:
				out[name] = assignment{known: true}
			case mode == "SET" && whole && plainValue.MatchString(rhs):
				out[name] = assignment{value: values[plainValue.FindStringSubmatch(rhs)[1]], known: true}
			default:
				out[name] = assignment{}
			}
		}
	}
	return out
}

// splitTopLevel splits a clause list at the commas outside parentheses.
func splitTopLevel(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(parts, strings.TrimSpace(s[start:]))
}

// deriveIndexUpdate adds to update the changes of the derived index keys
// that follow from it (see above), given alone, update built by itself.
func deriveIndexUpdate(update expression.UpdateBuilder, alone expression.Expression, indexes []boundIndex, kc *keyCtx) (expression.UpdateBuilder, error) {
	if len(indexes) == 0 {
		return update, nil
	}
	changes := assignments(alone)
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
					return update, fmt.Errorf("%w: the update changes %q, which feeds index %s's key %s, by more than a plain SET or REMOVE", ErrInvalidOption, name, ixName, d.attr)
				}
				set = append(set, name)
				if _, present, err := attrKeyText(name, a.value); err != nil {
					return update, err
				} else if !present {
					leaves = true
				}
				data[name] = a.value
			}
			switch {
			case len(set) == 0:
				continue
			case leaves:
				update = update.Remove(expression.Name(d.attr))
				continue
			case len(missing) > 0:
				return update, fmt.Errorf("%w: the update sets %q but not %q, which together make index %s's key %s; set them all, or Put the whole item", ErrInvalidOption, set, missing, ixName, d.attr)
			}
			v, _, err := d.compute(data, kc)
			if err != nil {
				return update, err
			}
			update = update.Set(expression.Name(d.attr), expression.Value(v))
		}
	}
	return update, nil
}
