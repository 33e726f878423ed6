package adjlist_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// docs/writes.md, Optimistic locking: "Bulk writes and DeleteNode do not
// check versions", and PutMany's doc comment: on a handle with Tracking
// every item is written as created, version 1 whatever was stored.
func TestBulkWritesAndDeleteNodeDoNotCheckVersions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := newBlog(t, true)

	// Every item at version 2: created, then updated once.
	require.NoError(t, b.authors.Put(ctx, "ada", Author{Name: "Ada"}))
	require.NoError(t, b.authors.Put(ctx, "bob", Author{Name: "Bob"}))
	require.NoError(t, b.posts.Put(ctx, "ada", "p1", Post{Title: "Hello"}))
	require.NoError(t, b.follows.Put(ctx, "bob", "ada", Following{Since: "2026"}))
	_, err := b.authors.Update(ctx, "ada", adjlist.Set("posts", 1), adjlist.IfVersion(1))
	require.NoError(t, err)
	_, err = b.posts.Update(ctx, "ada", "p1", adjlist.Set("likes", 1), adjlist.IfVersion(1))
	require.NoError(t, err)
	_, err = b.follows.Update(ctx, "bob", "ada", adjlist.Set("since", "2025"), adjlist.IfVersion(1))
	require.NoError(t, err)

	// PutMany given a stale version in the data (1) and none (0): written,
	// each at version 1.
	res, err := b.authors.PutMany(ctx, []adjlist.NodeItem[Author]{{ID: "ada", Data: Author{Name: "Ada L.", Version: 1}}})
	require.NoError(t, err)
	assert.Equal(t, 1, res.Written)
	res, err = b.posts.PutMany(ctx, []adjlist.Child[Post]{{Parent: "ada", ID: "p1", Data: Post{Title: "Hello again"}}})
	require.NoError(t, err)
	assert.Equal(t, 1, res.Written)
	res, err = b.follows.PutMany(ctx, []adjlist.EdgeItem[Following]{{From: "bob", To: "ada", Data: Following{Since: "2024", Version: 7}}})
	require.NoError(t, err)
	assert.Equal(t, 1, res.Written)

	a, err := b.authors.Get(ctx, "ada", adjlist.Consistent)
	require.NoError(t, err)
	assert.Equal(t, Author{Name: "Ada L.", Version: 1}, a)
	p, err := b.posts.Get(ctx, "ada", "p1", adjlist.Consistent)
	require.NoError(t, err)
	assert.Equal(t, Post{Title: "Hello again", Version: 1}, p)
	f, err := b.follows.Get(ctx, "bob", "ada", adjlist.Consistent)
	require.NoError(t, err)
	assert.Equal(t, Following{Since: "2024", Version: 1}, f)

	// A single-item Delete needs the version read; the bulk and cascading
	// deletes take none and delete whatever version is stored.
	_, err = b.posts.Update(ctx, "ada", "p1", adjlist.Set("likes", 2), adjlist.IfVersion(1)) // version 2
	require.NoError(t, err)
	require.ErrorIs(t, b.posts.Delete(ctx, "ada", "p1"), adjlist.ErrInvalidOption)
	res, err = b.posts.DeleteMany(ctx, []adjlist.Child[Post]{{Parent: "ada", ID: "p1"}})
	require.NoError(t, err)
	assert.Equal(t, 1, res.Written)
	_, err = b.posts.Get(ctx, "ada", "p1", adjlist.Consistent)
	require.ErrorIs(t, err, adjlist.ErrNotFound)

	_, err = b.authors.Update(ctx, "bob", adjlist.Set("posts", 3), adjlist.IfVersion(1)) // version 2
	require.NoError(t, err)
	res, err = b.authors.DeleteMany(ctx, []string{"bob"})
	require.NoError(t, err)
	assert.Equal(t, 1, res.Written)
	_, err = b.authors.Get(ctx, "bob", adjlist.Consistent)
	require.ErrorIs(t, err, adjlist.ErrNotFound)

	_, err = b.authors.Update(ctx, "ada", adjlist.Set("posts", 2), adjlist.IfVersion(1)) // version 2
	require.NoError(t, err)
	cr, err := adjlist.DeleteNode(ctx, b.authors, "ada", b.follows)
	require.NoError(t, err)
	assert.True(t, cr.Node)
	_, err = b.authors.Get(ctx, "ada", adjlist.Consistent)
	require.ErrorIs(t, err, adjlist.ErrNotFound)
	_, err = b.follows.Get(ctx, "bob", "ada", adjlist.Consistent)
	require.ErrorIs(t, err, adjlist.ErrNotFound, "the edge into ada went with the cascade")
}

// docs/writes.md, Time: "Lifetime applies to puts and creates, Expires to
// any put, create or update": a Replace, a PutMany and a Put or Replace in
// a Tx get now plus the Lifetime, from the injected clock, whatever expiry
// the data holds; Expires overrides it on any of them; an update without
// Expires leaves the expiry.
func TestLifetimeOnEveryPutExpiresOnEveryWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	table := adjlist.NewTable(ddbtest.Client(t), ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	clk := &clock{now: time.Date(2026, 11, 23, 4, 0, 0, 0, time.UTC)}
	users := adjlist.NewNode[Author](table, "USER", "PROFILE")
	sessions := adjlist.NewCollection[Session](users, "SESSION", func(o *adjlist.CollectionOptions) {
		o.Expiry, o.Lifetime, o.Clock = "expiresAt", 24*time.Hour, clk.Now
	})
	expiry := func(id string) int64 {
		t.Helper()
		s, err := sessions.Get(ctx, "ada", id, adjlist.Consistent)
		require.NoError(t, err)
		return s.ExpiresAt
	}
	day := func() int64 { return clk.Now().Add(24 * time.Hour).Unix() }

	require.NoError(t, sessions.Put(ctx, "ada", "s1", Session{Device: "phone"}))
	assert.Equal(t, day(), expiry("s1"), "Put")

	clk.Add(time.Hour)
	require.NoError(t, sessions.Replace(ctx, "ada", "s1", Session{Device: "phone", ExpiresAt: 42}))
	assert.Equal(t, day(), expiry("s1"), "Replace: the Lifetime, not the data's expiry")

	clk.Add(time.Hour)
	_, err := sessions.PutMany(ctx, []adjlist.Child[Session]{{Parent: "ada", ID: "s2", Data: Session{Device: "tv", ExpiresAt: 42}}})
	require.NoError(t, err)
	assert.Equal(t, day(), expiry("s2"), "PutMany")

	clk.Add(time.Hour)
	tx := adjlist.NewTx(table)
	require.NoError(t, sessions.Put(ctx, "ada", "s3", Session{Device: "car"}, adjlist.InTx(tx)))
	require.NoError(t, sessions.Replace(ctx, "ada", "s2", Session{Device: "tv"}, adjlist.InTx(tx)))
	require.NoError(t, tx.Commit(ctx))
	assert.Equal(t, day(), expiry("s3"), "Put in a Tx")
	assert.Equal(t, day(), expiry("s2"), "Replace in a Tx")

	at := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	require.NoError(t, sessions.Replace(ctx, "ada", "s1", Session{Device: "phone"}, adjlist.Expires(at)))
	assert.Equal(t, at.Unix(), expiry("s1"), "Expires on a Replace overrides the Lifetime")
	_, err = sessions.Update(ctx, "ada", "s1", adjlist.Set("device", "tablet"), adjlist.Expires(at.Add(time.Hour)))
	require.NoError(t, err)
	assert.Equal(t, at.Add(time.Hour).Unix(), expiry("s1"), "Expires on an Update")
	clk.Add(time.Hour)
	_, err = sessions.Update(ctx, "ada", "s1", adjlist.Set("device", "laptop"))
	require.NoError(t, err)
	assert.Equal(t, at.Add(time.Hour).Unix(), expiry("s1"), "an Update without Expires keeps the expiry")
}

// RELIABILITY.md, Limits: an Update or Delete without the version read on
// a locked handle is ErrInvalidOption before any request, alone and in a
// Tx; the Tx's Commit returns the same error and sends nothing.
func TestVersionNeededAloneAndInTx(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := newBlog(t, true)
	set := adjlist.Set("likes", 1)
	tests := []struct {
		name string
		run  func(tx *adjlist.Tx) error // tx nil: alone
	}{
		{"node update", func(tx *adjlist.Tx) error { _, err := b.authors.Update(ctx, "ada", set, inTx(tx)...); return err }},
		{"node delete", func(tx *adjlist.Tx) error { return b.authors.Delete(ctx, "ada", inTx(tx)...) }},
		{"child update", func(tx *adjlist.Tx) error { _, err := b.posts.Update(ctx, "ada", "p1", set, inTx(tx)...); return err }},
		{"child delete", func(tx *adjlist.Tx) error { return b.posts.Delete(ctx, "ada", "p1", inTx(tx)...) }},
		{"edge update", func(tx *adjlist.Tx) error {
			_, err := b.follows.Update(ctx, "bob", "ada", set, inTx(tx)...)
			return err
		}},
		{"edge delete", func(tx *adjlist.Tx) error { return b.follows.Delete(ctx, "bob", "ada", inTx(tx)...) }},
	}
	for _, tt := range tests {
		t.Run(tt.name+" alone", func(t *testing.T) {
			b.calls.counts()
			err := tt.run(nil)
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
			var op *adjlist.OpError
			require.ErrorAs(t, err, &op)
			assert.Empty(t, b.calls.counts(), "no request")
		})
		t.Run(tt.name+" in a Tx", func(t *testing.T) {
			b.calls.counts()
			tx := adjlist.NewTx(b.table)
			require.ErrorIs(t, tt.run(tx), adjlist.ErrInvalidOption)
			require.ErrorIs(t, tx.Commit(ctx), adjlist.ErrInvalidOption)
			assert.Empty(t, b.calls.counts(), "no request")
		})
	}
}

// inTx is the write option joining tx, none for a nil tx.
func inTx(tx *adjlist.Tx) []func(*adjlist.WriteOptions) {
	if tx == nil {
		return nil
	}
	return []func(*adjlist.WriteOptions){adjlist.InTx(tx)}
}

// dropOptsClient sends every single-item write without the per-call
// options adjlist gives it, as a wrapper that forgets them would.
type dropOptsClient struct{ adjlist.Client }

func (c dropOptsClient) PutItem(ctx context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return c.Client.PutItem(ctx, in)
}

func (c dropOptsClient) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	return c.Client.UpdateItem(ctx, in)
}

func (c dropOptsClient) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return c.Client.DeleteItem(ctx, in)
}

// docs/writes.md: "A client that drops per-call SDK options cannot tell
// its own retry" and "never reports ErrOutcomeUnknown": after a first
// attempt applied and its answer lost (a 500), the SDK's retry of a create
// is ErrExists, of a delete ErrNotFound, and an update with Add is re-sent
// and applied twice, none of them ErrOutcomeUnknown. (Through the client
// as given, the same faults are success, success and ErrOutcomeUnknown:
// TestLostResponseOnGuardedPut, TestDeleteRecognisesItsOwnDelete,
// TestUpdateNotResentWhenNotIdempotent.)
func TestClientDroppingCallOptionsCannotTellItsOwnRetry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		op    string
		write func(students *adjlist.Node[Student]) error
		want  error // nil: success
		after Student
		gone  bool
	}{
		{"PutItem", func(n *adjlist.Node[Student]) error { return n.Put(ctx, "a91", Student{Name: "Ada"}) }, adjlist.ErrExists, Student{Name: "Ada"}, false},
		{"UpdateItem", func(n *adjlist.Node[Student]) error {
			_, err := n.Update(ctx, "a91", adjlist.Update{}.Add("year", 1))
			return err
		}, nil, Student{Name: "Ada", Year: 2}, false},
		{"DeleteItem", func(n *adjlist.Node[Student]) error { return n.Delete(ctx, "a91") }, adjlist.ErrNotFound, Student{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			t.Parallel()
			s, ft := faultySchool(t, func(op string, n int, _ []byte) fault {
				if op == tt.op && n == 1 {
					return fault{forward: true, status: 500, body: ddbError("InternalServerError", "lost")}
				}
				return fault{forward: true}
			}, 0)
			if tt.op != "PutItem" {
				require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ada"}))
			}
			students := adjlist.NewNode[Student](adjlist.NewTable(dropOptsClient{s.calls}, s.table.Name()), "STU", "PROFILE")
			err := tt.write(students)
			if tt.want == nil {
				require.NoError(t, err)
			} else {
				require.ErrorIs(t, err, tt.want)
			}
			assert.NotErrorIs(t, err, adjlist.ErrOutcomeUnknown)
			assert.Equal(t, 2, ft.requests(tt.op), "the SDK's retry went out")
			got, err := s.students.Get(ctx, "a91", adjlist.Consistent)
			if tt.gone {
				require.ErrorIs(t, err, adjlist.ErrNotFound)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.after, got)
		})
	}
}

// docs/writes.md, The verbs: a write given InTx "returns the transaction's
// error so far (a bad id or option, a second action on one item, a
// limit), which Commit returns too without sending": the 101st action is
// refused by its own write with ErrTxLimit, in an *OpError naming the write
// and its keys; a later write returns the same error without keys, and
// Commit sends nothing.
func TestTxWriteReturnsTheLimitItHits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := newBlog(t, false)
	tx := adjlist.NewTx(b.table)
	for i := range 100 {
		require.NoError(t, b.follows.Put(ctx, fmt.Sprintf("s%03d", i), "ada", Following{}, adjlist.InTx(tx)))
	}
	err := b.follows.Put(ctx, "s100", "ada", Following{}, adjlist.InTx(tx))
	require.ErrorIs(t, err, adjlist.ErrTxLimit)
	var op *adjlist.OpError
	require.ErrorAs(t, err, &op)
	assert.Equal(t, "Edge.Put", op.Op)
	assert.Equal(t, "AUTHOR#s100", op.PK, "its own error: its keys")

	err = b.authors.Put(ctx, "bob", Author{Name: "Bob"}, adjlist.InTx(tx))
	require.ErrorIs(t, err, adjlist.ErrTxLimit)
	require.ErrorAs(t, err, &op)
	assert.Equal(t, "Node.Put", op.Op)
	assert.Empty(t, op.PK, "the transaction's error, not this write's: no keys")

	assert.Equal(t, 100, tx.Len())
	require.ErrorIs(t, tx.Commit(ctx), adjlist.ErrTxLimit)
	assert.Empty(t, b.calls.counts(), "no request")
}

// deleteAfterCommit deletes the item (pk, sk) right after each
// TransactWriteItems that succeeds: another writer's delete landing
// between a counted update's transaction and its read back.
type deleteAfterCommit struct {
	adjlist.Client
	db      *dynamodb.Client
	table   string
	pk, sk  string
	commits int
}

func (c *deleteAfterCommit) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	out, err := c.Client.TransactWriteItems(ctx, in, o...)
	if err == nil {
		c.commits++
		_, err = c.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(c.table), Key: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: c.pk}, "SK": &types.AttributeValueMemberS{Value: c.sk}}})
	}
	return out, err
}

// docs/writes.md, Errors: "When ErrOutcomeUnknown does not hold, the write
// was not applied." An Update that moves a counted item between GroupBy
// groups commits its transaction, then reads the item back to return it;
// an item deleted by another writer in between made the applied update
// return ErrNotFound. It succeeds, with the zero value (nothing is stored
// by then), and the counts show the move.
func TestCountedUpdateDeletedBeforeItsReadBackSucceeds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	name := ddbtest.TableName(t)
	racing := &deleteAfterCommit{Client: db, db: db, table: name, pk: "AUTHOR#ada", sk: "POST#p1"}
	table := adjlist.NewTable(racing, name)
	ddbtest.CreateTable(t, table)
	authors := adjlist.NewNode[Author](table, "AUTHOR", "PROFILE")
	posts := adjlist.NewCollection[Post](authors, "POST")
	byStatus := adjlist.NewItemCounter(posts, "POSTS", func(o *adjlist.CounterOptions) { o.GroupBy = "status" })
	_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "AUTHOR#ada"}, "SK": &types.AttributeValueMemberS{Value: "POST#p1"},
		"title": &types.AttributeValueMemberS{Value: "Hello"}, "status": &types.AttributeValueMemberS{Value: "DRAFT"}, "likes": &types.AttributeValueMemberN{Value: "0"}}})
	require.NoError(t, err)

	got, err := posts.Update(ctx, "ada", "p1", adjlist.Set("status", "PUBLISHED"))
	require.NoError(t, err, "the update was applied")
	assert.Equal(t, Post{}, got, "nothing stored after it")
	assert.Equal(t, 1, racing.commits)
	n, err := byStatus.Get(ctx, adjlist.IDs{"ada"}, "PUBLISHED")
	require.NoError(t, err)
	assert.EqualValues(t, 1, n, "the update moved the count")
}
