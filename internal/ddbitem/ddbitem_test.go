package ddbitem

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
)

func TestEqual(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	base := map[string]types.AttributeValue{
		"s":  s("a"),
		"n":  &types.AttributeValueMemberN{Value: "1"},
		"ss": &types.AttributeValueMemberSS{Value: []string{"x", "y"}},
		"bs": &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2}}},
		"l":  &types.AttributeValueMemberL{Value: []types.AttributeValue{s("p"), s("q")}},
		"m":  &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": s("v")}},
	}
	for name, c := range map[string]struct {
		other map[string]types.AttributeValue
		want  bool
	}{
		"same":                  {map[string]types.AttributeValue{"s": s("a"), "n": &types.AttributeValueMemberN{Value: "1"}, "ss": &types.AttributeValueMemberSS{Value: []string{"y", "x"}}, "bs": &types.AttributeValueMemberBS{Value: [][]byte{{2}, {1}}}, "l": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("p"), s("q")}}, "m": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": s("v")}}}, true},
		"list order matters":    {map[string]types.AttributeValue{"s": s("a"), "n": &types.AttributeValueMemberN{Value: "1"}, "ss": &types.AttributeValueMemberSS{Value: []string{"x", "y"}}, "bs": &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2}}}, "l": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("q"), s("p")}}, "m": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": s("v")}}}, false},
		"a string for a number": {map[string]types.AttributeValue{"s": s("a"), "n": s("1"), "ss": &types.AttributeValueMemberSS{Value: []string{"x", "y"}}, "bs": &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2}}}, "l": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("p"), s("q")}}, "m": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": s("v")}}}, false},
		"an attribute missing":  {map[string]types.AttributeValue{"s": s("a")}, false},
	} {
		assert.Equal(t, c.want, Equal(base, c.other), name)
	}
}

func TestValidIndexName(t *testing.T) {
	for s, want := range map[string]bool{"GSI1": true, "a.b-c_d": true, "ab": false, "with space": false, "é-index": false} {
		assert.Equal(t, want, ValidIndexName(s), s)
	}
}
