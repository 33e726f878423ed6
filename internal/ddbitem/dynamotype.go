package ddbitem

import (
	"reflect"
	"time"
)

var (
	timeType       = reflect.TypeFor[time.Time]()
	byteSlicesType = reflect.TypeFor[[][]byte]()
	numberType     = reflect.TypeFor[interface {
		Float64() (float64, error)
		Int64() (int64, error)
		String() string
	}]()
)

// DynamoTypeOf is the DynamoDB type a set value of Go type t marshals to
// as an untagged field.
func DynamoTypeOf(t reflect.Type) string { return dynamoType(t, tag{}) }

// dynamoType is what attributevalue marshals a value of t tagged g to. A
// type that marshals itself is typed by its Go kind, which may differ from
// what it writes; an interface is "S".
func dynamoType(t reflect.Type, g tag) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t.ConvertibleTo(timeType) && g.unixTime:
		return "N"
	case t.ConvertibleTo(timeType):
		return "S"
	case t.Kind() == reflect.String && t.Implements(numberType) && !g.asString: // json.Number
		return "N"
	}
	switch t.Kind() {
	case reflect.String:
		return "S"
	case reflect.Bool:
		return "BOOL"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		if g.asString {
			return "S"
		}
		return "N"
	case reflect.Slice, reflect.Array:
		switch {
		case t.Elem().Kind() == reflect.Uint8:
			return "B"
		case g.binSet || t == byteSlicesType:
			return "BS"
		case g.numSet:
			return "NS"
		case g.strSet:
			return "SS"
		}
		return "L"
	case reflect.Map, reflect.Struct:
		return "M"
	}
	return "S"
}
