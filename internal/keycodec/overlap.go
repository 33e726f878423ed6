package keycodec

import "strings"

// segment is one '#'-separated piece of a key template: text, then
// perhaps one variable part.
type segment struct {
	text     string
	variable bool
}

// segments splits a key template at the '#'s of its text: every key it
// builds has exactly these segments.
func segments(parts []Part) []segment {
	out := []segment{{}}
	for _, p := range parts {
		if p.Variable() {
			out[len(out)-1].variable = true
			continue
		}
		for i, piece := range strings.Split(p.Text, "#") {
			if i > 0 {
				out = append(out, segment{})
			}
			out[len(out)-1].text += piece
		}
	}
	return out
}

// Overlap reports whether two key templates can build the same key. It
// may report an overlap that the ids' equalities across keys rule out (it
// reads each key alone), never miss one.
func Overlap(s, o []Part) bool {
	a, b := segments(s), segments(o)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		switch {
		case !x.variable && !y.variable:
			if x.text != y.text {
				return false
			}
		case x.variable && y.variable:
			if !strings.HasPrefix(x.text, y.text) && !strings.HasPrefix(y.text, x.text) {
				return false
			}
		case x.variable: // y's text must be x's and a non-empty id
			if !strings.HasPrefix(y.text, x.text) || len(y.text) == len(x.text) {
				return false
			}
		default:
			if !strings.HasPrefix(x.text, y.text) || len(x.text) == len(y.text) {
				return false
			}
		}
	}
	return true
}
