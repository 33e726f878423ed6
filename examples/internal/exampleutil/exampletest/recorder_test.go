package exampletest

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// TestRecorderLines: each data request is one line in the documented
// format and reaches DynamoDB; table operations are not recorded.
func TestRecorderLines(t *testing.T) {
	ctx := context.Background()
	table := ddbtest.NewTable(t) // PK/SK, GSI1 on GSI1PK/GSI1SK
	rec := NewRecorder(ddbtest.Client(t))
	name := aws.String(table.Name())
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	key := func(pk, sk string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk)}
	}
	pk := map[string]string{"#0": "PK"}
	names := map[string]string{"#1": "n", "#2": "tags"}

	_, err := rec.PutItem(ctx, &dynamodb.PutItemInput{TableName: name,
		Item:                map[string]types.AttributeValue{"PK": s("a"), "SK": s("1"), "GSI1PK": s("g"), "GSI1SK": s("a"), "n": &types.AttributeValueMemberN{Value: "2"}},
		ConditionExpression: aws.String("attribute_not_exists (#0)"), ExpressionAttributeNames: pk})
	require.NoError(t, err)
	_, err = rec.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: name, Key: key("a", "1"),
		UpdateExpression:         aws.String("SET #1 = #1 + :0, #2 = :1 "),
		ConditionExpression:      aws.String("#1 < :2"),
		ExpressionAttributeNames: names,
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":0": &types.AttributeValueMemberN{Value: "1"},
			":1": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"z": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberBOOL{Value: true}, &types.AttributeValueMemberNULL{Value: true}}},
				"b": &types.AttributeValueMemberB{Value: []byte{0xab}},
				"s": &types.AttributeValueMemberSS{Value: []string{"x", "y"}},
			}},
			":2": &types.AttributeValueMemberN{Value: "10"},
		}})
	require.NoError(t, err)
	_, err = rec.GetItem(ctx, &dynamodb.GetItemInput{TableName: name, Key: key("a", "1"), ConsistentRead: aws.Bool(true),
		ProjectionExpression: aws.String("#1, #2"), ExpressionAttributeNames: names})
	require.NoError(t, err)
	_, err = rec.Query(ctx, &dynamodb.QueryInput{TableName: name, IndexName: aws.String("GSI1"),
		KeyConditionExpression: aws.String("GSI1PK = :0"), FilterExpression: aws.String("#1 > :1"),
		ExpressionAttributeNames:  map[string]string{"#1": "n"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":0": s("g"), ":1": &types.AttributeValueMemberN{Value: "0"}},
		ScanIndexForward:          aws.Bool(false), Limit: aws.Int32(5),
		ExclusiveStartKey: map[string]types.AttributeValue{"GSI1PK": s("g"), "GSI1SK": s("0"), "PK": s("0"), "SK": s("0")}})
	require.NoError(t, err)
	_, err = rec.Scan(ctx, &dynamodb.ScanInput{TableName: name, Segment: aws.Int32(0), TotalSegments: aws.Int32(2)})
	require.NoError(t, err)
	_, err = rec.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: name, Item: key("b", "1")}},
		{ConditionCheck: &types.ConditionCheck{TableName: name, Key: key("a", "1"),
			ConditionExpression: aws.String("#1 = :0"), ExpressionAttributeNames: map[string]string{"#1": "n"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":0": &types.AttributeValueMemberN{Value: "3"}}}},
	}})
	require.NoError(t, err)
	_, err = rec.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
		{Get: &types.Get{TableName: name, Key: key("a", "1")}}, {Get: &types.Get{TableName: name, Key: key("b", "1")}},
	}})
	require.NoError(t, err)
	_, err = rec.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{*name: {
		{PutRequest: &types.PutRequest{Item: key("c", "1")}}, {DeleteRequest: &types.DeleteRequest{Key: key("b", "1")}},
	}}})
	require.NoError(t, err)
	_, err = rec.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{*name: {
		Keys: []map[string]types.AttributeValue{key("a", "1"), key("c", "1")},
	}}})
	require.NoError(t, err)
	_, err = rec.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: name, Key: key("c", "1"),
		ConditionExpression: aws.String("attribute_exists (#0)"), ExpressionAttributeNames: pk})
	require.NoError(t, err)
	_, err = rec.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: name})
	require.NoError(t, err)

	assert.Equal(t, []string{
		`PutItem PK="a" SK="1" IF attribute_not_exists (PK)`,
		`UpdateItem PK="a" SK="1" SET n = n + 1, tags = {b: 0xab, s: <<"x", "y">>, z: [true, null]} IF n < 10`,
		`GetItem PK="a" SK="1" PROJECT n, tags CONSISTENT`,
		`Query ON GSI1 GSI1PK = "g" FILTER n > 0 DESC LIMIT 5 AFTER PK="0" SK="0"`,
		`Scan SEGMENT 0/2`,
		`TransactWriteItems [Put PK="b" SK="1"] [Check PK="a" SK="1" IF n = 3]`,
		`TransactGetItems [Get PK="a" SK="1"] [Get PK="b" SK="1"]`,
		`BatchWriteItem [Put PK="c" SK="1"] [Delete PK="b" SK="1"]`,
		`BatchGetItem [PK="a" SK="1"] [PK="c" SK="1"]`,
		`DeleteItem PK="c" SK="1" IF attribute_exists (PK)`,
	}, rec.Take())
	assert.Empty(t, rec.Take(), "Take forgets")

	// Other key attributes, in the order given.
	byIndex := NewRecorder(ddbtest.Client(t), "GSI1SK", "PK")
	_, err = byIndex.GetItem(ctx, &dynamodb.GetItemInput{TableName: name, Key: key("a", "1")})
	require.NoError(t, err)
	assert.Equal(t, []string{`GetItem PK="a"`}, byIndex.Take())
}

// TestRecorderConcurrent: requests sent at once are each recorded once;
// run with -race.
func TestRecorderConcurrent(t *testing.T) {
	table := ddbtest.NewTable(t)
	rec := NewRecorder(ddbtest.Client(t))
	const n = 20
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := rec.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(table.Name()),
				Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: fmt.Sprint(i)}, "SK": &types.AttributeValueMemberS{Value: "x"}}})
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	var want []string
	for i := range n {
		want = append(want, fmt.Sprintf(`GetItem PK="%d" SK="x"`, i))
	}
	assert.ElementsMatch(t, want, rec.Take())

	rec.record("x")
	rec.Reset()
	assert.Empty(t, rec.Take())
}
