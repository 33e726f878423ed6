package adjlist

import (
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// marshalData encodes an item's own data with attributevalue.Marshal into a
// fresh map that the caller adds the key attributes to. Data that maps to a
// key attribute is refused: keys come from ids, never from data.
func (t *Table) marshalData(data any) (Item, error) {
	av, err := attributevalue.Marshal(data)
	if err != nil {
		return nil, err
	}
	m, ok := av.(*types.AttributeValueMemberM)
	if !ok {
		if _, null := av.(*types.AttributeValueMemberNULL); null {
			return make(Item, 4), nil
		}
		return nil, fmt.Errorf("adjlist: data of type %T does not marshal to a map", data)
	}
	for name := range m.Value {
		if t.isKeyAttr(name) {
			return nil, fmt.Errorf("%w: %q", ErrKeyAttribute, name)
		}
	}
	return m.Value, nil
}

// unmarshalData decodes an item's own data into out, ignoring the key
// attributes (so a map-typed data never sees them). It modifies item.
func (t *Table) unmarshalData(item Item, out any) error {
	o := &t.opts
	for _, k := range [...]string{o.PartitionKey, o.SortKey, o.IndexPartitionKey, o.IndexSortKey} {
		delete(item, k)
	}
	return attributevalue.UnmarshalMap(item, out)
}

// stringAttr returns item[name] if it is a string attribute.
func stringAttr(item Item, name string) (string, bool) {
	s, ok := item[name].(*types.AttributeValueMemberS)
	if !ok {
		return "", false
	}
	return s.Value, true
}

// keyItem returns the primary key of one item as the SDK wants it.
func (t *Table) keyItem(pk, sk string) Item {
	return Item{
		t.opts.PartitionKey: &types.AttributeValueMemberS{Value: pk},
		t.opts.SortKey:      &types.AttributeValueMemberS{Value: sk},
	}
}

// isConditionFailed reports whether err is DynamoDB's answer to a condition
// expression that evaluated false.
func isConditionFailed(err error) bool {
	var ccf *types.ConditionalCheckFailedException
	return errors.As(err, &ccf)
}
