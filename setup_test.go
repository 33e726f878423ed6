package adjlist_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

func TestMain(m *testing.M) {
	skipExamplesWithoutLocal() // example_verbs_test.go
	ddbtest.Main(m)
}

// The seed's students↔courses data types.
type (
	Student struct {
		Name  string `dynamodbav:"name"`
		Year  int    `dynamodbav:"year"`
		Major string `dynamodbav:"major"`
	}
	Course struct {
		Title   string `dynamodbav:"title"`
		Credits int    `dynamodbav:"credits"`
		Term    string `dynamodbav:"term"`
	}
	Enrollment struct {
		EnrolledOn string `dynamodbav:"enrolledOn"`
		Grade      string `dynamodbav:"grade"`
	}
)

// countingClient counts the requests that reach DynamoDB, to prove that bad
// input is refused before any is sent and that each access pattern costs
// one request per page.
type countingClient struct {
	adjlist.Client
	gets, puts, updates, deletes, queries, scans, txs atomic.Int64
	batchGets                                         atomic.Int64 // not in total
}

func (c *countingClient) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	c.batchGets.Add(1)
	return c.Client.BatchGetItem(ctx, in, o...)
}

func (c *countingClient) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.gets.Add(1)
	return c.Client.GetItem(ctx, in, o...)
}

func (c *countingClient) PutItem(ctx context.Context, in *dynamodb.PutItemInput, o ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	c.puts.Add(1)
	return c.Client.PutItem(ctx, in, o...)
}

func (c *countingClient) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, o ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.updates.Add(1)
	return c.Client.UpdateItem(ctx, in, o...)
}

func (c *countingClient) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, o ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	c.deletes.Add(1)
	return c.Client.DeleteItem(ctx, in, o...)
}

func (c *countingClient) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.queries.Add(1)
	return c.Client.Query(ctx, in, o...)
}

// Scan needs a client behind that can Scan (a *dynamodb.Client does).
func (c *countingClient) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	c.scans.Add(1)
	return c.Client.Scan(ctx, in, o...)
}

func (c *countingClient) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	c.txs.Add(1)
	return c.Client.TransactGetItems(ctx, in, o...)
}

func (c *countingClient) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	c.txs.Add(1)
	return c.Client.TransactWriteItems(ctx, in, o...)
}

func (c *countingClient) total() int64 {
	return c.gets.Load() + c.puts.Load() + c.updates.Load() + c.deletes.Load() + c.queries.Load() + c.scans.Load() + c.txs.Load()
}

var _ adjlist.Client = (*countingClient)(nil)

// school is the seed 000 model on a fresh table of its own.
type school struct {
	db       *dynamodb.Client
	calls    *countingClient
	table    *adjlist.Table
	students *adjlist.Node[Student]
	courses  *adjlist.Node[Course]
	enrolled *adjlist.Edge[Enrollment]
}

func newSchool(t *testing.T, optFns ...func(*adjlist.CreateTableOptions)) *school {
	t.Helper()
	return newSchoolLayout(t, adjlist.Options{}, "ENROLL", optFns...)
}

// newSchoolLayout is newSchool on a table with the given key attribute
// names and enrolment edge label.
func newSchoolLayout(t *testing.T, layout adjlist.Options, label string, optFns ...func(*adjlist.CreateTableOptions)) *school {
	t.Helper()
	db := ddbtest.Client(t)
	s := &school{db: db, calls: &countingClient{Client: db}}
	s.table = adjlist.NewTable(s.calls, ddbtest.TableName(t), func(o *adjlist.Options) { *o = layout })
	ctx := context.Background()
	require.NoError(t, adjlist.CreateTable(ctx, db, s.table, optFns...))
	dropOnCleanup(t, db, s.table.Name())
	s.students = adjlist.NewNode[Student](s.table, "STU", "PROFILE")
	s.courses = adjlist.NewNode[Course](s.table, "CRS", "METADATA")
	s.enrolled = adjlist.NewEdge[Enrollment](s.students, label, s.courses)
	return s
}

// rawCount counts the items of one partition of the table or the index with
// a COUNT query, bypassing the library.
func (s *school) rawCount(t *testing.T, index, attr, value string) int32 {
	t.Helper()
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key(attr).Equal(expression.Value(value))).Build()
	require.NoError(t, err)
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(s.table.Name()),
		KeyConditionExpression:    expr.KeyCondition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
		Select:                    types.SelectCount,
	}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	var n int32
	pages := dynamodb.NewQueryPaginator(s.db, in)
	for pages.HasMorePages() {
		out, err := pages.NextPage(context.Background())
		require.NoError(t, err)
		n += out.Count
	}
	return n
}

func getInput(table, pk, sk string) *dynamodb.GetItemInput {
	return &dynamodb.GetItemInput{TableName: aws.String(table), Key: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: pk},
		"SK": &types.AttributeValueMemberS{Value: sk},
	}}
}

// stringsOf flattens an item whose attributes are all strings.
func stringsOf(t *testing.T, item map[string]types.AttributeValue) map[string]string {
	t.Helper()
	out := make(map[string]string, len(item))
	for k, v := range item {
		s, ok := v.(*types.AttributeValueMemberS)
		require.True(t, ok, "attribute %s is %T", k, v)
		out[k] = s.Value
	}
	return out
}

// waitIndex bounds the polls for an item to show in an index, which
// DynamoDB updates asynchronously.
const waitIndex = 5 * time.Second

// DynamoDB's limits, as the docs state them: an item's size (by
// adjlist.ItemSize), a key value's length in bytes, a transaction's actions.
const (
	maxItemSize        = 400 * 1024
	maxPartitionKeyLen = 2048
	maxSortKeyLen      = 1024
	maxTxActions       = 100
)

// projID is the id of the ith project of a workspace.
func projID(i int) string { return fmt.Sprintf("2026-%04d", i) }

// dropOnCleanup deletes the table when the test ends.
func dropOnCleanup(t *testing.T, db *dynamodb.Client, name string) {
	t.Cleanup(func() {
		_, err := db.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)})
		require.NoError(t, err)
	})
}
