package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/keycodec"
)

// binder spells one entity's keys.
type binder struct {
	t      *table
	e      *entity
	all    []*entity
	stored []string // the attributes the entity's items store, in order
}

// keySpec is one key attribute of an entity to spell.
type keySpec struct {
	attr  string   // the key attribute, e.g. "PK", "GSI1-SK"
	vals  []string // its value on each of the entity's items; "" where absent
	alias string   // the facet's key alias, if any
	index string   // the index it keys; "" for the table's keys
}

// where names the key in messages: "PK" or "GSI1's GSI1-SK".
func (k keySpec) where() string {
	if k.index == "" || k.index == k.attr {
		return k.attr
	}
	return k.index + "'s " + k.attr
}

// hint is what a facet's key alias says of one part of a key.
type hint struct {
	lit   bool   // the part is literal text
	isVar bool   // the part varies
	name  string // its name, if the alias gives one
}

// spell infers e's table key templates, and its keys in every
// derived-key index its items have.
func (t *table) spell(e *entity, all []*entity) error {
	b := &binder{t: t, e: e, all: all, stored: t.storedAttrs(e)}
	pks, sks := make([]string, len(e.items)), make([]string, len(e.items))
	for i, it := range e.items {
		pks[i], sks[i] = it.pk, it.sk
	}
	if len(e.items) == 1 {
		defer func() {
			e.notes = append(e.notes, fmt.Sprintf("%s has one sample item, %s, from which its keys are read alone: %s / %s",
				e.name, itemList(e.items), template(e.pk), template(e.sk)))
		}()
	}
	var err error
	if t.pkN {
		e.pk = b.numberKey(t.pk, pks)
	} else if e.pk, err = b.key(keySpec{attr: t.pk, vals: pks, alias: e.alias(t, 0)}); err != nil {
		return badInput("table %s, item type %s: %v", t.name, e.name, err)
	}
	if t.skN {
		e.sk = b.numberKey(t.sk, sks)
	} else if e.sk, err = b.key(keySpec{attr: t.sk, vals: sks, alias: e.alias(t, 1)}); err != nil {
		return badInput("table %s, item type %s: %v", t.name, e.name, err)
	}
	for _, ix := range t.indexes {
		if !ix.derived {
			continue
		}
		pv, sv := make([]string, len(e.items)), make([]string, len(e.items))
		var hasPK, hasSK bool
		for i, it := range e.items {
			if s, ok := it.av[ix.pk].(*types.AttributeValueMemberS); ok {
				pv[i], hasPK = s.Value, true
			}
			if s, ok := it.av[ix.sk].(*types.AttributeValueMemberS); ok && ix.sk != "" {
				sv[i], hasSK = s.Value, true
			}
		}
		if ix.local {
			hasPK = hasSK // its partition key is the table's: an item is in it with the sort key
		}
		switch {
		case !hasPK && !hasSK:
			continue
		case !hasPK:
			return &flipIndex{ix, fmt.Sprintf("items of %s have %s but no %s", e.name, ix.sk, ix.pk)}
		case ix.sk != "" && !hasSK:
			return &flipIndex{ix, fmt.Sprintf("items of %s have %s but no %s", e.name, ix.pk, ix.sk)}
		}
		k := &ixKeys{ix: ix}
		if ix.local {
			k.pk = e.pk // the table's partition key
		} else if k.pk, err = b.key(keySpec{attr: ix.pk, vals: pv, index: ix.name}); err != nil {
			return &flipIndex{ix, fmt.Sprintf("item type %s: %v", e.name, err)}
		}
		if ix.sk != "" {
			if k.sk, err = b.key(keySpec{attr: ix.sk, vals: sv, index: ix.name}); err != nil {
				return &flipIndex{ix, fmt.Sprintf("item type %s: %v", e.name, err)}
			}
		}
		e.indexes = append(e.indexes, k)
	}
	return nil
}

// numberKey spells the number table key attr, whose values on b's items
// are vals: one {field}, as adjlist takes a number key. The field is the
// items' own number attribute holding the key's value on every item, else
// one kept only in the keys, named after the key attribute ("idKey" of
// id, on orders and their lines alike; "versionKey" of version) and typed
// by the values (typeData).
func (b *binder) numberKey(attr string, vals []string) []tpart {
	for _, a := range b.stored {
		holds := true
		for i, it := range b.e.items {
			if n, ok := it.av[a].(*types.AttributeValueMemberN); !ok || n.Value != vals[i] {
				holds = false
				break
			}
		}
		if holds {
			return []tpart{{v: b.storedVar(a)}}
		}
	}
	for _, v := range b.e.vars {
		if v.num && slices.Equal(v.vals, vals) {
			return []tpart{{v: v}} // both keys hold the same number
		}
	}
	// The key attribute names the field, whatever the item type: a
	// line's id is its order's. adjlist refuses a field of the key
	// attribute's own name (ErrKeyAttribute), hence "Key".
	name := strings.NewReplacer("-", "", ".", "").Replace(lowerFirst(sanitizeName(attr, "key")) + "Key")
	used := map[string]bool{}
	for _, a := range slices.Concat(b.t.attrNames(b.e.items), []string{b.t.pk, b.t.sk}, sortedKeys(b.t.derived)) {
		used[strings.ToLower(a)] = true
	}
	for _, v := range b.e.vars {
		used[strings.ToLower(v.name)] = true
	}
	v := &kvar{name: uniqueName(name, used), vals: slices.Clone(vals), num: true,
		how: "kept only in the keys; the table's number key " + attr}
	b.e.vars = append(b.e.vars, v)
	return []tpart{{v: v}}
}

// alias is e's facet's alias of its partition (n 0) or sort key (n 1).
func (e *entity) alias(t *table, n int) string {
	if len(e.items) == 0 || len(e.items[0].facets) == 0 {
		return ""
	}
	f := t.facets[e.items[0].facets[0]]
	if n == 0 {
		return f.KeyAttributeAlias.PartitionKeyAlias
	}
	return f.KeyAttributeAlias.SortKeyAlias
}

// storedAttrs lists the data attributes e's items hold, in the model's
// order.
func (t *table) storedAttrs(e *entity) []string {
	var out []string
	for _, a := range t.attrNames(e.items) {
		if a != t.pk && a != t.sk && !t.derived[a] {
			out = append(out, a)
		}
	}
	return out
}

// key spells one key of b's entity: its values split at '#', each part
// literal text where it reads as such, else a {name}: the item's own
// attribute holding that value, a {name} already in the entity's keys
// holding it, or a new attribute kept only in the keys.
func (b *binder) key(k keySpec) ([]tpart, error) {
	e := b.e
	var present []int
	for i, v := range k.vals {
		if v != "" {
			present = append(present, i)
		}
	}
	if len(present) == 0 {
		return nil, nil
	}
	n := -1
	var cols [][]string
	for _, i := range present {
		segs := strings.Split(k.vals[i], "#")
		if n < 0 {
			n = len(segs)
			cols = make([][]string, n)
			for j := range cols {
				cols[j] = make([]string, len(e.items))
			}
		}
		if len(segs) != n {
			return nil, fmt.Errorf("%s %q (%s) and %q (%s) have different numbers of '#'-separated parts", k.where(),
				k.vals[present[0]], e.items[present[0]].where, k.vals[i], e.items[i].where)
		}
		for j, s := range segs {
			cols[j][i] = s
		}
	}
	hints, named := aliasHints(k, cols, present)
	mark, marked := len(e.vars), len(e.notes)
	parts, fresh, starts, err := b.keyPass(k, cols, present, hints)
	if err == nil && len(named) > 0 && len(named) == len(fresh) {
		// The alias names the key's ids in order ("SubId#SKU" for
		// SUB#123#SKU#999): spell it again with those names.
		for i, j := range fresh {
			hints[j] = hint{isVar: true, name: named[i]}
		}
		e.vars, e.notes = e.vars[:mark], e.notes[:marked]
		parts, _, starts, err = b.keyPass(k, cols, present, hints)
	}
	if err != nil {
		return nil, err
	}
	if len(present) < len(e.items) && slices.ContainsFunc(parts, func(p tpart) bool { return p.v != nil && b.only(p.v, present) }) {
		b.partial(k, present)
	}
	if len(present) < len(e.items) && !slices.ContainsFunc(parts, func(p tpart) bool { return p.v != nil && b.only(p.v, present) }) {
		// A key that only some items have needs a part only they have,
		// so that adjlist writes it on them alone: its last part becomes
		// an attribute of its own, empty on the others.
		u := make([]string, len(e.items))
		for _, i := range present {
			v, err := keycodec.Unescape(cols[n-1][i])
			if err != nil || v == "" {
				return nil, fmt.Errorf("%s is on some items only (%s), and its last part %q cannot be an id", k.where(), itemList(b.having(present)), cols[n-1][i])
			}
			u[i] = v
		}
		v := b.newVar(k, n-1, u, present, "", "", hint{}, true)
		v.how += fmt.Sprintf("; present exactly on the items that have %s", k.attr)
		b.partial(k, present)
		parts = append(parts[:starts[n-1]], tpart{v: v})
	}
	return mergeLits(parts), nil
}

// partial notes a key that only some of the entity's items have.
func (b *binder) partial(k keySpec, present []int) {
	var without []*item
	for i, it := range b.e.items {
		if !slices.Contains(present, i) {
			without = append(without, it)
		}
	}
	b.e.notes = append(b.e.notes, fmt.Sprintf("%s: %s is on %d of its %d items, not on %s: its templates name attributes only those items have, so that adjlist writes it on them alone",
		b.e.name, k.where(), len(present), len(b.e.items), itemList(without)))
}

// having returns the items at present.
func (b *binder) having(present []int) []*item {
	out := make([]*item, len(present))
	for n, i := range present {
		out[n] = b.e.items[i]
	}
	return out
}

// only reports whether v has a value exactly on the items at present.
func (b *binder) only(v *kvar, present []int) bool {
	for i := range b.e.items {
		if (v.vals[i] != "") != slices.Contains(present, i) {
			return false
		}
	}
	return true
}

// keyPass spells the columns of a key once; fresh lists the columns that
// made a new attribute.
func (b *binder) keyPass(k keySpec, cols [][]string, present []int, hints []hint) (parts []tpart, fresh, starts []int, err error) {
	e := b.e
	cond := len(present) < len(e.items)
	prevLit := ""
	for j, col := range cols {
		if j > 0 {
			parts = append(parts, tpart{lit: "#"})
		}
		starts = append(starts, len(parts))
		c0 := col[present[0]]
		constant := true
		for _, i := range present {
			constant = constant && col[i] == c0
		}
		h := hints[j]
		isVar := !constant || b.t.looksVariable(c0, prevLit, h)
		if constant && isVar && !h.isVar && len(present) >= 2 && isKind(c0) {
			// A kind's name in capitals that every item agrees on is
			// text, though the text before it precedes values elsewhere
			// (ZR of VULN#ZR#false beside VULN#{id}).
			isVar = false
		}
		if constant && h.lit {
			// The facet's alias spells the part as the text every item
			// holds ("ACTION#all" of ACTION#all): the designer's text,
			// whatever the part looks like elsewhere in the keys.
			parts = append(parts, tpart{lit: c0})
			prevLit = c0
			continue
		}
		if constant && !isVar && k.index != "" {
			// An index key's constant part that is an attribute's value
			// on every item ("STATUS#PUBLISHED" with status PUBLISHED)
			// is that attribute: other items get their own value.
			if a := b.attrMatch(k, col, present, cond, true, hint{name: "-"}, prevLit); a != "" && len(c0) >= 3 {
				isVar = true
			}
		}
		if constant && !isVar && prevLit != "" && slices.ContainsFunc(e.vars, func(v *kvar) bool { return v.after == prevLit && b.sameValues(v, col, present, cond) }) {
			// A part holding an id of the keys on every item, after the
			// same text ("COURSE#Math" in an index key beside SK
			// COURSE#{to}), is that id.
			isVar = true
		}
		if constant && !isVar && strings.ContainsAny(c0, "{}") {
			isVar = true // template text cannot hold braces; an id can
		}
		if constant && !isVar && k.index != "" && len(present) == 1 && len(c0) >= 4 && !isKind(c0) && strings.ContainsFunc(c0, unicode.IsLower) && (j == 0 || j < len(cols)-1) {
			// An index key met on one item: its words other than a kind's
			// name ("arvinje" of arvinje#MEETINGS) are that item's values;
			// a word that ends the key names what it lists ("Meetings").
			isVar = true
			e.notes = append(e.notes, fmt.Sprintf("%s: %s is read from one sample item, %s (%s): its part %q is taken as a value of that item, not text every item's key repeats",
				e.name, k.where(), e.items[present[0]].where, k.vals[present[0]], c0))
		}
		if constant && !isVar && b.t.valueText[c0] && !isKind(c0) {
			isVar = true // a value elsewhere in the table's keys: USER#alice
		}
		if !isVar {
			parts = append(parts, tpart{lit: c0})
			prevLit = c0
			continue
		}
		u := make([]string, len(e.items))
		ok := true
		for _, i := range present {
			v, err := keycodec.Unescape(col[i])
			if err != nil || v == "" {
				ok = false
				break
			}
			u[i] = v
		}
		if !ok {
			if constant && !strings.ContainsAny(c0, "{}") {
				parts = append(parts, tpart{lit: c0})
				prevLit = c0
				continue
			}
			for _, i := range present {
				if _, err := keycodec.Unescape(col[i]); err != nil || col[i] == "" {
					return nil, nil, nil, fmt.Errorf("%s %q (%s): its part %q varies from item to item and cannot be an adjlist id, which never holds a raw '%%' other than the escapes %%23 and %%25 and is never empty (adopt the table with ids free of '%%')",
						k.where(), k.vals[i], e.items[i].where, col[i])
				}
			}
		}
		lit := prevLit
		prevLit = ""
		prefix, v, isNew, suffix := b.bind(k, j, u, present, constant, lit, h, cond)
		if prefix != "" {
			parts = append(parts, tpart{lit: prefix})
		}
		parts = append(parts, tpart{v: v})
		if suffix != "" {
			parts = append(parts, tpart{lit: suffix})
			prevLit = suffix
		}
		if isNew {
			fresh = append(fresh, j)
		}
	}
	return parts, fresh, starts, nil
}

// looksVariable reports whether a key part with the same text c on every
// item of a type is an id nonetheless: the alias says so, it follows a
// prefix that precedes many values in the table's keys ("u" in u#12345),
// it holds a digit, or it starts with a prefix such as "User:".
func (t *table) looksVariable(c, prevLit string, h hint) bool {
	switch {
	case h.lit:
		return false
	case h.isVar:
		return true
	case c == "":
		return false
	case strings.ContainsAny(c, "{}"):
		return true
	case prevLit != "" && len(t.followers[prevLit]) >= 2:
		return true
	case hasDigit(c), segmentPrefix(c) != "":
		return true
	}
	return false
}

// bind finds what the variable part j of key k is, its values u ("" on
// items without the key); prefix is literal text before it in its
// segment ("User:" of "User:UserA").
func (b *binder) bind(k keySpec, j int, u []string, present []int, constant bool, prevLit string, h hint, cond bool) (prefix string, v *kvar, isNew bool, suffix string) {
	if v := b.match(k, j, u, present, constant, prevLit, "", h, cond); v != nil {
		return "", v, false, ""
	}
	if a, rest := b.attrThenText(k, u, present, prevLit); a != "" {
		return "", b.storedVar(a), false, rest
	}
	pre := segmentPrefix(u[present[0]])
	for _, i := range present {
		if segmentPrefix(u[i]) != pre {
			pre = ""
		}
	}
	if h.isVar && h.name != "" && h.name != "-" {
		pre = "" // the alias names the whole part ("pkg_name" of axis:axis)
	}
	if pre != "" {
		rest := make([]string, len(u))
		for _, i := range present {
			rest[i] = u[i][len(pre):]
		}
		restConst := true
		for _, i := range present {
			restConst = restConst && rest[i] == rest[present[0]]
		}
		if v := b.match(k, j, rest, present, restConst, prevLit, pre, h, cond); v != nil {
			return pre, v, false, ""
		}
		u = rest
	}
	return pre, b.newVar(k, j, u, present, prevLit, pre, h, cond), true, ""
}

// attrThenText finds, in an index key, a part that is an attribute's
// value followed by the same text on every item ("1P" of C#1P#1, before
// the product's id: {categoryId}P): the attribute, the one the text
// before the part names where several hold the values, and the text.
// Table keys are left whole: a template's text after a {name} in one
// part would hide which keys two item types could share.
func (b *binder) attrThenText(k keySpec, u []string, present []int, prevLit string) (attr, rest string) {
	if k.index == "" {
		return "", ""
	}
	var cands []string
	tail := ""
	for _, a := range b.stored {
		if !keycodec.ValidName(a) {
			continue
		}
		r, ok := "", true
		for n, i := range present {
			text, isKey := keyText(b.e.items[i].av[a])
			if !isKey || text == "" || !strings.HasPrefix(u[i], text) || len(u[i]) == len(text) {
				ok = false
				break
			}
			if n == 0 {
				r = u[i][len(text):]
			} else if u[i][len(text):] != r {
				ok = false
				break
			}
		}
		if ok && !hasDigit(r) && strings.ContainsFunc(r, unicode.IsLetter) {
			if tail != "" && r != tail {
				continue
			}
			tail = r
			cands = append(cands, a)
		}
	}
	if len(cands) == 0 {
		return "", ""
	}
	for _, a := range cands {
		if prefixNames(prevLit, a) {
			return a, tail
		}
	}
	return cands[0], tail
}

// sameValues reports whether v holds the key texts col (unescaped) on the
// items at present, and, for a key only some items have, none on the
// others.
func (b *binder) sameValues(v *kvar, col []string, present []int, cond bool) bool {
	for i := range b.e.items {
		if slices.Contains(present, i) {
			u, err := keycodec.Unescape(col[i])
			if err != nil || v.vals[i] != u {
				return false
			}
		} else if cond && v.vals[i] != "" {
			return false
		}
	}
	return true
}

// match finds an attribute of the items, or a {name} of the entity's keys,
// that holds the values u on every item with the key.
func (b *binder) match(k keySpec, j int, u []string, present []int, constant bool, prevLit, prefix string, h hint, cond bool) *kvar {
	after := prevLit + prefix
	if constant && after != "" {
		// One value on every item, after the text it follows elsewhere
		// in the keys ("COURSE#Math" in an index key of an item whose
		// sort key is COURSE#{to}): that {name}, before an attribute
		// that happens to hold the value too.
		for _, v := range b.e.vars {
			if v.after == after && b.holds(v, u, cond) {
				return v
			}
		}
	}
	if a := b.attrMatch(k, u, present, cond, constant, h, after); a != "" {
		v := b.storedVar(a)
		if v.after == "" {
			v.after = after
		}
		return v
	}
	var proposed string
	for _, v := range b.e.vars {
		if !b.holds(v, u, cond) {
			continue
		}
		if constant {
			// One value on every item: the same name, not the same
			// value by chance (an order o#12345 of customer c#12345).
			if proposed == "" {
				proposed = b.proposeName(k, j, u, present, prevLit, prefix, h)
			}
			if !strings.EqualFold(proposed, v.name) && !strings.EqualFold(h.name, v.name) {
				continue
			}
		}
		return v
	}
	return nil
}

// holds reports whether v holds the values u on the items with the key,
// and, on a key only some items have, no value on the others.
func (b *binder) holds(v *kvar, u []string, cond bool) bool {
	for i := range b.e.items {
		has := u[i] != ""
		switch {
		case has && v.vals[i] != u[i]:
			return false
		case !has && cond && v.vals[i] != "":
			return false
		}
	}
	return true
}

// attrMatch finds the attribute the items store that holds the values u
// (the key's text, unescaped) on every item with the key, and on a key
// only some items have, none on the others. For a value the same on
// every item, the attribute must carry the alias's name, or the value be
// three characters or more.
func (b *binder) attrMatch(k keySpec, u []string, present []int, cond, constant bool, h hint, after string) string {
	var cands []string
	for _, a := range b.stored {
		if !keycodec.ValidName(a) {
			continue
		}
		typ := ""
		ok := true
		for i, it := range b.e.items {
			av, has := it.av[a]
			text, isKey := "", false
			if has {
				text, isKey = keyText(av)
			}
			switch {
			case u[i] != "" && (!isKey || text != u[i]):
				ok = false
			case u[i] == "" && cond && has:
				ok = false
			case has && typ != "" && avType(av) != typ:
				ok = false
			}
			if has {
				typ = avType(av)
			}
			if !ok {
				break
			}
		}
		if ok {
			cands = append(cands, a)
		}
	}
	if len(cands) == 0 {
		return ""
	}
	for _, a := range cands {
		if strings.EqualFold(a, h.name) {
			return a
		}
	}
	if h.isVar && h.name != "-" && b.t.holdsAttr(h.name) && !slices.ContainsFunc(cands, func(a string) bool { return related(a, h.name) }) {
		// The facet's alias names an attribute of the design ("email" of
		// USER#email) that these items do not store: an attribute of
		// another name holding the same values on every sample (a user's
		// state modified_by the user) holds them by chance.
		b.e.notes = append(b.e.notes, fmt.Sprintf("%s: a part of %s holds the value of %s on every sample item, but the facet's alias names it %s, an attribute of other items: taken as %s, kept only in the keys",
			b.e.name, k.where(), strings.Join(cands, ", "), h.name, h.name))
		return ""
	}
	if constant && h.name != "-" && (len(u[present[0]]) < 3 || h.isVar && h.name != "") {
		// One value on every item: the alias's own name wins over an
		// attribute that happens to hold the value, and a short value
		// is no evidence.
		return ""
	}
	if len(cands) > 1 {
		// The text before the part names what it holds ("P" of P#1 is
		// productId, not categoryId, whatever the samples' values).
		var named []string
		for _, a := range cands {
			if prefixNames(after, a) {
				named = append(named, a)
			}
		}
		if len(named) == 1 {
			if h.name != "-" {
				b.e.notes = append(b.e.notes, fmt.Sprintf("%s: a part of %s holds the value of each of %s on every item: taken as %s, which the prefix %s names",
					b.e.name, k.where(), strings.Join(cands, ", "), named[0], strings.TrimRight(after, ":=|/.#")))
			}
			return named[0]
		}
	}
	for _, a := range cands {
		if slices.ContainsFunc(b.e.vars, func(v *kvar) bool { return v.name == a }) {
			return a
		}
	}
	if len(cands) > 1 && h.name != "-" {
		b.e.notes = append(b.e.notes, fmt.Sprintf("%s: a part of %s holds the value of each of %s on every item: taken as %s; the samples cannot tell which", b.e.name, k.where(), strings.Join(cands, ", "), cands[0]))
	}
	return cands[0]
}

// related reports whether the attribute a and the alias's name for a key
// part name one thing: one holds the other, ignoring case and '_' or '-'
// ("organization_id" and "id", "group_name" and "name").
func related(a, name string) bool {
	norm := strings.NewReplacer("_", "", "-", "").Replace
	a, name = norm(strings.ToLower(a)), norm(strings.ToLower(name))
	return name != "" && (strings.Contains(a, name) || strings.Contains(name, a))
}

// holdsAttr reports whether some item of t holds the attribute name.
func (t *table) holdsAttr(name string) bool {
	return slices.ContainsFunc(t.items, func(it *item) bool { _, ok := it.av[name]; return ok })
}

// prefixNames reports whether the key text before a part names the
// attribute a: "P" of P#1 names productId, "ACCT" names accountId, "c"
// names customerID.
func prefixNames(prefix, a string) bool {
	var p []byte
	for i := 0; i < len(prefix); i++ {
		if c := prefix[i]; isLetter(c) {
			p = append(p, c|0x20)
		}
	}
	n := strings.ToLower(a)
	if len(p) == 0 || n == "" || n[0] != p[0] {
		return false
	}
	return strings.HasPrefix(n, string(p)) || len(p) <= 5 && subsequence(string(p), n)
}

// storedVar is the {name} of the stored attribute a.
func (b *binder) storedVar(a string) *kvar {
	for _, v := range b.e.vars {
		if v.name == a {
			return v
		}
	}
	v := &kvar{name: a, stored: true, vals: make([]string, len(b.e.items)), how: "the item's own " + a}
	for i, it := range b.e.items {
		v.vals[i], _ = keyText(it.av[a])
	}
	b.e.vars = append(b.e.vars, v)
	return v
}

// newVar adds an attribute kept only in the keys, named as proposeName
// finds.
func (b *binder) newVar(k keySpec, j int, u []string, present []int, prevLit, prefix string, h hint, cond bool) *kvar {
	name, why := b.proposeNameWhy(k, j, u, present, prevLit, prefix, h)
	defer b.nearMiss(k, name, u, present)
	if cond && k.index != "" && !partRE.MatchString(name) {
		// A name for its place in the index's key ("gsi1PKPart1") is the
		// index's already; another gets the index's name before it.
		name = lowerFirst(sanitizeName(k.index, "index")) + upperFirst(name)
		name = strings.NewReplacer("-", "", ".", "").Replace(name)
		why += fmt.Sprintf(", after index %s, which holds it on some items only", k.index)
	}
	// attributevalue matches an attribute to a field by its name, else by
	// its name in any case: no attribute of the items may be named like
	// this one.
	used := map[string]bool{}
	for _, a := range slices.Concat(b.t.attrNames(b.e.items), []string{b.t.pk, b.t.sk}, sortedKeys(b.t.derived)) {
		used[strings.ToLower(a)] = true
	}
	if used[strings.ToLower(name)] {
		why += fmt.Sprintf("; %s is another attribute of the items, so this one is %sKey", name, name)
		b.e.notes = append(b.e.notes, fmt.Sprintf("%s: a part of %s would be named %s, but the items' %s holds other values: it is %sKey, kept only in the keys", b.e.name, k.where(), name, name, name))
		name += "Key"
	}
	for _, v := range b.e.vars {
		used[strings.ToLower(v.name)] = true
	}
	name = uniqueName(name, used)
	v := &kvar{name: name, vals: make([]string, len(b.e.items)), how: "kept only in the keys; " + why, after: prevLit + prefix}
	copy(v.vals, u)
	b.e.vars = append(b.e.vars, v)
	return v
}

// nearMiss notes an attribute that holds a new key attribute's values on
// most items but not all: the key and the attribute are kept apart, and
// the items where they differ are named.
func (b *binder) nearMiss(k keySpec, name string, u []string, present []int) {
	if len(present) < 2 {
		return
	}
	for _, a := range b.stored {
		var miss []*item
		for _, i := range present {
			if text, ok := keyText(b.e.items[i].av[a]); !ok || text != u[i] {
				miss = append(miss, b.e.items[i])
			}
		}
		if hits := len(present) - len(miss); len(miss) > 0 && hits >= 2 && hits > len(miss) {
			b.e.notes = append(b.e.notes, fmt.Sprintf("%s: a part of %s holds the item's %s on %d of %d items, but not on %s: it is an attribute of its own, %s, kept only in the keys",
				b.e.name, k.where(), a, len(present)-len(miss), len(present), itemList(miss), name))
			return
		}
	}
}

func (b *binder) proposeName(k keySpec, j int, u []string, present []int, prevLit, prefix string, h hint) string {
	name, _ := b.proposeNameWhy(k, j, u, present, prevLit, prefix, h)
	return name
}

var (
	genericKeyRE = regexp.MustCompile(`(?i)^((gsi|lsi)?\d*[-_]?)?(pk|sk|hash|range|partitionkey|sortkey)$`)
	dateRE       = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$`)
)

// proposeNameWhy names a new attribute kept only in the keys, and says
// how: by the facet's key alias; for the attribute that holds the same
// values on other items; for the key attribute that holds it alone; for
// the item type whose keys start with the prefix before it ("c" in
// c#12345 → customerID); for that prefix; "date" for dates; else for its
// place in the key.
func (b *binder) proposeNameWhy(k keySpec, j int, u []string, present []int, prevLit, prefix string, h hint) (string, string) {
	if n := sanitizeName(h.name, ""); n != "" && h.name != "-" {
		return n, "named by the facet's key alias"
	}
	distinct := map[string]bool{}
	long := true
	for _, i := range present {
		distinct[u[i]] = true
		long = long && len(u[i]) >= 3
	}
	if long {
		if a := b.t.attrHolding(distinct, b.stored); a != "" {
			return a, fmt.Sprintf("named for %s, which holds the same values on other items", a)
		}
	}
	if f, a := b.nestedHolding(u, present, prevLit+prefix); f != "" {
		return f, fmt.Sprintf("named for %s's %s, which holds the same values", a, f)
	}
	if k.index == "" && !genericKeyRE.MatchString(k.attr) && j == strings.Count(k.vals[present[0]], "#") {
		if n := sanitizeName(k.attr, ""); n != "" {
			return lowerFirst(n), fmt.Sprintf("named for the key attribute %s", k.attr)
		}
	}
	dates := true
	for _, i := range present {
		dates = dates && dateRE.MatchString(u[i])
	}
	if dates {
		return "date", "named for its values, dates"
	}
	word := prevLit
	if word == "" {
		word = strings.TrimRight(prefix, ":=|/.")
	}
	if w := sanitizeName(word, ""); w != "" && strings.ContainsAny(strings.ToLower(w), "abcdefghijklmnopqrstuvwxyz") {
		if ty := b.typeFor(w); ty != "" {
			return lowerFirst(ty) + "ID", fmt.Sprintf("named for the item type %s, after the prefix %q", ty, word)
		}
		if strings.HasSuffix(strings.ToLower(w), "id") {
			return lowerFirst(w), fmt.Sprintf("named for the prefix %q", word)
		}
		return lowerFirst(w) + "ID", fmt.Sprintf("named for the prefix %q", word)
	}
	if v, o := b.varHolding(distinct); v != "" && long && word == "" {
		return v, fmt.Sprintf("named for {%s} of item type %s, which holds the same values", v, o)
	}
	n := sanitizeName(k.attr, "key")
	return fmt.Sprintf("%sPart%d", lowerFirst(n), j+1), fmt.Sprintf("named for its place in %s, part %d", k.attr, j+1)
}

// varHolding finds a {name} of another item type's keys, not named for
// its place in a key, whose values include every value of vals: the name
// of what they hold ("alice" of an attendee's key is a user's userID).
func (b *binder) varHolding(vals map[string]bool) (name, of string) {
	for _, e := range b.all {
		if e == b.e {
			continue
		}
		for _, v := range e.vars {
			if partRE.MatchString(v.name) {
				continue
			}
			all := true
			for x := range vals {
				all = all && slices.Contains(v.vals, x)
			}
			if all {
				return v.name, e.name
			}
		}
	}
	return "", ""
}

// nestedHolding finds a field of a map attribute that holds the values u
// on every item with the key ("test@test.com" of USER#test@test.com is
// Attributes' email): the field, named as a key template's {name} can
// be, the one the text before the part names where several hold the
// values, and the attribute.
func (b *binder) nestedHolding(u []string, present []int, after string) (field, attr string) {
	for _, a := range b.stored {
		var fields []string
		for n, i := range present {
			m, ok := b.e.items[i].av[a].(*types.AttributeValueMemberM)
			if !ok {
				fields = nil
				break
			}
			var here []string
			for _, f := range sortedKeys(m.Value) {
				if text, ok := keyText(m.Value[f]); ok && text == u[i] && keycodec.ValidName(f) {
					here = append(here, f)
				}
			}
			if n == 0 {
				fields = here
			} else {
				fields = slices.DeleteFunc(fields, func(f string) bool { return !slices.Contains(here, f) })
			}
			if len(fields) == 0 {
				break
			}
		}
		for _, f := range fields {
			if prefixNames(after, f) {
				return f, a // USER#12345: userId, not sessionId
			}
		}
		if len(fields) > 0 {
			return fields[0], a
		}
	}
	return "", ""
}

var partRE = regexp.MustCompile(`Part\d+$`)

// attrHolding finds the attribute, not one of skip, whose string values
// on the table's items include every value of vals: the fewest such
// values, then the model's order.
func (t *table) attrHolding(vals map[string]bool, skip []string) string {
	best, bestN := "", 0
	for _, a := range t.attrNames(t.items) {
		if a == t.pk || a == t.sk || t.derived[a] || slices.Contains(skip, a) || !keycodec.ValidName(a) {
			continue
		}
		have := map[string]bool{}
		for _, it := range t.items {
			if s, ok := it.av[a].(*types.AttributeValueMemberS); ok {
				have[s.Value] = true
			}
		}
		all := true
		for v := range vals {
			all = all && have[v]
		}
		if all && (best == "" || len(have) < bestN) {
			best, bestN = a, len(have)
		}
	}
	return best
}

// typeFor finds the item type a key prefix abbreviates: the first word
// of its name starts with the prefix's first letter and holds its letters
// in order ("sh" → shipment, "shp" → shipmentItem, "VULN" →
// vulnerability_metadata; not "STATE" → stakeholder_historic_state),
// its own keys start with the prefix if any does, the shortest such name.
func (b *binder) typeFor(word string) string {
	w := strings.ToLower(word)
	var own, other []string
	for _, e := range b.all {
		n := strings.ToLower(firstWord(e.name))
		if n == "" || n[0] != w[0] || !subsequence(w, n) {
			continue
		}
		starts := false
		for _, it := range e.items {
			for _, key := range []string{it.pk, it.sk} {
				if strings.HasPrefix(strings.ToLower(key), w) && len(key) > len(w) && !isLetter(key[len(w)]) {
					starts = true
				}
			}
		}
		if starts {
			own = append(own, e.name)
		} else {
			other = append(other, e.name)
		}
	}
	pick := func(names []string) string {
		slices.SortFunc(names, func(a, b string) int {
			if len(a) != len(b) {
				return len(a) - len(b)
			}
			return strings.Compare(a, b)
		})
		return names[0]
	}
	switch {
	case len(own) > 0:
		return pick(own)
	case len(other) > 0:
		return pick(other)
	}
	return ""
}

// firstWord is name up to its second word: "vulnerability" of
// vulnerability_metadata, "shipment" of shipmentItem.
func firstWord(name string) string {
	for i := 1; i < len(name); i++ {
		if strings.IndexByte("_-. ", name[i]) >= 0 || name[i] >= 'A' && name[i] <= 'Z' && name[i-1] >= 'a' && name[i-1] <= 'z' {
			return name[:i]
		}
	}
	return name
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func subsequence(s, of string) bool {
	i := 0
	for j := 0; j < len(of) && i < len(s); j++ {
		if of[j] == s[i] {
			i++
		}
	}
	return i == len(s)
}

// aliasHints reads a facet's key alias: placed part by part against the
// key when both have as many '#'-separated parts ("ITEMS#ItemID" for
// ITEMS#001: ITEMS literal, then an id named ItemID; adjlist's own
// exports write "ENROLL#CRS#<to>"), else its names, in order, for the
// key's new attributes ("AccountId" for ACC#123).
func aliasHints(k keySpec, cols [][]string, present []int) ([]hint, []string) {
	hints := make([]hint, len(cols))
	if k.alias == "" || k.alias == k.attr {
		return hints, nil
	}
	segs := strings.Split(k.alias, "#")
	if len(segs) == len(cols) {
		for j, a := range segs {
			c0 := cols[j][present[0]]
			switch {
			case strings.Contains(a, "<") && strings.HasSuffix(a, ">"):
				hints[j] = hint{isVar: true, name: a[strings.Index(a, "<")+1 : len(a)-1]}
			case a == c0 || close(a, c0):
				hints[j].lit = true
			case identLike(a):
				hints[j] = hint{isVar: true, name: a}
			}
		}
		return hints, nil
	}
	var named []string
	for _, a := range segs {
		if !identLike(a) {
			continue
		}
		literal := false
		for _, col := range cols {
			literal = literal || close(a, col[present[0]])
		}
		if !literal {
			named = append(named, a)
		}
	}
	return hints, named
}

// identLike reports whether an alias part reads as a name: letters,
// digits, '_', '-' or spaces, with a letter.
func identLike(s string) bool {
	letter := false
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			letter = true
		case r >= '0' && r <= '9' || r == '_' || r == '-' || r == ' ':
		default:
			return false
		}
	}
	return letter
}

// close reports whether an alias part spells the key's text, allowing a
// typo ("METEADATA" for METADATA): equal but for case, or within an edit
// distance of a fifth of its length.
func close(a, c string) bool {
	a, c = strings.ToLower(a), strings.ToLower(c)
	if a == c {
		return true
	}
	limit := max(1, len(a)/5)
	return len(a) >= 4 && editDistance(a, c) <= limit
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// mergeLits joins adjacent literal parts.
func mergeLits(parts []tpart) []tpart {
	var out []tpart
	for _, p := range parts {
		if n := len(out); n > 0 && p.v == nil && out[n-1].v == nil {
			out[n-1].lit += p.lit
			continue
		}
		if p.v == nil && p.lit == "" {
			continue
		}
		out = append(out, p)
	}
	return out
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	// An initialism stays whole: "URL" → "url", "IDs" → "ids".
	n := 0
	for n < len(s) && s[n] >= 'A' && s[n] <= 'Z' {
		n++
	}
	switch {
	case n == 0:
		return s
	case n < len(s) && s[n] >= 'a' && s[n] <= 'z' && n > 1:
		return strings.ToLower(s[:n-1]) + s[n-1:] // "URLPath" → "urlPath"
	case n < len(s) && s[n] >= 'a' && s[n] <= 'z':
		return strings.ToLower(s[:1]) + s[1:] // "Device" → "device"
	default:
		return strings.ToLower(s[:n]) + s[n:] // "GSI1" → "gsi1", "ID" → "id"
	}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
