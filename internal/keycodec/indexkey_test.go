package keycodec

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/internal/errs"
)

func TestIndexKeyValue(t *testing.T) {
	parts := []Part{{Kind: Lit, Text: "F"}, {Kind: Lit, Text: "#"}, {Kind: Field, Text: "followerID"},
		{Kind: Lit, Text: "#"}, {Kind: Attr, Text: "status"}, {Kind: Lit, Text: "#"}, {Kind: Target}}
	k := Compile(parts, slices.Concat([]string{"userID", "followerID"}, Attrs(parts)))
	c := &Ctx{Target: "CRS#m%2304", IDs: []string{"u1", "a#b"}}
	data := map[string]types.AttributeValue{"status": &types.AttributeValueMemberS{Value: "50%"}}

	key, ok, err := k.Value(data, c)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "F#a%23b#50%25#CRS#m%2304", key)

	data["status"] = &types.AttributeValueMemberN{Value: "12"}
	key, _, _ = k.Value(data, c)
	assert.Equal(t, "F#a%23b#12#CRS#m%2304", key)

	for _, missing := range []types.AttributeValue{nil, &types.AttributeValueMemberNULL{Value: true}, &types.AttributeValueMemberS{}} {
		data["status"] = missing
		_, ok, err = k.Value(data, c)
		assert.False(t, ok)
		assert.NoError(t, err)
	}
	data["status"] = &types.AttributeValueMemberS{Value: "a\x00"}
	_, _, err = k.Value(data, c)
	var ke *Error
	require.ErrorAs(t, err, &ke)
	assert.Equal(t, Error{Name: "status", ID: "a\x00", Reason: "id contains a control character"}, *ke)
	data["status"] = &types.AttributeValueMemberBOOL{Value: true}
	_, _, err = k.Value(data, c)
	require.ErrorIs(t, err, errs.ErrInvalidOption)
	assert.EqualError(t, err, `adjlist: invalid option: attribute "status" feeds an index key and is *types.AttributeValueMemberBOOL; want a string or number`)

	prefixes := &Ctx{Self: "STU#", Target: "CRS#"}
	for _, tc := range []struct {
		parts  []Part
		prefix string
		exact  bool
	}{
		{parts, "F#", false},
		{[]Part{{Kind: Lit, Text: "ENROLL#"}, {Kind: Target}}, "ENROLL#CRS#", false},
		{[]Part{{Kind: Attr, Text: "at"}}, "", false},
		{[]Part{{Kind: Lit, Text: "INFO"}}, "INFO", true},
	} {
		prefix, exact := StaticPrefix(tc.parts, prefixes)
		assert.Equal(t, [2]any{tc.prefix, tc.exact}, [2]any{prefix, exact}, String(tc.parts))
	}
}

// upper marshals itself, upper case.
type upper string

func (u upper) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberS{Value: strings.ToUpper(string(u))}, nil
}

// TestValueTextAsWritten: a value given for a key is spelled as a write
// renders the key from the item its encoder made, for every encoder:
// the text after "AT#" in the written key is ValueText's.
func TestValueTextAsWritten(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	epoch := attributevalue.NewEncoder(func(o *attributevalue.EncoderOptions) {
		o.EncodeTime = func(t time.Time) (types.AttributeValue, error) {
			return &types.AttributeValueMemberN{Value: "1767323045"}, nil
		}
	})
	day := attributevalue.NewEncoder(func(o *attributevalue.EncoderOptions) {
		o.EncodeTime = func(t time.Time) (types.AttributeValue, error) {
			return &types.AttributeValueMemberS{Value: t.Format("2006-01-02#Mon")}, nil
		}
	})
	for _, tc := range []struct {
		name string
		enc  *attributevalue.Encoder
		v    any
		want string
	}{
		{"time, epoch seconds", epoch, at, "1767323045"},
		{"time, a string with a separator", day, at, "2026-01-02%23Fri"},
		{"time, the SDK's default", nil, at, "2026-01-02T03:04:05Z"},
		{"its own marshaller", epoch, upper("open"), "OPEN"},
		{"a number", epoch, 42, "42"},
		{"a string escaped", nil, "a#b%", "a%23b%25"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// What a write of {at: v} puts in key AT#{at}.
			enc := tc.enc
			if enc == nil {
				enc = attributevalue.NewEncoder()
			}
			item, err := enc.Encode(map[string]any{"at": tc.v})
			require.NoError(t, err)
			key, ok, bad := Compile([]Part{{Kind: Lit, Text: "AT"}, {Kind: Lit, Text: "#"}, {Kind: Attr, Text: "at"}}, []string{"at"}).
				Value(item.(*types.AttributeValueMemberM).Value, &Ctx{})
			require.Nil(t, bad)
			require.True(t, ok)
			assert.Equal(t, "AT#"+tc.want, key)

			text, present, err := ValueText(tc.enc, "at", tc.v)
			require.NoError(t, err)
			assert.True(t, present)
			assert.Equal(t, tc.want, text)
		})
	}
	_, present, err := ValueText(epoch, "at", []byte("x"))
	assert.False(t, present)
	require.ErrorIs(t, err, errs.ErrInvalidOption, "a binary value is refused, as a write refuses it")
}
