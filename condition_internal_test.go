package adjlist

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSkCondHolds: a cursor's sort key is checked against the key condition
// as DynamoDB evaluates it, bounds included where DynamoDB includes them.
func TestSkCondHolds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		c    skCond
		in   []string
		out  []string
	}{
		{"prefix only", skCond{}, []string{"ENROLL#", "ENROLL#x"}, []string{"ENROLL$", "ENROLL", "A"}},
		{"between is inclusive", skCond{op: skBetween, lo: "ENROLL#b", hi: "ENROLL$"}, []string{"ENROLL#b", "ENROLL#z", "ENROLL$"}, []string{"ENROLL#a", "ENROLL$ ", "ENROLL%"}},
		{"begins_with", skCond{op: skBeginsWith, lo: "ENROLL#20"}, []string{"ENROLL#20", "ENROLL#2026"}, []string{"ENROLL#2", "ENROLL#30"}},
		{">", skCond{op: skGT, lo: "b"}, []string{"b ", "c"}, []string{"b", "a"}},
		{">=", skCond{op: skGE, lo: "b"}, []string{"b", "c"}, []string{"a", "a~"}},
		{"<", skCond{op: skLT, lo: "b"}, []string{"a", "a~"}, []string{"b", "c"}},
		{"<=", skCond{op: skLE, lo: "b"}, []string{"a", "b"}, []string{"b ", "c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, v := range tc.in {
				assert.True(t, tc.c.holds(v, "ENROLL#"), "%q", v)
			}
			for _, v := range tc.out {
				assert.False(t, tc.c.holds(v, "ENROLL#"), "%q", v)
			}
		})
	}
}
