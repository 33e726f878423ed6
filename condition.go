package adjlist

import (
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/adjlist/adjlist/internal/ddbexpr"
	"github.com/adjlist/adjlist/internal/keycodec"
)

// skOp is the kind of sort key condition a query sends ([ddbexpr.CmpOp]).
type skOp = ddbexpr.CmpOp

const (
	skNone       = ddbexpr.None
	skBetween    = ddbexpr.Between
	skBeginsWith = ddbexpr.BeginsWith
	skGT         = ddbexpr.GT
	skGE         = ddbexpr.GE
	skLT         = ddbexpr.LT
	skLE         = ddbexpr.LE
	skEQ         = ddbexpr.EQ
)

// skCond is a sort key condition kept inside the item type's prefix: its
// values are whole sort key values (prefix + escaped id).
type skCond struct {
	op     skOp
	lo, hi string
}

// The sort key conditions turn range values into whole sort key values
// inside the query's prefix, so a range never leaves its item type
// (docs/reads.md, "Ranges, filters and projections"). A second condition,
// an empty or invalid value, lo > hi, or a query whose sort key is one
// value or has no prefix (WaitIndexed's, a List naming every sort key
// field) fail with [ErrInvalidOption] or [ErrInvalidKey] when run.

// Between keeps the items whose sort key after the query's prefix lies
// between the range values lo and hi inclusive, as DynamoDB's BETWEEN
// ([Query] says how a range value becomes key text): for a user's orders
// in January,
//
//	orders.List("123").Between("2023-01-01", "2023-01-31\U0010FFFF")
//
// is one Query per page with PK = "USER#123" AND SK BETWEEN
// "ORDER#2023-01-01" AND "ORDER#2023-01-31\U0010FFFF". lo sorting after hi
// (as key text; as numbers on a native index's number attribute) is
// [ErrInvalidOption] (DynamoDB would refuse it).
func (q Query[T]) Between(lo, hi any) Query[T] {
	qsSortKey(&q.querySpec, "Between", lo, hi)
	return q
}

// GreaterThan keeps the items whose sort key after the query's prefix
// sorts after the range value v ([Query]): SK BETWEEN prefix+v+" " AND the
// end of the prefix (the prefix with its last character replaced by the
// next one: "PROJ$" for "PROJ#", "w" for "v"). Keys hold no control
// characters, so a space is the least byte that can follow v in a key, and
// prefix+v+" " the first key after prefix+v. Where prefix+v is already
// 1024 bytes long (no key is longer, and DynamoDB refuses a
// longer value) it is SK BETWEEN prefix+v AND the end of the prefix, and
// the item whose key is prefix+v, if DynamoDB returns it, is dropped, as
// on [Query.LessThan]. Without a prefix (a sort key that starts with a
// field or a data attribute, [AllTypes], a native index) it is SK > v.
func (q Query[T]) GreaterThan(v any) Query[T] {
	qsSortKey(&q.querySpec, "GreaterThan", v, nil)
	return q
}

// GreaterThanEqual keeps the items whose sort key after the query's prefix
// is the range value v or sorts after it ([Query]): SK BETWEEN prefix+v
// AND the end of the prefix ("PROJ$" for "PROJ#"); SK >= v without a
// prefix.
func (q Query[T]) GreaterThanEqual(v any) Query[T] {
	qsSortKey(&q.querySpec, "GreaterThanEqual", v, nil)
	return q
}

// LessThan keeps the items whose sort key after the query's prefix sorts
// before the range value v ([Query]): SK BETWEEN prefix AND prefix+v, and
// the item whose key is prefix+v itself, if DynamoDB returns it, is
// dropped from the results (DynamoDB has no exclusive bound that stays
// inside the prefix). That item still counts toward [Query.Limit] and is
// still read and billed. Without a prefix it is SK < v, which DynamoDB
// applies itself.
func (q Query[T]) LessThan(v any) Query[T] {
	qsSortKey(&q.querySpec, "LessThan", v, nil)
	return q
}

// LessThanEqual keeps the items whose sort key after the query's prefix is
// the range value v or sorts before it ([Query]): SK BETWEEN prefix AND
// prefix+v; SK <= v without a prefix.
func (q Query[T]) LessThanEqual(v any) Query[T] {
	qsSortKey(&q.querySpec, "LessThanEqual", v, nil)
	return q
}

// BeginsWith keeps the items whose sort key after the query's prefix
// starts with the range value p ([Query]): begins_with(SK, prefix+p). p is
// a prefix of the key text, deliberately not closed with '#':
// BeginsWith("2026-") on "PROJ#" children lists ids "2026-0001",
// "2026-0042", ... (SK begins with "PROJ#2026-"). On a multi-field sort
// key a '#' the template puts there closes a field: with "{state}#{date}",
// BeginsWith("WARNING1#") is every item of state WARNING1, whatever its
// date (begins_with(SK, "WARNING1#")), through the entity's List and
// through [AllTypes] alike.
func (q Query[T]) BeginsWith(p string) Query[T] {
	qsSortKey(&q.querySpec, "BeginsWith", p, nil)
	return q
}

// Equal keeps the items whose sort key after the query's prefix is the
// range value v ([Query]): SK = prefix+v, e.g. on a player's items (PK =
// "player001", prefix "ITEMS#"), Equal("003") is PK = "player001" AND SK
// = "ITEMS#003". Without a prefix it compares the whole value (GSI2SK =
// :v), and on a native index the first sort attribute not fixed, typed.
func (q Query[T]) Equal(v any) Query[T] {
	qsSortKey(&q.querySpec, "Equal", v, nil)
	return q
}

// qsSortKey sets the query's one sort key condition, name's, from range
// values av and bv (bv only for Between), turned into whole sort key values.
func qsSortKey(q *querySpec, name string, av, bv any) {
	if q.err != nil {
		return
	}
	op := ddbexpr.Named(name)
	a, err := qsRangeText(q, name, av)
	b := ""
	if err == nil && op == skBetween {
		b, err = qsRangeText(q, name, bv)
	}
	p := q.skPrefix
	free := p == "" && q.keys.freeSK
	switch {
	case err != nil:
	case q.sk.op != skNone:
		err = fmt.Errorf("%w: %s after another sort key condition; a query takes one", ErrInvalidOption, name)
	case q.keys.sourceFilter != "":
		err = fmt.Errorf("%w: %s on a reverse read of index %s, which has no sort key (Options.IndexPartitionOnly)", ErrInvalidOption, name, q.keys.index)
	case q.keys.skExact:
		err = fmt.Errorf("%w: %s on a query of one sort key value (%q)", ErrInvalidOption, name, p)
	case !free && p == "":
		err = fmt.Errorf("%w: %s on a query without an item type prefix", ErrInvalidOption, name)
	case q.keys.skNum && op == skBeginsWith:
		err = fmt.Errorf("%w: BeginsWith on number sort key %s", ErrInvalidOption, q.t.opts.SortKey)
	}
	if err != nil {
		q.err = err
		return
	}
	if nk := q.keys.native; nk != nil && !nk.keyText(q.t) {
		// Native attributes hold the data's own values, not escaped.
		if err := ddbexpr.NativeBounds(nk.next.Name, attrType(*nk.next), name, a, b); err != nil {
			q.err = fmt.Errorf("%w: %w", ErrInvalidOption, err)
			return
		}
		q.sk = skCond{op: op, lo: a, hi: b}
		q.calls += "." + name + ddbexpr.Args(name)
		*q = qsCompile(*q)
		return
	}
	ka, err := qsBoundKey(q, name, p, a)
	kb := ""
	if err == nil && op == skBetween {
		kb, err = qsBoundKey(q, name, p, b)
		if err == nil && (q.keys.skNum && keycodec.CompareNumbers(ka, kb) > 0 || !q.keys.skNum && ka > kb) {
			err = fmt.Errorf("%w: Between(%q, %q): lo sorts after hi", ErrInvalidOption, a, b)
		}
	}
	if err != nil {
		q.err = err
		return
	}
	// Inside a prefix every range is a BETWEEN; excl is a bound it must
	// leave out, skipped by run.
	excl := ""
	switch {
	case free, op == skBetween, op == skBeginsWith, op == skEQ:
		q.sk = skCond{op: op, lo: ka, hi: kb}
	case op == skGT && len(ka) >= keycodec.MaxSortKeyLen:
		q.sk, excl = skCond{op: skBetween, lo: ka, hi: keycodec.PastPrefix(p)}, ka
	case op == skGT:
		q.sk = skCond{op: skBetween, lo: ka + " ", hi: keycodec.PastPrefix(p)}
	case op == skGE:
		q.sk = skCond{op: skBetween, lo: ka, hi: keycodec.PastPrefix(p)}
	case op == skLT:
		q.sk, excl = skCond{op: skBetween, lo: p, hi: ka}, ka
	case op == skLE:
		q.sk = skCond{op: skBetween, lo: p, hi: ka}
	}
	q.calls += "." + name + ddbexpr.Args(name)
	*q = qsCompile(*q)
	if q.err == nil && excl != "" {
		q.run.Excl = excl
	}
}

// qsRangeText is a range value as the key's text ([ddbexpr.RangeText]): a
// number on a number sort key, else a string; the other kind is refused, as
// a number compared as text would sort 10 before 9.
func qsRangeText(q *querySpec, name string, v any) (string, error) {
	num := ""
	if nk := q.keys.native; nk != nil && nk.next != nil && attrType(*nk.next) == types.ScalarAttributeTypeN {
		num = nk.next.Name
	}
	if q.keys.skNum && q.keys.index == "" {
		num = q.t.opts.SortKey
	}
	s, err := ddbexpr.RangeText(q.t.enc, name, v, num)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrInvalidOption, err)
	}
	return s, nil
}

// qsBoundKey is prefix p then range value v as key text, v checked as ids
// are and the key against the sort key size limit.
func qsBoundKey(q *querySpec, name, p, v string) (string, error) {
	if err := checkID(name, v); err != nil {
		return "", err
	}
	k := keycodec.RangeKey(p, v, q.keys.skRest, q.keys.everySep)
	return k, checkLen(name, "sort key", k, keycodec.MaxSortKeyLen)
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
// ([UsageTotals].Scanned against Matched shows what the filter dropped).
//
// A filter that names a key attribute of the table or index queried (PK and
// SK on the table, GSI1PK and GSI1SK on the index) fails with
// [ErrInvalidOption] when run, before any request (DynamoDB refuses it):
// use the sort key conditions instead. An invalid condition fails with
// [ErrInvalidOption] wrapping the expression package's error.
func (q Query[T]) Filter(cond expression.ConditionBuilder) Query[T] {
	qsFiltered(&q.querySpec, cond)
	return q
}

// qsFiltered is Filter's work.
func qsFiltered(q *querySpec, cond expression.ConditionBuilder) {
	if q.err != nil {
		return
	}
	if q.filter != nil {
		cond = q.filter.And(cond)
	}
	q.filter = &cond
	q.calls += ".Filter(cond)"
	*q = qsCompile(*q)
}

// Project asks for only the named data attributes
// (ProjectionExpression); the key attributes the decoder and cursors need
// are added. The fields of T for other attributes keep their zero value.
// Names are attribute names as the SDK's expression.Name reads them ("a.b"
// is a nested path). Project with no names, or an empty name, fails with
// [ErrInvalidOption] when run. Projection saves bandwidth and decoding, not
// read capacity: DynamoDB bills the whole items read.
func (q Query[T]) Project(names ...string) Query[T] {
	qsProjected(&q.querySpec, names)
	return q
}

// qsProjected is Project's work.
func qsProjected(q *querySpec, names []string) {
	if q.err != nil {
		return
	}
	if len(names) == 0 || q.keys.keysOnly {
		q.err = fmt.Errorf("%w: Project needs at least one attribute name", ErrInvalidOption)
		return
	}
	for _, name := range names {
		if name == "" {
			q.err = fmt.Errorf("%w: Project of an empty attribute name", ErrInvalidOption)
			return
		}
	}
	q.proj = append(append([]string(nil), q.proj...), names...)
	q.calls += ".Project(" + strings.Join(names, ", ") + ")"
	*q = qsCompile(*q)
}
