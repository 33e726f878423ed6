package keycodec

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Spelling is a table key template of text and key fields (an adjlist
// Entity's, each field followed by '#' or ending the key) compiled once
// against the order its ids come in, so that building a key from ids and
// parsing one back look nothing up per call.
type Spelling []spelled

// spelled is one part of a Spelling: text, or the id at index field.
type spelled struct {
	text  string // the text, or the field's name
	field int    // the field's index in the ids; -1 for text
}

// TableKey binds a table key template (an Entity's): every {name} a
// key field, Const text. It refuses any other part, and a field followed
// by text other than '#', which a key could not be parsed back at.
func TableKey(parts []Part) ([]Part, error) {
	s := make([]Part, len(parts))
	for i, p := range parts {
		switch p.Kind {
		case Var, Field:
			p.Kind = Field
		case Lit:
		case Const:
			p.Kind = Lit
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

// Compile reads parts with their ids in the order of fields, which holds
// every variable part's name.
func Compile(parts []Part, fields []string) Spelling {
	s := make(Spelling, len(parts))
	for i, p := range parts {
		s[i] = spelled{p.Text, -1}
		if p.Variable() {
			s[i].field = slices.Index(fields, p.Text)
		}
	}
	return s
}

// Render writes s with the ids escaped, in one allocation.
func (s Spelling) Render(ids []string) string {
	n := 0
	for _, p := range s {
		if p.field >= 0 {
			n += EscapedLen(ids[p.field])
		} else {
			n += len(p.text)
		}
	}
	var b strings.Builder
	b.Grow(n)
	for _, p := range s {
		if p.field >= 0 {
			AppendEscaped(&b, ids[p.field])
		} else {
			b.WriteString(p.text)
		}
	}
	return b.String()
}

// Prefix writes s as far as ids, the leading fields' ids, allow: every
// part up to the first field it has no id for. exact reports that it
// wrote all of s.
func (s Spelling) Prefix(ids []string) (prefix string, exact bool) {
	var b strings.Builder
	for _, p := range s {
		if p.field < 0 {
			b.WriteString(p.text)
			continue
		}
		if p.field >= len(ids) {
			return b.String(), false
		}
		AppendEscaped(&b, ids[p.field])
	}
	return b.String(), true
}

// Parse reads key as s spells it into ids, which may hold ids already
// from another key: a field spelled twice must hold the same id. It is
// false for a key s cannot have built, or one whose ids ParseID refuses.
func (s Spelling) Parse(key string, ids []string) bool {
	for i, p := range s {
		if p.field < 0 {
			var ok bool
			if key, ok = strings.CutPrefix(key, p.text); !ok {
				return false
			}
			continue
		}
		end := len(key)
		if i+1 < len(s) {
			end = strings.IndexByte(key, Sep)
			if end < 0 {
				return false
			}
		}
		id, ok := ParseID(p.text, key[:end])
		if !ok || ids[p.field] != "" && ids[p.field] != id {
			return false
		}
		ids[p.field], key = id, key[end:]
	}
	return key == ""
}
