package adjlist

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// Item is a raw DynamoDB item, as the SDK returns it.
type Item = map[string]types.AttributeValue

// Key is the primary key of one item: its partition and sort key values.
type Key struct {
	PK, SK string
}
