package keycodec

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Kind says what a Part of a key template writes.
type Kind uint8

// The kinds of Part. The zero Kind is no part.
const (
	Attr Kind = iota + 1 // a data attribute's text: a {name} that is no key field
	// Self, Source, Target and Parent are node keys the item has ({@self}).
	Self
	Source
	Target
	Parent
	Lit   // text written as it is
	Field // an Entity's key field ("userID" of "u#{userID}"): an id given
	Var   // a {name} not yet bound: a Field where the Entity has it, else an Attr
)

// Part is one part of a key template: text (Lit), or a variable part
// whose Text is its name (empty for a node key).
type Part struct {
	Kind Kind
	Text string
}

// Variable reports whether p's text differs from item to item.
func (p Part) Variable() bool { return p.Kind != Lit }

// String shows parts with the variable ones as placeholders, e.g.
// STATUS#<status>, ENROLL#<target>, u#<userID>#follower.
func String(parts []Part) string {
	var b strings.Builder
	for _, p := range parts {
		switch p.Kind {
		case Lit:
			b.WriteString(p.Text)
		case Attr, Field, Var:
			b.WriteString("<" + p.Text + ">")
		case Self:
			b.WriteString("<self>")
		case Source:
			b.WriteString("<source>")
		case Target:
			b.WriteString("<target>")
		case Parent:
			b.WriteString("<parent>")
		}
	}
	return b.String()
}

// ResolveVars binds Var parts to Field or Attr, on a copy: a template
// may be bound by several item types.
func ResolveVars(parts []Part, fields []string) []Part {
	if !slices.ContainsFunc(parts, func(p Part) bool { return p.Kind == Var }) {
		return parts
	}
	out := slices.Clone(parts)
	for i, p := range out {
		if p.Kind == Var {
			out[i].Kind = Attr
			if slices.Contains(fields, p.Text) {
				out[i].Kind = Field
			}
		}
	}
	return out
}

// WithSelf returns parts (copied if changed) with each Self replaced by
// self, an Entity's sort key template: an entity's own key in an index key
// is its sort key, whose ids ByIndex then takes one by one.
func WithSelf(parts, self []Part) []Part {
	if !slices.ContainsFunc(parts, func(p Part) bool { return p.Kind == Self }) {
		return parts
	}
	out := make([]Part, 0, len(parts)+len(self))
	for _, p := range parts {
		if p.Kind == Self {
			out = append(out, self...)
		} else {
			out = append(out, p)
		}
	}
	return out
}

// Attrs are the names of the data attributes parts read, in order.
func Attrs(parts []Part) []string {
	var names []string
	for _, p := range parts {
		if p.Kind == Attr {
			names = append(names, p.Text)
		}
	}
	return names
}

// FieldNames appends to fields the names of parts' key fields not in it
// yet (an Entity's: its partition key's, then its sort key's).
func FieldNames(fields []string, parts []Part) []string {
	for _, p := range parts {
		if p.Kind == Field && !slices.Contains(fields, p.Text) {
			fields = append(fields, p.Text)
		}
	}
	return fields
}

// Reserved are the placeholders of node keys; '@' is in no name.
var Reserved = map[string]Kind{"@self": Self, "@parent": Parent, "@source": Source, "@target": Target}

func braced(p Part) string {
	for name, k := range Reserved {
		if k == p.Kind {
			return "{" + name + "}"
		}
	}
	return "{" + p.Text + "}"
}

// ParseTemplate reads adjlist's Template into Lit and Var parts. It
// refuses what no key could be split back from: two {name}s with no '#'
// between them (an escaped id holds any character but '#'), invalid UTF-8
// or control characters, stray braces, names not ValidName. The caller
// wraps the error with the template.
func ParseTemplate(s string) ([]Part, error) {
	var parts []Part
	switch {
	case s == "":
		return nil, errors.New("empty")
	case !utf8.ValidString(s) || HasControl(s):
		return nil, errors.New("not valid UTF-8 text without control characters")
	}
	for rest := s; rest != ""; {
		open := strings.IndexAny(rest, "{}")
		if open < 0 {
			parts = append(parts, Part{Kind: Lit, Text: rest})
			break
		}
		if open > 0 {
			parts = append(parts, Part{Kind: Lit, Text: rest[:open]})
		}
		end := strings.IndexByte(rest[open:], '}')
		if rest[open] == '}' || end < 0 {
			return nil, errors.New("unbalanced braces")
		}
		name := rest[open+1 : open+end]
		kind, reserved := Reserved[name]
		if !reserved && strings.HasPrefix(name, "@") {
			return nil, fmt.Errorf("{%s}: the reserved placeholders are {@self}, {@parent}, {@source} and {@target}", name)
		}
		if !reserved && !ValidName(name) {
			return nil, fmt.Errorf("{%s}: names are 1-64 ASCII letters, digits, '_', '-' or '.'", name)
		}
		if n := len(parts); n > 0 && parts[n-1].Variable() {
			return nil, fmt.Errorf("{%s} follows %s with no text between them", name, braced(parts[n-1]))
		}
		if n := len(parts); n > 1 && parts[n-2].Variable() && !strings.Contains(parts[n-1].Text, "#") {
			// "{date}-{id}" could split anywhere.
			return nil, fmt.Errorf("{%s} follows %s with no '#' between them, so a key could not be split back into them", name, braced(parts[n-2]))
		}
		if reserved {
			parts = append(parts, Part{Kind: kind})
		} else {
			parts = append(parts, Part{Kind: Var, Text: name})
		}
		rest = rest[open+end+1:]
	}
	return parts, nil
}
