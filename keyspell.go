package adjlist

import (
	"fmt"
	"slices"
	"strings"

	"github.com/adjlist/adjlist/internal/keycodec"
)

// spelling is a table key template of an [Entity]: text and key fields
// only, each field followed by '#' or ending the key, so that a key
// parses back into its ids.
type spelling []KeyPart

// bindSpelling checks a table key template and makes every {name} a key
// field; attr names the key ("partition key") in errors.
func bindSpelling(attr string, k KeyTemplate) (spelling, error) {
	if k.err != nil {
		return nil, k.err
	}
	if len(k.parts) == 0 {
		return nil, fmt.Errorf("%w: empty %s template", ErrInvalidOption, attr)
	}
	s := make(spelling, len(k.parts))
	for i, p := range k.parts {
		switch p.kind {
		case partVar, partField:
			p.kind = partField
		case partLit:
		case partConst:
			p.kind = partLit
		default:
			return nil, fmt.Errorf("%w: %s template %s: a table key holds text and {fields} only", ErrInvalidOption, attr, k)
		}
		if p.kind == partField && i+1 < len(k.parts) && !strings.HasPrefix(k.parts[i+1].name, "#") {
			return nil, fmt.Errorf("%w: %s template %s: {%s} must be followed by '#' or end the key, so that it parses back", ErrInvalidOption, attr, k, p.name)
		}
		s[i] = p
	}
	return s, nil
}

// fieldsOf appends to fields the key fields of s not in it yet, in order.
func (s spelling) fieldsOf(fields []string) []string {
	for _, p := range s {
		if p.kind == partField && !slices.Contains(fields, p.name) {
			fields = append(fields, p.name)
		}
	}
	return fields
}

// compiled is s as keycodec builds and parses keys, with ids in the
// order of fields. A handle compiles its spellings once; render, prefix
// and parse compile per call, for Describe and tests.
func (s spelling) compiled(fields []string) keycodec.Spelling {
	return keycodec.Compile(s.parts(), fields)
}

// render writes s with ids (escaped) for its fields, fields naming them.
func (s spelling) render(fields, ids []string) string { return s.compiled(fields).Render(ids) }

// prefix writes s as far as the ids of its leading fields allow
// (keycodec.Spelling.Prefix).
func (s spelling) prefix(fields, ids []string) (string, bool) { return s.compiled(fields).Prefix(ids) }

// parse reads key as s spells it into ids (by fields' order)
// (keycodec.Spelling.Parse).
func (s spelling) parse(key string, fields, ids []string) bool {
	return s.compiled(fields).Parse(key, ids)
}

// String is the template with its fields as <placeholders>.
func (s spelling) String() string { return partsString(s) }

// overlap reports whether two key templates can build the same key
// (keycodec.Overlap).
func overlap(s, o spelling) bool { return keycodec.Overlap(s.parts(), o.parts()) }

// parts is s as keycodec reads a template.
func (s spelling) parts() []keycodec.Part {
	out := make([]keycodec.Part, len(s))
	for i, p := range s {
		out[i] = keycodec.Part{Text: p.name, Variable: p.kind == partField}
	}
	return out
}
