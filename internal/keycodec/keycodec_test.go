package keycodec

import (
	"errors"
	"strings"
	"testing"
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
