// Package keycodec builds and parses adjlist's keys (escaping, names,
// templates, index keys, range values, shards); its byte layout changes
// only with the key formats package adjlist documents.
//
// A key is segments joined by Sep ('#'). Names (node types, labels,
// markers) may not contain Sep or Esc; ids are escaped, so that they never
// hold a raw Sep:
//
//	'%' -> "%25"
//	'#' -> "%23"
//
// Every other byte is kept, so ordinary ids read the same inside a key and
// sort in their own byte order. Unescape reverses AppendEscaped.
package keycodec

import (
	"errors"
	"strings"
)

const (
	Sep = '#' // separates a key's segments
	Esc = '%' // starts an escape inside an id
)

// ErrMalformed reports a string that AppendEscaped cannot have produced.
var ErrMalformed = errors.New("malformed escape sequence")

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
	return len(id) + 2*(strings.Count(id, "#")+strings.Count(id, "%"))
}

// Unescape reverses AppendEscaped: ErrMalformed for a raw '#' or a '%'
// not starting "%23" or "%25", so every accepted input has one preimage.
func Unescape(s string) (string, error) {
	if !strings.ContainsAny(s, "#%") {
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

// ValidName reports whether s can be a node type, edge label or marker:
// 1 to 64 ASCII letters, digits, '_', '-' or '.' (never escaped).
func ValidName(s string) bool {
	return len(s) > 0 && len(s) <= 64 && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") == ""
}
