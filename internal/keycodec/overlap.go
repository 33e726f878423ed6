package keycodec

import "strings"

// Overlap reports whether two key templates can build the same key; it
// may report one that ids equal across keys rule out, never miss one.
func Overlap(s, o []Part) bool {
	a, b := Compile(s, nil).segments([]segment{{}}, false), Compile(o, nil).segments([]segment{{}}, false)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		xt, yt := x.lead+x.trail, y.lead+y.trail
		switch {
		case !x.variable && !y.variable:
			if xt != yt {
				return false
			}
		case x.variable && y.variable:
			if !strings.HasPrefix(xt, yt) && !strings.HasPrefix(yt, xt) {
				return false
			}
		case x.variable: // y's text must be x's and a non-empty id
			if !strings.HasPrefix(yt, xt) || len(yt) == len(xt) {
				return false
			}
		default:
			if !strings.HasPrefix(xt, yt) || len(xt) == len(yt) {
				return false
			}
		}
	}
	return true
}
