package keycodec

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestStoredNumber(t *testing.T) {
	for text, want := range map[string]bool{
		"0": true, "42": true, "-1.5": true, "10": true, "0.25": true,
		"": false, "-": false, "042": false, "+1": false, "1.50": false, "1e3": false, "-0": false,
		"1.": false, ".5": false, "NaN": false, "1_000": false, " 1": false,
		"123456789012345678901234567890123456789": false,
	} {
		assert.Equal(t, want, StoredNumber(text), text)
	}
}

func TestCompareNumbers(t *testing.T) {
	assert.Equal(t, -1, CompareNumbers("2", "10"))
	assert.Equal(t, 1, CompareNumbers("10", "9.5"))
	assert.Equal(t, 0, CompareNumbers("1.5", "1.50"))
	assert.Equal(t, -1, CompareNumbers("-3", "-2"))
}

func TestNumberKey(t *testing.T) {
	assert.NoError(t, NumberKey([]Part{{Kind: Field, Text: "id"}}))
	assert.Error(t, NumberKey([]Part{{Kind: Lit, Text: "v#"}, {Kind: Field, Text: "id"}}))
	assert.Error(t, NumberKey([]Part{{Kind: Field, Text: "a"}, {Kind: Lit, Text: "#"}, {Kind: Field, Text: "b"}}))
	assert.Error(t, NumberKey([]Part{{Kind: Lit, Text: "info"}}))
}
