package keycodec

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// TestPastPrefix: the least string after every key with the prefix, valid
// UTF-8.
func TestPastPrefix(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]string{"PROJ#": "PROJ$", "v": "w", "é": "ê", "a\u00bf": "a\u00c0",
		"x\ud7ff": "x\ue000", "a\U0010FFFF": "b"} {
		got := PastPrefix(p)
		assert.Equal(t, want, got, "%q", p)
		assert.True(t, utf8.ValidString(got))
		assert.Greater(t, got, p+"\U0010FFFF")
	}
}
