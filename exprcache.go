package adjlist

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/adjlist/adjlist/internal/ddbexpr"
)

// qsExpressions returns the query's expressions, projecting only the key
// attributes if keysOnly. Queries without a filter or projection share a
// template per shape, built once; the others are built when made.
func qsExpressions(q *querySpec, keysOnly bool) (ddbexpr.Exprs, error) {
	k := &q.keys
	// The shape is what the expressions depend on besides their values.
	shape := ddbexpr.Shape{Index: k.index, HasSK: k.skPrefix != "" || k.skExact, SKExact: k.skExact, Op: q.sk.op,
		HasFilter: k.filterPrefix != "", KeysOnly: keysOnly, PKAttr: q.pkAttr, SKAttr: q.run.SKAttr, PKNum: k.pkNum, SKNum: k.skNum}
	x := ddbexpr.Query{Shape: shape, LabelAttr: q.t.opts.SortKey, KeyAttrs: q.t.projected(k.index),
		PK: k.pk, Lo: q.sk.lo, Hi: q.sk.hi, LabelPrefix: k.filterPrefix, Filter: q.filter, Proj: q.proj}
	if q.sk.op == skNone {
		x.Lo = k.skPrefix
	}
	if k.sourceFilter != "" {
		// No index sort key to narrow by: a filter, built each time.
		src := expression.Name(q.t.opts.PartitionKey)
		c := src.BeginsWith(k.sourceFilter)
		if k.sourceExact {
			c = src.Equal(expression.Value(k.sourceFilter))
		}
		if q.filter != nil {
			c = c.And(*q.filter)
		}
		x.Filter = &c
	}
	if nk := k.native; nk != nil {
		x.Native, x.Eq = true, nk.eq
		if nk.next != nil {
			x.Next, x.NextType = nk.next.Name, attrType(*nk.next)
		}
	} else if x.Filter == nil && q.proj == nil {
		return x.FromTemplate(&q.t.templates)
	}
	e, err := x.Built()
	if err != nil {
		// Only the caller's filter or projection, or a native index's
		// range values, can make the builder fail.
		return e, fmt.Errorf("%w: %w", ErrInvalidOption, err)
	}
	return e, nil
}

// projected is the key attributes a projection of index ("" for the
// table) names.
func (t *Table) projected(index string) []string {
	if index != "" {
		return t.meta[index].proj
	}
	return t.keyAttrs
}
