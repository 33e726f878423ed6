package adjlist_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

func TestItemSize(t *testing.T) {
	t.Parallel()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	tests := []struct {
		name string
		item adjlist.Item
		want int
	}{
		{"string counts bytes", adjlist.Item{"PK": s("STU#a91")}, 2 + 7},
		{"multibyte string", adjlist.Item{"n": s("é名")}, 1 + 5},
		{"number", adjlist.Item{"year": n("2")}, 4 + 2},
		{"number trims zeros", adjlist.Item{"x": n("0012300")}, 1 + 3},
		{"number with fraction", adjlist.Item{"x": n("-1.2345")}, 1 + 4},
		{"bool and null", adjlist.Item{"b": &types.AttributeValueMemberBOOL{}, "z": &types.AttributeValueMemberNULL{Value: true}}, 2 + 2},
		{"binary", adjlist.Item{"b": &types.AttributeValueMemberB{Value: []byte{1, 2, 3}}}, 1 + 3},
		{"list", adjlist.Item{"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("ab"), s("c")}}}, 1 + 3 + (1 + 2) + (1 + 1)},
		{"map", adjlist.Item{"m": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": s("vv")}}}, 1 + 3 + 1 + 1 + 2},
		{"string set", adjlist.Item{"ss": &types.AttributeValueMemberSS{Value: []string{"a", "bc"}}}, 2 + 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, adjlist.ItemSize(tt.item))
		})
	}
}

type note struct {
	Note string `dynamodbav:"note"`
}

// 409,600 bytes is accepted, by adjlist and by DynamoDB (Local); one more
// byte is refused before any request.
func TestItemSizeLimit(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	notes := adjlist.NewEdge[note](s.students, "NOTE", s.courses)
	keys := len("PK") + len("STU#a91") + len("SK") + len("NOTE#CRS#math204") +
		len("GSI1PK") + len("CRS#math204") + len("GSI1SK") + len("STU#a91") + len("note")
	exact := strings.Repeat("x", maxItemSize-keys)

	before := s.calls.total()
	err := notes.Put(ctx, "a91", "math204", note{Note: exact + "y"})
	require.ErrorIs(t, err, adjlist.ErrItemTooLarge)
	assert.Equal(t, before, s.calls.total(), "no request sent")

	// DynamoDB itself draws the line at the same byte.
	raw := adjlist.Item{
		"PK": &types.AttributeValueMemberS{Value: "STU#b30"}, "SK": &types.AttributeValueMemberS{Value: "NOTE#CRS#math204"},
		"GSI1PK": &types.AttributeValueMemberS{Value: "CRS#math204"}, "GSI1SK": &types.AttributeValueMemberS{Value: "STU#b30"},
		"note": &types.AttributeValueMemberS{Value: exact + "y"},
	}
	require.Equal(t, maxItemSize+1, adjlist.ItemSize(raw))
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table.Name()), Item: raw})
	var apiErr smithy.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "ValidationException", apiErr.ErrorCode())

	require.NoError(t, notes.Put(ctx, "a91", "math204", note{Note: exact}))
	got, err := notes.Get(ctx, "a91", "math204")
	require.NoError(t, err)
	assert.Len(t, got.Note, len(exact))
}
