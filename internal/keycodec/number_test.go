package keycodec

import (
	"encoding/json"
	"reflect"
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

func TestFitsGo(t *testing.T) {
	i8, u := reflect.TypeFor[int8](), reflect.TypeFor[*uint]()
	assert.True(t, fitsGo(i8, "127"))
	assert.False(t, fitsGo(i8, "300"))
	assert.False(t, fitsGo(i8, "-12.5"))
	assert.False(t, fitsGo(u, "-1"))
	f64 := reflect.TypeFor[float64]()
	assert.True(t, fitsGo(f64, "0.1"))
	assert.False(t, fitsGo(f64, "1e400"), "past float64's range")
	assert.False(t, fitsGo(f64, "9007199254740993"), "written back as 9007199254740992")
	assert.True(t, fitsGo(reflect.TypeFor[json.Number](), "9007199254740993"))
}

func TestTypedKeyValue(t *testing.T) {
	for text, ok := range map[string]bool{"12": true, "-1.5": true, "NaN": false, "Inf": false, "0x10": false, "1_0": false, "x": false} {
		_, got := typedKeyValue("N", text)
		assert.Equal(t, ok, got, text)
	}
	_, ok := typedKeyValue("S", "NaN")
	assert.True(t, ok)
}
