package keycodec

import (
	"strings"
	"unicode/utf8"
)

// RangeKey is p followed by range value v as sort key text, by the rule
// adjlist's Query documents. rest is the spelling after p ([Spelling.Rest];
// nil or one id: v is one id); v is cut at as many '#'s as rest has (all
// when every: AllTypes), the last piece taking the rest. A piece in a
// text's place is kept; one in an id's place is escaped, but for the
// template's own text around the id: before it ("v" of "v{ver}") if the
// piece starts with it, after it ("%" of "{name}%#{order}") if the piece
// ends with it and is whole. A ref is read after its leading text, in p.
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
			// A piece the value goes on after is whole, as is the last.
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

// segment is one '#'-separated piece of a key template: its text around
// its id's place, if it has one (templates put a '#' between two ids).
type segment struct {
	lead, trail string
	variable    bool
}

// segments appends to out the pieces of s split at its text's '#'s (a
// ref's in its place); escaped ids hold no '#', so every key s builds has
// exactly these pieces. lead drops s's leading text (a ref's prefix).
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

// Rest is s from its first variable part not among the first n ids (nil
// if none): what follows the [Spelling.Prefix] of n ids, for [RangeKey].
func (s Spelling) Rest(n int) Spelling {
	for i, p := range s {
		if p.kind != text && (p.field >= n || p.kind == node) {
			return s[i:]
		}
	}
	return nil
}

// PastPrefix is the least valid UTF-8 string after every key starting
// with p: p's last character advanced to the next code point ("PROJ$" for
// "PROJ#"; a last U+10FFFF is dropped and the one before advanced). UTF-8
// sorts as its code points, so every key between p and it starts with p.
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
