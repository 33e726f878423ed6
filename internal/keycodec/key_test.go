package keycodec

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRefusals pins each refusal's fields, which adjlist's KeyError
// reports as they are.
func TestRefusals(t *testing.T) {
	long := strings.Repeat("x", 2048)
	for name, tt := range map[string]struct {
		got  func() *Error
		want Error
	}{
		"empty id":   {func() *Error { return CheckID("STU", "") }, Error{Name: "STU", ID: "", Reason: "empty id"}},
		"bad UTF-8":  {func() *Error { return CheckID("STU", "\xff") }, Error{Name: "STU", ID: "\xff", Reason: "id is not valid UTF-8"}},
		"C1 control": {func() *Error { return CheckID("STU", "a\u0085") }, Error{Name: "STU", ID: "a\u0085", Reason: "id contains a control character"}},
		"bad name":   {func() *Error { return CheckName("node type", "S#") }, Error{Name: "node type", ID: "S#", Reason: "names are 1-64 ASCII letters, digits, '_', '-' or '.'"}},
		"too long":   {func() *Error { return CheckLen("S", "partition key", "S#"+long, 2048) }, Error{Name: "S", ID: "S#" + long, Reason: "partition key value is 2050 bytes, DynamoDB allows 2048"}},
	} {
		t.Run(name, func(t *testing.T) {
			got := tt.got()
			require.NotNil(t, got)
			assert.Equal(t, tt.want, *got)
		})
	}
	assert.Nil(t, CheckID("STU", "no\u00a0break"), "U+00A0 is not a control character")
}

// TestParseIDPlain: ParseID's one-pass reading of plain ids agrees with
// unescaping and checking, on plain ids and on every kind it hands on,
// and on every string of one or two bytes.
func TestParseIDPlain(t *testing.T) {
	cases := []string{
		"a91", "player001", "001", " ", "~", "a b", "A-Z_0.9", // plain
		"", "a#b", "a%23b", "a%25b", "%2", "a%zz", "\x00", "a\x1fb", "a\x7fb", "\u0085", "\u00a0", "é", "日本", "\xff", "a\xc2",
	}
	for b := 0; b < 256; b++ {
		cases = append(cases, string([]byte{byte(b)}), string([]byte{'a', byte(b)}), string([]byte{byte(b), 0x85}))
	}
	for _, s := range cases {
		want, err := Unescape(s)
		wantOK := err == nil && CheckID("id", want) == nil
		id, ok := ParseID("id", s)
		require.Equal(t, wantOK, ok, "%q", s)
		if ok {
			require.Equal(t, want, id, "%q", s)
		}
	}
}
