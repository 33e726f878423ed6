package ddbexpr

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHolds: a cursor's sort key is checked against the key condition
// as DynamoDB evaluates it, bounds included where DynamoDB includes them.
func TestHolds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		op     CmpOp
		lo, hi string
		in     []string
		out    []string
	}{
		{"prefix only", None, "", "", []string{"ENROLL#", "ENROLL#x"}, []string{"ENROLL$", "ENROLL", "A"}},
		{"between is inclusive", Between, "ENROLL#b", "ENROLL$", []string{"ENROLL#b", "ENROLL#z", "ENROLL$"}, []string{"ENROLL#a", "ENROLL$ ", "ENROLL%"}},
		{"begins_with", BeginsWith, "ENROLL#20", "", []string{"ENROLL#20", "ENROLL#2026"}, []string{"ENROLL#2", "ENROLL#30"}},
		{">", GT, "b", "", []string{"b ", "c"}, []string{"b", "a"}},
		{">=", GE, "b", "", []string{"b", "c"}, []string{"a", "a~"}},
		{"<", LT, "b", "", []string{"a", "a~"}, []string{"b", "c"}},
		{"<=", LE, "b", "", []string{"a", "b"}, []string{"b ", "c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, v := range tc.in {
				assert.True(t, tc.op.Holds(v, tc.lo, tc.hi, "ENROLL#"), "%q", v)
			}
			for _, v := range tc.out {
				assert.False(t, tc.op.Holds(v, tc.lo, tc.hi, "ENROLL#"), "%q", v)
			}
		})
	}
}

func TestNamedAndRangeText(t *testing.T) {
	for name, op := range map[string]CmpOp{"Between": Between, "GreaterThan": GT, "GreaterThanEqual": GE, "LessThan": LT, "LessThanEqual": LE, "BeginsWith": BeginsWith, "Equal": EQ} {
		assert.Equal(t, op, Named(name), name)
	}
	assert.Equal(t, "(lo, hi)", Args("Between"))
	assert.Equal(t, "(v)", Args("Equal"))
	s, err := RangeText(nil, "GreaterThan", 1.5, "score")
	require.NoError(t, err)
	assert.Equal(t, "1.5", s)
	_, err = RangeText(nil, "GreaterThan", "9", "score")
	require.Error(t, err)
	_, err = RangeText(nil, "GreaterThan", 9, "")
	require.Error(t, err)
	s, err = RangeText(nil, "BeginsWith", "a#b", "")
	require.NoError(t, err)
	assert.Equal(t, "a#b", s)
}
