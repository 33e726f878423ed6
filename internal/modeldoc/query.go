package modeldoc

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/paging"
)

// Query is a built read's request and how the caller wrote it.
type Query struct {
	// In is a Query's request; Get, when set instead, a GetItem's.
	In  *dynamodb.QueryInput
	Get *dynamodb.GetItemInput
	// Keys are the key attributes read, partition key first: a GetItem's
	// key is written in their order; a projection of them alone is keys
	// only.
	Keys []string
	// Op is the call that built it ("Node.ByIndex"), Wraps the call it
	// widened ("AllTypes" of "Entity.List"), Calls those chained after.
	Op, Wraps, Calls string
	Shards           int // Queries sent in parallel; 0 for one
	// Values are texts written in place of whole values sent: a shard's
	// "USER#<to>#<shard of from, 8>", a number key's placeholder.
	Values map[string]string
	// Plain drops the builder's parentheses and spaces before arguments:
	// PK = "STU#<from>" AND begins_with(SK, "ENROLL#").
	Plain bool
}

// QueryPattern is access pattern name as q sends it, placeholders
// resolved.
func QueryPattern(name string, q Query) Pattern {
	if q.Get != nil {
		return Pattern{Name: name, Call: q.Op, Request: "GetItem", KeyCondition: getKey(q.Get.Key, q.Keys, q.Values), On: "table"}
	}
	in := q.In
	key, filter := aws.ToString(in.KeyConditionExpression), aws.ToString(in.FilterExpression)
	if q.Plain {
		key, filter = plainKey(key), plainFuncs(filter)
	}
	cond := resolve(key, in.ExpressionAttributeNames, in.ExpressionAttributeValues, q.Values)
	if filter != "" {
		cond += "; filter " + resolve(filter, in.ExpressionAttributeNames, in.ExpressionAttributeValues, q.Values)
	}
	request := "Query"
	if q.Shards > 0 {
		request = fmt.Sprintf("%d Queries in parallel, merged", q.Shards)
	}
	if pr := aws.ToString(in.ProjectionExpression); pr != "" {
		if keysOnly(pr, in.ExpressionAttributeNames, q.Keys) {
			request += " (keys only)"
		} else {
			cond += "; projection " + resolve(pr, in.ExpressionAttributeNames, nil, nil)
		}
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
	pat := Pattern{Name: name, Call: call, Request: request, KeyCondition: cond, On: "table"}
	if in.IndexName != nil {
		pat.Index = aws.ToString(in.IndexName)
		pat.On = pat.Index + " (eventually consistent)"
		if aws.ToBool(in.ConsistentRead) {
			pat.On = pat.Index + " (strongly consistent)"
		}
	}
	return pat
}

// getKey is a GetItem's key as a condition: PK = "STU#<id>" AND SK =
// "PROFILE".
func getKey(key map[string]types.AttributeValue, keys []string, subst map[string]string) string {
	var parts []string
	for _, k := range keys {
		if v, ok := key[k]; ok {
			parts = append(parts, k+" = "+valueText(v, subst))
		}
	}
	return strings.Join(parts, " AND ")
}

func keysOnly(pr string, names map[string]string, keys []string) bool {
	if len(keys) == 0 {
		return false
	}
	for _, n := range strings.Split(pr, ",") {
		n = strings.TrimSpace(n)
		if r, ok := names[n]; ok {
			n = r
		}
		if !slices.Contains(keys, n) {
			return false
		}
	}
	return true
}

// funcSpace matches the builder's "begins_with (".
var funcSpace = regexp.MustCompile(`([a-z_]+) \(`)

func plainFuncs(expr string) string { return funcSpace.ReplaceAllString(expr, "$1(") }

// plainKey drops the builder's parentheses around a key condition's
// terms: it is a conjunction, so only functions' own matter.
func plainKey(expr string) string {
	expr = plainFuncs(expr)
	var b strings.Builder
	var kept []bool // per open parenthesis: is it a function's
	for i, r := range expr {
		switch r {
		case '(':
			fn := i > 0 && (expr[i-1] == '_' || expr[i-1] >= 'a' && expr[i-1] <= 'z')
			kept = append(kept, fn)
			if !fn {
				continue
			}
		case ')':
			fn := len(kept) > 0 && kept[len(kept)-1]
			if len(kept) > 0 {
				kept = kept[:len(kept)-1]
			}
			if !fn {
				continue
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

var placeholders = regexp.MustCompile(`[#:][0-9]+`)

// resolve writes names and values (texts replaced per subst) in place of
// placeholders: (#0 = :0) → (PK = "STU#<id>").
func resolve(expr string, names map[string]string, values map[string]types.AttributeValue, subst map[string]string) string {
	return placeholders.ReplaceAllStringFunc(expr, func(ph string) string {
		if n, ok := names[ph]; ok {
			return n
		}
		if v, ok := values[ph]; ok {
			return valueText(v, subst)
		}
		return ph
	})
}

func valueText(v types.AttributeValue, subst map[string]string) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		if r, ok := subst[v.Value]; ok {
			return strconv.Quote(r)
		}
		return strconv.Quote(v.Value)
	case *types.AttributeValueMemberN:
		if r, ok := subst[v.Value]; ok {
			return r
		}
		return v.Value
	default:
		return paging.AttrText(v)
	}
}
