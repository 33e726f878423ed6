package adjlist

import (
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
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
		tpl, err := q.t.template(q.pkAttr, q.skAttr, *k, q.sk.op)
		if err != nil {
			return exprSet{}, err
		}
		lo, hi, fp := q.sk.lo, q.sk.hi, k.filterPrefix
		if q.sk.op == skNone {
			lo = k.skPrefix
		}
		return exprSet{keyCond: tpl.keyCond, filter: tpl.filter, proj: tpl.proj, names: tpl.names,
			values: func(pk string) (map[string]types.AttributeValue, error) {
				return tpl.values(pk, lo, hi, fp), nil
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

// exprShape is what a query's expressions depend on besides its values.
type exprShape struct {
	index                     string
	hasSK, skExact, hasFilter bool
	skOp                      skOp
	keysOnly                  bool
	pkAttr, skAttr            string
}

// exprTemplate is a query's expressions, built once per shape with the
// SDK's expression builder: the strings and names are shared by every
// query of that shape (read-only), and only the values map is made per
// query.
type exprTemplate struct {
	keyCond, filter, proj *string
	names                 map[string]string
	// roles maps each value placeholder to what it holds.
	roles map[string]valueRole
}

type valueRole int

const (
	rolePK valueRole = iota
	roleSK
	roleSKHi
	roleFilter
)

// Stand-ins for the values while building a template; ids cannot contain
// NUL, so no real value equals them.
var roleMarks = map[string]valueRole{"\x00pk": rolePK, "\x00sk": roleSK, "\x00skhi": roleSKHi, "\x00filter": roleFilter}

// template returns the expressions for queries shaped like k (with sort
// key condition op) on the table or index keyed by pkAttr and skAttr,
// building them on first use.
func (t *Table) template(pkAttr, skAttr string, k queryKeys, op skOp) (*exprTemplate, error) {
	shape := exprShape{index: k.index, hasSK: k.skPrefix != "" || k.skExact, skExact: k.skExact, skOp: op,
		hasFilter: k.filterPrefix != "", keysOnly: k.keysOnly, pkAttr: pkAttr, skAttr: skAttr}
	if tpl, ok := t.templates.Load(shape); ok {
		return tpl.(*exprTemplate), nil
	}
	if k.filterPrefix != "" {
		k.filterPrefix = "\x00filter"
	}
	expr, err := t.buildExpr(pkAttr, skAttr, k, skCond{op: op, lo: "\x00sk", hi: "\x00skhi"}, "\x00pk", nil, nil)
	if err != nil {
		return nil, err
	}
	tpl := &exprTemplate{keyCond: expr.KeyCondition(), filter: expr.Filter(), proj: expr.Projection(),
		names: expr.Names(), roles: map[string]valueRole{}}
	for placeholder, v := range expr.Values() {
		s, ok := v.(*types.AttributeValueMemberS)
		if ok {
			tpl.roles[placeholder], ok = roleMarks[s.Value]
		}
		if !ok {
			return nil, fmt.Errorf("adjlist: unexpected expression value %s", placeholder)
		}
	}
	actual, _ := t.templates.LoadOrStore(shape, tpl)
	return actual.(*exprTemplate), nil
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
	kc := expression.Key(pkAttr).Equal(expression.Value(pk))
	switch {
	case k.skExact:
		kc = kc.And(expression.Key(skAttr).Equal(expression.Value(sk.lo)))
	case sk.op == skBetween:
		kc = kc.And(expression.Key(skAttr).Between(expression.Value(sk.lo), expression.Value(sk.hi)))
	case sk.op == skBeginsWith:
		kc = kc.And(expression.Key(skAttr).BeginsWith(sk.lo))
	case sk.op == skGT:
		kc = kc.And(expression.Key(skAttr).GreaterThan(expression.Value(sk.lo)))
	case sk.op == skGE:
		kc = kc.And(expression.Key(skAttr).GreaterThanEqual(expression.Value(sk.lo)))
	case sk.op == skLT:
		kc = kc.And(expression.Key(skAttr).LessThan(expression.Value(sk.lo)))
	case sk.op == skLE:
		kc = kc.And(expression.Key(skAttr).LessThanEqual(expression.Value(sk.lo)))
	case sk.op == skEQ:
		kc = kc.And(expression.Key(skAttr).Equal(expression.Value(sk.lo)))
	case k.skPrefix != "":
		kc = kc.And(expression.Key(skAttr).BeginsWith(sk.lo))
	}
	return t.finishExpr(expression.NewBuilder().WithKeyCondition(kc), k, filter, proj)
}

// finishExpr adds a query's filter (the label filter ANDed with filter)
// and projection to b and builds it.
func (t *Table) finishExpr(b expression.Builder, k queryKeys, filter *expression.ConditionBuilder, proj []string) (expression.Expression, error) {
	var cond *expression.ConditionBuilder
	if k.filterPrefix != "" {
		c := expression.Name(t.opts.SortKey).BeginsWith(k.filterPrefix)
		cond = &c
	}
	if filter != nil {
		if cond == nil {
			cond = filter
		} else {
			c := cond.And(*filter)
			cond = &c
		}
	}
	if cond != nil {
		b = b.WithFilter(*cond)
	}
	switch {
	case k.keysOnly || proj != nil:
		keyAttrs := t.keyAttrs
		if k.index != "" {
			keyAttrs = t.meta[k.index].proj
		}
		names := make([]expression.NameBuilder, 0, len(keyAttrs)+len(proj))
		for _, name := range keyAttrs {
			names = append(names, expression.Name(name))
		}
		if !k.keysOnly {
			for _, name := range proj {
				if !slices.Contains(keyAttrs, name) {
					names = append(names, expression.Name(name))
				}
			}
		}
		b = b.WithProjection(expression.NamesList(names[0], names[1:]...))
	}
	return b.Build()
}

// values returns a fresh values map for one query.
func (tpl *exprTemplate) values(pk, sk, skHi, filter string) map[string]types.AttributeValue {
	vals := make(map[string]types.AttributeValue, len(tpl.roles))
	// One allocation for every value, not one each: this is every
	// query's hot path.
	avs := make([]types.AttributeValueMemberS, len(tpl.roles))
	i := 0
	for placeholder, role := range tpl.roles {
		v := pk
		switch role {
		case roleSK:
			v = sk
		case roleSKHi:
			v = skHi
		case roleFilter:
			v = filter
		}
		avs[i].Value = v
		vals[placeholder] = &avs[i]
		i++
	}
	return vals
}
