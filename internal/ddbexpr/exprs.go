package ddbexpr

import (
	"sync"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Exprs is a query's expressions; Values gives the values map for one
// partition key value (a shard's, or the query's own).
type Exprs struct {
	KeyCond, Filter, Proj *string
	Names                 map[string]string
	Values                func(pk string) (map[string]types.AttributeValue, error)
}

// Query is what a query's expressions are made of.
type Query struct {
	Shape     Shape    // its attributes, index, kind of sort key condition, projection
	LabelAttr string   // the table's sort key, which the label filter reads
	KeyAttrs  []string // the key attributes of the table or index read
	PK        string
	// Lo and Hi are the sort key condition's values; Lo is the item
	// type's prefix when Shape.Op is None.
	Lo, Hi      string
	LabelPrefix string // the label filter's, "" for none
	Filter      *expression.ConditionBuilder
	Proj        []string // data attributes to project, nil for all
	// Native is set on a native index: the key condition is Eq's
	// equalities, then the sort key condition on Next, of type NextType.
	Native   bool
	Eq       []NativeValue
	Next     string
	NextType types.ScalarAttributeType
}

// FromTemplate is the expressions of a query on a derived key without the
// caller's filter or projection, from its shape's [Cached] template.
func (x *Query) FromTemplate(cache *sync.Map) (Exprs, error) {
	tpl, err := Cached(cache, x.Shape, x.LabelAttr, x.KeyAttrs)
	if err != nil {
		return Exprs{}, err
	}
	lo, hi, label := x.Lo, x.Hi, x.LabelPrefix
	return Exprs{KeyCond: tpl.KeyCond, Filter: tpl.Filter, Proj: tpl.Proj, Names: tpl.Names,
		Values: func(pk string) (map[string]types.AttributeValue, error) {
			return tpl.Values(pk, lo, hi, label), nil
		}}, nil
}

// Built is the expressions of any query, built for x.PK now and again
// for each other partition whose values are asked for.
func (x Query) Built() (Exprs, error) {
	first, err := x.build(x.PK)
	if err != nil {
		return Exprs{}, err
	}
	return Exprs{KeyCond: first.KeyCondition(), Filter: first.Filter(), Proj: first.Projection(), Names: first.Names(),
		Values: func(pk string) (map[string]types.AttributeValue, error) {
			if pk == x.PK {
				return first.Values(), nil
			}
			// The builder numbers placeholders in the order it meets
			// them, so another partition's build differs in values only.
			e, err := x.build(pk)
			return e.Values(), err
		}}, nil
}

func (x *Query) build(pk string) (expression.Expression, error) {
	if !x.Native {
		kc := x.Shape.KeyCondition(pk, x.Lo, x.Hi)
		return Finish(expression.NewBuilder().WithKeyCondition(kc), x.LabelAttr, x.LabelPrefix, x.Filter, x.KeyAttrs, x.Shape.KeysOnly, x.Proj)
	}
	kc, err := NativeKeyCondition(x.Eq, x.Next, x.NextType, x.Shape.Op, x.Lo, x.Hi)
	if err != nil {
		return expression.Expression{}, err
	}
	return Finish(expression.NewBuilder().WithKeyCondition(kc), x.LabelAttr, x.LabelPrefix, x.Filter, x.KeyAttrs, x.Shape.KeysOnly, x.Proj)
}
