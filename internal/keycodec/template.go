package keycodec

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ParseTemplate reads a key template as a design spells it (adjlist's
// Template): text written as it is (Lit), and {name} for a Var part,
// whose Text is the name. It refuses what no key could be split back from: two
// {name}s with no '#' between them (an escaped id may hold any character
// but '#'), text that is not valid UTF-8 or holds a control character,
// '{' or '}' outside a {name}, and a name that is not ValidName. The
// error says what is wrong, for the caller to wrap with the template.
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
		if !ValidName(name) {
			return nil, fmt.Errorf("{%s}: names are 1-64 ASCII letters, digits, '_', '-' or '.'", name)
		}
		if n := len(parts); n > 0 && parts[n-1].Kind == Var {
			return nil, fmt.Errorf("{%s} follows {%s} with no text between them", name, parts[n-1].Text)
		}
		if n := len(parts); n > 1 && parts[n-2].Kind == Var && !strings.Contains(parts[n-1].Text, "#") {
			// An id never holds a raw '#' (ids are escaped), so a '#'
			// is where one ends; "{date}-{id}" could split anywhere.
			return nil, fmt.Errorf("{%s} follows {%s} with no '#' between them, so a key could not be split back into them", name, parts[n-2].Text)
		}
		parts = append(parts, Part{Kind: Var, Text: name})
		rest = rest[open+end+1:]
	}
	return parts, nil
}
