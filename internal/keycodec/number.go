package keycodec

import (
	"errors"
	"math/big"
	"strings"
)

// A table key of DynamoDB type N holds one number, not text: its
// template is a single key field, whose id is the number's text as
// DynamoDB stores and returns it ("42", "-1.5"), written unescaped.

// NumberKey checks the template of a table key of type N, bound by
// [TableKey]: one {field} and nothing else.
func NumberKey(parts []Part) error {
	if len(parts) != 1 || parts[0].Kind != Field {
		return errors.New("a number (N) key holds one number: its template must be a single {field}, without text or other fields")
	}
	return nil
}

// CheckNumberID refuses the id of key field name of a number (N) key
// that is not a number in DynamoDB's stored text ([StoredNumber]).
func CheckNumberID(name, id string) *Error {
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

// CompareNumbers compares the numbers of decimal texts a and b as
// DynamoDB orders a number key: -1, 0 or +1. Text that is no number
// compares as zero.
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
