package keycodec

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// keyValueText is the text a key holds for attribute value av: a non-empty
// string, or a number; ok is false for any other value.
func keyValueText(av types.AttributeValue) (string, bool) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value, v.Value != ""
	case *types.AttributeValueMemberN:
		return v.Value, true
	}
	return "", false
}

// typedKeyValue is text read from a key as an attribute of DynamoDB type typ
// ("S" or "N"); ok is false for a number that is not one.
func typedKeyValue(typ, text string) (types.AttributeValue, bool) {
	if typ == "N" {
		// Decimal text only: ParseFloat also takes "NaN", "Inf", hex and
		// '_', which DynamoDB refuses as numbers.
		if _, err := strconv.ParseFloat(text, 64); err != nil || strings.ContainsAny(text, "xXpPnNiI_") {
			return nil, false
		}
		return &types.AttributeValueMemberN{Value: text}, true
	}
	return &types.AttributeValueMemberS{Value: text}, true
}

// fitsGo reports whether number text decodes into a field of Go type t:
// an integer kind takes a whole number in its range, a float32 one in
// its range; other types (float64, json.Number) take any.
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
	case reflect.Float32:
		_, err = strconv.ParseFloat(text, 32)
	}
	return err == nil
}
