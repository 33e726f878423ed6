package exampletest

import (
	"context"
	"encoding/hex"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/examples/internal/exampleutil"
)

// Recorder wraps a *dynamodb.Client and records each data request (the
// operations of [adjlist.Client], TransactGetItems and Scan) as one line
// before sending it on; the client's other operations (CreateTable,
// UpdateTimeToLive, ...) pass through unrecorded. It is an
// [exampleutil.API] and safe for concurrent use.
//
// A line is the operation, the item's key and its clauses, each only when
// the request has it, with names and values in place of the expressions'
// placeholders and no table name:
//
//	GetItem KEY [PROJECT p] [CONSISTENT]
//	PutItem KEY [IF c]
//	UpdateItem KEY UPDATE [IF c]
//	DeleteItem KEY [IF c]
//	Query [ON index] KEYCOND [FILTER f] [PROJECT p] [DESC] [LIMIT n] [CONSISTENT] [AFTER KEY]
//	Scan [ON index] [FILTER f] [PROJECT p] [LIMIT n] [CONSISTENT] [SEGMENT i/n] [AFTER KEY]
//	TransactWriteItems [Put KEY [IF c]] [Update KEY UPDATE [IF c]] [Delete KEY [IF c]] [Check KEY IF c] ...
//	TransactGetItems [Get KEY] ...
//	BatchWriteItem [Put KEY] [Delete KEY] ...
//	BatchGetItem [KEY] ...
//
// KEY is the item's key attributes (see [NewRecorder]) as NAME=value. A
// string value is Go-quoted, a number as DynamoDB has it; a boolean is
// true or false, NULL null, binary 0x and hex, a list [a, b], a map
// {name: v} and a set <<a, b>>. For example:
//
//	Query (PK = "u#12345#post") AND (begins_with (SK, "p#")) DESC
//	UpdateItem PK="player001" SK="ITEMS#001" SET ItemCount = ItemCount - 1 IF attribute_exists (PK)
//	TransactWriteItems [Put PK="p#1#likelist" SK="u#a" IF attribute_not_exists (PK)] [Update PK="p#1#likecount" SK="count" ADD like# 1 IF attribute_exists (PK)]
type Recorder struct {
	*dynamodb.Client
	keys []string

	mu    sync.Mutex
	lines []string
}

// NewRecorder returns a Recorder of the requests sent to db. keyAttrs
// names the attributes a line shows of each item or key, in that order
// (those it has); without any, PK and SK.
func NewRecorder(db *dynamodb.Client, keyAttrs ...string) *Recorder {
	if len(keyAttrs) == 0 {
		keyAttrs = []string{"PK", "SK"}
	}
	return &Recorder{Client: db, keys: keyAttrs}
}

var _ exampleutil.API = (*Recorder)(nil)

// Take returns the lines recorded since the last Take or Reset, in the
// order they were recorded, and forgets them.
func (r *Recorder) Take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	lines := r.lines
	r.lines = nil
	return lines
}

// Reset forgets the lines recorded so far.
func (r *Recorder) Reset() { r.Take() }

func (r *Recorder) record(line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, line)
}

func (r *Recorder) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	e := expr{in.ExpressionAttributeNames, nil}
	r.record("GetItem " + r.key(in.Key) + e.clause("PROJECT", in.ProjectionExpression) + flag("CONSISTENT", in.ConsistentRead))
	return r.Client.GetItem(ctx, in, o...)
}

func (r *Recorder) PutItem(ctx context.Context, in *dynamodb.PutItemInput, o ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	e := expr{in.ExpressionAttributeNames, in.ExpressionAttributeValues}
	r.record("PutItem " + r.key(in.Item) + e.clause("IF", in.ConditionExpression))
	return r.Client.PutItem(ctx, in, o...)
}

func (r *Recorder) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, o ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	e := expr{in.ExpressionAttributeNames, in.ExpressionAttributeValues}
	r.record("UpdateItem " + r.key(in.Key) + e.clause("", in.UpdateExpression) + e.clause("IF", in.ConditionExpression))
	return r.Client.UpdateItem(ctx, in, o...)
}

func (r *Recorder) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, o ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	e := expr{in.ExpressionAttributeNames, in.ExpressionAttributeValues}
	r.record("DeleteItem " + r.key(in.Key) + e.clause("IF", in.ConditionExpression))
	return r.Client.DeleteItem(ctx, in, o...)
}

func (r *Recorder) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	e := expr{in.ExpressionAttributeNames, in.ExpressionAttributeValues}
	line := "Query" + on(in.IndexName) + e.clause("", in.KeyConditionExpression) +
		e.clause("FILTER", in.FilterExpression) + e.clause("PROJECT", in.ProjectionExpression)
	if in.ScanIndexForward != nil && !*in.ScanIndexForward {
		line += " DESC"
	}
	r.record(line + limit(in.Limit) + flag("CONSISTENT", in.ConsistentRead) + r.after(in.ExclusiveStartKey))
	return r.Client.Query(ctx, in, o...)
}

func (r *Recorder) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	e := expr{in.ExpressionAttributeNames, in.ExpressionAttributeValues}
	line := "Scan" + on(in.IndexName) + e.clause("FILTER", in.FilterExpression) + e.clause("PROJECT", in.ProjectionExpression) +
		limit(in.Limit) + flag("CONSISTENT", in.ConsistentRead)
	if in.TotalSegments != nil {
		line += fmt.Sprintf(" SEGMENT %d/%d", aws.ToInt32(in.Segment), *in.TotalSegments)
	}
	r.record(line + r.after(in.ExclusiveStartKey))
	return r.Client.Scan(ctx, in, o...)
}

func (r *Recorder) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	var b strings.Builder
	b.WriteString("TransactWriteItems")
	for _, a := range in.TransactItems {
		switch {
		case a.Put != nil:
			e := expr{a.Put.ExpressionAttributeNames, a.Put.ExpressionAttributeValues}
			fmt.Fprintf(&b, " [Put %s%s]", r.key(a.Put.Item), e.clause("IF", a.Put.ConditionExpression))
		case a.Update != nil:
			e := expr{a.Update.ExpressionAttributeNames, a.Update.ExpressionAttributeValues}
			fmt.Fprintf(&b, " [Update %s%s%s]", r.key(a.Update.Key), e.clause("", a.Update.UpdateExpression), e.clause("IF", a.Update.ConditionExpression))
		case a.Delete != nil:
			e := expr{a.Delete.ExpressionAttributeNames, a.Delete.ExpressionAttributeValues}
			fmt.Fprintf(&b, " [Delete %s%s]", r.key(a.Delete.Key), e.clause("IF", a.Delete.ConditionExpression))
		case a.ConditionCheck != nil:
			e := expr{a.ConditionCheck.ExpressionAttributeNames, a.ConditionCheck.ExpressionAttributeValues}
			fmt.Fprintf(&b, " [Check %s%s]", r.key(a.ConditionCheck.Key), e.clause("IF", a.ConditionCheck.ConditionExpression))
		}
	}
	r.record(b.String())
	return r.Client.TransactWriteItems(ctx, in, o...)
}

func (r *Recorder) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	var b strings.Builder
	b.WriteString("TransactGetItems")
	for _, g := range in.TransactItems {
		if g.Get != nil {
			fmt.Fprintf(&b, " [Get %s]", r.key(g.Get.Key))
		}
	}
	r.record(b.String())
	return r.Client.TransactGetItems(ctx, in, o...)
}

func (r *Recorder) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	var b strings.Builder
	b.WriteString("BatchWriteItem")
	for _, table := range sortedKeys(in.RequestItems) {
		for _, w := range in.RequestItems[table] {
			switch {
			case w.PutRequest != nil:
				fmt.Fprintf(&b, " [Put %s]", r.key(w.PutRequest.Item))
			case w.DeleteRequest != nil:
				fmt.Fprintf(&b, " [Delete %s]", r.key(w.DeleteRequest.Key))
			}
		}
	}
	r.record(b.String())
	return r.Client.BatchWriteItem(ctx, in, o...)
}

func (r *Recorder) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	var b strings.Builder
	b.WriteString("BatchGetItem")
	for _, table := range sortedKeys(in.RequestItems) {
		for _, k := range in.RequestItems[table].Keys {
			fmt.Fprintf(&b, " [%s]", r.key(k))
		}
	}
	r.record(b.String())
	return r.Client.BatchGetItem(ctx, in, o...)
}

// key writes the key attributes of item: PK="u#12345" SK="count".
func (r *Recorder) key(item map[string]types.AttributeValue) string {
	var parts []string
	for _, name := range r.keys {
		if v, ok := item[name]; ok {
			parts = append(parts, name+"="+value(v))
		}
	}
	return strings.Join(parts, " ")
}

// after writes " AFTER KEY" for a page's start key, if any.
func (r *Recorder) after(start map[string]types.AttributeValue) string {
	if len(start) == 0 {
		return ""
	}
	return " AFTER " + r.key(start)
}

// expr resolves the placeholders of one request's expressions.
type expr struct {
	names  map[string]string
	values map[string]types.AttributeValue
}

var placeholder = regexp.MustCompile(`[#:][0-9A-Za-z_]+`)

// clause writes " WORD s" with s resolved, or " s" without a word; ""
// when s is unset.
func (e expr) clause(word string, s *string) string {
	text := strings.TrimSpace(aws.ToString(s))
	if text == "" {
		return ""
	}
	text = placeholder.ReplaceAllStringFunc(text, func(ph string) string {
		if n, ok := e.names[ph]; ok {
			return n
		}
		if v, ok := e.values[ph]; ok {
			return value(v)
		}
		return ph
	})
	if word == "" {
		return " " + text
	}
	return " " + word + " " + text
}

// value writes an attribute value as the Recorder's doc says.
func value(v types.AttributeValue) string {
	list := func(open, close string, n int, elem func(int) string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = elem(i)
		}
		return open + strings.Join(parts, ", ") + close
	}
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return strconv.Quote(v.Value)
	case *types.AttributeValueMemberN:
		return v.Value
	case *types.AttributeValueMemberBOOL:
		return strconv.FormatBool(v.Value)
	case *types.AttributeValueMemberNULL:
		return "null"
	case *types.AttributeValueMemberB:
		return "0x" + hex.EncodeToString(v.Value)
	case *types.AttributeValueMemberL:
		return list("[", "]", len(v.Value), func(i int) string { return value(v.Value[i]) })
	case *types.AttributeValueMemberM:
		names := sortedKeys(v.Value)
		return list("{", "}", len(names), func(i int) string { return names[i] + ": " + value(v.Value[names[i]]) })
	case *types.AttributeValueMemberSS:
		return list("<<", ">>", len(v.Value), func(i int) string { return strconv.Quote(v.Value[i]) })
	case *types.AttributeValueMemberNS:
		return list("<<", ">>", len(v.Value), func(i int) string { return v.Value[i] })
	case *types.AttributeValueMemberBS:
		return list("<<", ">>", len(v.Value), func(i int) string { return "0x" + hex.EncodeToString(v.Value[i]) })
	}
	return fmt.Sprintf("%T", v)
}

func on(index *string) string {
	if index == nil {
		return ""
	}
	return " ON " + *index
}

func limit(n *int32) string {
	if n == nil {
		return ""
	}
	return " LIMIT " + strconv.Itoa(int(*n))
}

func flag(word string, set *bool) string {
	if !aws.ToBool(set) {
		return ""
	}
	return " " + word
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
