package keycodec

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Spelling is a key template compiled once against the order of its ids,
// so that building and parsing a key look nothing up per call: the one key
// code of every table and index key. Besides text and escaped ids it holds
// refs (a whole key of another Spelling, a child's "WS#acme#PROJ#p1"),
// shard suffixes ("#07"), and in index keys data attributes and node keys.
type Spelling []spelled

type spelled struct {
	kind  uint8
	text  string // the text; for an id or a ref, what its errors name it
	field int    // the id's index in the ids; -1 for text
	n     int    // a shard suffix's shard count (0: none written); a node key's Kind
	ref   *Ref   // a ref's spelling
}

// The kinds of spelled part.
const (
	text   uint8 = iota
	id           // an id, escaped
	ref          // a ref: an id that is a key of ref, written as it is
	shard        // "#" and the shard of an id, parsed as optional
	attr         // a data attribute's text; its value parses into the ids
	node         // a node key of the item ([Ctx.Node]), not parsed
	digits       // two digits: a shard in a model's key format
)

// Ref spells a key another key holds whole (a child's "WS#acme#PROJ#p1"
// in an edge's keys).
type Ref struct {
	Spelling Spelling
	// Name and Reason refuse a string that is not such a ref.
	Name, Reason string
	// Names name its ids after the ref's own name, in [Spelling.Parts]:
	// "parent" and "" make a ref "to" read "WS#<to parent>#PROJ#<to>".
	Names []string
}

// TableKey binds an Entity's table key template, every {name} a key
// field; it refuses other parts and a field not followed by '#' or the end.
func TableKey(parts []Part) ([]Part, error) {
	s := make([]Part, len(parts))
	for i, p := range parts {
		switch p.Kind {
		case Var, Field:
			p.Kind = Field
		case Lit:
		default:
			return nil, errors.New("a table key holds text and {fields} only")
		}
		if p.Kind == Field && i+1 < len(parts) && !strings.HasPrefix(parts[i+1].Text, "#") {
			return nil, fmt.Errorf("{%s} must be followed by '#' or end the key, so that it parses back", p.Text)
		}
		s[i] = p
	}
	return s, nil
}

// Compile compiles parts, their ids in the order of fields (key fields
// and data attributes); names, if given, are what errors call each id (a
// node's "id" is its type, "STU"), else the field names.
func Compile(parts []Part, fields []string, names ...string) Spelling {
	var s Spelling
	for _, p := range parts {
		switch p.Kind {
		case Lit:
			s = append(s, spelled{kind: text, text: p.Text, field: -1})
			continue
		case Self, Source, Target, Parent:
			s = append(s, spelled{kind: node, field: -1, n: int(p.Kind)})
			continue
		}
		kind := id
		if p.Kind == Attr {
			kind = attr
		}
		i := slices.Index(fields, p.Text)
		name := p.Text
		if i >= 0 && i < len(names) {
			name = names[i]
		}
		s = append(s, spelled{kind: kind, text: name, field: i})
	}
	return s
}

// ID is the id at field, escaped; errors name it name.
func ID(field int, name string) Spelling { return Spelling{{kind: id, text: name, field: field}} }

// Text is text written as it is.
func Text(s string) Spelling { return Spelling{{kind: text, text: s, field: -1}} }

// RefField is the id at field, a key of r written as it is.
func RefField(field int, r *Ref) Spelling {
	return Spelling{{kind: ref, text: r.Name, field: field, ref: r}}
}

// Digits is a shard's two digits, as a model's key format draws it
// after its '#' ("WS#<id>#<shard of child, 4>").
func Digits() Spelling { return Spelling{{kind: digits, field: -1}} }

// ShardSuffix is "#" and the [Shard] of the id at field among n, none
// for n < 2. Any two-digit suffix or none parses, whatever n, so keys stay
// readable while the shard count changes.
func ShardSuffix(field, n int) Spelling {
	if n < 2 {
		n = 0
	}
	return Spelling{{kind: shard, field: field, n: n}}
}

// Fields is how many leading ids s reads.
func (s Spelling) Fields() int {
	n := 0
	for _, p := range s {
		if p.kind != shard || p.n > 1 {
			n = max(n, p.field+1)
		}
	}
	return n
}

// Then is s followed by more.
func (s Spelling) Then(more ...Spelling) Spelling {
	return slices.Concat(append([]Spelling{s}, more...)...)
}

// Parts is s as a key template, for Describe and the overlap check: ids
// as fields named by fields, a ref as its own spelling (ids "to parent",
// "to"), a shard suffix as "#" and a field "shard of <id>".
func (s Spelling) Parts(fields []string) []Part {
	var out []Part
	for _, p := range s {
		switch {
		case p.kind == text:
			out = append(out, Part{Kind: Lit, Text: p.text})
		case p.kind == id:
			out = append(out, Part{Kind: Field, Text: fields[p.field]})
		case p.kind == attr:
			out = append(out, Part{Kind: Attr, Text: p.text})
		case p.kind == node:
			out = append(out, Part{Kind: Kind(p.n)})
		case p.kind == ref:
			names := make([]string, len(p.ref.Names))
			for i, n := range p.ref.Names {
				names[i] = strings.TrimSpace(fields[p.field] + " " + n)
			}
			out = append(out, p.ref.Spelling.Parts(names)...)
		case p.n > 0:
			out = append(out, Part{Kind: Lit, Text: string(Sep)}, Part{Kind: Field, Text: ShardField(fields[p.field])})
		}
	}
	return out
}

// ShardField is [Spelling.Parts]' name of field's shard.
func ShardField(field string) string { return "shard of " + field }

// Key checks ids ([CheckID], a ref's [Ref.Check]) and renders s with
// them, at most limit bytes; name and attr ("STU", "partition key") name
// the key in a refusal of its size. Its errors are adjlist's *KeyError.
func (s Spelling) Key(ids []string, name, attr string, limit int) (string, error) {
	for _, p := range s {
		switch p.kind {
		case id:
			if err := CheckID(p.text, ids[p.field]); err != nil {
				return "", err
			}
		case ref:
			if err := p.ref.Check(ids[p.field]); err != nil {
				return "", err
			}
		}
	}
	k := s.Render(ids)
	if err := CheckLen(name, attr, k, limit); err != nil {
		return "", err
	}
	return k, nil
}

// Check refuses a string that is not a ref r spells.
func (r *Ref) Check(v string) error { return r.Parse(v, nil) }

// Parse reads ref v's ids into empty ids (nil: only checks v), refusing
// what r does not spell or is over [MaxPartitionKeyLen] bytes.
func (r *Ref) Parse(v string, ids []string) error {
	if len(v) > MaxPartitionKeyLen || !r.Spelling.Parse(v, ids) {
		return &Error{Name: r.Name, ID: v, Reason: r.Reason}
	}
	return nil
}

// Render writes s with ids in one allocation, none for text alone.
func (s Spelling) Render(ids []string) string {
	if len(s) == 1 && s[0].kind == text {
		return s[0].text
	}
	n := 0
	for _, p := range s {
		switch p.kind {
		case text:
			n += len(p.text)
		case id:
			n += EscapedLen(ids[p.field])
		case ref:
			n += len(ids[p.field])
		case shard:
			n += 3
		}
	}
	var b strings.Builder
	b.Grow(n)
	for _, p := range s {
		p.write(&b, ids)
	}
	return b.String()
}

// Value renders index key s for an item with data and node keys c:
// attributes as [AttrText] writes them (whose error it returns), node
// keys as they are. ok is false when an attribute is missing or empty.
func (s Spelling) Value(data Item, c *Ctx) (key string, ok bool, err error) {
	var b strings.Builder
	for _, p := range s {
		switch p.kind {
		case attr:
			v, present, err := AttrText(p.text, data[p.text])
			if err != nil || !present {
				return "", false, err
			}
			b.WriteString(v)
		case node:
			b.WriteString(c.Node(Kind(p.n)))
		case id:
			if p.field < len(c.IDs) {
				AppendEscaped(&b, c.IDs[p.field])
			}
		default:
			p.write(&b, c.IDs)
		}
	}
	return b.String(), true, nil
}

func (p *spelled) write(b *strings.Builder, ids []string) {
	switch p.kind {
	case text:
		b.WriteString(p.text)
	case id:
		AppendEscaped(b, ids[p.field])
	case ref:
		b.WriteString(ids[p.field])
	case shard:
		if p.n > 0 {
			b.WriteByte(Sep)
			appendShard(b, ids[p.field], p.n)
		}
	}
}

// Prefix writes s up to the first field ids has no id for (of a ref
// there, its leading text "WS#"); exact: it wrote all of s.
func (s Spelling) Prefix(ids []string) (prefix string, exact bool) {
	var b strings.Builder
	for _, p := range s {
		if p.field >= len(ids) {
			if p.kind == ref {
				rp, _ := p.ref.Spelling.Prefix(nil)
				b.WriteString(rp)
			}
			return b.String(), false
		}
		p.write(&b, ids)
	}
	return b.String(), true
}

// Parse reads key as s spells it into ids, which may hold ids from
// another key already: a field spelled twice must hold the same id. It is
// false for a key s cannot have built or whose ids ParseID refuses; nil
// ids only check. A shard suffix (any two digits, or none) is not read; a
// node key does not parse. Unescaped ids cost no allocation.
func (s Spelling) Parse(key string, ids []string) bool {
	// The common case, read in one pass without match's search: text, and
	// escaped ids each followed by the end or by text that starts with
	// Sep, which only the first Sep (or the key's end) can end, so match
	// would try that end alone. From any other part on, match reads the
	// rest.
	for i := range s {
		p := &s[i]
		if p.kind == text {
			var ok bool
			if key, ok = strings.CutPrefix(key, p.text); !ok {
				return false
			}
			continue
		}
		last := strings.IndexByte(key, Sep)
		if p.kind != id && p.kind != attr || !s.sepAfter(i) || last == 0 || last < 0 && i+1 < len(s) {
			return s[i:].match(key, ids, false)
		}
		if last < 0 {
			last = len(key)
		} else if i+1 == len(s) {
			return false // an id that ends the key holds no Sep
		}
		v, ok := ParseID(p.text, key[:last])
		if !ok {
			return false
		}
		if ids != nil {
			if ids[p.field] != "" && ids[p.field] != v {
				return false
			}
			ids[p.field] = v
		}
		key = key[last:]
	}
	return key == ""
}

// sepAfter reports whether part i is the last or followed by text that
// starts with Sep.
func (s Spelling) sepAfter(i int) bool {
	return i+1 == len(s) || s[i+1].kind == text && s[i+1].text != "" && s[i+1].text[0] == Sep
}

// Matches reports whether s can spell key, or with prefix a key that
// begins with it: [Spelling.Parse] without ids. A prefix may end inside
// any part, and what it holds of the id it ends in is not checked (the
// rest could make it valid: "STU#a%2" begins "STU#a%23b").
func (s Spelling) Matches(key string, prefix bool) bool { return s.match(key, nil, prefix) }

// match is Parse and Matches: the one reading of a key. An id or ref
// tries its ends longest first, only where the next part can begin, so
// that a key of '#'-separated parts is read in one pass.
func (s Spelling) match(key string, ids []string, prefix bool) bool {
	for i := range s {
		p := &s[i] // not a copy: this runs for every key of every item read
		if prefix && key == "" {
			return true
		}
		switch p.kind {
		case text:
			if prefix && len(key) < len(p.text) {
				return strings.HasPrefix(p.text, key)
			}
			var ok bool
			if key, ok = strings.CutPrefix(key, p.text); !ok {
				return false
			}
			continue
		case shard:
			if key != "" && (key[0] != Sep || !twoDigits(key[1:], prefix)) {
				return false
			}
			key = ""
			continue
		case digits:
			n := min(len(key), 2)
			if !twoDigits(key[:n], prefix) {
				return false
			}
			key = key[n:]
			continue
		case node:
			return false
		}
		rest, last := s[i+1:], len(key)
		if j := strings.IndexByte(key, Sep); j >= 0 && p.kind != ref {
			last = j // an escaped id holds no Sep
		}
		var given string // ids' own, which the id must equal
		if ids != nil {
			given = ids[p.field]
		}
		for end := last; end > 0; end-- {
			if !rest.starts(key[end:]) {
				continue
			}
			v, ok := key[:end], true
			switch {
			case prefix && end == len(key):
				ok = p.kind != ref || p.ref.Spelling.match(v, nil, true)
			case p.kind == ref:
				ok = p.ref.Check(v) == nil
			default:
				v, ok = ParseID(p.text, v)
			}
			if !ok || given != "" && given != v {
				continue
			}
			if ids != nil {
				ids[p.field] = v
			}
			if rest.match(key[end:], ids, prefix) {
				return true
			}
			if ids != nil {
				ids[p.field] = given // a failed rest restored its own ids likewise
			}
		}
		return false
	}
	return key == ""
}

// starts reports whether k may begin what s spells, as its first part
// tells: where an id before it may end.
func (s Spelling) starts(k string) bool {
	switch {
	case len(s) == 0:
		return k == ""
	case s[0].kind == text:
		n := min(len(k), len(s[0].text))
		return k[:n] == s[0].text[:n]
	case s[0].kind == shard:
		return k == "" || k[0] == Sep
	}
	return true
}

// twoDigits reports whether k is two digits, or with prefix their start.
func twoDigits(k string, prefix bool) bool {
	return (len(k) == 2 || prefix && len(k) < 2) && strings.Trim(k, "0123456789") == ""
}
