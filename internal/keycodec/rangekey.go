package keycodec

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// RangeKey is p followed by range value v as sort key text, the rule
// package adjlist's Query documents: rest is the sort key's template after
// p (nil: one id, as after "PROJ#"), and v is cut at its first '#'s, as
// many as rest puts between its parts (all of them when every is set:
// AllTypes, which reads the keys of no one template), the last piece
// taking the rest of v. A piece in the place of constant text is kept as
// it is; a piece in an id's place is escaped as ids are ('#' → "%23", '%'
// → "%25"), but for the template's own text around the id, kept as a
// write writes it: before it ("v" of "v{ver}") if the piece starts with
// it, and after it ("%" of "{name}%#{order}") if the piece ends with it
// and is whole (the value goes on after it, or it is in the template's
// last place).
func RangeKey(p, v string, rest []Part, every bool) string {
	var b strings.Builder
	if rest == nil && !every {
		b.Grow(len(p) + EscapedLen(v))
		b.WriteString(p)
		AppendEscaped(&b, v)
		return b.String()
	}
	b.WriteString(p)
	var segs []segment
	if !every {
		segs = segments(rest, isField)
	}
	for i := 0; ; i++ {
		piece, tail, cut := v, "", false
		if every || i+1 < len(segs) {
			piece, tail, cut = strings.Cut(v, "#")
		}
		seg := segment{variable: true}
		if !every {
			seg = segs[i]
		}
		if !seg.variable {
			b.WriteString(piece)
		} else {
			lead, id, trail := "", piece, ""
			if x, ok := strings.CutPrefix(id, seg.lead); ok {
				lead, id = seg.lead, x
			}
			// A piece the value goes on after is whole, as is one in the
			// template's last place: their text after the id is the
			// template's.
			if x, ok := strings.CutSuffix(id, seg.trail); ok && (cut || i+1 == len(segs)) {
				id, trail = x, seg.trail
			}
			b.WriteString(lead)
			AppendEscaped(&b, id)
			b.WriteString(trail)
		}
		if !cut {
			return b.String()
		}
		b.WriteByte(Sep)
		v = tail
	}
}

// segment is one '#'-separated piece of a key template: its text before
// its id's place, whether it has one (a piece holds one at most:
// templates put a '#' between two), and its text after it.
type segment struct {
	lead, trail string
	variable    bool
}

// segments splits parts at the '#'s of their text, variable telling the
// parts that hold an id. An id never holds a raw '#' (ids are escaped),
// so every key the parts build has exactly these pieces.
func segments(parts []Part, variable func(Part) bool) []segment {
	out := []segment{{}}
	for _, p := range parts {
		if variable(p) {
			out[len(out)-1].variable = true
			continue
		}
		for i, piece := range strings.Split(p.Text, "#") {
			if i > 0 {
				out = append(out, segment{})
			}
			if s := &out[len(out)-1]; s.variable {
				s.trail += piece
			} else {
				s.lead += piece
			}
		}
	}
	return out
}

// isField reports whether p is a key field: the id places of the rest
// that range values read.
func isField(p Part) bool { return p.Kind == Field }

// RestAfter is the part of sort key template s after what ids, the
// leading key fields' ids (an Entity's List), spell of it: from its first
// field not given on, or nil when that field ends the key (one id, the
// default of [RangeKey]) or every field is given.
func RestAfter(s []Part, fields, ids []string) []Part {
	for i, p := range s {
		if p.Kind == Field && slices.Index(fields, p.Text) >= len(ids) {
			return OneID(s[i:])
		}
	}
	return nil
}

// OneID is rest, or nil when it is a single id (the default of
// [RangeKey]).
func OneID(rest []Part) []Part {
	if len(rest) == 1 && rest[0].Kind == Field {
		return nil
	}
	return rest
}

// PastPrefix is the least valid UTF-8 string after every key that starts
// with p: p with its last character replaced by the next code point
// ("PROJ$" for "PROJ#", "w" for "v"; a last U+10FFFF is dropped and the
// one before it advanced). UTF-8 sorts as its code points do, so every
// key that starts with p sorts before it, and every key between p and it
// starts with p. p is a non-empty prefix of an item type's keys.
func PastPrefix(p string) string {
	for p != "" {
		r, n := utf8.DecodeLastRuneInString(p)
		p = p[:len(p)-n]
		if r < utf8.MaxRune {
			if r++; r == 0xD800 { // surrogates are no characters
				r = 0xE000
			}
			return p + string(r)
		}
	}
	return "\U0010FFFF" // p was U+10FFFF only: no string sorts after its keys
}
