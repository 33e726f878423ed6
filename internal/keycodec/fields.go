package keycodec

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/errs"
)

// Item is an item as the SDK holds it.
type Item = map[string]types.AttributeValue

// Fields is how an Entity's keys relate to the attributes of its Go type
// T ([BindFields]).
type Fields struct {
	// Types[i] is the type ("S" or "N") of T's attribute named like key
	// field i, "" where T has none; nil when T has no key field.
	Types   []string
	goTypes []reflect.Type // the Go type of Types[i]'s field
	KeyOnly []KeyOnly
}

// KeyOnly is an attribute of T stored only inside keys: a table key field
// (field ≥ 0), or a value parsed back from index keys.
type KeyOnly struct {
	name  string
	typ   string // "S" or "N"
	field int    // the key field it is, or -1
	// holders are the index keys whose templates hold it and parse back
	// (field < 0), in index order: a write must write one
	// ([Fields.Unwritten]); a read parses the first it can.
	holders []holder
}

type holder struct {
	attr  string
	parts []Part   // the template, for errors
	key   Spelling // the template compiled, a shard suffix last if any
	at    int      // the value's place in the ids key parses into
}

// BindFields links an entity's key fields and index templates to rt's
// attributes (named under struct tag key tag); keyOnly names those kept
// only inside keys.
func BindFields(rt reflect.Type, tag string, fields []string, indexes []Index, keyOnly []string) (Fields, error) {
	var d Fields
	declared := map[string]ddbitem.GoAttr{}
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	attrs, _ := ddbitem.Of(rt, tag)
	for _, a := range attrs {
		declared[a.Name] = a
	}
	for i, f := range fields {
		a, ok := declared[f]
		if !ok {
			continue
		}
		typ := a.DynamoType
		if typ != "S" && typ != "N" {
			return d, fmt.Errorf("%w: attribute %q of %s is key field {%s}, and is %s: want a string or a number", errs.ErrInvalidOption, f, rt, f, typ)
		}
		if d.Types == nil {
			d.Types = make([]string, len(fields))
			d.goTypes = make([]reflect.Type, len(fields))
		}
		d.Types[i], d.goTypes[i] = typ, a.Type
	}
	for _, name := range keyOnly {
		a, ok := declared[name]
		typ := a.DynamoType
		switch {
		case !ok:
			return d, fmt.Errorf("%w: KeyOnly %q: %s declares no such attribute", errs.ErrInvalidOption, name, rt)
		case typ != "S" && typ != "N":
			return d, fmt.Errorf("%w: KeyOnly %q is %s: a key holds strings and numbers only", errs.ErrInvalidOption, name, typ)
		case d.KeyOnlyIn(name):
			return d, fmt.Errorf("%w: KeyOnly %q given twice", errs.ErrInvalidOption, name)
		}
		k := KeyOnly{name: name, typ: typ, field: slices.Index(fields, name)}
		if k.field < 0 {
			var err error
			if k, err = k.inIndex(indexes); err != nil {
				return d, err
			}
		}
		d.KeyOnly = append(d.KeyOnly, k)
	}
	return d, nil
}

// inIndex finds the index key templates that hold k: the first must
// parse back (every variable part ends the key or is followed by '#'),
// and those after it that parse back are read too.
func (k KeyOnly) inIndex(indexes []Index) (KeyOnly, error) {
	for i := range indexes {
		b := &indexes[i]
		pk := b.PKC
		if b.Shards > 0 {
			pk = pk.Then(ShardSuffix(-1, 0))
		}
		for _, key := range [...]holder{{b.PKAttr, b.PK, pk, 0}, {b.SKAttr, b.SK, b.SKC, 0}} {
			key.at = slices.IndexFunc(key.key, func(p spelled) bool { return p.kind == attr && p.text == k.name })
			if key.attr == "" || (b.Local && key.attr == b.PKAttr) || key.at < 0 {
				continue
			}
			key.at = key.key[key.at].field
			if !parsesBack(key.parts) {
				if len(k.holders) > 0 {
					continue
				}
				return k, fmt.Errorf("%w: KeyOnly %q: index %s's key %s must have '#' after each variable part, so that %s parses back from it",
					errs.ErrInvalidOption, k.name, b.Name, String(key.parts), k.name)
			}
			k.holders = append(k.holders, key)
		}
	}
	if len(k.holders) == 0 {
		return k, fmt.Errorf("%w: KeyOnly %q is in no key template of the entity: its value would be lost", errs.ErrInvalidOption, k.name)
	}
	return k, nil
}

func parsesBack(parts []Part) bool {
	for j, p := range parts {
		if p.Variable() && j+1 < len(parts) && !strings.HasPrefix(parts[j+1].Text, "#") {
			return false
		}
	}
	return true
}

// refusedKey is adjlist's *KeyError for name, id and reason.
func refusedKey(name, id, reason string) error {
	return &Error{Name: name, ID: id, Reason: reason}
}

// stored refuses the ids of number key fields that DynamoDB would store
// as another text (007 as 7) than the keys hold: the item's attribute and
// keys would disagree (adjlist's FindingKeyMismatch), and a Replace of the
// value Get read would write another key.
func (d *Fields) stored(name string, fields []string, ids []string) error {
	for i, typ := range d.Types {
		if typ != "N" {
			continue
		}
		if !StoredNumber(ids[i]) {
			return refusedKey(name, ids[i], fmt.Sprintf("%s is a number attribute, which DynamoDB stores without a sign +, an exponent, leading zeros or trailing fractional zeros, in at most 38 digits: the keys would hold another text than the attribute", fields[i]))
		}
		if !fitsGo(d.goTypes[i], ids[i]) {
			return refusedKey(name, ids[i], fmt.Sprintf("%s is a %s, which cannot hold it: a read would not give it back", fields[i], d.goTypes[i]))
		}
	}
	return nil
}

// IDs returns the ids of marshalled item: those given, each checked
// against its key field's attribute (set to the id where empty), or else
// the data's own. A disagreement, a key field neither gives, or a number
// id DynamoDB would store as another text is a *KeyError.
func (d *Fields) IDs(name string, fields []string, ids []string, item Item) ([]string, error) {
	if d.Types == nil {
		return ids, nil
	}
	if len(ids) == 0 {
		out := make([]string, len(fields))
		for i, f := range fields {
			v, ok := keyValueText(item[f])
			if d.Types[i] == "" || !ok {
				return nil, refusedKey(name, f, fmt.Sprintf("no ids given, and the data holds no %s", f))
			}
			out[i] = v
		}
		return out, d.stored(name, fields, out)
	}
	if len(ids) != len(fields) {
		return ids, nil // Key says how many it wants
	}
	for i, f := range fields {
		if d.Types[i] == "" {
			continue
		}
		v, ok := keyValueText(item[f])
		switch {
		case ok && v != ids[i]:
			return nil, refusedKey(name, ids[i], fmt.Sprintf("the id given for %s differs from the data's %s %q", f, f, v))
		case !ok:
			av, isNum := typedKeyValue(d.Types[i], ids[i])
			if !isNum {
				return nil, refusedKey(name, ids[i], fmt.Sprintf("%s is a number attribute", f))
			}
			item[f] = av
		}
	}
	return ids, d.stored(name, fields, ids)
}

// Drop removes key-only attributes once the keys are rendered.
func (d *Fields) Drop(item Item) {
	for _, k := range d.KeyOnly {
		delete(item, k.name)
	}
}

// Unwritten refuses item, built with its keys, when a key-only value's
// every holder was left out (sparse): the write would lose the value.
func (d *Fields) Unwritten(item Item) error {
	written := func(h holder) bool { return item[h.attr] != nil }
	for _, k := range d.KeyOnly {
		if v, ok := keyValueText(item[k.name]); ok && k.field < 0 && !slices.ContainsFunc(k.holders, written) {
			attrs := make([]string, len(k.holders))
			for i, h := range k.holders {
				attrs[i] = h.attr
			}
			return refusedKey(k.holders[0].attr, v, fmt.Sprintf("%s is kept only inside index keys the data leaves out (%s: another of their values is empty): %s would be lost", k.name, strings.Join(attrs, ", "), k.name))
		}
	}
	return nil
}

// KeepHolders adds to want (item's derived keys) each key of item holding
// a key-only value that item's other values no longer make (another
// program removed one), so that Verify, Repair and Migrate keep the value.
func (d *Fields) KeepHolders(item Item, want []ddbitem.Attr) []ddbitem.Attr {
	for _, k := range d.KeyOnly {
		if k.field >= 0 || item[k.name] != nil {
			continue
		}
		for i := range k.holders {
			h := &k.holders[i]
			if _, ok := ddbitem.Attrs(want).Get(h.attr); ok {
				continue
			}
			if text, ok := h.parse(item); ok && text != "" {
				stored, _ := ddbitem.String(item, h.attr)
				want = append(want, ddbitem.Attr{Name: h.attr, Value: stored})
			}
		}
	}
	return want
}

// UnreadError is an item whose key-only value is only in an index key its
// template cannot parse back (written under another template: GSI1SK
// "2026-01-01" by "{date}", read by "D#{date}"). Reads return it rather
// than lose the value; Migrate lists the item, Verify calls it undecodable.
type UnreadError struct {
	PK, SK string // the item's table keys
	Err    error  // adjlist's *KeyError: the key, its value, the template
}

func (e *UnreadError) Error() string { return e.Err.Error() }
func (e *UnreadError) Unwrap() error { return e.Err }

// Unreadable is the [*UnreadError] of item (table keys pkAttr, skAttr)
// for its first key-only value that a key present holds but none parses
// back; nil when every such value is read or in no key item holds.
func (d *Fields) Unreadable(item Item, pkAttr, skAttr string) error {
	for _, k := range d.KeyOnly {
		if k.field >= 0 || item[k.name] != nil {
			continue
		}
		if _, read := k.parse(item); read {
			continue
		}
		for i := range k.holders {
			h := &k.holders[i]
			if have, present := ddbitem.String(item, h.attr); present || item[h.attr] != nil {
				pk, _ := ddbitem.String(item, pkAttr)
				sk, _ := ddbitem.String(item, skAttr)
				return &UnreadError{PK: pk, SK: sk, Err: refusedKey(h.attr, have,
					fmt.Sprintf("%s is kept only inside this key, which its template %s cannot parse back: rewriting the key would lose %s", k.name, String(h.parts), k.name))}
			}
		}
	}
	return nil
}

// Fill sets in item, read with ids, the attributes its keys hold and it
// lacks.
func (d *Fields) Fill(fields []string, ids []string, item Item) {
	for i, typ := range d.Types {
		if typ != "" && item[fields[i]] == nil {
			if av, ok := typedKeyValue(typ, ids[i]); ok {
				item[fields[i]] = av
			}
		}
	}
	for _, k := range d.KeyOnly {
		if k.field >= 0 || item[k.name] != nil {
			continue
		}
		if text, ok := k.parse(item); ok {
			if av, ok := typedKeyValue(k.typ, text); ok {
				item[k.name] = av
			}
		}
	}
}

// parse reads k's value from the first holder that parses back.
func (k *KeyOnly) parse(item Item) (string, bool) {
	for i := range k.holders {
		if text, ok := k.holders[i].parse(item); ok {
			return text, true
		}
	}
	return "", false
}

// parse reads h's value from item; ok is false unless the whole key
// parses, which one written under another template may not.
func (h *holder) parse(item Item) (text string, ok bool) {
	key, ok := ddbitem.String(item, h.attr)
	if !ok {
		return "", false
	}
	var buf [8]string // no allocation for the ids of most templates
	ids := buf[:]
	if n := h.key.Fields(); n > len(buf) {
		ids = make([]string, n)
	}
	if !h.key.Parse(key, ids) {
		return "", false
	}
	return ids[h.at], true
}

// KeyOnlyIn reports whether attribute name is kept only inside keys.
func (d *Fields) KeyOnlyIn(name string) bool {
	return slices.ContainsFunc(d.KeyOnly, func(k KeyOnly) bool { return k.name == name })
}

// Names are the attributes of T the keys hold.
func (d *Fields) Names(fields []string) []string {
	var out []string
	for i, typ := range d.Types {
		if typ != "" {
			out = append(out, fields[i])
		}
	}
	for _, k := range d.KeyOnly {
		if k.field < 0 {
			out = append(out, k.name)
		}
	}
	return out
}

// Mismatch reports the first key field whose attribute in item differs
// from its id (adjlist's FindingKeyMismatch).
func (d *Fields) Mismatch(fields []string, ids []string, item Item) (attr, have, want string, ok bool) {
	for i, typ := range d.Types {
		if typ == "" {
			continue
		}
		if v, ok := keyValueText(item[fields[i]]); ok && v != ids[i] {
			return fields[i], v, ids[i], true
		}
	}
	return "", "", "", false
}
