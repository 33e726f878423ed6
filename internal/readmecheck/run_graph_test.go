package readmecheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/streams"
)

// The tests of this file run the README's blocks from "Graph aggregates
// and DynamoDB Streams" to "Verifying and repairing a table".

// An edge's counter per target at write time and from a stream: each write changes the count
// or fails with nothing changed; Apply is idempotent.
func TestReadmeCounter(t *testing.T) { require.NoError(t, readmeCounter(t)) }

// readmeCounter is TestReadmeCounter's body: its README blocks return their errors.
func readmeCounter(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "school")
	table := adjlist.NewTable(l.client, "school")
	l.create(t, table)
	s := newSchool(table)
	ctx, enrolled, e := t.Context(), s.enrolled, Enrollment{EnrolledOn: "2026-09-01"}
	record := streams.Record{Kind: streams.Insert, SequenceNumber: "000000000000000000100"}
	count := func(c *adjlist.ItemCounter) int64 {
		t.Helper()
		n, err := c.Get(ctx, adjlist.IDs{"math204"}, "")
		require.NoError(t, err)
		return n
	}
	// readme:begin
	perTarget := func(o *adjlist.CounterOptions) { o.Per = "to" }
	counter := adjlist.NewItemCounter(enrolled, "ENROLLED", perTarget)

	// At write time (the default): every write of the edge, through any handle
	// or Tx, changes the count in the same TransactWriteItems (4 write units
	// for small items, against 1 for an edge no counter counts).
	if err := enrolled.Put(ctx, "a91", "math204", e); err != nil { // ErrExists: nothing changed
		return err
	}
	// readme:end
	assert.Equal(t, int64(1), count(counter))
	require.ErrorIs(t, enrolled.Put(ctx, "a91", "math204", e), adjlist.ErrExists)
	assert.Equal(t, int64(1), count(counter), "nothing changed")
	// readme:continue
	if err := enrolled.Delete(ctx, "a91", "math204"); err != nil { // an error names the counter
		return err
	}
	// readme:end
	assert.Equal(t, int64(0), count(counter))
	derr := enrolled.Delete(ctx, "a91", "math204")
	require.ErrorIs(t, derr, adjlist.ErrNotFound)
	assert.Contains(t, derr.Error(), "counted by ENROLLED")
	assert.Equal(t, int64(0), count(counter), "nothing changed")
	// readme:continue

	// Or after the fact, from the table's stream, by a counter declared so
	// (writes leave it alone): idempotent, so at-least-once delivery
	// (duplicates, a batch replayed after a crash) cannot skew it.
	fromStream := adjlist.NewItemCounter(enrolled, "ENROLMENTS", perTarget, func(o *adjlist.CounterOptions) { o.Stream = true })
	err := fromStream.Apply(ctx, record.SequenceNumber, "a91", "math204", record.Kind != streams.Remove)
	if err != nil {
		return err
	}

	n, err := fromStream.Get(ctx, adjlist.IDs{"math204"}, "") // one GetItem
	if err != nil {
		return err
	}
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)
	require.NoError(t, fromStream.Apply(ctx, record.SequenceNumber, "a91", "math204", true), "a duplicate")
	require.NoError(t, fromStream.Apply(ctx, "000000000000000000050", "a91", "math204", false), "an older record")
	assert.Equal(t, int64(1), count(fromStream))
	require.NoError(t, fromStream.Apply(ctx, "000000000000000000200", "a91", "math204", false))
	assert.Equal(t, int64(0), count(fromStream))
	assert.Equal(t, int64(0), count(counter), "the counter kept at write time, apart")
	return nil
}

// lambdaRuntime stands in for aws-lambda-go's lambda package in a README
// block (a test declares `lambda := new(lambdaRuntime)`): Start keeps the
// handler for the test to invoke as Lambda would, instead of serving
// Lambda's runtime API, which a test does not have.
type lambdaRuntime struct{ handler lambda.Handler }

func (r *lambdaRuntime) Start(handler any) { r.handler = lambda.NewHandler(handler) }

// Streams: typed events routed to the counter, read from the table's
// stream by the Reader, and the same handler invoked as Lambda would.
func TestReadmeStreams(t *testing.T) { require.NoError(t, readmeStreams(t)) }

// readmeStreams is TestReadmeStreams's body: its README blocks return their errors.
func readmeStreams(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "school")
	table := adjlist.NewTable(l.client, "school")
	l.create(t, table, func(o *adjlist.CreateTableOptions) { o.Stream = true })
	s := newSchool(table)
	db, cfg, ctx, enrolled := l.client, l.cfg, t.Context(), s.enrolled
	fromStream := adjlist.NewItemCounter(enrolled, "ENROLMENTS", func(o *adjlist.CounterOptions) { o.Per, o.Stream = "to", true })
	for _, from := range []string{"a91", "b30", "c77"} {
		require.NoError(t, enrolled.Put(ctx, from, "math204", Enrollment{EnrolledOn: "2026-09-01"}))
	}
	require.NoError(t, enrolled.Delete(ctx, "b30", "math204"))
	lambda := new(lambdaRuntime)
	// readme:begin
	r := new(streams.Router)
	streams.On(r, enrolled, func(ctx context.Context, ev streams.Event[adjlist.EdgeItem[Enrollment]]) error {
		e := ev.Item() // the new image, or for a REMOVE the old one; ids from the keys
		return fromStream.Apply(ctx, ev.SequenceNumber, e.From, e.To, ev.Kind != streams.Remove)
	})
	r.OnUnknown(func(context.Context, streams.Record) error { return nil }) // the counter's own items

	lambda.Start(r.HandleLambda) // in a Lambda function (aws-lambda-go's events.DynamoDBEvent)

	// Locally and in tests: read the stream shard by shard, parents before
	// children, resuming from a checkpoint; the same handler a Lambda gets.
	arn, err := streams.LatestARN(ctx, db, table.Name())
	if err != nil {
		return err
	}
	reader := streams.NewReader(dynamodbstreams.NewFromConfig(cfg), arn, new(streams.MemoryCheckpoint))
	err = reader.CatchUp(ctx, func(ctx context.Context, recs []streams.Record) error { return r.Handle(ctx, recs...) })
	if err != nil {
		return err
	}
	// readme:end
	require.NoError(t, err)
	n, err := fromStream.Get(ctx, adjlist.IDs{"math204"}, "")
	require.NoError(t, err)
	assert.Equal(t, int64(2), n, "a91 and c77")

	// A Lambda invocation with d44's enrolment, in DynamoDB JSON.
	str := events.NewStringAttribute
	ev := events.DynamoDBEvent{Records: []events.DynamoDBEventRecord{{EventID: "1", EventName: "INSERT", Change: events.DynamoDBStreamRecord{
		SequenceNumber: "900000000000000000000",
		Keys:           map[string]events.DynamoDBAttributeValue{"PK": str("STU#d44"), "SK": str("ENROLL#CRS#math204")},
		NewImage: map[string]events.DynamoDBAttributeValue{"PK": str("STU#d44"), "SK": str("ENROLL#CRS#math204"),
			"GSI1PK": str("CRS#math204"), "GSI1SK": str("STU#d44"), "enrolledOn": str("2026-09-04"), "grade": str("")},
	}}}}
	payload, err := json.Marshal(ev)
	require.NoError(t, err)
	_, err = lambda.handler.Invoke(ctx, payload)
	require.NoError(t, err)
	n, err = fromStream.Get(ctx, adjlist.IDs{"math204"}, "")
	require.NoError(t, err)
	assert.Equal(t, int64(3), n)
	return nil
}

// Hot partitions: a sharded reverse read merges its shards in order, with
// one cursor.
func TestReadmeShardedEdges(t *testing.T) { require.NoError(t, readmeShardedEdges(t)) }

// readmeShardedEdges is TestReadmeShardedEdges's body: its README blocks return their errors.
func readmeShardedEdges(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "social")
	table := adjlist.NewTable(l.client, "social")
	l.create(t, table)
	ctx, cursor := t.Context(), ""
	users := adjlist.NewNode[User](table, "USER", "PROFILE")
	// readme:begin
	follows := adjlist.NewEdge[Follow](users, "FOLLOWS", users,
		func(o *adjlist.EdgeOptions) { o.Shards = 8 }) // GSI1PK = USER#celeb#00 … #07
	// readme:end
	var want []string
	shards := map[string]bool{}
	for i := range 60 {
		from := fmt.Sprintf("f%02d", i)
		want = append(want, from)
		require.NoError(t, follows.Put(ctx, from, "celeb", Follow{Since: "2026"}))
		pk := sAttr(l.rawItem(t, "social", "USER#"+from, "FOLLOWS#USER#celeb"), "GSI1PK")
		require.Regexp(t, `^USER#celeb#0[0-7]$`, pk)
		shards[pk] = true
	}
	assert.Greater(t, len(shards), 1, "spread over shards")
	// readme:continue
	page, err := follows.To("celeb").Limit(50).Page(ctx, cursor) // 8 Queries in parallel, merged in order
	if err != nil {
		return err
	}
	n, err := follows.To("celeb").Count(ctx) // keys-only Query on every shard
	if err != nil {
		return err
	}
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, 60, n)
	next, err := follows.To("celeb").Limit(50).Page(ctx, page.Cursor)
	require.NoError(t, err)
	assert.Empty(t, next.Cursor)
	var got []string
	for _, e := range append(page.Items, next.Items...) {
		got = append(got, e.From)
	}
	assert.Len(t, page.Items, 50)
	assert.Equal(t, want, got, "merged in sort key order, resumed by one cursor")
	return nil
}

// A sharded collection: children spread over shard partitions, read
// merged, and deleted with the parent when the collection is passed.
func TestReadmeShardedCollection(t *testing.T) { require.NoError(t, readmeShardedCollection(t)) }

// readmeShardedCollection is TestReadmeShardedCollection's body: its README blocks return their errors.
func readmeShardedCollection(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "tenancy")
	table := adjlist.NewTable(l.client, "tenancy")
	l.create(t, table)
	ctx, cursor := t.Context(), ""
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	require.NoError(t, workspaces.Put(ctx, "acme", Workspace{Name: "Acme"}))
	// readme:begin
	projects := adjlist.NewCollection[Project](workspaces, "PROJ",
		func(o *adjlist.CollectionOptions) { o.Shards = 10 }) // PK = WS#acme#00 … #09; META stays at WS#acme
	// readme:end
	var want []string
	for i := range 25 {
		id := fmt.Sprintf("2026-%04d", i+1)
		want = append(want, id)
		require.NoError(t, projects.Put(ctx, "acme", id, Project{Title: id}))
	}
	slices.Reverse(want)
	// readme:continue
	page, err := projects.List("acme").Desc().Limit(20).Page(ctx, cursor) // 10 Queries in parallel, merged
	if err != nil {
		return err
	}
	fam, err := projects.Load(ctx, "acme") // GetItem of the parent + the merged children
	if err != nil {
		return err
	}
	res, err := adjlist.DeleteNode(ctx, workspaces, "acme", projects) // the parent and every shard
	if err != nil {
		return err
	}
	// readme:end
	require.NoError(t, err)
	var got []string
	for _, c := range page.Items {
		got = append(got, c.ID)
	}
	assert.Equal(t, want[:20], got, "newest first over every shard")
	assert.Equal(t, "Acme", fam.Parent.Name)
	assert.Len(t, fam.Children, 25)
	assert.True(t, res.Node)
	assert.Equal(t, 25, res.Partition+res.Attached+res.Incoming, "every child")
	n, err := projects.List("acme").Count(ctx)
	require.NoError(t, err)
	assert.Zero(t, n)
	_, err = workspaces.Get(ctx, "acme")
	require.ErrorIs(t, err, adjlist.ErrNotFound)
	return nil
}

// Two hops under a budget, and a node deleted with the edges into it.
func TestReadmePeersAndDeleteNode(t *testing.T) { require.NoError(t, readmePeersAndDeleteNode(t)) }

// readmePeersAndDeleteNode is TestReadmePeersAndDeleteNode's body: its README blocks return their errors.
func readmePeersAndDeleteNode(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "school")
	table := adjlist.NewTable(l.client, "school")
	l.create(t, table)
	s := newSchool(table)
	s.seed(t)
	ctx, courses, enrolled := t.Context(), s.courses, s.enrolled
	// readme:begin
	// Students who share a course with a91: one keys-only Query per page of
	// a91's enrolments, then per page of each course's roster.
	res, err := adjlist.TwoHop(ctx, enrolled, enrolled, "a91", 50) // res.Peers, res.Requests, res.Truncated
	if err != nil {
		return err
	}

	// Deleting a course: the enrolments into it (found through the index), its
	// partition (its own edges, children), then its item last: resumable and
	// idempotent. Pass every edge kind that points at the node.
	cr, err := adjlist.DeleteNode(ctx, courses, "math204", enrolled)
	if err != nil {
		return err
	}
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, []adjlist.Peer{{ID: "b30", Via: []string{"math204"}}}, res.Peers)
	assert.Equal(t, 3, res.Requests, "a91's enrolments, then cs101's and math204's rosters")
	assert.False(t, res.Truncated)
	assert.Equal(t, 2, cr.Incoming)
	assert.True(t, cr.Node)
	for _, from := range []string{"a91", "b30"} {
		_, err := enrolled.Get(ctx, from, "math204", adjlist.Consistent)
		require.ErrorIs(t, err, adjlist.ErrNotFound)
	}
	_, err = enrolled.Get(ctx, "a91", "cs101", adjlist.Consistent)
	require.NoError(t, err, "other courses' enrolments stay")
	cr, err = adjlist.DeleteNode(ctx, courses, "math204", enrolled)
	require.NoError(t, err, "idempotent")
	assert.False(t, cr.Node)
	return nil
}

// Usage: what a call cost, requests and read units as DynamoDB reports
// them.
func TestReadmeUsage(t *testing.T) {
	t.Parallel()
	l := newLocal(t, "tenancy")
	table := adjlist.NewTable(l.client, "tenancy")
	l.create(t, table)
	ctx := t.Context()
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ")
	require.NoError(t, workspaces.Put(ctx, "acme", Workspace{Name: "Acme"}))
	require.NoError(t, projects.Put(ctx, "acme", "2026-0007", Project{Title: "Launch"}))
	fmt := new(printer)
	// readme:begin
	var u adjlist.Usage
	_, err := projects.Load(adjlist.WithUsage(ctx, &u), "acme")
	total := u.Totals()
	fmt.Println(total.Requests, total.ReadUnits) // 1 request, the read units DynamoDB reports
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, 1, u.Totals().Requests)
	assert.Positive(t, u.Totals().ReadUnits)
	assert.Equal(t, []string{"1 " + strconv.FormatFloat(u.Totals().ReadUnits, 'g', -1, 64)}, fmt.Lines())
}

// throttled is a client whose every Query DynamoDB throttled past the
// SDK's retries.
type throttled struct {
	adjlist.Client
	err error
}

func (c throttled) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return nil, &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "Query", Err: c.err}
}

// A throttled read names the partition, the index and the item type.
func TestReadmeThrottling(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	table := adjlist.NewTable(throttled{err: &types.ProvisionedThroughputExceededException{
		Message: aws.String("Throughput exceeds the current capacity"),
		ThrottlingReasons: []types.ThrottlingReason{{Reason: aws.String("IndexReadKeyRangeThroughputExceeded"),
			Resource: aws.String("arn:aws:dynamodb:eu-west-1:123456789012:table/school/index/GSI1")}},
	}}, "school")
	enrolled := newSchool(table).enrolled
	log := new(printer)
	// readme:begin
	_, err := enrolled.To("math204").Collect(ctx)
	var te *adjlist.ThrottlingError
	if errors.As(err, &te) && te.HotPartition {
		// IndexReadKeyRangeThroughputExceeded on GSI1, partition "CRS#math204",
		// edge ENROLL (STU → CRS): shard the edge (EdgeOptions.Shards)
		log.Printf("hot partition %q on %s (%s): %s", te.PK, te.Index, te.ItemType, te.Reason)
	}
	// readme:end
	assert.Equal(t, []string{`hot partition "CRS#math204" on GSI1 (edge ENROLL (STU → CRS)): IndexReadKeyRangeThroughputExceeded`}, log.Lines())
	var ptee *types.ProvisionedThroughputExceededException
	require.ErrorAs(t, err, &ptee, "the SDK's exception stays reachable")
}

// Changing the model: a typed parallel Scan of one item type, and a
// backfill of the index keys a handle declares now.
func TestReadmeScanAndMigrate(t *testing.T) { require.NoError(t, readmeScanAndMigrate(t)) }

// readmeScanAndMigrate is TestReadmeScanAndMigrate's body: its README blocks return their errors.
func readmeScanAndMigrate(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "school")
	gsi2 := func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	}
	// Projects written before their handle declared GSI2's keys.
	old := adjlist.NewTable(l.client, "school", gsi2)
	l.create(t, old)
	ctx := t.Context()
	oldProjects := adjlist.NewCollection[Project](adjlist.NewNode[Workspace](old, "WS", "META"), "PROJ")
	for _, id := range []string{"p1", "p2", "p3"} {
		require.NoError(t, oldProjects.Put(ctx, "acme", id, Project{Title: id, Status: aws.String("ACTIVE"), CreatedAt: "2026-01-0" + id[1:]}))
	}
	table := adjlist.NewTable(l.client, "school", gsi2)
	s := newSchool(table)
	s.seed(t)
	client, enrolled := l.client, s.enrolled
	projects := adjlist.NewCollection[Project](adjlist.NewNode[Workspace](table, "WS", "META"), "PROJ", func(o *adjlist.CollectionOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("STATUS#{status}"), SortKey: adjlist.Template("{createdAt}")}}
	})
	active := projects.ByIndex("GSI2", "ACTIVE")
	assert.Empty(t, ids(t, active), "not in GSI2 before the backfill")
	var (
		mu       sync.Mutex
		exported []string
	)
	export := func(e adjlist.EdgeItem[Enrollment]) error {
		mu.Lock()
		defer mu.Unlock()
		exported = append(exported, e.From+"→"+e.To)
		return nil
	}
	log := new(printer)
	// readme:begin
	// Every item of one type, typed: a Scan (one segment by default, so a table
	// or index under 1 MB takes one request; Segments for a parallel one),
	// filtered to the type's key shape, resumable from the position it returns.
	pos, err := adjlist.Scan(ctx, client, enrolled, func(ctx context.Context, e adjlist.EdgeItem[Enrollment]) error {
		return export(e)
	}, func(o *adjlist.ScanOptions) {
		o.Segments = 8
		o.Progress = func(p adjlist.ScanProgress) { log.Printf("scanned %d", p.Scanned) }
	})
	if err != nil {
		return fmt.Errorf("export stopped, resume from %q: %w", pos, err)
	}
	// readme:end
	assert.Empty(t, pos, "complete")
	assert.ElementsMatch(t, []string{"a91→math204", "a91→cs101", "b30→math204"}, exported)
	require.NotEmpty(t, log.Lines())
	for _, line := range log.Lines() {
		assert.Regexp(t, `^scanned \d+$`, line)
	}
	// readme:continue

	// Backfill: give every project the keys of the index its handle declares
	// now (or move edges or children to a new shard count), on a live table.
	res, err := adjlist.Migrate(ctx, client, projects)
	for err != nil && res.Position != "" { // interrupted: resume where it stopped
		res, err = adjlist.Migrate(ctx, client, projects, func(o *adjlist.ScanOptions) { o.From = res.Position })
	}
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, 3, res.Rewritten)
	assert.Empty(t, res.Position)
	assert.Equal(t, []string{"p1", "p2", "p3"}, ids(t, active), "in GSI2 now")
	res, err = adjlist.Migrate(ctx, client, projects)
	require.NoError(t, err)
	assert.Zero(t, res.Rewritten, "a second run rewrites nothing")
	return nil
}

// Moving children to shards on a live table: writers that try the new
// place, then the old; Migrate moves each child once, and reports a
// child found at both places.
func TestReadmeMoveChildren(t *testing.T) {
	t.Parallel()
	l := newLocal(t, "tenancy")
	table := adjlist.NewTable(l.client, "tenancy")
	l.create(t, table)
	client, ctx := l.client, t.Context()
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	require.NoError(t, workspaces.Put(ctx, "acme", Workspace{Name: "Acme"}))
	// readme:begin
	oldProjects := adjlist.NewCollection[Project](workspaces, "PROJ")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ",
		func(o *adjlist.CollectionOptions) { o.Shards = 8 })

	// Writers, while children move: the new place, then the old, then the new
	// again (the child moved in between). Deletes alike.
	update := func(ctx context.Context, ws, id string, upd adjlist.Update) (Project, error) {
		c, err := projects.Update(ctx, ws, id, upd)
		if errors.Is(err, adjlist.ErrNotFound) {
			if c, err = oldProjects.Update(ctx, ws, id, upd); errors.Is(err, adjlist.ErrNotFound) {
				c, err = projects.Update(ctx, ws, id, upd)
			}
		}
		return c, err
	}
	// readme:end
	for i := range 10 {
		require.NoError(t, oldProjects.Put(ctx, "acme", "p"+strconv.Itoa(i), Project{Title: "old"}))
	}
	c, err := update(ctx, "acme", "p0", adjlist.Set("title", "before the move"))
	require.NoError(t, err, "found at the old place")
	assert.Equal(t, "before the move", c.Title)
	// readme:continue

	res, err := adjlist.Migrate(ctx, client, projects) // res.Moved, res.Conflicts
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, 10, res.Moved)
	assert.Empty(t, res.Conflicts)
	for i := range 10 {
		_, err := oldProjects.Get(ctx, "acme", "p"+strconv.Itoa(i))
		require.ErrorIs(t, err, adjlist.ErrNotFound, "moved away")
		_, err = projects.Get(ctx, "acme", "p"+strconv.Itoa(i))
		require.NoError(t, err, "at its new key")
	}
	c, err = update(ctx, "acme", "p0", adjlist.Set("title", "after the move"))
	require.NoError(t, err)
	assert.Equal(t, "after the move", c.Title)

	// A writer created p10 at its new key while the old copy existed.
	require.NoError(t, oldProjects.Put(ctx, "acme", "p10", Project{Title: "old copy"}))
	require.NoError(t, projects.Put(ctx, "acme", "p10", Project{Title: "new copy"}))
	res, err = adjlist.Migrate(ctx, client, projects)
	require.NoError(t, err)
	require.Len(t, res.Conflicts, 1)
	assert.Equal(t, adjlist.Key{PK: "WS#acme", SK: "PROJ#p10"}, res.Conflicts[0].From)
}

// Verify and Repair: a stale index key found, printed as the README
// shows, and rewritten; the table then verifies clean.
func TestReadmeVerify(t *testing.T) { require.NoError(t, readmeVerify(t)) }

// readmeVerify is TestReadmeVerify's body: its README blocks return their errors.
func readmeVerify(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "school")
	table := adjlist.NewTable(l.client, "school")
	l.create(t, table)
	newSchool(table).seed(t)
	client, ctx := l.client, t.Context()
	_, err := client.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("school"),
		Key:                       map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "STU#a91"}, "SK": &types.AttributeValueMemberS{Value: "ENROLL#CRS#math204"}},
		UpdateExpression:          aws.String("SET GSI1PK = :v"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": &types.AttributeValueMemberS{Value: "CRS#cs101"}},
	})
	require.NoError(t, err)
	log := new(printer)
	// readme:begin
	res, err := adjlist.Verify(ctx, client, table, func(o *adjlist.ScanOptions) {
		o.Segments = 8
		o.RequestRate = 50 // Scan requests per second, all segments together
		o.Progress = func(p adjlist.ScanProgress) { log.Printf("scanned %d", p.Scanned) }
	})
	if err != nil {
		return err
	}
	for _, f := range res.Findings {
		log.Print(f) // index key stale: "STU#a91" "ENROLL#CRS#math204" (edge ENROLL (STU → CRS)): GSI1PK = "CRS#cs101", want "CRS#math204"
	}
	fixed, err := adjlist.Repair(ctx, client, table, res.Findings)
	if err != nil {
		return err
	}
	// fixed.Repaired: index keys and counts rewritten, misplaced children
	// moved; fixed.Left: what only you can decide (dangling edges, orphans,
	// unknown and undecodable items, bad versions and expiries, undeclared
	// attributes, key mismatches);
	// fixed.Gone: findings no longer true when read again.
	// readme:end
	require.NoError(t, err)
	var findings []string
	for _, line := range log.Lines() {
		if !regexp.MustCompile(`^scanned \d+$`).MatchString(line) {
			findings = append(findings, line)
		}
	}
	assert.Equal(t, []string{`index key stale: "STU#a91" "ENROLL#CRS#math204" (edge ENROLL (STU → CRS)): GSI1PK = "CRS#cs101", want "CRS#math204"`}, findings)
	assert.Len(t, fixed.Repaired, 1)
	assert.Empty(t, fixed.Left)
	assert.Equal(t, "CRS#math204", sAttr(l.rawItem(t, "school", "STU#a91", "ENROLL#CRS#math204"), "GSI1PK"))
	again, err := adjlist.Verify(ctx, client, table)
	require.NoError(t, err)
	assert.Empty(t, again.Findings)
	return nil
}
