package ddbexpr

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuilder: the actions render in order with the values the encoder
// made, nil as NULL; a value the encoder refuses is an error.
func TestBuilder(t *testing.T) {
	t.Parallel()
	enc := attributevalue.NewEncoder()
	ops := []Op{
		{Kind: OpSet, Path: "status", Value: "A"},
		{Kind: OpSet, Path: "gone", Value: nil},
		{Kind: OpRemove, Path: "draft"},
		{Kind: OpAdd, Path: "n", Value: 1},
		{Kind: OpSetTo, Path: "likes", Operand: expression.Name("likes").Plus(expression.Value(1))},
	}
	b, err := Builder(ops, enc)
	require.NoError(t, err)
	e, err := expression.NewBuilder().WithUpdate(b).Build()
	require.NoError(t, err)
	assert.Equal(t, "ADD #0 :0\nREMOVE #1\nSET #2 = :1, #3 = :2, #4 = #4 + :3\n", *e.Update())
	assert.Equal(t, &types.AttributeValueMemberNULL{Value: true}, e.Values()[":2"])
	assert.Len(t, ops, 5, "the ops are read, not changed")

	_, err = Builder([]Op{{Kind: OpSet, Path: "f", Value: map[[2]int]int{{1, 2}: 1}}}, enc)
	require.Error(t, err)
	assert.ErrorContains(t, err, `the value for "f"`)
}

// TestAssignments: what an update does to each top-level attribute.
func TestAssignments(t *testing.T) {
	t.Parallel()
	got, err := Assignments([]Op{
		{Kind: OpSet, Path: "a", Value: "x"},
		{Kind: OpRemove, Path: "b"},
		{Kind: OpSet, Path: "c.d", Value: 1},
		{Kind: OpAdd, Path: "e", Value: 1},
		{Kind: OpSet, Path: "l[0]", Value: 1},
	}, attributevalue.NewEncoder())
	require.NoError(t, err)
	assert.Equal(t, map[string]Assignment{
		"a": {Value: &types.AttributeValueMemberS{Value: "x"}, Known: true},
		"b": {Known: true},
		"c": {}, "e": {}, "l": {},
	}, got)
	assert.Equal(t, "c", TopLevel("c.d[1]"))
	assert.True(t, IsTopLevel("c"))
	assert.False(t, IsTopLevel("l[0]"))
}

// TestShows: a stored item shows an update applied only when it holds
// every value SET and lacks every attribute REMOVEd; any action whose
// effect the item cannot show is false. Idempotent is false for ADD and
// a computed SET alone.
func TestShows(t *testing.T) {
	t.Parallel()
	enc := attributevalue.NewEncoder()
	stored := map[string]types.AttributeValue{
		"status":  &types.AttributeValueMemberS{Value: "closed"},
		"version": &types.AttributeValueMemberN{Value: "2"},
		"gone":    &types.AttributeValueMemberNULL{Value: true},
	}
	plus := expression.Name("n").Plus(expression.Value(1))
	tests := []struct {
		name       string
		ops        []Op
		shows      bool
		idempotent bool
	}{
		{"every value set, the removed one absent", []Op{{Kind: OpSet, Path: "status", Value: "closed"}, {Kind: OpSet, Path: "version", Value: int64(2)}, {Kind: OpRemove, Path: "draft"}}, true, true},
		{"nil is NULL", []Op{{Kind: OpSet, Path: "gone", Value: nil}}, true, true},
		{"another value", []Op{{Kind: OpSet, Path: "status", Value: "open"}}, false, true},
		{"a removed attribute present", []Op{{Kind: OpRemove, Path: "status"}}, false, true},
		{"a set attribute absent", []Op{{Kind: OpSet, Path: "other", Value: "x"}}, false, true},
		{"a nested path", []Op{{Kind: OpSet, Path: "status.x", Value: "closed"}}, false, true},
		{"ADD", []Op{{Kind: OpAdd, Path: "n", Value: 1}}, false, false},
		{"a computed SET", []Op{{Kind: OpSetTo, Path: "n", Operand: plus}}, false, false},
		{"DELETE from a set", []Op{{Kind: OpDelete, Path: "tags", Value: []string{"a"}}}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.shows, Shows(tt.ops, enc, stored))
			assert.Equal(t, tt.idempotent, Idempotent(tt.ops))
		})
	}
	assert.False(t, Shows([]Op{{Kind: OpRemove, Path: "x"}}, enc, nil), "no stored item shows nothing")
}
