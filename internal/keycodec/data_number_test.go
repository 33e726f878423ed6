package keycodec

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFitsGo(t *testing.T) {
	i8, u := reflect.TypeFor[int8](), reflect.TypeFor[*uint]()
	assert.True(t, fitsGo(i8, "127"))
	assert.False(t, fitsGo(i8, "300"))
	assert.False(t, fitsGo(i8, "-12.5"))
	assert.False(t, fitsGo(u, "-1"))
	assert.True(t, fitsGo(reflect.TypeFor[float64](), "1e400"))
}

func TestTypedKeyValue(t *testing.T) {
	for text, ok := range map[string]bool{"12": true, "-1.5": true, "NaN": false, "Inf": false, "0x10": false, "1_0": false, "x": false} {
		_, got := typedKeyValue("N", text)
		assert.Equal(t, ok, got, text)
	}
	_, ok := typedKeyValue("S", "NaN")
	assert.True(t, ok)
}
