package paging

import (
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// After is the place of a shard whose last page ended at lek: Done when
// there is none, else resuming after its key, whose attributes must be
// strings (a sharded read's keys are).
func After(lek map[string]types.AttributeValue) (CursorShard, error) {
	if len(lek) == 0 {
		return CursorShard{Done: true}, nil
	}
	key, nums, err := KeyText(lek)
	if err == nil && nums != nil {
		err = fmt.Errorf("adjlist: LastEvaluatedKey has number attributes %v, want strings", nums)
	}
	return CursorShard{Key: key}, err
}

// KeyText splits a LastEvaluatedKey into its string and number
// attributes' text (nums is nil when there are none).
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

// StartKey turns a cursor's key text back into an ExclusiveStartKey with
// the attributes names: each from key if it is a non-empty string there,
// else from num, made a number attribute by number. ok is false when an
// attribute is missing or not a number.
func StartKey(names []string, key, num map[string]string, number func(name, s string) (types.AttributeValue, error)) (map[string]types.AttributeValue, bool) {
	start := make(map[string]types.AttributeValue, len(names))
	for _, name := range names {
		if v, ok := key[name]; ok && v != "" {
			start[name] = &types.AttributeValueMemberS{Value: v}
			continue
		}
		v, ok := num[name]
		if !ok {
			return nil, false
		}
		n, err := number(name, v)
		if err != nil {
			return nil, false
		}
		start[name] = n
	}
	return start, true
}

// AttrText is a value's text, for fingerprints and descriptions: strings
// and numbers as they are, anything else as JSON of its Go form.
func AttrText(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		return v.Value
	}
	var x any
	if err := attributevalue.Unmarshal(av, &x); err != nil {
		return err.Error()
	}
	b, _ := json.Marshal(x)
	return string(b)
}
