package modeldoc

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/paging"
)

// Query is what a built query tells its access pattern: the request it
// sends and how the caller wrote it.
type Query struct {
	In *dynamodb.QueryInput
	// Op is the call that built it ("Entity.List", "Node.ByIndex"),
	// Wraps the call it widened when Op wraps one ("AllTypes" of
	// "Entity.List"), Calls the methods chained after it (".Desc()").
	Op, Wraps, Calls string
	// Shards is how many Queries it sends in parallel; 0 for one.
	Shards int
}

// QueryPattern is the access pattern name that q reads: the exact key
// condition, filter and projection it sends, placeholders resolved.
func QueryPattern(name string, q Query) Pattern {
	in := q.In
	cond := resolve(aws.ToString(in.KeyConditionExpression), in.ExpressionAttributeNames, in.ExpressionAttributeValues)
	if f := aws.ToString(in.FilterExpression); f != "" {
		cond += "; filter " + resolve(f, in.ExpressionAttributeNames, in.ExpressionAttributeValues)
	}
	if pr := aws.ToString(in.ProjectionExpression); pr != "" {
		cond += "; projection " + resolve(pr, in.ExpressionAttributeNames, nil)
	}
	if !aws.ToBool(in.ScanIndexForward) {
		cond += "; ScanIndexForward=false"
	}
	args := "(id)"
	if strings.HasSuffix(q.Op, ".ByIndex") {
		args = fmt.Sprintf("(%q, …)", aws.ToString(in.IndexName))
	}
	call := q.Op + args + q.Calls
	if q.Wraps != "" {
		call = q.Op + "(" + q.Wraps + args + ")" + q.Calls
	}
	pat := Pattern{Name: name, Call: call, Request: "Query", KeyCondition: cond, On: "table"}
	if q.Shards > 0 {
		pat.Request = fmt.Sprintf("%d Queries in parallel, merged", q.Shards)
	}
	if in.IndexName != nil {
		pat.Index = aws.ToString(in.IndexName)
		pat.On = pat.Index + " (eventually consistent)"
		if aws.ToBool(in.ConsistentRead) {
			pat.On = pat.Index + " (strongly consistent)"
		}
	}
	return pat
}

// placeholders matches the expression package's placeholders (#0, :1).
var placeholders = regexp.MustCompile(`[#:][0-9]+`)

// resolve writes an expression with its names and values in place of the
// placeholders: (#0 = :0) → (PK = "STU#<id>").
func resolve(expr string, names map[string]string, values map[string]types.AttributeValue) string {
	return placeholders.ReplaceAllStringFunc(expr, func(ph string) string {
		if n, ok := names[ph]; ok {
			return n
		}
		switch v := values[ph].(type) {
		case *types.AttributeValueMemberS:
			return strconv.Quote(v.Value)
		case *types.AttributeValueMemberN:
			return v.Value
		case nil:
			return ph
		default:
			return paging.AttrText(v)
		}
	})
}
