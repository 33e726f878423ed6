package walks

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DescribeValue is an attribute value with its DynamoDB type, as a finding
// shows a stored value it cannot use: `S "3"`, `N 7`, `M (3 attributes)`.
func DescribeValue(av types.AttributeValue) string {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		return fmt.Sprintf("S %q", x.Value)
	case *types.AttributeValueMemberN:
		return "N " + x.Value
	case *types.AttributeValueMemberBOOL:
		return fmt.Sprintf("BOOL %t", x.Value)
	case *types.AttributeValueMemberNULL:
		return "NULL"
	case *types.AttributeValueMemberB:
		return fmt.Sprintf("B (%d bytes)", len(x.Value))
	case *types.AttributeValueMemberM:
		return fmt.Sprintf("M (%d attributes)", len(x.Value))
	case *types.AttributeValueMemberL:
		return fmt.Sprintf("L (%d values)", len(x.Value))
	case *types.AttributeValueMemberSS, *types.AttributeValueMemberNS, *types.AttributeValueMemberBS:
		return "set"
	}
	return fmt.Sprintf("%T", av)
}

// CountOf is a counter's aggregate item's count attribute as stored: its
// number, "" if absent, or DescribeValue of a value that is no number.
func CountOf(item map[string]types.AttributeValue) string {
	switch n := item["count"].(type) {
	case *types.AttributeValueMemberN:
		return n.Value
	case nil:
		return ""
	default:
		return DescribeValue(n)
	}
}
