package walks

import (
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// AsRead is the condition that item is stored as it was read: it exists
// (attribute_exists(pk)), every attribute isKey does not name is equal,
// and those of feeds that were absent are still absent.
func AsRead(pk string, isKey func(name string) bool, item map[string]types.AttributeValue, feeds []string) expression.ConditionBuilder {
	cond := expression.AttributeExists(expression.Name(pk))
	for name, av := range item {
		if !isKey(name) {
			cond = cond.And(expression.Name(name).Equal(expression.Value(Value{AV: av})))
		}
	}
	for _, name := range feeds {
		if item[name] == nil {
			cond = cond.And(expression.AttributeNotExists(expression.Name(name)))
		}
	}
	return cond
}

// Value is an attribute value the expression builder takes as it is.
type Value struct{ AV types.AttributeValue }

func (v Value) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) { return v.AV, nil }
