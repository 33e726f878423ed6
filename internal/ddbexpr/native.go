package ddbexpr

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/keycodec"
)

// NativeValue is a native index key attribute a query fixes, with its
// typed value: native keys hold the data's own values, never escaped.
type NativeValue struct {
	Name string
	AV   types.AttributeValue
}

// AV hands a ready AttributeValue to the expression builder, which would
// otherwise marshal it as a Go value (and ignore the table's encoder
// options); nil is NULL.
type AV struct{ V types.AttributeValue }

func (v AV) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	if v.V == nil {
		return &types.AttributeValueMemberNULL{Value: true}, nil
	}
	return v.V, nil
}

// NativeKeyCondition is a native index query's key condition: equality
// on each of eq, then (unless None) op's on next, of type typ, with lo
// and hi ([RangeText]'s text) as [Typed] makes them.
func NativeKeyCondition(eq []NativeValue, next string, typ types.ScalarAttributeType, op CmpOp, lo, hi string) (expression.KeyConditionBuilder, error) {
	conds := make([]expression.KeyConditionBuilder, 0, len(eq)+1)
	for _, v := range eq {
		conds = append(conds, expression.Key(v.Name).Equal(expression.Value(AV{v.AV})))
	}
	if op != None {
		loAV, err := Typed(nil, next, typ, lo)
		if err != nil {
			return expression.KeyConditionBuilder{}, err
		}
		key, val := expression.Key(next), expression.Value(AV{loAV})
		switch op {
		case Between:
			hiAV, err := Typed(nil, next, typ, hi)
			if err != nil {
				return expression.KeyConditionBuilder{}, err
			}
			conds = append(conds, key.Between(val, expression.Value(AV{hiAV})))
		case GT:
			conds = append(conds, key.GreaterThan(val))
		case GE:
			conds = append(conds, key.GreaterThanEqual(val))
		case LT:
			conds = append(conds, key.LessThan(val))
		case LE:
			conds = append(conds, key.LessThanEqual(val))
		case EQ:
			conds = append(conds, key.Equal(val))
		case BeginsWith:
			conds = append(conds, key.BeginsWith(lo))
		}
	}
	if len(conds) > 1 {
		return expression.KeyAnd(conds...), nil
	}
	return conds[0], nil
}

// Typed converts query value v to key attribute name's type typ, as enc
// stores it ([keycodec.Value]): a non-empty string for S; a number, or a
// string holding one, for N.
func Typed(enc *attributevalue.Encoder, name string, typ types.ScalarAttributeType, v any) (types.AttributeValue, error) {
	if s, ok := v.(string); ok && typ == types.ScalarAttributeTypeN {
		return NumberText(name, s)
	}
	av, err := keycodec.Value(enc, v)
	if err != nil {
		return nil, err
	}
	switch av := av.(type) {
	case *types.AttributeValueMemberS:
		if typ == types.ScalarAttributeTypeS && av.Value != "" {
			return av, nil
		}
	case *types.AttributeValueMemberN:
		if typ == types.ScalarAttributeTypeN {
			return av, nil
		}
	}
	return nil, fmt.Errorf("%s is of type %s, got %T %v", name, typ, v, v)
}

// NumberText checks that s, a value of number attribute name, is a number
// DynamoDB accepts.
func NumberText(name, s string) (types.AttributeValue, error) {
	if !keycodec.DecimalNumber(s) {
		return nil, fmt.Errorf("%s is a number, got %q", name, s)
	}
	return &types.AttributeValueMemberN{Value: s}, nil
}

// NativeBounds checks condition cond's range values a and b on attribute
// name of type typ: of its type, a not after b, BeginsWith on strings.
func NativeBounds(name string, typ types.ScalarAttributeType, cond, a, b string) error {
	lo, err := Typed(nil, name, typ, a)
	if err != nil {
		return err
	}
	if cond == "BeginsWith" && typ != types.ScalarAttributeTypeS {
		return fmt.Errorf("BeginsWith on number attribute %s", name)
	}
	if cond != "Between" {
		return nil
	}
	hi, err := Typed(nil, name, typ, b)
	if err != nil {
		return err
	}
	if n, ok := lo.(*types.AttributeValueMemberN); ok {
		if keycodec.CompareNumbers(n.Value, hi.(*types.AttributeValueMemberN).Value) > 0 {
			return fmt.Errorf("Between(%s, %s): lo is greater than hi", a, b)
		}
	} else if a > b {
		return fmt.Errorf("Between(%q, %q): lo sorts after hi", a, b)
	}
	return nil
}

// RangeText is condition method name's range value v as key text,
// encoded as a write stores it ([keycodec.Value]): on a number sort
// attribute (number, its name; "": a string key) it must encode as a
// number, elsewhere as a string: a number compared as text would sort 10
// before 9.
func RangeText(enc *attributevalue.Encoder, name string, v any, number string) (string, error) {
	av, err := keycodec.Value(enc, v)
	if err != nil {
		return "", fmt.Errorf("%s(%v): %w", name, v, err)
	}
	if number != "" {
		if n, ok := av.(*types.AttributeValueMemberN); ok {
			return n.Value, nil
		}
		return "", fmt.Errorf("%s on number attribute %s takes a number (a Go number, or a value the table's encoder stores as one), got %T %v", name, number, v, v)
	}
	s, ok := av.(*types.AttributeValueMemberS)
	if !ok {
		return "", fmt.Errorf("%s on a string sort key takes a string (or a value the table's encoder stores as one), got %T %v", name, v, v)
	}
	return s.Value, nil
}
