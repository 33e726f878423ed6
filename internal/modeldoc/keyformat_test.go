package modeldoc

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestJoinAndMatch: Join joins adjacent text and drops empty text; Text
// writes placeholders; Spelling reads each variable part as an escaped
// id (a run without '#'), a shard as two digits.
func TestJoinAndMatch(t *testing.T) {
	parts := Join([]Part{TextPart("u#"), TextPart("")}, []Part{IDPart("userID")}, []Part{TextPart("#"), TextPart("follower")}, ShardPart("key", 4))
	assert.Equal(t, []Part{TextPart("u#"), IDPart("userID"), TextPart("#follower#"), {Kind: PartShard, Name: "shard of key, 4"}}, parts)
	assert.Equal(t, "u#<userID>#follower#<shard of key, 4>", Text(parts))
	for key, want := range map[string]bool{
		"u#12345#follower#03": true,
		"u#12345#follower#3":  false,
		"u#1#2#follower#03":   false,
		"u##follower#03":      false,
		"u#12345#follower":    false,
		"u#a%2#follower#03":   false,
	} {
		assert.Equal(t, want, Spelling(parts).Matches(key, false), key)
	}
	assert.Nil(t, Join())
}
