package workbench

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Item is one item of a data model's TableData, in DynamoDB JSON:
// {"PK": {"S": "STU#a91"}, "year": {"N": "2"}}.
type Item map[string]Value

// Value is one attribute value in DynamoDB JSON ({"S": "a91"}, {"N": "2"},
// {"BOOL": true}, {"L": [...]}, {"M": {...}}, {"SS": [...]}, {"B":
// base64}, {"NULL": true}). Its zero value marshals as JSON null.
type Value struct{ types.AttributeValue }

// NewItem converts an item as the SDK holds it.
func NewItem(av map[string]types.AttributeValue) Item {
	it := make(Item, len(av))
	for k, v := range av {
		it[k] = Value{v}
	}
	return it
}

// AttributeValues converts the item back to the SDK's form, e.g. for
// PutItem.
func (it Item) AttributeValues() map[string]types.AttributeValue {
	av := make(map[string]types.AttributeValue, len(it))
	for k, v := range it {
		av[k] = v.AttributeValue
	}
	return av
}

// MarshalJSON writes v in DynamoDB JSON.
func (v Value) MarshalJSON() ([]byte, error) {
	j, err := toJSON(v.AttributeValue)
	if err != nil {
		return nil, err
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads v from DynamoDB JSON; an unknown or malformed type
// is an error.
func (v *Value) UnmarshalJSON(b []byte) error {
	av, err := fromJSON(b)
	if err != nil {
		return err
	}
	v.AttributeValue = av
	return nil
}

func toJSON(av types.AttributeValue) (any, error) {
	switch v := av.(type) {
	case nil:
		return nil, nil
	case *types.AttributeValueMemberS:
		return map[string]string{"S": v.Value}, nil
	case *types.AttributeValueMemberN:
		return map[string]string{"N": v.Value}, nil
	case *types.AttributeValueMemberB:
		return map[string][]byte{"B": v.Value}, nil
	case *types.AttributeValueMemberBOOL:
		return map[string]bool{"BOOL": v.Value}, nil
	case *types.AttributeValueMemberNULL:
		return map[string]bool{"NULL": true}, nil
	case *types.AttributeValueMemberSS:
		return map[string][]string{"SS": v.Value}, nil
	case *types.AttributeValueMemberNS:
		return map[string][]string{"NS": v.Value}, nil
	case *types.AttributeValueMemberBS:
		return map[string][][]byte{"BS": v.Value}, nil
	case *types.AttributeValueMemberL:
		l := make([]Value, len(v.Value))
		for i, e := range v.Value {
			l[i] = Value{e}
		}
		return map[string][]Value{"L": l}, nil
	case *types.AttributeValueMemberM:
		return map[string]Item{"M": NewItem(v.Value)}, nil
	}
	return nil, fmt.Errorf("workbench: attribute value of type %T", av)
}

func fromJSON(b []byte) (types.AttributeValue, error) {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		return nil, nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	if len(raw) != 1 {
		return nil, fmt.Errorf("workbench: attribute value %s has %d types, want 1", b, len(raw))
	}
	for typ, data := range raw {
		var err error
		switch typ {
		case "S":
			v := &types.AttributeValueMemberS{}
			err = json.Unmarshal(data, &v.Value)
			return v, err
		case "N":
			v := &types.AttributeValueMemberN{}
			err = json.Unmarshal(data, &v.Value)
			return v, err
		case "B":
			v := &types.AttributeValueMemberB{}
			err = json.Unmarshal(data, &v.Value)
			return v, err
		case "BOOL":
			v := &types.AttributeValueMemberBOOL{}
			err = json.Unmarshal(data, &v.Value)
			return v, err
		case "NULL":
			return &types.AttributeValueMemberNULL{Value: true}, nil
		case "SS":
			v := &types.AttributeValueMemberSS{}
			err = json.Unmarshal(data, &v.Value)
			return v, err
		case "NS":
			v := &types.AttributeValueMemberNS{}
			err = json.Unmarshal(data, &v.Value)
			return v, err
		case "BS":
			v := &types.AttributeValueMemberBS{}
			err = json.Unmarshal(data, &v.Value)
			return v, err
		case "L":
			var l []Value
			err = json.Unmarshal(data, &l)
			v := &types.AttributeValueMemberL{Value: make([]types.AttributeValue, len(l))}
			for i, e := range l {
				v.Value[i] = e.AttributeValue
			}
			return v, err
		case "M":
			var m Item
			err = json.Unmarshal(data, &m)
			return &types.AttributeValueMemberM{Value: m.AttributeValues()}, err
		}
		return nil, fmt.Errorf("workbench: unknown attribute type %q", typ)
	}
	panic("unreachable")
}
