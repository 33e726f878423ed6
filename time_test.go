package adjlist_test

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// Session is a child with an expiry and timestamps read back.
type Session struct {
	Device    string `dynamodbav:"device"`
	ExpiresAt int64  `dynamodbav:"expiresAt,omitempty"`
	CreatedAt string `dynamodbav:"createdAt,omitempty"`
	UpdatedAt string `dynamodbav:"updatedAt,omitempty"`
}

// clock is an injectable clock for Tracking.Clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func TestTimeToLive(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	calls := &opsClient{Client: db}
	table := adjlist.NewTable(calls, ddbtest.TableName(t))
	ttl := func(o *adjlist.CreateTableOptions) { o.TimeToLive = "expiresAt" }
	ddbtest.CreateTable(t, table, ttl)
	desc, err := db.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(table.Name())})
	require.NoError(t, err)
	assert.Equal(t, types.TimeToLiveStatusEnabled, desc.TimeToLiveDescription.TimeToLiveStatus)
	assert.Equal(t, "expiresAt", aws.ToString(desc.TimeToLiveDescription.AttributeName))
	// Again, with IfNotExists: TTL already on is left as it is.
	require.NoError(t, adjlist.CreateTable(ctx, db, table, ttl, func(o *adjlist.CreateTableOptions) { o.IfNotExists = true }))

	// TTL on another attribute: DynamoDB's error, after the table exists.
	err = adjlist.CreateTable(ctx, db, table, func(o *adjlist.CreateTableOptions) { o.IfNotExists, o.TimeToLive = true, "other" })
	var apiErr smithy.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "ValidationException", apiErr.ErrorCode())

	clk := &clock{now: time.Date(2026, 11, 23, 4, 0, 0, 0, time.UTC)}
	users := adjlist.NewNode[Author](table, "USER", "PROFILE")
	sessions := adjlist.NewCollection[Session](users, "SESSION", func(o *adjlist.CollectionOptions) {
		o.Expiry, o.Lifetime, o.Clock = "expiresAt", 24*time.Hour, clk.Now
	})
	now := clk.Now()
	require.NoError(t, sessions.Put(ctx, "ada", "s1", Session{Device: "phone"}))
	s1, err := sessions.Get(ctx, "ada", "s1")
	require.NoError(t, err)
	assert.Equal(t, now.Add(24*time.Hour).Unix(), s1.ExpiresAt, "Lifetime from the clock, epoch seconds")
	raw, err := db.GetItem(ctx, getInput(table.Name(), "USER#ada", "SESSION#s1"))
	require.NoError(t, err)
	assert.Equal(t, &types.AttributeValueMemberN{Value: strconv.FormatInt(now.Add(24*time.Hour).Unix(), 10)}, raw.Item["expiresAt"], "a Number")

	// An expiry of the write's own, on create and update; Lifetime is not
	// applied to updates.
	require.NoError(t, sessions.Put(ctx, "ada", "s2", Session{Device: "laptop"}, adjlist.Expires(now.Add(-time.Hour))))
	require.NoError(t, sessions.Put(ctx, "ada", "s3", Session{Device: "tv"}))
	calls.counts()
	s3, err := sessions.Update(ctx, "ada", "s3", adjlist.Set("device", "TV"), adjlist.Expires(now.Add(-time.Minute)))
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"UpdateItem": 1}, calls.counts(), "in the same request")
	assert.Equal(t, now.Add(-time.Minute).Unix(), s3.ExpiresAt)
	u1, err := sessions.Update(ctx, "ada", "s1", adjlist.Set("device", "Phone"))
	require.NoError(t, err)
	assert.Equal(t, now.Add(24*time.Hour).Unix(), u1.ExpiresAt, "unchanged by an update")
	require.NoError(t, users.Put(ctx, "ada", Author{Name: "Ada"}))

	// Expired but not yet deleted: reads return them; the filter leaves them out.
	all, err := sessions.List("ada").Collect(ctx)
	require.NoError(t, err)
	assert.Len(t, all, 3)
	expiresAt := expression.Name("expiresAt")
	unexpired := expression.AttributeNotExists(expiresAt).Or(expiresAt.GreaterThan(expression.Value(now.Unix())))
	var u adjlist.Usage
	live, err := sessions.List("ada").Filter(unexpired).Collect(adjlist.WithUsage(ctx, &u))
	require.NoError(t, err)
	require.Len(t, live, 1)
	assert.Equal(t, 3, u.Totals().Scanned, "the expired ones are still read")
	assert.Equal(t, 1, u.Totals().Matched)
	assert.Equal(t, "s1", live[0].ID)
	q := calls.lastInput("Query").(*dynamodb.QueryInput)
	assert.Contains(t, aws.ToString(q.FilterExpression), "attribute_not_exists")
	// The filter as docs/writes.md shows it; items without an expiry are kept.
	e, err := expression.NewBuilder().WithFilter(unexpired).Build()
	require.NoError(t, err)
	assert.Equal(t, "(attribute_not_exists (#0)) OR (#0 > :0)", aws.ToString(e.Filter()))
	assert.Equal(t, map[string]string{"#0": "expiresAt"}, e.Names())
	assert.Equal(t, &types.AttributeValueMemberN{Value: strconv.FormatInt(now.Unix(), 10)}, e.Values()[":0"])
	var notes []adjlist.Child[Session]
	plain := adjlist.NewCollection[Session](users, "NOTE")
	require.NoError(t, plain.Put(ctx, "ada", "n1", Session{Device: "none"}))
	notes, err = plain.List("ada").Filter(unexpired).Collect(ctx)
	require.NoError(t, err)
	assert.Len(t, notes, 1, "no expiry: kept")

	// Refused before any request.
	calls.counts()
	require.ErrorIs(t, plain.Put(ctx, "ada", "n2", Session{}, adjlist.Expires(now)), adjlist.ErrInvalidOption)
	_, err = plain.Update(ctx, "ada", "n1", adjlist.Set("device", "x"), adjlist.Expires(now))
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	require.ErrorIs(t, sessions.Delete(ctx, "ada", "s1", adjlist.Expires(now)), adjlist.ErrInvalidOption)
	lifeless := adjlist.NewCollection[Session](users, "X", func(o *adjlist.CollectionOptions) { o.Lifetime = time.Hour })
	require.ErrorIs(t, lifeless.Put(ctx, "ada", "x", Session{}), adjlist.ErrInvalidOption)
	assert.Empty(t, calls.counts())
}

// Post2 is a post with timestamps read back.
type Post2 struct {
	Title     string `dynamodbav:"title"`
	CreatedAt string `dynamodbav:"createdAt"`
	UpdatedAt string `dynamodbav:"updatedAt"`
}

func TestTimestamps(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	calls := &opsClient{Client: db}
	table := adjlist.NewTable(calls, ddbtest.TableName(t), indexedTableOptions)
	ddbtest.CreateTable(t, table)
	clk := &clock{now: time.Date(2026, 11, 23, 4, 5, 6, 0, time.FixedZone("CET", 3600))}
	stamps := adjlist.Tracking{CreatedAt: "createdAt", UpdatedAt: "updatedAt", Clock: clk.Now}
	authors := adjlist.NewNode[Post2](table, "AUTHOR", "PROFILE", func(o *adjlist.NodeOptions) { o.Tracking = stamps })
	// Posts listed by last update in LSI1: the derived key follows updatedAt.
	posts := adjlist.NewCollection[Post2](authors, "POST", func(o *adjlist.CollectionOptions) {
		o.Tracking = stamps
		o.Indexes = []adjlist.IndexKeys{{Index: "LSI1", SortKey: adjlist.Template("UPD#{updatedAt}")}}
	})
	follows := adjlist.NewEdge[Post2](authors, "FOLLOWS", authors, func(o *adjlist.EdgeOptions) { o.Tracking = stamps })
	t0 := "2026-11-23T03:05:06.000Z" // UTC, fixed width

	require.NoError(t, authors.Put(ctx, "ada", Post2{Title: "Ada"}))
	a, err := authors.Get(ctx, "ada")
	require.NoError(t, err)
	assert.Equal(t, Post2{Title: "Ada", CreatedAt: t0, UpdatedAt: t0}, a)

	clk.Add(1500 * time.Millisecond)
	t1 := "2026-11-23T03:05:07.500Z"
	assert.Less(t, t0, t1, "byte order is time order")
	parsed, err := time.Parse(time.RFC3339, a.CreatedAt)
	require.NoError(t, err, "time.RFC3339 reads the stamps, as Tracking says")
	assert.True(t, parsed.Equal(time.Date(2026, 11, 23, 3, 5, 6, 0, time.UTC)), "%s", parsed)
	calls.counts()
	a, err = authors.Update(ctx, "ada", adjlist.Set("title", "Ada L."))
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"UpdateItem": 1}, calls.counts(), "in the same request")
	assert.Equal(t, Post2{Title: "Ada L.", CreatedAt: t0, UpdatedAt: t1}, a, "createdAt on create only")

	// Replace: a read-modify-replace keeps createdAt; without one, it is set.
	a.Title = "Ada Lovelace"
	require.NoError(t, authors.Replace(ctx, "ada", a))
	a, err = authors.Get(ctx, "ada")
	require.NoError(t, err)
	assert.Equal(t, Post2{Title: "Ada Lovelace", CreatedAt: t0, UpdatedAt: t1}, a)
	require.NoError(t, authors.Put(ctx, "bob", Post2{Title: "Bob"}))
	b, err := authors.Get(ctx, "bob")
	require.NoError(t, err)
	assert.Equal(t, Post2{Title: "Bob", CreatedAt: t1, UpdatedAt: t1}, b)

	// Edges, children, bulk and transactions.
	require.NoError(t, follows.Put(ctx, "bob", "ada", Post2{}))
	f, err := follows.Get(ctx, "bob", "ada")
	require.NoError(t, err)
	assert.Equal(t, Post2{CreatedAt: t1, UpdatedAt: t1}, f)
	require.NoError(t, posts.Put(ctx, "ada", "p1", Post2{Title: "One"}))
	_, err = posts.PutMany(ctx, []adjlist.Child[Post2]{{Parent: "ada", ID: "p2", Data: Post2{Title: "Two"}}})
	require.NoError(t, err)
	clk.Add(time.Second)
	t2 := "2026-11-23T03:05:08.500Z"
	tx := adjlist.NewTx(table)
	posts.Update(ctx, "ada", "p1", adjlist.Set("title", "One!"), adjlist.InTx(tx))
	follows.Update(ctx, "bob", "ada", adjlist.Set("title", "x"), adjlist.InTx(tx))
	require.NoError(t, tx.Commit(ctx))
	got, err := posts.GetMany(ctx, []adjlist.Child[Post2]{{Parent: "ada", ID: "p1"}, {Parent: "ada", ID: "p2"}})
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, Post2{Title: "One!", CreatedAt: t1, UpdatedAt: t2}, got[0].Data)
	assert.Equal(t, Post2{Title: "Two", CreatedAt: t1, UpdatedAt: t1}, got[1].Data)
	f, err = follows.Get(ctx, "bob", "ada")
	require.NoError(t, err)
	assert.Equal(t, t2, f.UpdatedAt)

	// The index ordered by updatedAt followed the update: p2, then p1.
	recent, err := posts.ByIndex("LSI1", "ada").Collect(ctx, adjlist.Consistent)
	require.NoError(t, err)
	require.Len(t, recent, 2)
	assert.Equal(t, []string{"p2", "p1"}, []string{recent[0].ID, recent[1].ID})

	// Updates may not set what the handle maintains.
	calls.counts()
	_, err = posts.Update(ctx, "ada", "p1", adjlist.Set("createdAt", "x"))
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	_, err = posts.Update(ctx, "ada", "p1", adjlist.Set("updatedAt", "x"))
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	same := adjlist.NewNode[Post2](table, "X", "META", func(o *adjlist.NodeOptions) { o.CreatedAt, o.UpdatedAt = "at", "at" })
	require.ErrorIs(t, same.Put(ctx, "x", Post2{}), adjlist.ErrInvalidOption)
	assert.Empty(t, calls.counts())
}
