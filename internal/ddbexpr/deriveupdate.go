package ddbexpr

import (
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/adjlist/adjlist/internal/keycodec"
)

// DeriveUpdate returns ops (never changed) plus the derived index key
// changes they imply (adjlist.Update's promise): a SET of each key whose
// data ops set outright, or a REMOVE when its data goes. Any other change
// of such data, or a composite key given in part, is
// errs.ErrInvalidOption; removing a key that holds a keyOnly attribute is
// errs.ErrKeyAttribute. Keys kept together change all or none.
func DeriveUpdate(ops []Op, indexes []keycodec.Index, kc *keycodec.Ctx, enc *attributevalue.Encoder, keyOnly []string) ([]Op, error) {
	if len(indexes) == 0 {
		return ops, nil
	}
	changes, err := Assignments(ops, enc)
	if err != nil {
		return ops, fmt.Errorf("%w: %w", errs.ErrInvalidOption, err)
	}
	out := slices.Clip(ops) // an append copies
	for i := range indexes {
		b := &indexes[i]
		keys := b.DerivedKeys()
		changed := make([]keyChange, len(keys))
		for k, d := range keys {
			c, err := change(b, d, changes)
			if err != nil {
				return ops, err
			}
			changed[k] = c
		}
		var err error
		if b.Together {
			out, err = deriveTogether(out, b, keys, changed, kc, keyOnly)
		} else {
			for k, d := range keys {
				if out, err = deriveKey(out, b, d, changed[k], kc, keyOnly, false); err != nil {
					break
				}
			}
		}
		if err != nil {
			return ops, err
		}
	}
	return out, nil
}

// keyChange is what an update does to the data one derived key reads: the
// attributes it sets (set, their new values in data) and those it leaves
// alone (missing); leaves: it removes or empties one, so the key goes.
type keyChange struct {
	data         map[string]types.AttributeValue
	set, missing []string
	leaves       bool
}

func change(b *keycodec.Index, d keycodec.DerivedKey, changes map[string]Assignment) (keyChange, error) {
	c := keyChange{data: map[string]types.AttributeValue{}}
	for _, name := range d.Attrs {
		a, ok := changes[name]
		switch {
		case !ok:
			c.missing = append(c.missing, name)
			continue
		case !a.Known:
			return c, fmt.Errorf("%w: the update changes %q, which feeds index %s's key %s, by more than a plain SET or REMOVE", errs.ErrInvalidOption, name, b.Name, d.Attr)
		}
		c.set = append(c.set, name)
		if _, present, err := keycodec.AttrText(name, a.Value); err != nil {
			return c, err
		} else if !present {
			c.leaves = true
		}
		c.data[name] = a.Value
	}
	return c, nil
}

// deriveKey appends the change of key d: none when the update sets none
// of its data, unless together (a key that reads no data is set with the
// others).
func deriveKey(out []Op, b *keycodec.Index, d keycodec.DerivedKey, c keyChange, kc *keycodec.Ctx, keyOnly []string, together bool) ([]Op, error) {
	switch {
	case len(c.set) == 0 && !together:
		return out, nil
	case c.leaves:
		if err := losesKeyOnly(b, d, c, keyOnly); err != nil {
			return out, err
		}
		return append(out, Op{Kind: OpRemove, Path: d.Attr}), nil
	case len(c.missing) > 0:
		return out, fmt.Errorf("%w: the update sets %q but not %q, which together make index %s's key %s; set them all, or Put the whole item", errs.ErrInvalidOption, c.set, c.missing, b.Name, d.Attr)
	}
	v, _, err := b.KeyValue(d.Sort, c.data, kc)
	if err != nil {
		return out, err
	}
	return append(out, Op{Kind: OpSet, Path: d.Attr, Value: v}), nil
}

// losesKeyOnly: removing key d would lose a keyOnly value only it holds.
func losesKeyOnly(b *keycodec.Index, d keycodec.DerivedKey, c keyChange, keyOnly []string) error {
	if i := slices.IndexFunc(c.missing, func(n string) bool { return slices.Contains(keyOnly, n) }); i >= 0 {
		return fmt.Errorf("%w: the update empties %q, which with %q makes index %s's key %s; %q is kept only inside keys, and the item may hold no other key with it: write the item anew (Replace)", errs.ErrKeyAttribute, c.set, c.missing[i], b.Name, d.Attr, c.missing[i])
	}
	return nil
}

// deriveTogether appends the changes of b's keys, written all or none:
// none when no key's data is touched; all removed when one's is emptied;
// else all set, which needs every key's data set by the update (or none
// read), since the stored item's other data is unknown.
func deriveTogether(out []Op, b *keycodec.Index, keys []keycodec.DerivedKey, changed []keyChange, kc *keycodec.Ctx, keyOnly []string) ([]Op, error) {
	touched := slices.IndexFunc(changed, func(c keyChange) bool { return len(c.set) > 0 })
	if touched < 0 {
		return out, nil
	}
	if slices.ContainsFunc(changed, func(c keyChange) bool { return c.leaves }) {
		for k, d := range keys {
			if err := losesKeyOnly(b, d, changed[k], keyOnly); err != nil {
				return out, err
			}
		}
		for _, d := range keys {
			out = append(out, Op{Kind: OpRemove, Path: d.Attr})
		}
		return out, nil
	}
	for k, d := range keys {
		c := changed[k]
		if len(c.set) == 0 && len(c.missing) > 0 {
			return out, fmt.Errorf("%w: index %s keeps its keys together, and the update sets %q for its key %s but not %q for its key %s, "+
				"so whether the item carries %s is unknown; set them too, or Put the whole item", errs.ErrInvalidOption, b.Name, changed[touched].set, keys[touched].Attr, c.missing, d.Attr, d.Attr)
		}
		var err error
		if out, err = deriveKey(out, b, d, c, kc, keyOnly, true); err != nil {
			return out, err
		}
	}
	return out, nil
}
