package keycodec

import (
	"strings"
	"unicode/utf8"
)

// RangeKey is p followed by range value v as sort key text, the rule
// package adjlist's Query documents: rest is the sort key's spelling
// after p ([Spelling.Rest]; nil or one id, as after "PROJ#": v is one
// id), and v is cut at its first '#'s, as many as rest puts between its
// parts (all of them when every is set: AllTypes, which reads the keys
// of no one template), the last piece taking the rest of v. A piece in
// the place of constant text is kept as it is; a piece in an id's place
// is escaped as ids are ('#' → "%23", '%' → "%25"), but for the
// template's own text around the id, kept as a write writes it: before
// it ("v" of "v{ver}") if the piece starts with it, and after it ("%" of
// "{name}%#{order}") if the piece ends with it and is whole (the value
// goes on after it, or it is in the template's last place). A ref in
// rest is read after its leading text ("WS#"), which p holds.
func RangeKey(p, v string, rest Spelling, every bool) string {
	var b strings.Builder
	if !every && (len(rest) == 0 || len(rest) == 1 && rest[0].kind != ref) {
		b.Grow(len(p) + EscapedLen(v))
		b.WriteString(p)
		AppendEscaped(&b, v)
		return b.String()
	}
	b.WriteString(p)
	var segs []segment
	if !every {
		segs = rest.segments([]segment{{}}, false)
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

// segments appends to out the pieces of s split at the '#'s of its text
// (a ref's spelling in its place), every id, data attribute or node key
// an id's place. An id never holds a raw '#' (ids are escaped), so every
// key s builds has exactly these pieces. lead drops s's leading text,
// which the prefix before a ref holds.
func (s Spelling) segments(out []segment, lead bool) []segment {
	for i, p := range s {
		switch {
		case p.kind == ref:
			out = p.ref.Spelling.segments(out, true)
		case p.kind != text:
			out[len(out)-1].variable = true
		case !lead || i > 0:
			for j, piece := range strings.Split(p.text, "#") {
				if j > 0 {
					out = append(out, segment{})
				}
				if s := &out[len(out)-1]; s.variable {
					s.trail += piece
				} else {
					s.lead += piece
				}
			}
		}
	}
	return out
}

// Rest is s from its first id, data attribute or node key not among the
// first n ids on (nil if none): the rest of a key after the prefix a
// query with n leading ids reads ([Spelling.Prefix]), for [RangeKey].
func (s Spelling) Rest(n int) Spelling {
	for i, p := range s {
		if p.kind != text && (p.field >= n || p.kind == node) {
			return s[i:]
		}
	}
	return nil
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
