// Package keycodec builds and parses adjlist's keys: escaping, names,
// node and edge keys, templates, index keys, range values and shards. It
// is internal so that its byte layout changes only with the key formats
// package adjlist documents.
//
// A key is a sequence of segments joined by Sep ('#'). Names (node types,
// edge labels, item markers) are chosen by programmers and may not contain
// Sep or Esc; ids come from users and are escaped so that they never contain
// a raw Sep:
//
//	'%' -> "%25"
//	'#' -> "%23"
//
// Every other byte is kept as it is, so ordinary ids ("a91", "math204",
// "2026-0007") read the same inside a key and sort in their own byte order.
// The mapping is injective, and Unescape reverses AppendEscaped for every
// string.
package keycodec

import (
	"errors"
	"strings"
)

const (
	// Sep separates the segments of a key.
	Sep = '#'
	// Esc starts an escape sequence inside an id.
	Esc = '%'
)

// ErrMalformed reports a string that AppendEscaped cannot have produced.
var ErrMalformed = errors.New("malformed escape sequence")

// needsEscape reports whether s holds a byte that AppendEscaped rewrites.
func needsEscape(s string) bool {
	return strings.IndexByte(s, Sep) >= 0 || strings.IndexByte(s, Esc) >= 0
}

// AppendEscaped writes the escaped form of id to b.
func AppendEscaped(b *strings.Builder, id string) {
	start := 0
	for i := 0; i < len(id); i++ {
		switch id[i] {
		case Esc:
			b.WriteString(id[start:i])
			b.WriteString("%25")
			start = i + 1
		case Sep:
			b.WriteString(id[start:i])
			b.WriteString("%23")
			start = i + 1
		}
	}
	b.WriteString(id[start:])
}

// EscapedLen is the length of id escaped, without building the string.
func EscapedLen(id string) int {
	n := len(id)
	for i := 0; i < len(id); i++ {
		if id[i] == Esc || id[i] == Sep {
			n += 2
		}
	}
	return n
}

// Unescape reverses AppendEscaped. It returns ErrMalformed for a raw '#' or for a
// '%' that does not start "%23" or "%25", so every accepted input has exactly
// one preimage.
func Unescape(s string) (string, error) {
	if !needsEscape(s) {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case Sep:
			return "", ErrMalformed
		case Esc:
			if i+2 >= len(s) || s[i+1] != '2' {
				return "", ErrMalformed
			}
			switch s[i+2] {
			case '3':
				b.WriteByte(Sep)
			case '5':
				b.WriteByte(Esc)
			default:
				return "", ErrMalformed
			}
			i += 2
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), nil
}

// ValidName reports whether s can serve as a node type, edge label or item
// marker: 1 to 64 bytes of ASCII letters, digits, '_', '-' or '.'. Names are
// never escaped, so they must not contain Sep or Esc.
func ValidName(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-', c == '.':
		default:
			return false
		}
	}
	return true
}
