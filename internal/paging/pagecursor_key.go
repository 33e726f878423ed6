package paging

import (
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// After is the place of a shard or segment whose last page ended at lek.
func After(lek map[string]types.AttributeValue) (CursorShard, error) {
	if len(lek) == 0 {
		return CursorShard{Done: true}, nil
	}
	key, num, err := KeyText(lek)
	return CursorShard{Key: key, Num: num}, err
}

// KeyText splits a LastEvaluatedKey into string and number attributes.
func KeyText(lek map[string]types.AttributeValue) (strs, nums map[string]string, err error) {
	strs = make(map[string]string, len(lek))
	for name, av := range lek {
		switch v := av.(type) {
		case *types.AttributeValueMemberS:
			strs[name] = v.Value
		case *types.AttributeValueMemberN:
			if nums == nil {
				nums = map[string]string{}
			}
			nums[name] = v.Value
		default:
			return nil, nil, fmt.Errorf("adjlist: LastEvaluatedKey attribute %q is %T, want a string or number", name, av)
		}
	}
	return strs, nums, nil
}

// StartKey reverses KeyText, number making the number attributes; nil
// when both are empty.
func StartKey(key, num map[string]string, number func(name, s string) (types.AttributeValue, error)) (map[string]types.AttributeValue, error) {
	if len(key)+len(num) == 0 {
		return nil, nil
	}
	start := make(map[string]types.AttributeValue, len(key)+len(num))
	for name, v := range key {
		start[name] = &types.AttributeValueMemberS{Value: v}
	}
	for name, v := range num {
		n, err := number(name, v)
		if err != nil {
			return nil, err
		}
		start[name] = n
	}
	return start, nil
}

// AttrText is a value's text for fingerprints and descriptions: strings
// and numbers as they are, else JSON of its Go form.
func AttrText(av types.AttributeValue) string {
	switch av.(type) {
	case *types.AttributeValueMemberS, *types.AttributeValueMemberN:
		return text(av)
	}
	var x any
	if err := attributevalue.Unmarshal(av, &x); err != nil {
		return err.Error()
	}
	b, _ := json.Marshal(x)
	return string(b)
}
