package ddbexpr

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestValuesThroughTheEncoder: a native index's key values and range
// values are typed as the table's encoder stores them, as a write
// stores the data: a time.Time under EncodeTime to epoch seconds is a
// number, under the SDK's default a string.
func TestValuesThroughTheEncoder(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	epoch := attributevalue.NewEncoder(func(o *attributevalue.EncoderOptions) {
		o.EncodeTime = func(t time.Time) (types.AttributeValue, error) {
			return &types.AttributeValueMemberN{Value: "1767323045"}, nil
		}
	})
	const n, s = types.ScalarAttributeTypeN, types.ScalarAttributeTypeS
	for _, tc := range []struct {
		name string
		enc  *attributevalue.Encoder
		typ  types.ScalarAttributeType
		v    any
		want types.AttributeValue // nil: refused
	}{
		{"epoch time on a number", epoch, n, at, &types.AttributeValueMemberN{Value: "1767323045"}},
		{"epoch time on a string", epoch, s, at, nil},
		{"default time on a string", nil, s, at, &types.AttributeValueMemberS{Value: "2026-01-02T03:04:05Z"}},
		{"default time on a number", nil, n, at, nil},
		{"a number", epoch, n, 9, &types.AttributeValueMemberN{Value: "9"}},
		{"number text", epoch, n, "9", &types.AttributeValueMemberN{Value: "9"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			av, err := Typed(tc.enc, "at", tc.typ, tc.v)
			number := ""
			if tc.typ == n {
				number = "at"
			}
			text, rerr := RangeText(tc.enc, "GreaterThan", tc.v, number)
			if tc.want == nil {
				require.Error(t, err)
				require.Error(t, rerr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, av)
			if _, isString := tc.v.(string); isString && tc.typ == n {
				require.Error(t, rerr, "a range on a number attribute takes no text")
				return
			}
			require.NoError(t, rerr)
			want, err := Typed(nil, "at", tc.typ, text)
			require.NoError(t, err)
			assert.Equal(t, tc.want, want, "the range's text types back to the value")
		})
	}
}

// TestNumberTextDecimalOnly: number text is refused before any request
// unless DynamoDB takes it as a number, although strconv.ParseFloat reads
// "NaN", "Inf", hex and '_' too; and Between compares its bounds exactly,
// beyond float64's 17 digits.
func TestNumberTextDecimalOnly(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"42", "-1.50", "1e3", "0.000001"} {
		av, err := NumberText("n", s)
		require.NoError(t, err, s)
		assert.Equal(t, &types.AttributeValueMemberN{Value: s}, av)
	}
	for _, s := range []string{"NaN", "nan", "Inf", "-Infinity", "0x10", "0x1p4", "1_000", "", "x"} {
		_, err := NumberText("n", s)
		assert.EqualError(t, err, `n is a number, got "`+s+`"`, s)
		_, err = Typed(nil, "n", types.ScalarAttributeTypeN, s)
		assert.Error(t, err, s)
	}
	const lo, hi = "100000000000000000000000000001", "100000000000000000000000000000"
	assert.EqualError(t, NativeBounds("n", types.ScalarAttributeTypeN, "Between", lo, hi), "Between("+lo+", "+hi+"): lo is greater than hi")
	assert.NoError(t, NativeBounds("n", types.ScalarAttributeTypeN, "Between", hi, lo))
}
