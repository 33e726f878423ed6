package main

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/keycodec"
)

// entity is one item type of a table: its items, and how its keys are
// spelled from their values.
type entity struct {
	name    string // NewEntity's name, e.g. "orderItem"
	goName  string // its Go type, e.g. "OrderItem"
	reason  string // how its items were told from the others
	items   []*item
	pk, sk  []tpart
	vars    []*kvar // every {name} of its keys, in order
	indexes []*ixKeys
	st      *structType // its Go type's fields
	notes   []string    // what inference chose, and why; ambiguities
	// twinOf is the entity whose name this one's repeats with a number:
	// their items are of one facet or type, their keys of two shapes.
	twinOf *entity
	// clash is the declared entity whose keys this one's could spell:
	// this one is described, not declared.
	clash *entity
}

// tpart is one part of a key template: literal text, or a {name}.
type tpart struct {
	lit string
	v   *kvar
}

// kvar is one {name} of an entity's templates.
type kvar struct {
	name   string   // the attribute of T it is
	stored bool     // an attribute the items store; else kept only in keys (KeyOnly)
	vals   []string // per item of the entity; "" where its key is absent
	how    string   // how it was inferred, for the generated comments
	after  string   // the literal text before it where it was first met: "c" of c#{customerID}
	num    bool     // kept only in a number table key: a Go number
}

// ixKeys are an entity's keys in one derived-key index.
type ixKeys struct {
	ix     *index
	pk, sk []tpart
}

// template writes parts as adjlist.Template takes them.
func template(parts []tpart) string {
	var b strings.Builder
	for _, p := range parts {
		if p.v != nil {
			b.WriteString("{" + p.v.name + "}")
		} else {
			b.WriteString(p.lit)
		}
	}
	return b.String()
}

// note records an ambiguity or choice of t, for stderr and the comments.
func (t *table) note(format string, args ...any) {
	t.notes = append(t.notes, fmt.Sprintf(format, args...))
}

// infer finds t's item types, spells their keys and indexes, and types
// their data.
func (t *table) infer() error {
	if len(t.items) == 0 {
		t.note("table %s has no sample items, from which adjlist-gen infers item types: it has no entity", t.name)
	}
	t.decideIndexes()
	t.buildFollowers()
	ents := t.group()
	for {
		for _, e := range ents {
			e.pk, e.sk, e.vars, e.indexes, e.notes = nil, nil, nil, nil, nil
		}
		var flip *flipIndex
		var err error
		for _, e := range ents {
			if err = t.spell(e, ents); err != nil {
				break
			}
		}
		if errors.As(err, &flip) {
			flip.ix.derived = false
			delete(t.derived, flip.ix.pk)
			delete(t.derived, flip.ix.sk)
			flip.ix.why = fmt.Sprintf("keyed on the items' own %s and %s, which adjlist reads and never writes: %s", flip.ix.pk, orDash(flip.ix.sk), flip.reason)
			t.note("index %s: keyed on the items' own attributes (%s and %s stored as data), since %s", flip.ix.name, flip.ix.pk, orDash(flip.ix.sk), flip.reason)
			continue
		}
		if err != nil {
			return err
		}
		if i, j, ok := firstOverlap(ents); ok {
			// Merged, the two would be one entity whose templates spell
			// both, and any key like them: a catch-all that accepts what
			// the design never meant. They are reported instead.
			a, b := ents[i], ents[j]
			t.note("item types %s and %s have keys %s / %s and %s / %s, which could spell the same key: adjlist refuses two such entities on one table, so %s is not declared, and its items (%s) are left out of the package's test; give one of the two a key text of its own to declare both",
				a.name, b.name, template(a.pk), template(a.sk), template(b.pk), template(b.sk), b.name, itemList(b.items))
			b.clash = a
			t.undeclared = append(t.undeclared, b)
			ents = slices.Delete(ents, j, j+1)
			continue
		}
		break
	}
	t.entities = ents
	return nil
}

// declaredItems are t's items of declared entities, in order.
func (t *table) declaredItems() []*item {
	left := map[*item]bool{}
	for _, e := range t.undeclared {
		for _, it := range e.items {
			left[it] = true
		}
	}
	var out []*item
	for _, it := range t.items {
		if !left[it] {
			out = append(out, it)
		}
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// flipIndex asks infer to key an index on the items' own attributes.
type flipIndex struct {
	ix     *index
	reason string
}

func (f *flipIndex) Error() string { return "index " + f.ix.name + ": " + f.reason }

// decideIndexes keys each index on derived attributes, which adjlist
// writes from templates, when its key values are composed ("p#99887":
// a '#' in some value) of string attributes no other key uses, and on
// the items' own attributes (native) otherwise.
func (t *table) decideIndexes() {
	nativeAttrs := map[string]bool{}
	for _, ix := range t.indexes {
		if ix.local {
			t.decideLocal(ix, nativeAttrs)
			continue
		}
		composed := false
		for _, it := range t.items {
			for _, a := range []string{ix.pk, ix.sk} {
				if s, ok := it.av[a].(*types.AttributeValueMemberS); ok && a != "" && strings.Contains(s.Value, "#") {
					composed = true
				}
			}
		}
		keys := []string{t.pk, t.sk}
		attrs := ix.pk
		if ix.sk != "" {
			attrs += " and " + ix.sk
		}
		native := "keyed on the items' own " + attrs + ", which adjlist reads and never writes"
		switch {
		case slices.Contains(keys, ix.pk) || slices.Contains(keys, ix.sk):
			ix.why = native + ": the table's own keys are among them"
		case ix.pkType != "S" || (ix.sk != "" && ix.skType != "S"):
			ix.why = native + ": a number keys it"
		case t.derived[ix.pk] || t.derived[ix.sk]:
			ix.why = native + ": another index derives one of them"
		case nativeAttrs[ix.pk] || nativeAttrs[ix.sk]:
			ix.why = native + ": another index reads one of them"
		case !composed:
			ix.why = native + ": their values are plain values, no '#' in them"
		default:
			ix.derived = true
			ix.why = fmt.Sprintf("keyed on %s, which adjlist writes from each item type's templates: their values are composed, with '#'", attrs)
			t.derived[ix.pk] = true
			if ix.sk != "" {
				t.derived[ix.sk] = true
			}
			continue
		}
		nativeAttrs[ix.pk] = true
		nativeAttrs[ix.sk] = true
	}
}

// decideLocal keys the local index ix on a derived sort key, which
// adjlist writes from templates, when its values are composed strings of
// an attribute no other key uses, and on the items' own attribute
// otherwise; its partition key is the table's.
func (t *table) decideLocal(ix *index, nativeAttrs map[string]bool) {
	composed := false
	for _, it := range t.items {
		if s, ok := it.av[ix.sk].(*types.AttributeValueMemberS); ok && strings.Contains(s.Value, "#") {
			composed = true
		}
	}
	native := fmt.Sprintf("local: the table's partition key %s, sorted on the items' own %s, which adjlist reads and never writes", ix.pk, ix.sk)
	switch {
	case ix.sk == t.sk:
		ix.why = native + ": the table's own sort key"
	case ix.skType != "S":
		ix.why = native + ": a number"
	case t.derived[ix.sk]:
		ix.why = native + ": another index derives it"
	case nativeAttrs[ix.sk]:
		ix.why = native + ": another index reads it"
	case !composed:
		ix.why = native + ": its values are plain values, no '#' in them"
	default:
		ix.derived = true
		ix.why = fmt.Sprintf("local: the table's partition key %s, sorted on %s, which adjlist writes from each item type's template: its values are composed, with '#'", ix.pk, ix.sk)
		t.derived[ix.sk] = true
		return
	}
	nativeAttrs[ix.sk] = true
}

// keyValues are the string key values of an item: its table keys and
// every string index key.
func (t *table) keyValues(it *item) []string {
	out := []string{it.pk, it.sk}
	for _, ix := range t.indexes {
		for _, a := range []string{ix.pk, ix.sk} {
			if a == "" || a == t.pk || a == t.sk {
				continue
			}
			if s, ok := it.av[a].(*types.AttributeValueMemberS); ok {
				out = append(out, s.Value)
			}
		}
	}
	return out
}

// buildFollowers records, for each key segment, the segments that follow
// it anywhere in t's keys: a prefix followed by many values ("u" by
// "12345", "23456") introduces an id. It then finds the texts that are
// values wherever the keys hold them (valueText), and the one-word keys
// that are values (valueKey).
func (t *table) buildFollowers() {
	t.followers = map[string]map[string]bool{}
	for _, it := range t.items {
		for _, k := range t.keyValues(it) {
			segs := strings.Split(k, "#")
			for j := 1; j < len(segs); j++ {
				f := t.followers[segs[j-1]]
				if f == nil {
					f = map[string]bool{}
					t.followers[segs[j-1]] = f
				}
				f[segs[j]] = true
			}
		}
	}
	t.valueText = map[string]bool{}
	for _, it := range t.items {
		for _, k := range t.keyValues(it) {
			segs := strings.Split(k, "#")
			for j := 1; j < len(segs); j++ {
				if isKind(segs[j-1]) && segs[j] != "" && !isKind(segs[j]) {
					t.valueText[segs[j]] = true
				}
			}
		}
		for name, v := range it.av {
			if name == t.pk || name == t.sk || t.derived[name] {
				continue
			}
			switch v := v.(type) {
			case *types.AttributeValueMemberSS:
				for _, s := range v.Value {
					if len(s) >= 3 {
						t.valueText[s] = true
					}
				}
			case *types.AttributeValueMemberL:
				for _, e := range v.Value {
					if s, ok := e.(*types.AttributeValueMemberS); ok && len(s.Value) >= 3 {
						t.valueText[s.Value] = true
					}
				}
			}
		}
	}
	t.findValueKeys()
}

// isKind reports whether a key segment reads as the name of a kind of
// item, which the design's items agree on: a word in capitals ("USER",
// "META", "ATTENDEES"), without digits.
func isKind(s string) bool {
	if len(s) < 2 {
		return false
	}
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// findValueKeys finds whole keys that are values though they have no
// digit: among items whose keys have one shape but for a one-word key
// ("GAME#chess" / "ranked", "GAME#chess" / "casual"), the word is a value
// when two items with different words hold the same attributes: a city,
// a game mode, a user name. Words whose items hold different attributes
// name kinds ("info" and "count" of a user).
func (t *table) findValueKeys() {
	t.valueKey = map[*item][2]bool{}
	t.skel = nil
	for n := range 2 {
		groups := map[string][]*item{}
		var order []string
		for _, it := range t.items {
			k := []string{it.pk, it.sk}
			if !t.ambiguousWord(it, k[n]) {
				continue
			}
			sk := strings.Split(t.skeleton(it), " | ")
			sk[n] = "?"
			g := strings.Join(sk, " | ")
			if groups[g] == nil {
				order = append(order, g)
			}
			groups[g] = append(groups[g], it)
		}
		for _, g := range order {
			items := groups[g]
			bySig := map[string]string{} // attributes → a word
			value := false
			for _, it := range items {
				w := []string{it.pk, it.sk}[n]
				sig := strings.Join(t.dataAttrs(it), ",")
				if o, ok := bySig[sig]; ok && o != w {
					value = true
				}
				bySig[sig] = w
			}
			if !value {
				continue
			}
			for _, it := range items {
				v := t.valueKey[it]
				v[n] = true
				t.valueKey[it] = v
			}
		}
	}
	t.skel = map[*item]string{}
}

// ambiguousWord reports whether key, the whole of one key of it, is a
// word that may be a kind's name or a value: letters, some in lower case,
// no digit, not one of its data values.
func (t *table) ambiguousWord(it *item, key string) bool {
	if key == "" || strings.Contains(key, "#") || hasDigit(key) || segmentPrefix(key) != "" || isKind(key) || strings.ContainsAny(key, "{}%") {
		return false
	}
	return !t.dataValues(it)[key] && !t.valueText[key]
}

// dataAttrs are the names of its data attributes (not its keys), sorted.
func (t *table) dataAttrs(it *item) []string {
	var out []string
	for _, k := range sortedKeys(it.av) {
		if k != t.pk && k != t.sk && !t.derived[k] {
			out = append(out, k)
		}
	}
	return out
}

// prefixRE is literal text that starts a key segment before an id, as in
// "User:UserA" or "Room:Music".
var prefixRE = regexp.MustCompile(`^[A-Za-z][A-Za-z_]*[:=|/.]`)

// segmentPrefix is the prefix of s that prefixRE finds, if the rest is
// not empty.
func segmentPrefix(s string) string {
	p := prefixRE.FindString(s)
	if p == s {
		return ""
	}
	return p
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// dataValues are the texts of an item's string and number data
// attributes.
func (t *table) dataValues(it *item) map[string]bool {
	out := map[string]bool{}
	for name, v := range it.av {
		if name == t.pk || name == t.sk || t.derived[name] {
			continue
		}
		if s, ok := keyText(v); ok {
			out[s] = true
		}
	}
	return out
}

// skeleton is an item's keys with every part that looks like a value
// (an id, a date, an attribute's value) replaced by "*": the shape its
// item type gives its keys, e.g. "u#*#follower" and "u#*".
func (t *table) skeleton(it *item) string {
	if s, ok := t.skel[it]; ok {
		return s
	}
	vals := t.dataValues(it)
	shape := func(key string, n int) string {
		segs := strings.Split(key, "#")
		prev := ""
		for j, s := range segs {
			lit := true
			switch {
			case s == "":
			case vals[s] || hasDigit(s) || strings.ContainsAny(s, "{}%"):
				lit = false
			case prev != "" && len(t.followers[prev]) >= 2:
				lit = false
			case segmentPrefix(s) != "":
				lit = false
			case isKind(prev) && !isKind(s), t.valueText[s] && !isKind(s):
				lit = false // USER#alice
			case len(segs) == 1 && t.valueKey[it][n]:
				lit = false
			}
			prev = ""
			if lit {
				prev = s
				continue
			}
			segs[j] = segmentPrefix(s) + "*"
		}
		return strings.Join(segs, "#")
	}
	out := shape(it.pk, 0) + " | " + shape(it.sk, 1)
	if t.skel != nil {
		t.skel[it] = out
	}
	return out
}

// group sorts t's items into item types: by facet where the model has
// facets, else by an attribute whose values tell the key shapes apart
// (EntityType, Type, ...: found from the data), else by key shape.
// Each type's items then share their keys' segment counts.
func (t *table) group() []*entity {
	var ents []*entity
	var rest []*item
	byFacet := map[int]*entity{}
	for _, it := range t.items {
		if len(it.facets) == 0 {
			rest = append(rest, it)
			continue
		}
		f := it.facets[0]
		name := t.facets[f].FacetName
		if len(it.facets) > 1 {
			var all []string
			for _, x := range it.facets {
				all = append(all, t.facets[x].FacetName)
			}
			t.note("%s (%s / %s) is listed by facets %s: typed by the first, %s", it.where, it.pk, it.sk, strings.Join(all, ", "), name)
		}
		e := byFacet[f]
		if e == nil {
			e = &entity{name: name, reason: fmt.Sprintf("the items of facet %s", name)}
			byFacet[f] = e
			ents = append(ents, e)
		}
		e.items = append(e.items, it)
	}
	if len(rest) > 0 {
		if len(ents) > 0 {
			t.note("%d items are in no facet (%s): typed by their keys' shapes", len(rest), itemList(rest))
			ents = append(ents, t.groupByShape(rest, false)...)
		} else if attr, groups := t.discriminator(rest); attr != "" {
			for _, g := range groups {
				v := g[0].av[attr].(*types.AttributeValueMemberS).Value
				ents = append(ents, &entity{name: v, items: g, reason: fmt.Sprintf("the items whose %s is %q", attr, v)})
			}
		} else {
			ents = append(ents, t.groupByShape(rest, true)...)
		}
	}
	// Facets come sorted as the model lists them; an entity name must be a
	// valid adjlist name, unique in the table.
	var out []*entity
	for _, e := range ents {
		out = append(out, t.splitBySegments(e)...)
	}
	used := map[string]bool{}
	for _, e := range out {
		e.name = uniqueName(sanitizeName(e.name, "item"), used)
	}
	return out
}

// splitBySegments splits e by the number of '#'-separated segments of
// its keys and which of them are empty: a template spells one shape.
func (t *table) splitBySegments(e *entity) []*entity {
	shape := func(it *item) string {
		var b strings.Builder
		for _, k := range []string{it.pk, it.sk} {
			for _, s := range strings.Split(k, "#") {
				if s == "" {
					b.WriteByte('0')
				} else {
					b.WriteByte('1')
				}
			}
			b.WriteByte('|')
		}
		return b.String()
	}
	var order []string
	groups := map[string][]*item{}
	for _, it := range e.items {
		s := shape(it)
		if groups[s] == nil {
			order = append(order, s)
		}
		groups[s] = append(groups[s], it)
	}
	if len(order) == 1 {
		return []*entity{e}
	}
	slices.SortStableFunc(order, func(a, b string) int { return len(groups[b]) - len(groups[a]) })
	var out []*entity
	for i, s := range order {
		n := &entity{name: e.name, reason: e.reason, items: groups[s]}
		if i > 0 {
			n.twinOf = out[0]
			n.name = fmt.Sprintf("%s%d", e.name, i+1)
			n.reason = fmt.Sprintf("%s whose keys have another shape (%s / %s)", e.reason, groups[s][0].pk, groups[s][0].sk)
			t.note("%s: %s have keys shaped unlike the other %d items of %s (%s / %s): they are an entity of their own, %s",
				e.name, itemList(groups[s]), len(groups[order[0]]), e.name, groups[order[0]][0].pk, groups[order[0]][0].sk, n.name)
		}
		out = append(out, n)
	}
	return out
}

// discriminator finds the attribute that tells items' types: a string
// every item holds, with two or more values, each key shape showing one
// value. It returns "" when none does.
func (t *table) discriminator(items []*item) (string, [][]*item) {
	skel := make([]string, len(items))
	for i, it := range items {
		skel[i] = t.skeleton(it)
	}
	var found []string
	for _, name := range t.attrNames(items) {
		if name == t.pk || name == t.sk || t.derived[name] {
			continue
		}
		values := map[string]bool{}
		bySkel := map[string]string{}
		byValue := map[string]string{}
		ok := true
		for i, it := range items {
			s, isS := it.av[name].(*types.AttributeValueMemberS)
			if !isS || s.Value == "" || !strings.ContainsFunc(s.Value, unicode.IsLetter) {
				// A type is named: "1" and "5" of a Version are no types.
				ok = false
				break
			}
			values[s.Value] = true
			if v, seen := bySkel[skel[i]]; seen && v != s.Value {
				ok = false
				break
			}
			// A value shared by items of two key shapes with as many
			// parts (a Version "1" of users and attendees alike) separates
			// no types; one type's keys may have parts more or fewer.
			counts := s.Value + "|" + segmentCounts(skel[i])
			if sk, seen := byValue[counts]; seen && sk != skel[i] {
				ok = false
				break
			}
			bySkel[skel[i]] = s.Value
			byValue[counts] = skel[i]
		}
		if ok && len(values) >= 2 {
			found = append(found, name)
		}
	}
	if len(found) == 0 {
		return "", nil
	}
	// The finest one: the most values, then the model's order.
	best := found[0]
	count := func(a string) int {
		vs := map[string]bool{}
		for _, it := range items {
			vs[it.av[a].(*types.AttributeValueMemberS).Value] = true
		}
		return len(vs)
	}
	for _, a := range found[1:] {
		if count(a) > count(best) {
			best = a
		}
	}
	if len(found) > 1 {
		t.note("attributes %s each tell the item types apart: typed by %s, which has the most values", strings.Join(found, ", "), best)
	}
	var order []string
	groups := map[string][]*item{}
	for _, it := range items {
		v := it.av[best].(*types.AttributeValueMemberS).Value
		if groups[v] == nil {
			order = append(order, v)
		}
		groups[v] = append(groups[v], it)
	}
	out := make([][]*item, len(order))
	for i, v := range order {
		out[i] = groups[v]
	}
	return best, out
}

// segmentCounts is how many '#'-separated parts each key of a skeleton
// has: "2|1" for "USER#* | META".
func segmentCounts(skel string) string {
	pk, sk, _ := strings.Cut(skel, " | ")
	return fmt.Sprintf("%d|%d", strings.Count(pk, "#")+1, strings.Count(sk, "#")+1)
}

// attrNames lists the attributes of items: the model's order first, then
// as met.
func (t *table) attrNames(items []*item) []string {
	have := map[string]bool{}
	for _, it := range items {
		for k := range it.av {
			have[k] = true
		}
	}
	var out []string
	for _, a := range t.attrOrder {
		if have[a] {
			out = append(out, a)
			delete(have, a)
		}
	}
	for _, it := range items {
		for _, k := range sortedKeys(it.av) {
			if have[k] {
				out = append(out, k)
				delete(have, k)
			}
		}
	}
	return out
}

// groupByShape types items by their keys' shapes (skeleton), naming each
// type for the literal text of its keys; alone is true when these are
// all of the table's items.
func (t *table) groupByShape(items []*item, alone bool) []*entity {
	var order []string
	groups := map[string][]*item{}
	for _, it := range items {
		s := t.skeleton(it)
		if groups[s] == nil {
			order = append(order, s)
		}
		groups[s] = append(groups[s], it)
	}
	if alone && len(order) == 1 {
		return []*entity{{name: t.name, items: items, reason: "every item of the table: their keys have one shape"}}
	}
	pkWord := func(s string) string {
		pk, _, _ := strings.Cut(s, " | ")
		for _, seg := range strings.Split(pk, "#") {
			if w := strings.TrimRight(strings.TrimSuffix(seg, "*"), ":=|/."); w != "" {
				return w
			}
		}
		return ""
	}
	firstPK := map[string]int{}
	for _, s := range order {
		firstPK[pkWord(s)]++
	}
	var out []*entity
	for _, s := range order {
		pk, sk, _ := strings.Cut(s, " | ")
		pkSegs, skSegs := strings.Split(pk, "#"), strings.Split(sk, "#")
		name := ""
		// A word after an id in the partition key: u#*#follower.
		for j := 1; j < len(pkSegs); j++ {
			if w := pkSegs[j]; strings.Contains(pkSegs[j-1], "*") && w != "" && !strings.Contains(w, "*") {
				name = w
			}
		}
		if w := pkWord(s); name == "" && w != "" && firstPK[w] == 1 {
			name = w
		}
		if name == "" {
			for _, seg := range skSegs {
				if seg != "" && !strings.Contains(seg, "*") {
					name = seg
					break
				}
			}
		}
		if name == "" {
			name = pkWord(s)
		}
		if name == "" {
			name = "item"
		}
		out = append(out, &entity{name: name, items: groups[s], reason: fmt.Sprintf("the items whose keys are shaped %s / %s", pk, sk)})
	}
	return out
}

// itemList names items for a message, at most five.
func itemList(items []*item) string {
	var names []string
	for i, it := range items {
		if i == 5 {
			names = append(names, fmt.Sprintf("and %d more", len(items)-5))
			break
		}
		names = append(names, fmt.Sprintf("%s (%s / %s)", it.where, it.pk, it.sk))
	}
	return strings.Join(names, ", ")
}

// uniqueName returns name, or name with a number, not in used, and marks
// it used. Names differing only in case count as the same.
func uniqueName(name string, used map[string]bool) string {
	out := name
	for i := 2; used[strings.ToLower(out)]; i++ {
		out = fmt.Sprintf("%s%d", name, i)
	}
	used[strings.ToLower(out)] = true
	return out
}

// sanitizeName makes s an adjlist name (1-64 ASCII letters, digits, '_',
// '-' or '.'), camel-casing across other characters: "to parent" →
// "toParent"; def if nothing is left.
func sanitizeName(s, def string) string {
	var b strings.Builder
	upper := false
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.':
			if upper && r >= 'a' && r <= 'z' && b.Len() > 0 {
				r -= 'a' - 'A'
			}
			upper = false
			b.WriteRune(r)
		default:
			upper = true
		}
	}
	out := b.String()
	if len(out) > 64 {
		out = out[:64]
	}
	if out == "" || !keycodec.ValidName(out) {
		return def
	}
	return out
}

// firstOverlap finds two entities whose templates could spell the same
// keys, as adjlist refuses them (keyspell.go's overlap, on segments).
func firstOverlap(ents []*entity) (int, int, bool) {
	for i := range ents {
		for j := i + 1; j < len(ents); j++ {
			if overlap(ents[i].pk, ents[j].pk) && overlap(ents[i].sk, ents[j].sk) {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

// overlap reports whether two templates can build the same key, as the
// library's Table.Check judges it.
func overlap(s, o []tpart) bool { return keycodec.Overlap(codecParts(s), codecParts(o)) }

func codecParts(parts []tpart) []keycodec.Part {
	out := make([]keycodec.Part, len(parts))
	for i, p := range parts {
		out[i] = keycodec.Part{Kind: keycodec.Lit, Text: p.lit}
		if p.v != nil {
			out[i].Kind = keycodec.Field
		}
	}
	return out
}
