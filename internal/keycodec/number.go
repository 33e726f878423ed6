package keycodec

import (
	"errors"
	"math/big"
	"reflect"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// NumberKey checks the template of a table key of type N, bound by
// [TableKey]: one {field}, whose id is the number's text as DynamoDB
// stores it ("42", "-1.5"), unescaped.
func NumberKey(parts []Part) error {
	if len(parts) != 1 || parts[0].Kind != Field {
		return errors.New("a number (N) key holds one number: its template must be a single {field}, without text or other fields")
	}
	return nil
}

// CheckNumberID refuses a number key's id that is not [StoredNumber].
func CheckNumberID(name, id string) error {
	if !StoredNumber(id) {
		return &Error{Name: name, ID: id, Reason: "a number key's id is a number as DynamoDB stores it (\"42\", \"-1.5\"; not \"042\", \"+1\", \"1.50\" or \"1e3\")"}
	}
	return nil
}

// StoredNumber reports whether text is a number as DynamoDB stores and
// returns it: an optional '-', an integer part without leading zeros, and
// a fraction without trailing zeros ("-12.5", not "+12.50", "012.5",
// "1.25e1" or "-0"), of at most 38 significant digits.
func StoredNumber(text string) bool {
	s, neg := strings.CutPrefix(text, "-")
	intPart, frac, hasFrac := strings.Cut(s, ".")
	digits := func(p string) bool {
		return p != "" && strings.Trim(p, "0123456789") == ""
	}
	switch {
	case !digits(intPart) || len(intPart) > 1 && intPart[0] == '0':
		return false
	case hasFrac && (!digits(frac) || strings.HasSuffix(frac, "0")):
		return false
	case len(strings.TrimLeft(intPart+frac, "0")) > 38:
		return false
	}
	return !neg || s != "0"
}

// CompareNumbers compares decimal texts as DynamoDB orders a number key;
// text that is no number compares as zero.
func CompareNumbers(a, b string) int {
	x, okA := new(big.Rat).SetString(a)
	y, okB := new(big.Rat).SetString(b)
	if !okA {
		x = new(big.Rat)
	}
	if !okB {
		y = new(big.Rat)
	}
	return x.Cmp(y)
}

// keyValueText: ok is false but for a non-empty string or a number.
func keyValueText(av types.AttributeValue) (string, bool) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value, v.Value != ""
	case *types.AttributeValueMemberN:
		return v.Value, true
	}
	return "", false
}

// DecimalNumber reports whether text is a number DynamoDB accepts in a
// request: decimal ("42", "-1.50", "1e3"), not "NaN", "Inf", hex or
// digits with '_', which strconv.ParseFloat also takes.
func DecimalNumber(text string) bool {
	_, err := strconv.ParseFloat(text, 64)
	return err == nil && !strings.ContainsAny(text, "xXpPnNiI_")
}

// typedKeyValue is key text as an attribute of type typ ("S" or "N").
func typedKeyValue(typ, text string) (types.AttributeValue, bool) {
	if typ == "N" {
		if !DecimalNumber(text) {
			return nil, false
		}
		return &types.AttributeValueMemberN{Value: text}, true
	}
	return &types.AttributeValueMemberS{Value: text}, true
}

// fitsGo reports whether number text decodes into a field of Go type t
// and encodes back as text: an integer kind takes a whole number in its
// range, a float kind a number it holds exactly (9007199254740993 is no
// float64: it would be written back as 9007199254740992, the key of
// another item); other types (json.Number) take any.
func fitsGo(t reflect.Type, text string) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var err error
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		_, err = strconv.ParseInt(text, 10, t.Bits())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		_, err = strconv.ParseUint(text, 10, t.Bits())
	case reflect.Float32, reflect.Float64:
		var f float64
		if f, err = strconv.ParseFloat(text, t.Bits()); err == nil && strconv.FormatFloat(f, 'f', -1, t.Bits()) != text {
			return false // as the SDK's encoder writes it
		}
	}
	return err == nil
}
