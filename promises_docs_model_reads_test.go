package adjlist_test

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

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// reqLog records every request in order: its operation and input.
type reqLog struct {
	adjlist.Client
	mu   sync.Mutex
	sent []reqSent
}

type reqSent struct {
	op string
	in any
}

func (c *reqLog) note(op string, in any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent = append(c.sent, reqSent{op, in})
}

// take returns the requests sent since the last call.
func (c *reqLog) take() []reqSent {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.sent
	c.sent = nil
	return out
}

// ops is the operations of rs, in order.
func ops(rs []reqSent) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.op
	}
	return out
}

func (c *reqLog) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.note("GetItem", in)
	return c.Client.GetItem(ctx, in, o...)
}

func (c *reqLog) PutItem(ctx context.Context, in *dynamodb.PutItemInput, o ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	c.note("PutItem", in)
	return c.Client.PutItem(ctx, in, o...)
}

func (c *reqLog) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, o ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.note("UpdateItem", in)
	return c.Client.UpdateItem(ctx, in, o...)
}

func (c *reqLog) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, o ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	c.note("DeleteItem", in)
	return c.Client.DeleteItem(ctx, in, o...)
}

func (c *reqLog) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.note("Query", in)
	return c.Client.Query(ctx, in, o...)
}

func (c *reqLog) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	c.note("BatchGetItem", in)
	return c.Client.BatchGetItem(ctx, in, o...)
}

func (c *reqLog) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	c.note("BatchWriteItem", in)
	return c.Client.BatchWriteItem(ctx, in, o...)
}

func (c *reqLog) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	c.note("TransactWriteItems", in)
	return c.Client.TransactWriteItems(ctx, in, o...)
}

func (c *reqLog) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	c.note("TransactGetItems", in)
	return c.Client.TransactGetItems(ctx, in, o...)
}

// newLoggedTable is a fresh table whose requests c records.
func newLoggedTable(t *testing.T, optFns ...func(*adjlist.Options)) (*dynamodb.Client, *reqLog, *adjlist.Table) {
	t.Helper()
	db := ddbtest.Client(t)
	c := &reqLog{Client: db}
	table := adjlist.NewTable(c, ddbtest.TableName(t), optFns...)
	ddbtest.CreateTable(t, table)
	return db, c, table
}

// rawAt is the item at pk/sk as text ([rawText]), read past the library;
// nil when there is none.
func rawAt(t *testing.T, db *dynamodb.Client, table *adjlist.Table, pk, sk string) map[string]string {
	t.Helper()
	if item := rawItemAt(t, db, table, pk, sk); item != nil {
		return rawText(item)
	}
	return nil
}

// rawItemAt is the item at pk/sk, read past the library.
func rawItemAt(t *testing.T, db *dynamodb.Client, table *adjlist.Table, pk, sk string) adjlist.Item {
	t.Helper()
	out, err := db.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(table.Name()), ConsistentRead: aws.Bool(true),
		Key: adjlist.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}}})
	require.NoError(t, err)
	return out.Item
}

// docs/modelling.md, Counting items by group: the queue's counts sit
// beside its tickets (PK = "QUEUE#q1", SK = "TICKETS#open"), one count is
// one GetItem, and "Writes that must learn the old group (Replace;
// Delete, and an Update that sets or removes the GroupBy attribute) read
// the item first, strongly consistent ... Such an Update is three
// requests: that GetItem, the TransactWriteItems, and a strongly
// consistent GetItem that reads the item back".
func TestDocsGroupCounterRequests(t *testing.T) {
	t.Parallel()
	type (
		Queue  struct{ Name string }
		Ticket struct {
			Title  string `dynamodbav:"title"`
			Status string `dynamodbav:"status"`
		}
	)
	ctx := context.Background()
	db, calls, table := newLoggedTable(t)
	queues := adjlist.NewNode[Queue](table, "QUEUE", "META")
	tickets := adjlist.NewCollection[Ticket](queues, "TICKET")
	byStatus := adjlist.NewItemCounter(tickets, "TICKETS", func(o *adjlist.CounterOptions) { o.GroupBy = "status" })
	require.NoError(t, table.Check())

	consistentGet := func(t *testing.T, r reqSent, pk, sk string) {
		t.Helper()
		in, ok := r.in.(*dynamodb.GetItemInput)
		require.True(t, ok, "%s is a GetItem", r.op)
		assert.Equal(t, aws.Bool(true), in.ConsistentRead, "strongly consistent")
		assert.Equal(t, map[string]string{"PK": pk, "SK": sk}, rawText(in.Key))
	}

	require.NoError(t, tickets.Put(ctx, "q1", "t1", Ticket{Title: "crash", Status: "open"}))
	assert.Equal(t, []string{"TransactWriteItems"}, ops(calls.take()), "Put: the item and its count in one transaction")
	assert.Equal(t, map[string]string{"PK": "QUEUE#q1", "SK": "TICKETS#open", "count": "1"},
		filterKeys(rawAt(t, db, table, "QUEUE#q1", "TICKETS#open"), "PK", "SK", "count"), "the count item beside the tickets")

	got, err := tickets.Update(ctx, "q1", "t1", adjlist.Set("status", "closed"))
	require.NoError(t, err)
	assert.Equal(t, Ticket{Title: "crash", Status: "closed"}, got, "the item read back")
	sent := calls.take()
	require.Equal(t, []string{"GetItem", "TransactWriteItems", "GetItem"}, ops(sent), "an Update of the GroupBy attribute is three requests")
	consistentGet(t, sent[0], "QUEUE#q1", "TICKET#t1")
	consistentGet(t, sent[2], "QUEUE#q1", "TICKET#t1")

	closed, err := byStatus.Get(ctx, adjlist.IDs{"q1"}, "closed")
	require.NoError(t, err)
	assert.Equal(t, int64(1), closed)
	open, err := byStatus.Get(ctx, adjlist.IDs{"q1"}, "open")
	require.NoError(t, err)
	assert.Zero(t, open)
	sent = calls.take()
	require.Equal(t, []string{"GetItem", "GetItem"}, ops(sent), "one count is one GetItem")
	assert.Equal(t, map[string]string{"PK": "QUEUE#q1", "SK": "TICKETS#closed"}, rawText(sent[0].in.(*dynamodb.GetItemInput).Key))

	require.NoError(t, tickets.Replace(ctx, "q1", "t1", Ticket{Title: "crash", Status: "open"}))
	sent = calls.take()
	require.Equal(t, []string{"GetItem", "TransactWriteItems"}, ops(sent), "Replace reads the old group first")
	consistentGet(t, sent[0], "QUEUE#q1", "TICKET#t1")

	require.NoError(t, tickets.Delete(ctx, "q1", "t1"))
	sent = calls.take()
	require.Equal(t, []string{"GetItem", "TransactWriteItems"}, ops(sent), "Delete reads the old group first")
	consistentGet(t, sent[0], "QUEUE#q1", "TICKET#t1")
	assert.Equal(t, "0", rawAt(t, db, table, "QUEUE#q1", "TICKETS#open")["count"])
	assert.Equal(t, "0", rawAt(t, db, table, "QUEUE#q1", "TICKETS#closed")["count"])
}

// filterKeys is m with only the attributes names.
func filterKeys(m map[string]string, names ...string) map[string]string {
	out := map[string]string{}
	for _, n := range names {
		if v, ok := m[n]; ok {
			out[n] = v
		}
	}
	return out
}

// docs/modelling.md, Graph aggregates: a counter kept from the stream
// keeps its count at PK = "CRS#math204", SK = "ENROLLED" (count), and
// "Apply keeps a marker per edge beside the aggregate (SK =
// "ENROLLED##STU#a91", with the last sequence number applied and whether
// the edge is present) and changes the count in the same 2-item
// transaction only when a record changes the edge's presence and is newer
// than the last one applied to it". Writes leave such a counter alone.
func TestDocsStreamCounterLayout(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, calls, table := newLoggedTable(t)
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	perTarget := func(o *adjlist.CounterOptions) { o.Per = "to" }
	fromStream := adjlist.NewItemCounter(enrolled, "ENROLLED", perTarget, func(o *adjlist.CounterOptions) { o.Stream = true })
	require.NoError(t, table.Check())

	require.NoError(t, enrolled.Put(ctx, "a91", "math204", Enrollment{EnrolledOn: "2026-09-01"}))
	assert.Equal(t, []string{"PutItem"}, ops(calls.take()), "writes leave a stream counter alone")
	assert.Nil(t, rawAt(t, db, table, "CRS#math204", "ENROLLED"))

	require.NoError(t, fromStream.Apply(ctx, "100", "a91", "math204", true))
	sent := calls.take()
	require.Equal(t, []string{"TransactWriteItems"}, ops(sent))
	assert.Len(t, sent[0].in.(*dynamodb.TransactWriteItemsInput).TransactItems, 2, "a 2-item transaction")
	assert.Equal(t, map[string]string{"PK": "CRS#math204", "SK": "ENROLLED", "count": "1"},
		filterKeys(rawAt(t, db, table, "CRS#math204", "ENROLLED"), "PK", "SK", "count"))
	marker := rawItemAt(t, db, table, "CRS#math204", "ENROLLED##STU#a91")
	require.NotNil(t, marker, "the marker beside the aggregate")
	assert.Equal(t, adjlist.Item{ // the sequence number, zero-padded to sort as text, and the edge present
		"PK": &types.AttributeValueMemberS{Value: "CRS#math204"}, "SK": &types.AttributeValueMemberS{Value: "ENROLLED##STU#a91"},
		"seq": &types.AttributeValueMemberS{Value: fmt.Sprintf("%040d", 100)}, "present": &types.AttributeValueMemberBOOL{Value: true},
	}, marker)

	for _, dup := range []struct {
		seq     string
		present bool
	}{{"100", true}, {"120", true}, {"90", false}} { // a duplicate, no change of presence, an older record
		require.NoError(t, fromStream.Apply(ctx, dup.seq, "a91", "math204", dup.present))
		assert.Equal(t, marker, rawItemAt(t, db, table, "CRS#math204", "ENROLLED##STU#a91"), "%+v: marker unchanged", dup)
		assert.Equal(t, "1", rawAt(t, db, table, "CRS#math204", "ENROLLED")["count"], "%+v: count unchanged", dup)
	}
	require.NoError(t, fromStream.Apply(ctx, "130", "a91", "math204", false))
	assert.Equal(t, "0", rawAt(t, db, table, "CRS#math204", "ENROLLED")["count"])
	assert.Equal(t, adjlist.Item{
		"PK": &types.AttributeValueMemberS{Value: "CRS#math204"}, "SK": &types.AttributeValueMemberS{Value: "ENROLLED##STU#a91"},
		"seq": &types.AttributeValueMemberS{Value: fmt.Sprintf("%040d", 130)}, "present": &types.AttributeValueMemberBOOL{Value: false},
	}, rawItemAt(t, db, table, "CRS#math204", "ENROLLED##STU#a91"), "a REMOVE moves the marker on")
	n, err := fromStream.Get(ctx, adjlist.IDs{"math204"}, "")
	require.NoError(t, err)
	assert.Zero(t, n)
}
