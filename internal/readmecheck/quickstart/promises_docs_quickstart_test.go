package quickstart

import (
	"context"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// requestLog is a Client that records each item request adjlist sends:
// the operation, the index a Query reads ("" for the table) and whether
// a GetItem is strongly consistent.
type requestLog struct {
	adjlist.Client
	mu   sync.Mutex
	sent []string
}

func (c *requestLog) note(r string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent = append(c.sent, r)
}

// take returns the requests recorded since the last take.
func (c *requestLog) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.sent
	c.sent = nil
	return out
}

func (c *requestLog) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	r := "GetItem"
	if aws.ToBool(in.ConsistentRead) {
		r += " consistent"
	}
	c.note(r)
	return c.Client.GetItem(ctx, in, o...)
}

func (c *requestLog) PutItem(ctx context.Context, in *dynamodb.PutItemInput, o ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	c.note("PutItem")
	return c.Client.PutItem(ctx, in, o...)
}

func (c *requestLog) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, o ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.note("UpdateItem")
	return c.Client.UpdateItem(ctx, in, o...)
}

func (c *requestLog) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, o ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	c.note("DeleteItem")
	return c.Client.DeleteItem(ctx, in, o...)
}

func (c *requestLog) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	r := "Query"
	if in.IndexName != nil {
		r += " " + *in.IndexName
	}
	c.note(r)
	return c.Client.Query(ctx, in, o...)
}

func (c *requestLog) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	c.note("Scan")
	return c.Client.Scan(ctx, in, o...)
}

func (c *requestLog) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	c.note("BatchGetItem")
	return c.Client.BatchGetItem(ctx, in, o...)
}

func (c *requestLog) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	c.note("BatchWriteItem")
	return c.Client.BatchWriteItem(ctx, in, o...)
}

func (c *requestLog) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	c.note("TransactWriteItems")
	return c.Client.TransactWriteItems(ctx, in, o...)
}

func (c *requestLog) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	c.note("TransactGetItems")
	return c.Client.TransactGetItems(ctx, in, o...)
}

// TestQuickStartRequests holds the README quick start's request promises:
// the model "makes no request"; the issue and its open count are "one
// TransactWriteItems"; "each read one request" (a Query on the table or on
// GSI1 where the comments say so, a Query of ByStatus, "one GetItem" for
// the count); the close "reads the status first" (a strongly consistent
// GetItem), moves the counts with the update in one TransactWriteItems,
// and reads the issue back to return it (README, below the quick start).
func TestQuickStartRequests(t *testing.T) {
	t.Parallel()
	ctx, db := t.Context(), ddbtest.Client(t)
	log := &requestLog{Client: db}
	m := NewTracker(log, ddbtest.TableName(t))
	assert.Empty(t, log.take(), "the model makes no request")
	ddbtest.CreateTable(t, m.Table)
	log.take()

	step := func(name string, want []string, run func() error) {
		t.Helper()
		require.NoError(t, run(), name)
		assert.Equal(t, want, log.take(), name)
	}
	step("Orgs.Put", []string{"PutItem"}, func() error { return m.Orgs.Put(ctx, "acme", Org{Name: "Acme"}) })
	require.NoError(t, m.Users.Put(ctx, "ada", User{Name: "Ada"}))
	require.NoError(t, m.Members.Put(ctx, "ada", "acme", Member{Role: "admin"}))
	require.NoError(t, m.Projects.Put(ctx, "acme", "web", Project{Title: "Website"}))
	require.NoError(t, m.Labels.Put(ctx, "acme", "bug", Label{Color: "red"}))
	web, err := m.Projects.Ref("acme", "web")
	require.NoError(t, err)
	log.take()
	step("Issues.Put: the issue and its open count", []string{"TransactWriteItems"}, func() error {
		return m.Issues.Put(ctx, web, "0001", Issue{Title: "Login fails", Status: "open"})
	})
	issue, err := m.Issues.Ref(web, "0001")
	require.NoError(t, err)
	bug, err := m.Labels.Ref("acme", "bug")
	require.NoError(t, err)
	require.NoError(t, m.Labelled.Put(ctx, issue, bug, struct{}{}))
	require.NoError(t, m.Assigned.Put(ctx, issue, "ada", struct{}{}))
	log.take()

	var page adjlist.Page[adjlist.Child[Issue]]
	for _, r := range []struct {
		name string
		want string
		run  func() error
	}{
		{"Members.From: a Query on the table", "Query", func() error { _, err := m.Members.From("ada").Collect(ctx); return err }},
		{"Members.To: a Query on GSI1", "Query GSI1", func() error { _, err := m.Members.To("acme").Collect(ctx); return err }},
		{"Issues.List page", "Query", func() error { page, err = m.Issues.List(web).Desc().Limit(20).Page(ctx, ""); return err }},
		{"Issues.ByIndex ByStatus", "Query ByStatus", func() error {
			_, err := m.Issues.ByIndex("ByStatus", web, "open").Desc().Collect(ctx)
			return err
		}},
		{"Counts.Get: one GetItem", "GetItem", func() error { _, err := m.Counts.Get(ctx, adjlist.IDs{web}, "open"); return err }},
		{"Labelled.To: a Query on GSI1", "Query GSI1", func() error { _, err := m.Labelled.To(bug).Collect(ctx); return err }},
		{"Assigned.To", "Query GSI1", func() error { _, err := m.Assigned.To("ada").Collect(ctx); return err }},
	} {
		step(r.name, []string{r.want}, r.run)
	}

	require.Len(t, page.Items, 1)
	var closed Issue
	step("Issues.Update: the close reads the status first, then the issue back", []string{"GetItem consistent", "TransactWriteItems", "GetItem consistent"}, func() error {
		closed, err = m.Issues.Update(ctx, web, "0001", adjlist.Set("status", "closed"), adjlist.IfVersion(page.Items[0].Data.Version))
		return err
	})
	assert.Equal(t, Issue{Title: "Login fails", Status: "closed", Version: 2}, closed, "the issue as stored after the close")
}
