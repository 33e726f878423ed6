package indexkeys

import (
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/writeexpr"
)

// DeriveUpdate returns ops, an update's actions, plus the changes of the
// derived index keys of indexes that follow from them (adjlist.Update's
// promise): a SET of each key whose template reads an attribute ops set
// outright, recomputed from the new values, or a REMOVE when the data it
// needs goes. Any other change of such an attribute, or a composite key
// given in part, is ErrInvalidOption. keyOnly are the attributes an
// Entity keeps only inside keys: removing a key holding one is
// ErrKeyAttribute, since the value would go with it. ops is never changed.
func DeriveUpdate(ops []writeexpr.Op, indexes []Index, kc *keycodec.Ctx, enc *attributevalue.Encoder, keyOnly []string) ([]writeexpr.Op, error) {
	if len(indexes) == 0 {
		return ops, nil
	}
	changes, err := writeexpr.Assignments(ops, enc)
	if err != nil {
		return ops, fmt.Errorf("%w: %w", ErrInvalidOption, err)
	}
	out := slices.Clip(ops) // an append copies
	for i := range indexes {
		b := &indexes[i]
		for _, d := range b.keys() {
			data, leaves := map[string]types.AttributeValue{}, false
			var set, missing []string
			for _, name := range d.attrs {
				a, ok := changes[name]
				switch {
				case !ok:
					missing = append(missing, name)
					continue
				case !a.Known:
					return ops, fmt.Errorf("%w: the update changes %q, which feeds index %s's key %s, by more than a plain SET or REMOVE", ErrInvalidOption, name, b.Name, d.attr)
				}
				set = append(set, name)
				if _, present, err := AttrText(name, a.Value); err != nil {
					return ops, err
				} else if !present {
					leaves = true
				}
				data[name] = a.Value
			}
			switch {
			case len(set) == 0:
				continue
			case leaves:
				if i := slices.IndexFunc(missing, func(n string) bool { return slices.Contains(keyOnly, n) }); i >= 0 {
					return ops, fmt.Errorf("%w: the update empties %q, which with %q makes index %s's key %s; %q is kept only inside keys, and the item may hold no other key with it: write the item anew (Replace)", ErrKeyAttribute, set, missing[i], b.Name, d.attr, missing[i])
				}
				out = append(out, writeexpr.Op{Kind: writeexpr.OpRemove, Path: d.attr})
				continue
			case len(missing) > 0:
				return ops, fmt.Errorf("%w: the update sets %q but not %q, which together make index %s's key %s; set them all, or Put the whole item", ErrInvalidOption, set, missing, b.Name, d.attr)
			}
			v, _, err := b.key(d.sort, data, kc)
			if err != nil {
				return ops, err
			}
			out = append(out, writeexpr.Op{Kind: writeexpr.OpSet, Path: d.attr, Value: v})
		}
	}
	return out, nil
}
