package workbench

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/ddbjson"
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
	if v.AttributeValue == nil {
		return []byte("null"), nil
	}
	ev, err := ddbjson.FromSDK(v.AttributeValue)
	if err != nil {
		return nil, fmt.Errorf("workbench: %w", err)
	}
	return json.Marshal(ev)
}

// UnmarshalJSON reads v from DynamoDB JSON; an unknown or malformed type
// is an error.
func (v *Value) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		v.AttributeValue = nil
		return nil
	}
	var ev events.DynamoDBAttributeValue
	if err := json.Unmarshal(b, &ev); err != nil {
		return fmt.Errorf("workbench: attribute value %s: %w", b, err)
	}
	av, err := ddbjson.ToSDK(ev)
	if err != nil {
		return fmt.Errorf("workbench: %w", err)
	}
	v.AttributeValue = av
	return nil
}
