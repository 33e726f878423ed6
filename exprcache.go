package adjlist

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/queryexpr"
)

// exprSet is a query's expressions; values gives the values map for one
// partition key value (a shard's, or the query's own).
type exprSet struct {
	keyCond, filter, proj *string
	names                 map[string]string
	values                func(pk string) (map[string]types.AttributeValue, error)
}

// expressions returns the query's expressions, projecting only the key
// attributes if keysOnly. Queries without a filter or projection of the
// caller's share a template per shape, built once; the others are built
// with the SDK's expression builder when the query is made (and per shard).
func (q Query[T]) expressions(keysOnly bool) (exprSet, error) {
	q.keys.keysOnly = keysOnly // q is this call's copy
	k := &q.keys
	if q.filter == nil && q.proj == nil && k.native == nil {
		tpl, err := queryexpr.Cached(&q.t.templates, exprShape(q.pkAttr, q.skAttr, *k, q.sk.op), q.t.opts.SortKey, q.t.projected(k.index))
		if err != nil {
			return exprSet{}, err
		}
		lo, hi, fp := q.sk.lo, q.sk.hi, k.filterPrefix
		if q.sk.op == skNone {
			lo = k.skPrefix
		}
		return exprSet{keyCond: tpl.KeyCond, filter: tpl.Filter, proj: tpl.Proj, names: tpl.Names,
			values: func(pk string) (map[string]types.AttributeValue, error) {
				return tpl.Values(pk, lo, hi, fp), nil
			}}, nil
	}
	sk := q.sk
	if sk.op == skNone {
		sk.lo = k.skPrefix
	}
	build := func(pk string) (expression.Expression, error) {
		return q.t.buildExpr(q.pkAttr, q.skAttr, q.keys, sk, pk, q.filter, q.proj)
	}
	first, err := build(k.pk)
	if err != nil {
		// Only the caller's filter or projection can make the builder fail.
		return exprSet{}, fmt.Errorf("%w: %w", ErrInvalidOption, err)
	}
	return exprSet{keyCond: first.KeyCondition(), filter: first.Filter(), proj: first.Projection(), names: first.Names(),
		values: func(pk string) (map[string]types.AttributeValue, error) {
			if pk == q.keys.pk {
				return first.Values(), nil
			}
			// The builder numbers placeholders in the order it meets
			// them, so another partition's build differs in values only.
			e, err := build(pk)
			return e.Values(), err
		}}, nil
}

// exprShape is what the expressions of a query for k (with sort key
// condition op) on the table or index keyed by pkAttr and skAttr depend on
// besides its values.
func exprShape(pkAttr, skAttr string, k queryKeys, op skOp) queryexpr.Shape {
	return queryexpr.Shape{Index: k.index, HasSK: k.skPrefix != "" || k.skExact, SKExact: k.skExact, Op: op,
		HasFilter: k.filterPrefix != "", KeysOnly: k.keysOnly, PKAttr: pkAttr, SKAttr: skAttr}
}

// projected is the key attributes a projection of index ("" for the
// table) names.
func (t *Table) projected(index string) []string {
	if index != "" {
		return t.meta[index].proj
	}
	return t.keyAttrs
}

// buildExpr builds a query's expressions with the SDK's builder: the key
// condition on pk and the sort key (the item type's prefix, or sk's
// condition within it), the label filter ANDed with filter, and the
// projection (every key attribute, plus proj's names unless nil; only the
// keys if k.keysOnly).
func (t *Table) buildExpr(pkAttr, skAttr string, k queryKeys, sk skCond, pk string, filter *expression.ConditionBuilder, proj []string) (expression.Expression, error) {
	if k.native != nil {
		return t.buildNative(k, sk, filter, proj)
	}
	kc := exprShape(pkAttr, skAttr, k, sk.op).KeyCondition(pk, sk.lo, sk.hi)
	return t.finishExpr(expression.NewBuilder().WithKeyCondition(kc), k, filter, proj)
}

// finishExpr adds a query's filter (the label filter ANDed with filter)
// and projection to b and builds it.
func (t *Table) finishExpr(b expression.Builder, k queryKeys, filter *expression.ConditionBuilder, proj []string) (expression.Expression, error) {
	return queryexpr.Finish(b, t.opts.SortKey, k.filterPrefix, filter, t.projected(k.index), k.keysOnly, proj)
}
