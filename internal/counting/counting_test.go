package counting

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSequence(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"1", "0000000000000000000000000000000000000001", true},
		{"1234567890123456789012345678901234567890", "1234567890123456789012345678901234567890", true},
		{"", "", false},
		{"12345678901234567890123456789012345678901", "", false},
		{"12a", "", false},
	} {
		got, ok := Sequence(tc.in)
		assert.Equal(t, tc.ok, ok, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}

func TestMarkerSKRoundTrip(t *testing.T) {
	sk := MarkerSK("ENROLLED", "STU#a91")
	assert.Equal(t, "ENROLLED##STU#a91", sk)
	src, ok := MarkerSource("ENROLLED", sk)
	assert.True(t, ok)
	assert.Equal(t, "STU#a91", src)
	_, ok = MarkerSource("ENROLLED", "ENROLLED")
	assert.False(t, ok)
}

func TestTarget(t *testing.T) {
	to, ok := Target("ENROLL#CRS#math204", len("ENROLL#"))
	assert.True(t, ok)
	assert.Equal(t, "CRS#math204", to)
	_, ok = Target("ENROLL#", len("ENROLL#"))
	assert.False(t, ok)
}
