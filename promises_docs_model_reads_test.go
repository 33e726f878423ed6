package adjlist_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
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
	assert.Equal(t, map[string]string{"PK": "CRS#math204", "SK": "ENROLLED", "count": "1", "counter": "ENROLLED"},
		rawAt(t, db, table, "CRS#math204", "ENROLLED"), "the counter named, for an index on counter and count")
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

// docs/performance.md, What a call cost: projects.Load with a Usage is
// "1 request, the read units DynamoDB reports".
func TestDocsUsageOfLoad(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, calls, table := newLoggedTable(t, func(o *adjlist.Options) {
		o.PartitionKey, o.SortKey, o.NoIndex = "EntityRef", "Detail", true
	})
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ")
	require.NoError(t, workspaces.Put(ctx, "acme", Workspace{}))
	for i := range 3 {
		require.NoError(t, projects.Put(ctx, "acme", projID(i), Project{Title: "Launch"}))
	}
	calls.take()

	var u adjlist.Usage
	fam, err := projects.Load(adjlist.WithUsage(ctx, &u), "acme")
	require.NoError(t, err)
	assert.Len(t, fam.Children, 3)
	total := u.Totals()
	assert.Equal(t, 1, total.Requests)
	assert.Equal(t, []string{"Query"}, ops(calls.take()))
	assert.Positive(t, total.ReadUnits, "the read units DynamoDB reports")
	assert.Equal(t, 4, total.Matched, "the workspace and its projects")
}

// docs/modelling.md, Hot partitions and cost: a collection with Shards = 10
// keeps its children at "PK = WS#acme#00 … #09; META stays at WS#acme";
// a page is "10 Queries in parallel, merged", each reading up to the
// page's limit ("A sharded page costs one Query per shard and reads up
// to its limit from each"); Load is "GetItem of the parent + the merged
// children". A sharded edge's reverse page is one Query per index shard
// (GSI1PK = USER#celeb#00 … #07), and its Count "keys-only Query on every
// shard".
func TestDocsShardedRequests(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, calls, table := newLoggedTable(t)
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ",
		func(o *adjlist.CollectionOptions) { o.Shards = 10 })
	users := adjlist.NewNode[struct{}](table, "USER", "META")
	follows := adjlist.NewEdge[Following](users, "FOLLOWS", users,
		func(o *adjlist.EdgeOptions) { o.Shards = 8 })
	require.NoError(t, table.Check())

	require.NoError(t, workspaces.Put(ctx, "acme", Workspace{DisplayName: "Acme"}))
	assert.NotNil(t, rawAt(t, db, table, "WS#acme", "META"), "META stays at WS#acme")
	for i := range 40 {
		require.NoError(t, projects.Put(ctx, "acme", projID(i), Project{Title: projID(i)}))
		require.NoError(t, follows.Put(ctx, fmt.Sprintf("fan%02d", i), "celeb", Following{Since: "2026"}))
	}
	shardKeys := func(prefix string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s#%02d", prefix, i)
		}
		return out
	}
	// queried is the partition key values the Queries of rs name, sorted,
	// each checked against check.
	queried := func(t *testing.T, rs []reqSent, check func(*dynamodb.QueryInput)) []string {
		t.Helper()
		var out []string
		for _, r := range rs {
			in, ok := r.in.(*dynamodb.QueryInput)
			if !ok {
				continue
			}
			check(in)
			for _, v := range in.ExpressionAttributeValues {
				if s, ok := v.(*types.AttributeValueMemberS); ok && (strings.HasPrefix(s.Value, "WS#") || strings.HasPrefix(s.Value, "USER#celeb")) {
					out = append(out, s.Value)
				}
			}
		}
		slices.Sort(out)
		return out
	}
	calls.take()

	page, err := projects.List("acme").Desc().Limit(20).Page(ctx, "")
	require.NoError(t, err)
	require.Len(t, page.Items, 20)
	assert.Equal(t, projID(39), page.Items[0].ID, "merged in sort key order, newest first")
	assert.Equal(t, projID(20), page.Items[19].ID)
	assert.NotEmpty(t, page.Cursor)
	sent := calls.take()
	assert.Equal(t, slices.Repeat([]string{"Query"}, 10), ops(sent))
	assert.Equal(t, shardKeys("WS#acme", 10), queried(t, sent, func(in *dynamodb.QueryInput) {
		assert.Equal(t, aws.Int32(20), in.Limit, "up to the page's limit from each shard")
		assert.False(t, aws.ToBool(in.ScanIndexForward))
	}))

	fam, err := projects.Load(ctx, "acme")
	require.NoError(t, err)
	assert.Equal(t, "Acme", fam.Parent.DisplayName)
	assert.Len(t, fam.Children, 40)
	sent = calls.take()
	gets := 0
	for _, r := range sent {
		if r.op == "GetItem" {
			gets++
			assert.Equal(t, map[string]string{"PK": "WS#acme", "SK": "META"}, rawText(r.in.(*dynamodb.GetItemInput).Key))
		}
	}
	assert.Equal(t, 1, gets, "one GetItem of the parent")
	assert.Equal(t, shardKeys("WS#acme", 10), queried(t, sent, func(*dynamodb.QueryInput) {}), "and the children of every shard")
	assert.Len(t, sent, 11)

	require.Eventually(t, func() bool {
		n, err := follows.To("celeb").Count(ctx)
		return err == nil && n == 40
	}, waitIndex, 20*time.Millisecond)
	calls.take()
	fans, err := follows.To("celeb").Limit(50).Page(ctx, "")
	require.NoError(t, err)
	assert.Len(t, fans.Items, 40)
	sent = calls.take()
	assert.Equal(t, slices.Repeat([]string{"Query"}, 8), ops(sent), "one Query per shard")
	assert.Equal(t, shardKeys("USER#celeb", 8), queried(t, sent, func(in *dynamodb.QueryInput) {
		assert.Equal(t, "GSI1", aws.ToString(in.IndexName))
		assert.Equal(t, aws.Int32(50), in.Limit)
	}))

	n, err := follows.To("celeb").Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 40, n)
	sent = calls.take()
	assert.Equal(t, slices.Repeat([]string{"Query"}, 8), ops(sent))
	assert.Equal(t, shardKeys("USER#celeb", 8), queried(t, sent, func(in *dynamodb.QueryInput) {
		assert.NotEmpty(t, aws.ToString(in.ProjectionExpression), "keys only")
		for _, name := range in.ExpressionAttributeNames {
			assert.Contains(t, []string{"PK", "SK", "GSI1PK", "GSI1SK"}, name, "keys only")
		}
	}))
}

// gatedBatches is a client whose BatchWriteItem requests wait, each for
// at most a bound, until four are in flight, so that a sender that never
// overlaps them shows a peak of one and one that overlaps too many shows
// more than four.
type gatedBatches struct {
	*reqLog
	mu        sync.Mutex
	in, peak  int
	batchSize []int
}

func (c *gatedBatches) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	c.mu.Lock()
	c.in++
	c.peak = max(c.peak, c.in)
	for _, reqs := range in.RequestItems {
		c.batchSize = append(c.batchSize, len(reqs))
	}
	c.mu.Unlock()
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		c.mu.Lock()
		full := c.peak >= 4
		c.mu.Unlock()
		if full {
			break
		}
	}
	out, err := c.reqLog.BatchWriteItem(ctx, in, o...)
	c.mu.Lock()
	c.in--
	c.mu.Unlock()
	return out, err
}

// docs/reads.md, What a cascade sends: "a keys-only Query ..., then that
// page's deletes with BatchWriteItem, 25 per request, up to 4 requests at
// once"; phase 1 on the index, keys only; phase 2 on the table, strongly
// consistent, keys only; "phase 3: BatchWriteItem delete of PK =
// "STU#a91", SK = "PROFILE"".
func TestDocsCascadeRequests(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	calls := &gatedBatches{reqLog: &reqLog{Client: db}}
	table := adjlist.NewTable(calls, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	mentors := adjlist.NewEdge[struct{}](students, "MENTOR", students)
	require.NoError(t, table.Check())

	require.NoError(t, students.Put(ctx, "a91", Student{Name: "Ada"}))
	var edges []adjlist.EdgeItem[Enrollment]
	for i := range 240 {
		edges = append(edges, adjlist.EdgeItem[Enrollment]{From: "a91", To: fmt.Sprintf("c%03d", i)})
	}
	_, err := enrolled.PutMany(ctx, edges)
	require.NoError(t, err)
	for i := range 3 {
		require.NoError(t, mentors.Put(ctx, fmt.Sprintf("m%d", i), "a91", struct{}{}))
	}
	require.NoError(t, mentors.WaitIndexed(ctx, "m2", "a91", waitIndex))
	calls.take()
	calls.mu.Lock()
	calls.peak, calls.batchSize = 0, nil
	calls.mu.Unlock()

	res, err := adjlist.DeleteNode(ctx, students, "a91", mentors)
	require.NoError(t, err)
	assert.Equal(t, 3, res.Incoming)
	assert.Equal(t, 240, res.Partition)
	assert.True(t, res.Node)

	sent := calls.take()
	require.NotEmpty(t, sent)
	keysOnly := func(t *testing.T, in *dynamodb.QueryInput, keys ...string) {
		t.Helper()
		require.NotEmpty(t, aws.ToString(in.ProjectionExpression), "keys only")
		var projected []string
		for _, name := range strings.Split(aws.ToString(in.ProjectionExpression), ",") {
			name = strings.TrimSpace(name)
			projected = append(projected, cmp.Or(in.ExpressionAttributeNames[name], name))
		}
		assert.Subset(t, keys, projected, "only key attributes projected")
	}
	var phases []string
	for _, r := range sent {
		if in, ok := r.in.(*dynamodb.QueryInput); ok {
			if aws.ToString(in.IndexName) == "GSI1" {
				phases = append(phases, "index")
				assert.Nil(t, in.ConsistentRead)
				keysOnly(t, in, "PK", "SK", "GSI1PK", "GSI1SK")
			} else {
				phases = append(phases, "table")
				assert.Equal(t, aws.Bool(true), in.ConsistentRead, "phase 2 is strongly consistent")
				keysOnly(t, in, "PK", "SK", "GSI1PK", "GSI1SK")
			}
		}
	}
	assert.Equal(t, []string{"index", "table"}, slices.Compact(phases), "phase 1 on the index, then phase 2 on the table")
	last, ok := sent[len(sent)-1].in.(*dynamodb.BatchWriteItemInput)
	require.True(t, ok, "phase 3 is a BatchWriteItem, not %s", sent[len(sent)-1].op)
	for _, reqs := range last.RequestItems {
		require.Len(t, reqs, 1)
		require.NotNil(t, reqs[0].DeleteRequest)
		assert.Equal(t, map[string]string{"PK": "STU#a91", "SK": "PROFILE"}, rawText(reqs[0].DeleteRequest.Key))
	}

	calls.mu.Lock()
	defer calls.mu.Unlock()
	for _, n := range calls.batchSize {
		assert.LessOrEqual(t, n, 25, "25 per request")
	}
	assert.Equal(t, 4, calls.peak, "up to 4 requests at once")
	assert.Equal(t, res.Batches, len(calls.batchSize))
	assert.GreaterOrEqual(t, res.Batches, 1+240/25+1, "the index's page, the partition's in batches of 25, the node")
}

// querySpelled is each Query of rs as the documents spell it: [index: ]key
// condition[; filter ...][ (strongly consistent)].
func querySpelled(rs []reqSent) []string {
	var out []string
	for _, r := range rs {
		in, ok := r.in.(*dynamodb.QueryInput)
		if !ok {
			continue
		}
		s := spell(aws.ToString(in.KeyConditionExpression), in.ExpressionAttributeNames, in.ExpressionAttributeValues)
		if i := aws.ToString(in.IndexName); i != "" {
			s = i + ": " + s
		}
		if f := aws.ToString(in.FilterExpression); f != "" {
			s += "; filter " + spell(f, in.ExpressionAttributeNames, in.ExpressionAttributeValues)
		}
		if aws.ToBool(in.ConsistentRead) {
			s += " (strongly consistent)"
		}
		out = append(out, s)
	}
	return out
}

// docs/modelling.md, Children as edge endpoints: "DeleteChild deletes the
// edges into the child of the kinds passed (on GSI1), its own partition
// (its edges out, of every label), then the child item (a DeleteItem with
// attribute_exists (#0))"; docs/reads.md, What a cascade sends: DeleteNode
// given kinds attached to the children starts with phase 0, "Query PK =
// "WS#acme" AND begins_with(SK, "PROJ#"), keys only; for each child:
// Query GSI1: GSI1PK = "WS#acme#PROJ#2026-0042" AND begins_with(GSI1SK,
// "TAG#"), filter begins_with(SK, "TAGGED#WS#"); Query PK =
// "WS#acme#PROJ#2026-0042" (strongly consistent)".
func TestDocsChildCascadeRequests(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, calls, table := newLoggedTable(t)
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ")
	tags := adjlist.NewNode[struct{}](table, "TAG", "")
	tagged := adjlist.NewEdge[Tagging](tags, "TAGGED", projects)
	hasTag := adjlist.NewEdge[Tagging](projects, "HAS", tags)
	require.NoError(t, table.Check())

	require.NoError(t, workspaces.Put(ctx, "acme", Workspace{}))
	seed := func() {
		t.Helper()
		require.NoError(t, projects.Put(ctx, "acme", "2026-0042", Project{Title: "Launch"}))
		ref, err := projects.Ref("acme", "2026-0042")
		require.NoError(t, err)
		require.NoError(t, tagged.Put(ctx, "go", ref, Tagging{}))
		require.NoError(t, hasTag.Put(ctx, ref, "go", Tagging{}))
		require.NoError(t, tagged.WaitIndexed(ctx, "go", ref, waitIndex))
		calls.take()
	}
	const (
		intoChild  = `GSI1: GSI1PK = "WS#acme#PROJ#2026-0042" AND begins_with(GSI1SK, "TAG#"); filter begins_with(SK, "TAGGED#WS#")`
		childParts = `PK = "WS#acme#PROJ#2026-0042" (strongly consistent)`
	)
	spelled := func(qs ...string) []string {
		for i, q := range qs {
			q, opt, _ := strings.Cut(q, " (strongly")
			index, cond, ok := strings.Cut(q, ": ")
			if !ok {
				index, cond = "", q
			}
			cond, filter, _ := strings.Cut(cond, "; filter ")
			s := spell(cond, nil, nil)
			if index != "" {
				s = index + ": " + s
			}
			if filter != "" {
				s += "; filter " + spell(filter, nil, nil)
			}
			if opt != "" {
				s += " (strongly" + opt
			}
			qs[i] = s
		}
		return qs
	}

	seed()
	res, err := adjlist.DeleteChild(ctx, projects, "acme", "2026-0042", tagged)
	require.NoError(t, err)
	assert.Equal(t, 1, res.Incoming)
	assert.Equal(t, 1, res.Partition, "its edges out, of every label")
	assert.True(t, res.Node)
	sent := calls.take()
	assert.Equal(t, spelled(intoChild, childParts), querySpelled(sent))
	last, ok := sent[len(sent)-1].in.(*dynamodb.DeleteItemInput)
	require.True(t, ok, "the child item last, with a DeleteItem, not %s", sent[len(sent)-1].op)
	assert.Equal(t, map[string]string{"PK": "WS#acme", "SK": "PROJ#2026-0042"}, rawText(last.Key))
	assert.Equal(t, "attribute_exists (#0)", aws.ToString(last.ConditionExpression))
	assert.Equal(t, map[string]string{"#0": "PK"}, last.ExpressionAttributeNames)

	seed()
	res, err = adjlist.DeleteNode(ctx, workspaces, "acme", tagged, hasTag)
	require.NoError(t, err)
	assert.Equal(t, 2, res.Attached, "the edges into and out of the child")
	assert.True(t, res.Node)
	got := querySpelled(calls.take())
	require.GreaterOrEqual(t, len(got), 3)
	assert.Equal(t, spelled(`PK = "WS#acme" AND begins_with(SK, "PROJ#") (strongly consistent)`, intoChild, childParts), got[:3], "phase 0")
	assert.Equal(t, spelled(`PK = "WS#acme" (strongly consistent)`), got[3:], "then phase 2")
}

// docs/reads.md, What a cascade sends: DeletePartition of an entity that
// heads its partition, a project's settings ("ORG#{org}#PROJ#{proj}",
// "META"), is "phase 2: Query PK = "ORG#acme#PROJ#p1" (strongly
// consistent, keys only) → BatchWriteItem deletes of SK = "TASK#t1",
// "TASK#t2", ...; phase 3: BatchWriteItem delete of PK =
// "ORG#acme#PROJ#p1", SK = "META"".
func TestDocsEntityPartitionCascadeRequests(t *testing.T) {
	t.Parallel()
	type settings struct {
		Theme string `dynamodbav:"theme"`
	}
	type task struct {
		Title string `dynamodbav:"title"`
	}
	ctx := context.Background()
	db, calls, table := newLoggedTable(t)
	projectSettings := adjlist.NewEntity[settings](table, "settings", "ORG#{org}#PROJ#{proj}", "META")
	tasks := adjlist.NewEntity[task](table, "task", "ORG#{org}#PROJ#{proj}", "TASK#{task}")
	require.NoError(t, table.Check())
	require.NoError(t, projectSettings.Put(ctx, adjlist.IDs{"acme", "p1"}, settings{Theme: "dark"}))
	for _, id := range []string{"t1", "t2"} {
		require.NoError(t, tasks.Put(ctx, adjlist.IDs{"acme", "p1", id}, task{Title: id}))
	}
	require.NotNil(t, rawAt(t, db, table, "ORG#acme#PROJ#p1", "TASK#t1"), "the task's key as the document spells it")
	calls.take()

	res, err := adjlist.DeletePartition(ctx, projectSettings, "ORG#acme#PROJ#p1")
	require.NoError(t, err)
	assert.Equal(t, 2, res.Partition)
	assert.True(t, res.Node)
	sent := calls.take()
	require.Equal(t, []string{"Query", "BatchWriteItem", "BatchWriteItem"}, ops(sent), "phase 2 alone, then the entity item")
	assert.Equal(t, []string{spell(`PK = "ORG#acme#PROJ#p1"`, nil, nil) + " (strongly consistent)"}, querySpelled(sent))
	assert.NotEmpty(t, aws.ToString(sent[0].in.(*dynamodb.QueryInput).ProjectionExpression), "keys only")
	deletes := func(r reqSent) []map[string]string {
		var out []map[string]string
		for _, reqs := range r.in.(*dynamodb.BatchWriteItemInput).RequestItems {
			for _, w := range reqs {
				require.NotNil(t, w.DeleteRequest)
				out = append(out, rawText(w.DeleteRequest.Key))
			}
		}
		return out
	}
	assert.ElementsMatch(t, []map[string]string{{"PK": "ORG#acme#PROJ#p1", "SK": "TASK#t1"}, {"PK": "ORG#acme#PROJ#p1", "SK": "TASK#t2"}}, deletes(sent[1]))
	assert.Equal(t, []map[string]string{{"PK": "ORG#acme#PROJ#p1", "SK": "META"}}, deletes(sent[2]))
}

// docs/reads.md, Ranges, filters and projections: "A filter on the queried
// key attributes is refused (ErrInvalidOption); use a sort key condition"
// (before any request, as every refusal of a query). On a native index
// keyed on several attributes every one of them is a key attribute of the
// read, which DynamoDB refuses in a filter: the partition attributes the
// read names, the sort attribute it ranges over, and those before and
// after it.
func TestDocsFilterOnNativeKeyAttributes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, calls, table := newLoggedTable(t, func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "ByScore",
			PartitionAttributes: []adjlist.KeyAttribute{{Name: "tour"}, {Name: "region"}},
			SortAttributes:      []adjlist.KeyAttribute{{Name: "round", Type: "N"}, {Name: "score", Type: "N"}}}}
	})
	entries := adjlist.NewNode[Entry](table, "ENTRY", "")
	require.NoError(t, table.Check())
	require.NoError(t, entries.Put(ctx, "e1", Entry{"W", "EU", 1, 9}))
	require.Eventually(t, func() bool {
		got, err := entries.ByIndex("ByScore", "W", "EU").Collect(ctx)
		return err == nil && len(got) == 1
	}, waitIndex, 20*time.Millisecond)
	calls.take()

	for _, name := range []string{"tour", "region", "round", "score"} {
		for _, q := range []adjlist.Query[adjlist.NodeItem[Entry]]{
			entries.ByIndex("ByScore", "W", "EU"),
			entries.ByIndex("ByScore", "W", "EU", 1),
			entries.ByIndex("ByScore", "W", "EU").GreaterThan(0),
		} {
			_, err := q.Filter(expression.Name(name).AttributeExists()).Collect(ctx)
			assert.ErrorIs(t, err, adjlist.ErrInvalidOption, "filter on %s", name)
		}
	}
	assert.Empty(t, ops(calls.take()), "refused before any request")

	// The table's keys are no keys of the index: a filter on them runs.
	got, err := entries.ByIndex("ByScore", "W", "EU").Filter(expression.Name("PK").Equal(expression.Value("ENTRY#e1"))).Collect(ctx)
	require.NoError(t, err)
	assert.Len(t, got, 1)
}

// docs/modelling.md, Consistency: "Global indexes are eventually
// consistent and refuse ConsistentRead with ErrIndexConsistentRead; local
// ones allow it", and docs/reads.md: before any request. Sharded reads
// too: a sharded reverse read, a sharded derived index, a mixed read of
// one; a local index over a sharded collection's shards reads every shard
// strongly consistent.
func TestDocsConsistencyOfShardedIndexReads(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, calls, table := newLoggedTable(t, func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{
			{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"},
			{Name: "LSI1", Local: true, SortKey: "LSI1SK"},
		}
	})
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ", func(o *adjlist.CollectionOptions) {
		o.Shards = 4
		o.Indexes = []adjlist.IndexKeys{
			{Index: "GSI2", PartitionKey: adjlist.Template("STATUS#{status}"), SortKey: adjlist.Template("{title}"), Shards: 3},
			{Index: "LSI1", SortKey: adjlist.Template("TITLE#{title}")}}
	})
	users := adjlist.NewNode[struct{}](table, "USER", "META")
	follows := adjlist.NewEdge[Following](users, "FOLLOWS", users, func(o *adjlist.EdgeOptions) { o.Shards = 8 })
	require.NoError(t, table.Check())
	require.NoError(t, projects.Put(ctx, "acme", "p1", Project{Title: "Launch", Status: "ACTIVE"}))
	calls.take()

	_, err := follows.To("celeb").Collect(ctx, adjlist.Consistent)
	assert.ErrorIs(t, err, adjlist.ErrIndexConsistentRead, "sharded reverse read")
	_, err = projects.ByIndex("GSI2", "ACTIVE").Count(ctx, adjlist.Consistent)
	assert.ErrorIs(t, err, adjlist.ErrIndexConsistentRead, "sharded global index")
	var ps []adjlist.Child[Project]
	_, err = adjlist.PageIndex(ctx, adjlist.AllTypes(projects.ByIndex("GSI2", "ACTIVE"), adjlist.Consistent), "", projects.Into(&ps))
	assert.ErrorIs(t, err, adjlist.ErrIndexConsistentRead, "a mixed read of a sharded global index")
	assert.Empty(t, ops(calls.take()), "before any request")

	got, err := projects.ByIndex("LSI1", "acme").Collect(ctx, adjlist.Consistent)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, "p1", got[0].ID)
	want := make([]string, 4)
	for i := range want {
		want[i] = "LSI1: " + spell(fmt.Sprintf(`PK = "WS#acme#%02d" AND begins_with(LSI1SK, "TITLE#")`, i), nil, nil) + " (strongly consistent)"
	}
	sent := querySpelled(calls.take())
	slices.Sort(sent)
	assert.Equal(t, want, sent, "every shard, strongly consistent")
}
