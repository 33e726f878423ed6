// Package ddbjson converts between the SDK's attribute values and
// aws-lambda-go's events.DynamoDBAttributeValue, which reads and writes
// DynamoDB JSON ({"S": "a91"}, {"N": "2"}, {"M": {...}}): the streams
// package reads Lambda's stream records with it, the workbench package
// the data of NoSQL Workbench files.
package ddbjson

import (
	"fmt"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ToSDK converts one of aws-lambda-go's attribute values.
func ToSDK(v events.DynamoDBAttributeValue) (types.AttributeValue, error) {
	switch v.DataType() {
	case events.DataTypeString:
		return &types.AttributeValueMemberS{Value: v.String()}, nil
	case events.DataTypeNumber:
		return &types.AttributeValueMemberN{Value: v.Number()}, nil
	case events.DataTypeBinary:
		return &types.AttributeValueMemberB{Value: v.Binary()}, nil
	case events.DataTypeBoolean:
		return &types.AttributeValueMemberBOOL{Value: v.Boolean()}, nil
	case events.DataTypeNull:
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case events.DataTypeStringSet:
		return &types.AttributeValueMemberSS{Value: v.StringSet()}, nil
	case events.DataTypeNumberSet:
		return &types.AttributeValueMemberNS{Value: v.NumberSet()}, nil
	case events.DataTypeBinarySet:
		return &types.AttributeValueMemberBS{Value: v.BinarySet()}, nil
	case events.DataTypeList:
		l := v.List()
		out := make([]types.AttributeValue, len(l))
		for i, e := range l {
			av, err := ToSDK(e)
			if err != nil {
				return nil, err
			}
			out[i] = av
		}
		return &types.AttributeValueMemberL{Value: out}, nil
	case events.DataTypeMap:
		m, err := MapToSDK(v.Map())
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberM{Value: m}, nil
	}
	return nil, fmt.Errorf("attribute value of data type %v", v.DataType())
}

// MapToSDK converts an item, naming the attribute that fails.
func MapToSDK(m map[string]events.DynamoDBAttributeValue) (map[string]types.AttributeValue, error) {
	out := make(map[string]types.AttributeValue, len(m))
	for name, v := range m {
		av, err := ToSDK(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[name] = av
	}
	return out, nil
}

// FromSDK converts one of the SDK's attribute values; a type it does not
// know (types.UnknownUnionMember) is an error.
func FromSDK(av types.AttributeValue) (events.DynamoDBAttributeValue, error) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return events.NewStringAttribute(v.Value), nil
	case *types.AttributeValueMemberN:
		return events.NewNumberAttribute(v.Value), nil
	case *types.AttributeValueMemberB:
		return events.NewBinaryAttribute(v.Value), nil
	case *types.AttributeValueMemberBOOL:
		return events.NewBooleanAttribute(v.Value), nil
	case *types.AttributeValueMemberNULL:
		return events.NewNullAttribute(), nil
	case *types.AttributeValueMemberSS:
		return events.NewStringSetAttribute(v.Value), nil
	case *types.AttributeValueMemberNS:
		return events.NewNumberSetAttribute(v.Value), nil
	case *types.AttributeValueMemberBS:
		return events.NewBinarySetAttribute(v.Value), nil
	case *types.AttributeValueMemberL:
		l := make([]events.DynamoDBAttributeValue, len(v.Value))
		for i, e := range v.Value {
			ev, err := FromSDK(e)
			if err != nil {
				return events.DynamoDBAttributeValue{}, err
			}
			l[i] = ev
		}
		return events.NewListAttribute(l), nil
	case *types.AttributeValueMemberM:
		m := make(map[string]events.DynamoDBAttributeValue, len(v.Value))
		for name, e := range v.Value {
			ev, err := FromSDK(e)
			if err != nil {
				return events.DynamoDBAttributeValue{}, fmt.Errorf("%s: %w", name, err)
			}
			m[name] = ev
		}
		return events.NewMapAttribute(m), nil
	}
	return events.DynamoDBAttributeValue{}, fmt.Errorf("attribute value of type %T", av)
}
