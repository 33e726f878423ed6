package adjlist

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/goattrs"
	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/migration"
)

// dataFields is how an [Entity]'s keys relate to the attributes of its Go
// type: a key field T declares is the item's own value, taken from the
// data on a write and filled in from the keys on a read, so that a design
// whose key parts are attributes too is written and read with the item
// alone; an attribute kept only inside keys ([EntityOptions].KeyOnly) is
// parsed back from the key that holds it.
type dataFields struct {
	// types[i] is the DynamoDB type ("S" or "N") of T's attribute named
	// like key field i, "" where T declares none (its id is given); nil
	// when T declares no key field.
	types []string
	// goTypes[i] is the Go type of T's field for key field i, beside
	// types[i].
	goTypes []reflect.Type
	// keyOnly are T's attributes stored only inside keys.
	keyOnly []keyOnlyAttr
}

// keyOnlyAttr is one attribute of T stored only inside keys: a table key
// field (field ≥ 0), or a value of an index key template, parsed back from
// that index key attribute.
type keyOnlyAttr struct {
	name  string
	typ   string // "S" or "N"
	field int    // the key field it is, or -1
	parts []keycodec.Part
	attr  string // the index key attribute that holds it (field < 0)
	shard bool   // attr ends with a shard suffix ("#07")
}

// bindDataFields links the key fields and the index templates of an
// entity with key fields fields and derived index keys indexes to rt's
// attributes (named as the encoder with struct tag key tag names them),
// keyOnly naming those kept only inside keys.
func bindDataFields(rt reflect.Type, tag string, fields []string, indexes []boundIndex, keyOnly []string) (dataFields, error) {
	var d dataFields
	declared := map[string]goattrs.Attr{}
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	attrs, _ := goattrs.Of(rt, tag)
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
			return d, fmt.Errorf("%w: attribute %q of %s is key field {%s}, and is %s: want a string or a number", ErrInvalidOption, f, rt, f, typ)
		}
		if d.types == nil {
			d.types = make([]string, len(fields))
			d.goTypes = make([]reflect.Type, len(fields))
		}
		d.types[i], d.goTypes[i] = typ, a.Type
	}
	for _, name := range keyOnly {
		a, ok := declared[name]
		typ := a.DynamoType
		switch {
		case !ok:
			return d, fmt.Errorf("%w: KeyOnly %q: %s declares no such attribute", ErrInvalidOption, name, rt)
		case typ != "S" && typ != "N":
			return d, fmt.Errorf("%w: KeyOnly %q is %s: a key holds strings and numbers only", ErrInvalidOption, name, typ)
		case slices.ContainsFunc(d.keyOnly, func(k keyOnlyAttr) bool { return k.name == name }):
			return d, fmt.Errorf("%w: KeyOnly %q given twice", ErrInvalidOption, name)
		}
		k := keyOnlyAttr{name: name, typ: typ, field: slices.Index(fields, name)}
		if k.field < 0 {
			var err error
			if k, err = k.inIndex(indexes); err != nil {
				return d, err
			}
		}
		d.keyOnly = append(d.keyOnly, k)
	}
	return d, nil
}

// inIndex finds the index key template that holds k, which must parse
// back: every variable part ends the key or is followed by '#'.
func (k keyOnlyAttr) inIndex(indexes []boundIndex) (keyOnlyAttr, error) {
	for i := range indexes {
		b := &indexes[i]
		for _, key := range [...]struct {
			attr  string
			parts []keycodec.Part
			shard bool
		}{{b.pkAttr, b.pk, b.shards > 0}, {b.skAttr, b.sk, false}} {
			if key.attr == "" || (b.ix.Local && key.attr == b.pkAttr) || !slices.ContainsFunc(key.parts, func(p keycodec.Part) bool { return p.Kind == keycodec.Attr && p.Text == k.name }) {
				continue
			}
			for j, p := range key.parts {
				if p.Variable() && j+1 < len(key.parts) && !strings.HasPrefix(key.parts[j+1].Text, "#") {
					return k, fmt.Errorf("%w: KeyOnly %q: index %s's key %s must have '#' after each variable part, so that %s parses back from it",
						ErrInvalidOption, k.name, b.ix.Name, keycodec.String(key.parts), k.name)
				}
			}
			k.parts, k.attr, k.shard = key.parts, key.attr, key.shard
			return k, nil
		}
	}
	return k, fmt.Errorf("%w: KeyOnly %q is in no key template of the entity: its value would be lost", ErrInvalidOption, k.name)
}

// keyValueText is the text a key holds for attribute value av: a non-empty
// string, or a number; ok is false for any other value.
func keyValueText(av types.AttributeValue) (string, bool) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value, v.Value != ""
	case *types.AttributeValueMemberN:
		return v.Value, true
	}
	return "", false
}

// typedKeyValue is text read from a key as an attribute of DynamoDB type typ
// ("S" or "N"); ok is false for a number that is not one.
func typedKeyValue(typ, text string) (types.AttributeValue, bool) {
	if typ == "N" {
		// Decimal text only: ParseFloat also takes "NaN", "Inf", hex and
		// '_', which DynamoDB refuses as numbers.
		if _, err := strconv.ParseFloat(text, 64); err != nil || strings.ContainsAny(text, "xXpPnNiI_") {
			return nil, false
		}
		return &types.AttributeValueMemberN{Value: text}, true
	}
	return &types.AttributeValueMemberS{Value: text}, true
}

// stored refuses the ids of number key fields that DynamoDB would store
// as another text (007 as 7) than the keys hold: the item's attribute and
// keys would disagree ([FindingKeyMismatch]), and a Replace of the value
// Get read would write another key.
func (d *dataFields) stored(name string, fields []string, ids IDs) error {
	for i, typ := range d.types {
		if typ != "N" {
			continue
		}
		if !storedNumber(ids[i]) {
			return &KeyError{Name: name, ID: ids[i], Reason: fmt.Sprintf("%s is a number attribute, which DynamoDB stores without a sign +, an exponent, leading zeros or trailing fractional zeros: the keys would hold another text than the attribute", fields[i])}
		}
		if !fitsGo(d.goTypes[i], ids[i]) {
			return &KeyError{Name: name, ID: ids[i], Reason: fmt.Sprintf("%s is a %s, which cannot hold it: a read could not decode the item", fields[i], d.goTypes[i])}
		}
	}
	return nil
}

// fitsGo reports whether number text decodes into a field of Go type t:
// an integer kind takes a whole number in its range, a float32 one in
// its range; other types (float64, json.Number) take any.
func fitsGo(t reflect.Type, text string) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var err error
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		_, err = strconv.ParseInt(text, 10, t.Bits())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		_, err = strconv.ParseUint(text, 10, t.Bits())
	case reflect.Float32:
		_, err = strconv.ParseFloat(text, 32)
	}
	return err == nil
}

// storedNumber reports whether decimal text is a number as DynamoDB
// stores and returns it: an optional '-', an integer part without leading
// zeros, and a fraction without trailing zeros ("-12.5", not "+12.50",
// "012.5", "1.25e1" or "-0").
func storedNumber(text string) bool {
	s, neg := strings.CutPrefix(text, "-")
	intPart, frac, hasFrac := strings.Cut(s, ".")
	digits := func(p string) bool {
		return p != "" && strings.Trim(p, "0123456789") == ""
	}
	switch {
	case !digits(intPart) || len(intPart) > 1 && intPart[0] == '0':
		return false
	case hasFrac && (!digits(frac) || strings.HasSuffix(frac, "0")):
		return false
	}
	return !neg || s != "0"
}

// ids returns the ids of the item whose marshalled data is item: the ids
// given, each checked against the data's attribute of its key field (an
// attribute the data leaves empty is set to the id), or, when none are
// given, the data's own. A disagreement, a key field neither gives, or a
// number id DynamoDB would store as another text ([dataFields.stored]) is
// a *KeyError ([ErrInvalidKey]).
func (d *dataFields) ids(name string, fields []string, ids IDs, item Item) (IDs, error) {
	if d.types == nil {
		return ids, nil
	}
	if len(ids) == 0 {
		out := make(IDs, len(fields))
		for i, f := range fields {
			v, ok := keyValueText(item[f])
			if d.types[i] == "" || !ok {
				return nil, &KeyError{Name: name, ID: f, Reason: fmt.Sprintf("no ids given, and the data holds no %s", f)}
			}
			out[i] = v
		}
		return out, d.stored(name, fields, out)
	}
	if len(ids) != len(fields) {
		return ids, nil // Key says how many it wants
	}
	for i, f := range fields {
		if d.types[i] == "" {
			continue
		}
		v, ok := keyValueText(item[f])
		switch {
		case ok && v != ids[i]:
			return nil, &KeyError{Name: name, ID: ids[i], Reason: fmt.Sprintf("the id given for %s differs from the data's %s %q", f, f, v)}
		case !ok:
			av, isNum := typedKeyValue(d.types[i], ids[i])
			if !isNum {
				return nil, &KeyError{Name: name, ID: ids[i], Reason: fmt.Sprintf("%s is a number attribute", f)}
			}
			item[f] = av
		}
	}
	return ids, d.stored(name, fields, ids)
}

// drop removes from a written item the attributes kept only inside keys,
// once its keys are rendered.
func (d *dataFields) drop(item Item) {
	for _, k := range d.keyOnly {
		delete(item, k.name)
	}
}

// unwritten refuses item, built with its keys, when it holds a value kept
// only inside an index key that it was built without (a sparse key whose
// other values are empty): the write would lose the value.
func (d *dataFields) unwritten(item Item) error {
	for _, k := range d.keyOnly {
		if v, ok := keyValueText(item[k.name]); ok && k.field < 0 && item[k.attr] == nil {
			return &KeyError{Name: k.attr, ID: v, Reason: fmt.Sprintf("%s is kept only inside this key, which the data leaves out (another value of it is empty): %s would be lost", k.name, k.name)}
		}
	}
	return nil
}

// keepHolders adds to want, the derived index keys of item, each index
// key of item that alone holds a value kept only inside keys and that
// item's other values no longer make (a sparse key whose other value
// another program removed): Verify, Repair and Migrate then keep it, and
// the value, instead of removing it.
func (d *dataFields) keepHolders(item Item, want keyAttrs) keyAttrs {
	for _, k := range d.keyOnly {
		if k.field >= 0 || item[k.name] != nil {
			continue
		}
		if _, ok := want.get(k.attr); ok {
			continue
		}
		if text, ok := k.parse(item); ok && text != "" {
			stored, _ := stringAttr(item, k.attr)
			want = append(want, migration.Attr{Name: k.attr, Value: stored})
		}
	}
	return want
}

// held is h, what an item of the entity may hold, less the attributes
// kept only inside keys: a write leaves them out, so an item holding one
// loses it on a Replace ([FindingUndeclaredAttribute]).
func (d *dataFields) held(h held) held {
	if h.set == nil || len(d.keyOnly) == 0 {
		return h
	}
	out := held{set: make(map[string]bool, len(h.set))}
	for _, name := range h.names {
		if !d.keyOnlyIn(name) {
			out.set[name] = true
			out.names = append(out.names, name)
		}
	}
	return out
}

// fill sets in item, read with ids, the attributes of T that its keys
// hold and it lacks: key fields from ids, index key values parsed from
// the index key attributes it carries.
func (d *dataFields) fill(fields []string, ids []string, item Item) {
	for i, typ := range d.types {
		if typ != "" && item[fields[i]] == nil {
			if av, ok := typedKeyValue(typ, ids[i]); ok {
				item[fields[i]] = av
			}
		}
	}
	for _, k := range d.keyOnly {
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

// parse reads k's value from the index key attribute that holds it.
func (k *keyOnlyAttr) parse(item Item) (string, bool) {
	key, ok := stringAttr(item, k.attr)
	if !ok {
		return "", false
	}
	if k.shard {
		i := strings.LastIndexByte(key, keycodec.Sep)
		if i < 0 {
			return "", false
		}
		key = key[:i]
	}
	for i, p := range k.parts {
		if !p.Variable() {
			if key, ok = strings.CutPrefix(key, p.Text); !ok {
				return "", false
			}
			continue
		}
		end := len(key)
		if i+1 < len(k.parts) {
			if end = strings.IndexByte(key, keycodec.Sep); end < 0 {
				return "", false
			}
		}
		if p.Kind == keycodec.Attr && p.Text == k.name {
			text := key[:end]
			if k.typ == "S" {
				var err error
				if text, err = keycodec.Unescape(text); err != nil {
					return "", false
				}
			}
			return text, true
		}
		key = key[end:]
	}
	return "", false
}

// keyOnlyIn reports whether the entity keeps attribute name only inside
// keys.
func (d *dataFields) keyOnlyIn(name string) bool {
	return slices.ContainsFunc(d.keyOnly, func(k keyOnlyAttr) bool { return k.name == name })
}

// names are the attributes of T the keys hold: the key fields T
// declares, and those kept only inside keys.
func (d *dataFields) names(fields []string) []string {
	var out []string
	for i, typ := range d.types {
		if typ != "" {
			out = append(out, fields[i])
		}
	}
	for _, k := range d.keyOnly {
		if k.field < 0 {
			out = append(out, k.name)
		}
	}
	return out
}

// keyMismatch is Verify's check failing on an entity item whose
// attribute of a key field differs from the id its keys hold
// ([FindingKeyMismatch]).
type keyMismatch struct{ attr, have, want string }

func (e *keyMismatch) Error() string {
	return fmt.Sprintf("adjlist: attribute %s is %q, its keys hold %q", e.attr, e.have, e.want)
}

// mismatch reports the first key field of item (read with ids) whose
// attribute differs from its id.
func (d *dataFields) mismatch(fields []string, ids []string, item Item) error {
	for i, typ := range d.types {
		if typ == "" {
			continue
		}
		if v, ok := keyValueText(item[fields[i]]); ok && v != ids[i] {
			return &keyMismatch{attr: fields[i], have: v, want: ids[i]}
		}
	}
	return nil
}
