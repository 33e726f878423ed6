package paging

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Fingerprint identifies all that shapes a query's results but its page
// size: op (so the item type), index, expressions with their names and
// values, shards and direction. 72 bits of SHA-256 tell queries apart;
// forging is the signature's job.
func Fingerprint(op string, in *dynamodb.QueryInput, shards []QueryShard) string {
	h := sha256.New()
	field := func(s string) { fmt.Fprintf(h, "%d:%s;", len(s), s) }
	field(op)
	field(aws.ToString(in.IndexName))
	field(aws.ToString(in.KeyConditionExpression))
	field(aws.ToString(in.FilterExpression))
	field(aws.ToString(in.ProjectionExpression))
	field(fmt.Sprint(aws.ToBool(in.ScanIndexForward), len(shards)))
	for _, name := range slices.Sorted(maps.Keys(in.ExpressionAttributeNames)) {
		field(name)
		field(in.ExpressionAttributeNames[name])
	}
	for _, ph := range slices.Sorted(maps.Keys(in.ExpressionAttributeValues)) {
		field(ph)
		field(fmt.Sprintf("%T", in.ExpressionAttributeValues[ph]))
		field(AttrText(in.ExpressionAttributeValues[ph]))
	}
	for _, sh := range shards {
		field(sh.PK)
	}
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:9])
}
