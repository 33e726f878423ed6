package adjlist

import (
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
)

// skOp is the kind of sort key condition a query sends.
type skOp int

const (
	skNone       skOp = iota // begins_with(the item type's prefix)
	skBetween                // BETWEEN lo AND hi
	skBeginsWith             // begins_with(lo)
	// On an index sort key with no item type prefix (a template that
	// starts with a data attribute), conditions compare whole values.
	skGT // > lo
	skGE // >= lo
	skLT // < lo
	skLE // <= lo
	skEQ // = lo
)

// skCond is a sort key condition kept inside the item type's prefix: its
// values are whole sort key values (prefix + escaped id).
type skCond struct {
	op     skOp
	lo, hi string
}

// holds reports whether sort key value v meets the condition as DynamoDB
// evaluates the key condition sent for it (prefix: the item type's, sent as
// begins_with when there is no condition): any key a page of the query can
// end on, and so any cursor it issues, holds.
func (c skCond) holds(v, prefix string) bool {
	switch c.op {
	case skBetween:
		return c.lo <= v && v <= c.hi
	case skBeginsWith:
		return strings.HasPrefix(v, c.lo)
	case skGT:
		return v > c.lo
	case skGE:
		return v >= c.lo
	case skLT:
		return v < c.lo
	case skLE:
		return v <= c.lo
	case skEQ:
		return v == c.lo
	}
	return strings.HasPrefix(v, prefix)
}

// The sort key conditions take ids (the part of the key after the item
// type's prefix, as [Edge.From]'s targets, [Edge.To]'s sources and
// [Collection.List]'s children are written) and escape and prefix them as
// the codec writes keys, so a range never reaches outside the item type:
// on "PROJ#" children, LessThan("b") is
//
//	PK = "WS#acme" AND SK BETWEEN "PROJ#" AND "PROJ#b"
//
// and never returns the parent's "META" item or another child type. Ids
// compare as their escaped keys do, byte by byte ('#' and '%' are stored as
// "%23" and "%25"; every other byte as it is). A query takes one sort key
// condition; a second, an empty or invalid id, lo > hi, or a query whose
// sort key has no item type prefix (WaitIndexed's) fail with
// [ErrInvalidOption] or [ErrInvalidKey] when run, before any request.
//
// On an index whose sort key template starts with a data attribute
// ([Compose](Attr("createdAt")), see [Collection.ByIndex]) there is no item
// type prefix: the conditions compare the whole escaped value with
// DynamoDB's own operators (GSI2SK > :v, < :v, BETWEEN, begins_with), and
// LessThan is exclusive without dropping anything on the client. On a
// native index they apply, typed, to the first sort attribute the query
// does not fix, and values are the data's own, not escaped: a Go number
// (an int, uint or float kind) on a number attribute, so that
// GreaterThan(9) keeps 10 and 100, and a string on a string one. A value
// of the other kind, a string on a number attribute included, is
// [ErrInvalidOption] before any request; everywhere else values are
// strings (ids, or the escaped text of a derived key).
//
// An inclusive upper bound for ids that start with a prefix: BETWEEN is
// inclusive of whole values, so Between("2023-01-01", "2023-01-31") misses
// "2023-01-31T10:00". Use [PrefixEnd]("2023-01-31") as hi, or LessThan of
// the next prefix ("2023-02-01").

// Between keeps the items whose id is between lo and hi inclusive, as
// DynamoDB's BETWEEN: for a user's orders in January,
//
//	orders.List("123").Between("2023-01-01", adjlist.PrefixEnd("2023-01-31"))
//
// is one Query per page with PK = "USER#123" AND SK BETWEEN
// "ORDER#2023-01-01" AND "ORDER#2023-01-31\U0010FFFF". lo > hi is
// [ErrInvalidOption] (DynamoDB would refuse it).
func (q Query[T]) Between(lo, hi any) Query[T] {
	return q.sortKey("Between", lo, hi, func(p, lo, hi string) skCond {
		return skCond{op: skBetween, lo: lo, hi: hi}
	})
}

// GreaterThan keeps the items whose id sorts after v: SK BETWEEN
// prefix+v+" " AND the end of the prefix ("PROJ$" for "PROJ#"). Ids hold
// no control characters, so a space is the least byte that can follow v in
// a key, and prefix+v+" " the first key after prefix+v.
func (q Query[T]) GreaterThan(v any) Query[T] {
	return q.sortKey("GreaterThan", v, nil, func(p, v, _ string) skCond {
		return skCond{op: skBetween, lo: v + " ", hi: prefixEnd(p)}
	})
}

// GreaterThanEqual keeps the items whose id is v or sorts after it: SK
// BETWEEN prefix+v AND the end of the prefix ("PROJ$" for "PROJ#").
func (q Query[T]) GreaterThanEqual(v any) Query[T] {
	return q.sortKey("GreaterThanEqual", v, nil, func(p, v, _ string) skCond {
		return skCond{op: skBetween, lo: v, hi: prefixEnd(p)}
	})
}

// LessThan keeps the items whose id sorts before v: SK BETWEEN prefix AND
// prefix+v, and the item with id v itself, if DynamoDB returns it, is
// dropped from the results (DynamoDB has no exclusive bound that stays
// inside the prefix). That item still counts toward [Query.Limit] and is
// still read and billed.
func (q Query[T]) LessThan(v any) Query[T] {
	q = q.sortKey("LessThan", v, nil, func(p, v, _ string) skCond {
		return skCond{op: skBetween, lo: p, hi: v}
	})
	if q.err != nil {
		return q
	}
	if q.sk.op == skLT {
		return q // an exclusive bound DynamoDB applies itself
	}
	q.excl = q.sk.hi
	q.decode = excluding(q.decode, q.skAttr, q.excl)
	return q
}

// excluding wraps decode to skip the item whose attr is bound.
func excluding[T any](decode func(Item) (T, bool, error), attr, bound string) func(Item) (T, bool, error) {
	return func(item Item) (T, bool, error) {
		if s, _ := stringAttr(item, attr); s == bound {
			var zero T
			return zero, false, nil
		}
		return decode(item)
	}
}

// LessThanEqual keeps the items whose id is v or sorts before it: SK
// BETWEEN prefix AND prefix+v.
func (q Query[T]) LessThanEqual(v any) Query[T] {
	return q.sortKey("LessThanEqual", v, nil, func(p, v, _ string) skCond {
		return skCond{op: skBetween, lo: p, hi: v}
	})
}

// BeginsWith keeps the items whose id starts with p: begins_with(SK,
// prefix+p). p is a prefix of the id, deliberately not closed with '#':
// BeginsWith("2026-") on "PROJ#" children lists ids "2026-0001",
// "2026-0042", ... (SK begins with "PROJ#2026-").
func (q Query[T]) BeginsWith(p string) Query[T] {
	return q.sortKey("BeginsWith", p, nil, func(_, p, _ string) skCond {
		return skCond{op: skBeginsWith, lo: p}
	})
}

// Equal keeps the one item whose id is v: SK = prefix+v, e.g. on a
// player's items (PK = "player001", prefix "ITEMS#"), Equal("003") is
// PK = "player001" AND SK = "ITEMS#003". On an index sort key without an
// item type prefix it compares the whole value (GSI2SK = :v), and on a
// native index the first sort attribute not fixed, typed.
func (q Query[T]) Equal(v any) Query[T] {
	return q.sortKey("Equal", v, nil, func(_, v, _ string) skCond {
		return skCond{op: skEQ, lo: v}
	})
}

// PrefixEnd returns an inclusive upper bound for the ids that start with
// prefix: prefix followed by U+10FFFF, the greatest Unicode code point, so
// Between("2023-01-01", PrefixEnd("2023-01-31")) includes
// "2023-01-31T10:00". (An id holding U+10FFFF right after the prefix would
// sort after it; such ids are not expected in practice.)
func PrefixEnd(prefix string) string { return prefix + "\U0010FFFF" }

// prefixEnd is the least string after every key that starts with p, a
// prefix ending in '#': p with its '#' replaced by '$', the next byte.
func prefixEnd(p string) string { return p[:len(p)-1] + "$" }

// sortKey sets the query's one sort key condition from ids a and b ("" when
// the condition takes one), turned into whole sort key values.
func (q Query[T]) sortKey(name string, av, bv any, cond func(prefix, a, b string) skCond) Query[T] {
	if q.err != nil {
		return q
	}
	a, err := q.rangeText(name, av)
	b := ""
	if err == nil && name == "Between" {
		b, err = q.rangeText(name, bv)
	}
	if err != nil {
		q.err = err
		return q
	}
	p := q.skPrefix
	free := p == "" && q.keys.freeSK
	switch {
	case q.sk.op != skNone:
		q.err = fmt.Errorf("%w: %s after another sort key condition; a query takes one", ErrInvalidOption, name)
		return q
	case !free && (p == "" || q.keys.skExact || !strings.HasSuffix(p, "#")):
		q.err = fmt.Errorf("%w: %s on a query without an item type prefix", ErrInvalidOption, name)
		return q
	}
	if nk := q.keys.native; nk != nil {
		// Native attributes hold the data's own values, not escaped.
		if err := nativeBounds(nk.next, name, a, b); err != nil {
			q.err = fmt.Errorf("%w: %w", ErrInvalidOption, err)
			return q
		}
		q.sk = freeCond(name, a, b)
		q.calls += "." + name + condArgs(name)
		return q.compile()
	}
	bound := q.boundKey
	if q.keys.rawSK {
		bound = rawBound
	}
	ka, err := bound(name, p, a)
	if err != nil {
		q.err = err
		return q
	}
	kb := ""
	if name == "Between" {
		if kb, err = bound(name, p, b); err != nil {
			q.err = err
			return q
		}
		if ka > kb {
			q.err = fmt.Errorf("%w: Between(%q, %q): lo sorts after hi", ErrInvalidOption, a, b)
			return q
		}
	}
	if free {
		q.sk = freeCond(name, ka, kb)
	} else {
		q.sk = cond(p, ka, kb)
	}
	q.calls += "." + name + condArgs(name)
	return q.compile()
}

// rangeText is a range value as the key's text: on a native index's
// number sort attribute a Go number (int, uint, float kinds) in DynamoDB's
// number text, anywhere else a string. A value of the other kind is
// ErrInvalidOption: a number key compared as text would sort 10 before 9.
func (q Query[T]) rangeText(name string, v any) (string, error) {
	if nk := q.keys.native; nk != nil && nk.next != nil && attrType(*nk.next) == types.ScalarAttributeTypeN {
		switch v.(type) {
		case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
			av, err := attributevalue.Marshal(v)
			if err != nil {
				return "", fmt.Errorf("%w: %s(%v): %w", ErrInvalidOption, name, v, err)
			}
			return av.(*types.AttributeValueMemberN).Value, nil
		}
		return "", fmt.Errorf("%w: %s on number attribute %s takes a Go number, got %T %v", ErrInvalidOption, name, nk.next.Name, v, v)
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%w: %s on a string sort key takes a string, got %T %v", ErrInvalidOption, name, v, v)
	}
	return s, nil
}

// condArgs is how Describe shows a condition's arguments.
func condArgs(name string) string {
	if name == "Between" {
		return "(lo, hi)"
	}
	return "(v)"
}

// freeCond is the condition called name on a whole sort key value.
func freeCond(name, a, b string) skCond {
	op := map[string]skOp{"Between": skBetween, "GreaterThan": skGT, "GreaterThanEqual": skGE,
		"LessThan": skLT, "LessThanEqual": skLE, "BeginsWith": skBeginsWith, "Equal": skEQ}[name]
	return skCond{op: op, lo: a, hi: b}
}

// boundKey is prefix p followed by id escaped, checked as an id and against
// the sort key size limit.
func (q Query[T]) boundKey(name, p, id string) (string, error) {
	if err := checkID(name, id); err != nil {
		return "", err
	}
	k := joinKey(id)
	if p != "" {
		k = joinKey(id, strings.TrimSuffix(p, "#"))
	}
	return k, checkLen(name, "sort key", k, MaxSortKeyLen)
}

// rawBound is a whole sort key value as given ([AllTypes]' conditions),
// checked as keys are: valid UTF-8 without control characters, at most
// MaxSortKeyLen bytes.
func rawBound(name, _, v string) (string, error) {
	if err := checkID(name, v); err != nil {
		return "", err
	}
	return v, checkLen(name, "sort key", v, MaxSortKeyLen)
}

// Filter adds a filter expression on the items' data attributes, built with
// the SDK's expression package, e.g. active projects only:
//
//	projects.List("acme").Filter(expression.Name("status").Equal(expression.Value("ACTIVE")))
//
// It is ANDed with any filter the query already sends (the label filter of
// reverse reads) and with earlier Filter calls. DynamoDB applies it after
// reading: [Query.Limit] counts items before the filter, so a page can come
// back short or empty with a cursor, and filtered-out items are still read
// and billed. [Query.Count] counts the matching items, reading all of them
// ([Usage.Scanned] against [Usage.Matched] shows what the filter dropped).
//
// A filter that names a key attribute of the table or index queried (PK and
// SK on the table, GSI1PK and GSI1SK on the index) fails with
// [ErrInvalidOption] when run, before any request (DynamoDB refuses it):
// use the sort key conditions instead. An invalid condition fails with
// [ErrInvalidOption] wrapping the expression package's error.
func (q Query[T]) Filter(cond expression.ConditionBuilder) Query[T] {
	if q.err != nil {
		return q
	}
	if q.filter != nil {
		cond = q.filter.And(cond)
	}
	q.filter = &cond
	q.calls += ".Filter(cond)"
	return q.compile()
}

// Project asks for only the named data attributes
// (ProjectionExpression); the key attributes the decoder and cursors need
// are added. The fields of T for other attributes keep their zero value.
// Names are attribute names as the SDK's expression.Name reads them ("a.b"
// is a nested path). Project with no names, or an empty name, fails with
// [ErrInvalidOption] when run. Projection saves bandwidth and decoding, not
// read capacity: DynamoDB bills the whole items read.
func (q Query[T]) Project(names ...string) Query[T] {
	if q.err != nil {
		return q
	}
	if len(names) == 0 || q.keys.keysOnly {
		q.err = fmt.Errorf("%w: Project needs at least one attribute name", ErrInvalidOption)
		return q
	}
	for _, name := range names {
		if name == "" {
			q.err = fmt.Errorf("%w: Project of an empty attribute name", ErrInvalidOption)
			return q
		}
	}
	q.proj = append(append([]string(nil), q.proj...), names...)
	q.calls += ".Project(" + strings.Join(names, ", ") + ")"
	return q.compile()
}
