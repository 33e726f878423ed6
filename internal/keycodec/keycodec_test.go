package keycodec

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func escape(id string) string {
	var b strings.Builder
	AppendEscaped(&b, id)
	return b.String()
}

func TestEscapeRoundTrip(t *testing.T) {
	for id, want := range map[string]string{
		"a91": "a91", "x#1%": "x%231%25", "#": "%23", "%23": "%2523", "": "", "名#": "名%23",
	} {
		got := escape(id)
		back, err := Unescape(got)
		if got != want || len(got) != EscapedLen(id) || err != nil || back != id {
			t.Errorf("escape(%q) = %q (len %d, EscapedLen %d; Unescape: %q, %v), want %q",
				id, got, len(got), EscapedLen(id), back, err, want)
		}
	}
}

func TestUnescapeRejects(t *testing.T) {
	for _, s := range []string{"a#b", "%", "%2", "%24", "%3", "x%2"} {
		if _, err := Unescape(s); !errors.Is(err, ErrMalformed) {
			t.Errorf("Unescape(%q) = %v, want ErrMalformed", s, err)
		}
	}
}

func TestValidName(t *testing.T) {
	for s, want := range map[string]bool{
		"STU": true, "follows-v2": true, "USER.v1": true, "_": true,
		"": false, "S U": false, "A#B": false, "A%B": false, "É": false, strings.Repeat("a", 65): false,
	} {
		if ValidName(s) != want {
			t.Errorf("ValidName(%q) = %v, want %v", s, !want, want)
		}
	}
}

func TestOverlap(t *testing.T) {
	v := Part{Kind: Field}
	text := func(s string) Part { return Part{Kind: Lit, Text: s} }
	for name, c := range map[string]struct {
		a, b []Part
		want bool
	}{
		"same template":               {[]Part{text("u#"), v}, []Part{text("u#"), v}, true},
		"other prefix":                {[]Part{text("u#"), v}, []Part{text("p#"), v}, false},
		"more segments":               {[]Part{text("u#"), v}, []Part{text("u#"), v, text("#x")}, false},
		"a bare id and a constant":    {[]Part{v}, []Part{text("info")}, true},
		"an id after text, no '#'":    {[]Part{text("User:"), v}, []Part{text("Room:"), v}, false},
		"constant equal to prefix":    {[]Part{text("u#"), v}, []Part{text("u#")}, false},
		"constant longer than prefix": {[]Part{text("u"), v}, []Part{text("user")}, true},
	} {
		assert.Equal(t, c.want, Overlap(c.a, c.b), name)
	}
}
