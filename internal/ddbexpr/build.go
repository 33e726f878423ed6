package ddbexpr

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Shape is what a query's expressions depend on besides its values (the
// partition key, the sort key bounds, the label filter's prefix).
type Shape struct {
	Index string
	// HasSK: the key condition has a sort key part (prefix, or SKExact value).
	HasSK, SKExact, HasFilter bool
	Op                        CmpOp
	KeysOnly                  bool
	PKAttr, SKAttr            string
	PKNum, SKNum              bool // the key is a number (N), its values sent as numbers
}

// KeyCondition is the key condition PKAttr = pk and, on SKAttr: = lo if
// SKExact; else op's condition on lo and hi; else begins_with(lo) if
// HasSK.
func (s Shape) KeyCondition(pk, lo, hi string) expression.KeyConditionBuilder {
	kc := expression.Key(s.PKAttr).Equal(keyValue(pk, s.PKNum))
	sk := expression.Key(s.SKAttr)
	switch {
	case s.SKExact:
		kc = kc.And(sk.Equal(keyValue(lo, s.SKNum)))
	case s.Op == Between:
		kc = kc.And(sk.Between(keyValue(lo, s.SKNum), keyValue(hi, s.SKNum)))
	case s.Op == BeginsWith:
		kc = kc.And(sk.BeginsWith(lo))
	case s.Op == GT:
		kc = kc.And(sk.GreaterThan(keyValue(lo, s.SKNum)))
	case s.Op == GE:
		kc = kc.And(sk.GreaterThanEqual(keyValue(lo, s.SKNum)))
	case s.Op == LT:
		kc = kc.And(sk.LessThan(keyValue(lo, s.SKNum)))
	case s.Op == LE:
		kc = kc.And(sk.LessThanEqual(keyValue(lo, s.SKNum)))
	case s.Op == EQ:
		kc = kc.And(sk.Equal(keyValue(lo, s.SKNum)))
	case s.HasSK:
		kc = kc.And(sk.BeginsWith(lo))
	}
	return kc
}

func keyValue(v string, num bool) expression.ValueBuilder {
	if num {
		return expression.Value(AV{&types.AttributeValueMemberN{Value: v}})
	}
	return expression.Value(v)
}

// Finish adds a query's filter (begins_with(labelAttr, labelPrefix) if
// set, ANDed with filter) and projection (if keysOnly or proj: keyAttrs,
// plus proj unless keysOnly) to b and builds it.
func Finish(b expression.Builder, labelAttr, labelPrefix string, filter *expression.ConditionBuilder, keyAttrs []string, keysOnly bool, proj []string) (expression.Expression, error) {
	var cond *expression.ConditionBuilder
	if labelPrefix != "" {
		c := expression.Name(labelAttr).BeginsWith(labelPrefix)
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
	if keysOnly || proj != nil {
		names := make([]expression.NameBuilder, 0, len(keyAttrs)+len(proj))
		for _, name := range keyAttrs {
			names = append(names, expression.Name(name))
		}
		if !keysOnly {
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

// UsesName reports whether built expr refers to attribute attr. The
// builder gives an attribute one placeholder ("#1") per request, so this
// looks for it not followed by a digit ("#10"), without allocating: it
// runs for every filtered query.
func UsesName(expr string, names map[string]string, attr string) bool {
	for ph, name := range names {
		if name != attr {
			continue
		}
		for rest := expr; ; {
			i := strings.Index(rest, ph)
			if i < 0 {
				break
			}
			rest = rest[i+len(ph):]
			if rest == "" || rest[0] < '0' || rest[0] > '9' {
				return true
			}
		}
	}
	return false
}
