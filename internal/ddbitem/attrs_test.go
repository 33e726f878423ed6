package ddbitem

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAttrsGet(t *testing.T) {
	t.Parallel()
	a := Attrs{{"GSI1PK", "x"}, {"GSI1SK", ""}}
	v, ok := a.Get("GSI1SK")
	assert.True(t, ok)
	assert.Empty(t, v)
	_, ok = a.Get("GSI2PK")
	assert.False(t, ok)
}
