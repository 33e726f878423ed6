package keycodec

import (
	"slices"
	"strings"
)

// Kind says what a Part of a key template writes.
type Kind uint8

// The kinds of Part. The zero Kind is no part (adjlist's zero KeyPart).
const (
	// Const is a constant name (adjlist.Const).
	Const Kind = iota + 1
	// Attr is a data attribute's text (adjlist.Attr).
	Attr
	// Self, Source, Target and Parent are node keys the item has
	// (adjlist.SelfKey ...).
	Self
	Source
	Target
	Parent
	// Lit is text written as it is: a Template's text, and the '#'
	// Compose puts between parts.
	Lit
	// Field is an Entity's key field (the "userID" of "u#{userID}"),
	// whose value is an id the caller gives.
	Field
	// Var is a Template's {name} not yet bound to an item type: a key
	// field where the Entity has one by that name, else an Attr.
	Var
)

// Part is one part of a key template: text (Const, Lit) or a part that
// differs from item to item, whose Text is its name (Attr, Field, Var;
// empty for a node key).
type Part struct {
	Kind Kind
	Text string
}

// Variable reports whether p's text differs from item to item.
func (p Part) Variable() bool { return p.Kind != Const && p.Kind != Lit }

// String shows parts with the variable ones as placeholders, e.g.
// STATUS#<status>, ENROLL#<target>, u#<userID>#follower (adjlist's
// KeyTemplate.String).
func String(parts []Part) string {
	var b strings.Builder
	for _, p := range parts {
		switch p.Kind {
		case Const, Lit:
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

// ResolveVars binds a Template's {name} parts: a key field when fields
// has the name, else a data attribute. The parts are copied: a template
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

// WithSelf returns parts with each Self replaced by self, an Entity's
// sort key template (its text and key fields): the entity's own key in
// an index key is its sort key, which a write renders from the ids and
// ByIndex fills with the ids of its fields ("p#{postID}#u#{authorID}"
// takes two), as the table key spells them. parts is copied if changed.
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

// FieldNames appends to fields the names of parts' key fields not in it yet,
// in order: an Entity's fields are its partition key's, then its sort
// key's.
func FieldNames(fields []string, parts []Part) []string {
	for _, p := range parts {
		if p.Kind == Field && !slices.Contains(fields, p.Text) {
			fields = append(fields, p.Text)
		}
	}
	return fields
}
