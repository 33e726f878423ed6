package ddbexpr

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestUsesName: UsesName finds an attribute's placeholder in a rendered filter only as
// a whole placeholder: "#1" is not in "#10", and a name the expression
// does not use is not found.
func TestUsesName(t *testing.T) {
	names := map[string]string{"#0": "grade", "#1": "PK", "#10": "SK"}
	for _, c := range []struct {
		expr, attr string
		want       bool
	}{
		{"#0 = :0", "grade", true},
		{"#0 = :0", "PK", false},
		{"#10 = :0", "PK", false},
		{"#10 = :0", "SK", true},
		{"(#0 = :0) AND (begins_with (#1, :1))", "PK", true},
		{"contains (#1, :1)", "PK", true},
		{"#0 = :0", "absent", false},
	} {
		assert.Equal(t, c.want, UsesName(c.expr, names, c.attr), "%s in %s", c.attr, c.expr)
	}
}
