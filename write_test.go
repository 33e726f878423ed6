package adjlist_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/internal/testsize"
)

// A blog: authors (nodes), their posts (an item collection) and follows
// between authors (edges), each indexed by status in GSI2.
type (
	Author struct {
		Name    string `dynamodbav:"name"`
		Status  string `dynamodbav:"status,omitempty"`
		Posts   int    `dynamodbav:"posts"`
		Version int64  `dynamodbav:"version,omitempty"`
	}
	Post struct {
		Title   string `dynamodbav:"title"`
		Status  string `dynamodbav:"status,omitempty"`
		Likes   int    `dynamodbav:"likes"`
		Version int64  `dynamodbav:"version,omitempty"`
	}
	Following struct {
		Since   string `dynamodbav:"since"`
		Status  string `dynamodbav:"status,omitempty"`
		Version int64  `dynamodbav:"version,omitempty"`
	}
)

// opsClient counts every request by operation and keeps the last input of
// each, to check the expressions sent.
type opsClient struct {
	adjlist.Client
	mu   sync.Mutex
	ops  map[string]int
	last map[string]any
}

func (c *opsClient) note(op string, in any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ops == nil {
		c.ops = map[string]int{}
	}
	if c.last == nil {
		c.last = map[string]any{}
	}
	c.ops[op]++
	c.last[op] = in
}

// counts returns the requests sent since the last call.
func (c *opsClient) counts() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := maps.Clone(c.ops)
	if out == nil {
		out = map[string]int{}
	}
	c.ops = map[string]int{}
	return out
}

func (c *opsClient) lastInput(op string) any {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last[op]
}

func (c *opsClient) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.note("GetItem", in)
	return c.Client.GetItem(ctx, in, o...)
}

func (c *opsClient) PutItem(ctx context.Context, in *dynamodb.PutItemInput, o ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	c.note("PutItem", in)
	return c.Client.PutItem(ctx, in, o...)
}

func (c *opsClient) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, o ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	c.note("UpdateItem", in)
	return c.Client.UpdateItem(ctx, in, o...)
}

func (c *opsClient) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, o ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	c.note("DeleteItem", in)
	return c.Client.DeleteItem(ctx, in, o...)
}

func (c *opsClient) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.note("Query", in)
	return c.Client.Query(ctx, in, o...)
}

func (c *opsClient) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	c.note("BatchGetItem", in)
	return c.Client.BatchGetItem(ctx, in, o...)
}

func (c *opsClient) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	c.note("BatchWriteItem", in)
	return c.Client.BatchWriteItem(ctx, in, o...)
}

func (c *opsClient) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	c.note("TransactWriteItems", in)
	return c.Client.TransactWriteItems(ctx, in, o...)
}

type blog struct {
	db      *dynamodb.Client
	calls   *opsClient
	table   *adjlist.Table
	authors *adjlist.Node[Author]
	posts   *adjlist.Collection[Post, Author]
	follows *adjlist.Edge[Following]
}

// newBlog creates the blog's table; with versioned, every handle has
// optimistic locking on the attribute "version".
func newBlog(t *testing.T, versioned bool) *blog {
	t.Helper()
	db := ddbtest.Client(t)
	b := &blog{db: db, calls: &opsClient{Client: db}}
	b.table = adjlist.NewTable(b.calls, ddbtest.TableName(t), indexedTableOptions)
	ddbtest.CreateTable(t, b.table)
	var tr adjlist.Tracking
	if versioned {
		tr.Version = "version"
	}
	status := func(c string) adjlist.IndexKeys {
		return adjlist.IndexKeys{Index: "GSI2", PartitionKey: adjlist.Template(c + "#{status}"), SortKey: adjlist.Template("{@self}")}
	}
	b.authors = adjlist.NewNode[Author](b.table, "AUTHOR", "PROFILE", func(o *adjlist.NodeOptions) {
		o.Indexes, o.Tracking = []adjlist.IndexKeys{status("AUTHORS")}, tr
	})
	b.posts = adjlist.NewCollection[Post](b.authors, "POST", func(o *adjlist.CollectionOptions) {
		o.Indexes, o.Tracking = []adjlist.IndexKeys{status("POSTS")}, tr
	})
	b.follows = adjlist.NewEdge[Following](b.authors, "FOLLOWS", b.authors, func(o *adjlist.EdgeOptions) {
		o.Indexes, o.Tracking = []adjlist.IndexKeys{status("FOLLOWS")}, tr
	})
	b.calls.counts()
	return b
}

// raw reads one item as DynamoDB stores it, bypassing the library.
func (b *blog) raw(t *testing.T, pk, sk string) map[string]types.AttributeValue {
	t.Helper()
	out, err := b.db.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(b.table.Name()), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}}})
	require.NoError(t, err)
	return out.Item
}

// storedItem is the stored item a failed condition returned: the SDK
// exception's Item (single-item writes) or the failed action's
// cancellation reason's Item (transactions).
func storedItem(t *testing.T, err error) map[string]types.AttributeValue {
	t.Helper()
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		return ccf.Item
	}
	var tce *types.TransactionCanceledException
	require.ErrorAs(t, err, &tce)
	for _, r := range tce.CancellationReasons {
		if aws.ToString(r.Code) == "ConditionalCheckFailed" {
			return r.Item
		}
	}
	t.Fatalf("no failed condition in %v", err)
	return nil
}

// Conditions on a stored item with status DRAFT, and on a missing item.
var (
	holdsOnStored  = expression.Name("status").Equal(expression.Value("DRAFT"))
	failsOnStored  = expression.Name("status").Equal(expression.Value("PUBLISHED"))
	holdsOnMissing = expression.AttributeNotExists(expression.Name("status"))
	failsOnMissing = expression.AttributeExists(expression.Name("status"))
)

// writeCase is one write path: write writes item id with optFns; seed
// stores item id with status DRAFT; key is its primary key.
type writeCase struct {
	name  string
	guard string // "absent" (create), "present" (update, delete, check), "" (upsert)
	// guardErr is what a failed guard returns.
	guardErr error
	request  string // the one request sent
	write    func(ctx context.Context, id string, optFns ...func(*adjlist.WriteOptions)) error
	seed     func(ctx context.Context, id string) error
	key      func(id string) (string, string)
}

func (b *blog) writeCases() []writeCase {
	a, p, f := b.authors, b.posts, b.follows
	seedAuthor := func(ctx context.Context, id string) error {
		return a.Put(ctx, id, Author{Name: "Ada", Status: "DRAFT"})
	}
	seedPost := func(ctx context.Context, id string) error {
		return p.Put(ctx, "ada", id, Post{Title: "Hello", Status: "DRAFT"})
	}
	seedFollow := func(ctx context.Context, id string) error {
		return f.Put(ctx, id, "ada", Following{Since: "2026", Status: "DRAFT"})
	}
	authorKey := func(id string) (string, string) { return "AUTHOR#" + id, "PROFILE" }
	postKey := func(id string) (string, string) { return "AUTHOR#ada", "POST#" + id }
	followKey := func(id string) (string, string) { return "AUTHOR#" + id, "FOLLOWS#AUTHOR#ada" }
	set := adjlist.Set("likes", 1)
	tx := func(add func(tx *adjlist.Tx, id string, optFns ...func(*adjlist.WriteOptions))) func(context.Context, string, ...func(*adjlist.WriteOptions)) error {
		return func(ctx context.Context, id string, optFns ...func(*adjlist.WriteOptions)) error {
			tx := adjlist.NewTx(b.table)
			add(tx, id, optFns...)
			return tx.Commit(ctx)
		}
	}
	const txw = "TransactWriteItems"
	return []writeCase{
		{"Node.Replace", "", nil, "PutItem", func(ctx context.Context, id string, o ...func(*adjlist.WriteOptions)) error {
			return a.Replace(ctx, id, Author{Name: "New"}, o...)
		}, seedAuthor, authorKey},
		{"Node.Put", "absent", adjlist.ErrExists, "PutItem", func(ctx context.Context, id string, o ...func(*adjlist.WriteOptions)) error {
			return a.Put(ctx, id, Author{Name: "New"}, o...)
		}, seedAuthor, authorKey},
		{"Node.Update", "present", adjlist.ErrNotFound, "UpdateItem", func(ctx context.Context, id string, o ...func(*adjlist.WriteOptions)) error {
			_, err := a.Update(ctx, id, adjlist.Set("name", "New"), o...)
			return err
		}, seedAuthor, authorKey},
		{"Node.Delete", "present", adjlist.ErrNotFound, "DeleteItem", func(ctx context.Context, id string, o ...func(*adjlist.WriteOptions)) error {
			return a.Delete(ctx, id, o...)
		}, seedAuthor, authorKey},
		{"Edge.Put", "absent", adjlist.ErrExists, "PutItem", func(ctx context.Context, id string, o ...func(*adjlist.WriteOptions)) error {
			return f.Put(ctx, id, "ada", Following{Since: "2027"}, o...)
		}, seedFollow, followKey},
		{"Edge.Replace", "", nil, "PutItem", func(ctx context.Context, id string, o ...func(*adjlist.WriteOptions)) error {
			return f.Replace(ctx, id, "ada", Following{Since: "2027"}, o...)
		}, seedFollow, followKey},
		{"Edge.Update", "present", adjlist.ErrNotFound, "UpdateItem", func(ctx context.Context, id string, o ...func(*adjlist.WriteOptions)) error {
			_, err := f.Update(ctx, id, "ada", adjlist.Set("since", "2027"), o...)
			return err
		}, seedFollow, followKey},
		{"Edge.Delete", "present", adjlist.ErrNotFound, "DeleteItem", func(ctx context.Context, id string, o ...func(*adjlist.WriteOptions)) error {
			return f.Delete(ctx, id, "ada", o...)
		}, seedFollow, followKey},
		{"Collection.Put", "absent", adjlist.ErrExists, "PutItem", func(ctx context.Context, id string, o ...func(*adjlist.WriteOptions)) error {
			return p.Put(ctx, "ada", id, Post{Title: "New"}, o...)
		}, seedPost, postKey},
		{"Collection.Replace", "", nil, "PutItem", func(ctx context.Context, id string, o ...func(*adjlist.WriteOptions)) error {
			return p.Replace(ctx, "ada", id, Post{Title: "New"}, o...)
		}, seedPost, postKey},
		{"Collection.Update", "present", adjlist.ErrNotFound, "UpdateItem", func(ctx context.Context, id string, o ...func(*adjlist.WriteOptions)) error {
			_, err := p.Update(ctx, "ada", id, set, o...)
			return err
		}, seedPost, postKey},
		{"Collection.Delete", "present", adjlist.ErrNotFound, "DeleteItem", func(ctx context.Context, id string, o ...func(*adjlist.WriteOptions)) error {
			return p.Delete(ctx, "ada", id, o...)
		}, seedPost, postKey},
		{"Node.Replace InTx", "", nil, txw, tx(func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions)) {
			a.Replace(context.Background(), id, Author{Name: "New"}, append(slices.Clip(o), adjlist.InTx(tx))...)
		}), seedAuthor, authorKey},
		{"Node.Put InTx", "absent", adjlist.ErrExists, txw, tx(func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions)) {
			a.Put(context.Background(), id, Author{Name: "New"}, append(slices.Clip(o), adjlist.InTx(tx))...)
		}), seedAuthor, authorKey},
		{"Node.Update InTx", "present", adjlist.ErrNotFound, txw, tx(func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions)) {
			a.Update(context.Background(), id, set, append(slices.Clip(o), adjlist.InTx(tx))...)
		}), seedAuthor, authorKey},
		{"Node.Delete InTx", "present", adjlist.ErrNotFound, txw, tx(func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions)) {
			a.Delete(context.Background(), id, append(slices.Clip(o), adjlist.InTx(tx))...)
		}), seedAuthor, authorKey},
		{"Node.TxCheck", "present", adjlist.ErrNodeNotFound, txw, tx(func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions)) { a.TxCheck(tx, id, o...) }), seedAuthor, authorKey},
		{"Edge.Put InTx", "absent", adjlist.ErrExists, txw, tx(func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions)) {
			f.Put(context.Background(), id, "ada", Following{Since: "2027"}, append(slices.Clip(o), adjlist.InTx(tx))...)
		}), seedFollow, followKey},
		{"Edge.Replace InTx", "", nil, txw, tx(func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions)) {
			f.Replace(context.Background(), id, "ada", Following{Since: "2027"}, append(slices.Clip(o), adjlist.InTx(tx))...)
		}), seedFollow, followKey},
		{"Edge.Update InTx", "present", adjlist.ErrNotFound, txw, tx(func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions)) {
			f.Update(context.Background(), id, "ada", set, append(slices.Clip(o), adjlist.InTx(tx))...)
		}), seedFollow, followKey},
		{"Edge.Delete InTx", "present", adjlist.ErrNotFound, txw, tx(func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions)) {
			f.Delete(context.Background(), id, "ada", append(slices.Clip(o), adjlist.InTx(tx))...)
		}), seedFollow, followKey},
		{"Edge.TxCheck", "present", adjlist.ErrNotFound, txw, tx(func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions)) { f.TxCheck(tx, id, "ada", o...) }), seedFollow, followKey},
		{"Collection.Put InTx", "absent", adjlist.ErrExists, txw, tx(func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions)) {
			p.Put(context.Background(), "ada", id, Post{Title: "New"}, append(slices.Clip(o), adjlist.InTx(tx))...)
		}), seedPost, postKey},
		{"Collection.Replace InTx", "", nil, txw, tx(func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions)) {
			p.Replace(context.Background(), "ada", id, Post{Title: "New"}, append(slices.Clip(o), adjlist.InTx(tx))...)
		}), seedPost, postKey},
		{"Collection.Update InTx", "present", adjlist.ErrNotFound, txw, tx(func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions)) {
			p.Update(context.Background(), "ada", id, set, append(slices.Clip(o), adjlist.InTx(tx))...)
		}), seedPost, postKey},
		{"Collection.Delete InTx", "present", adjlist.ErrNotFound, txw, tx(func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions)) {
			p.Delete(context.Background(), "ada", id, append(slices.Clip(o), adjlist.InTx(tx))...)
		}), seedPost, postKey},
		{"Collection.TxCheck", "present", adjlist.ErrNotFound, txw, tx(func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions)) { p.TxCheck(tx, "ada", id, o...) }), seedPost, postKey},
	}
}

// Every single-item write and its transaction form: a failed guard is the
// guard's error, a failed condition of the caller's is ErrConditionFailed
// (never the guard's), each with the stored item in the same response
// (ALL_OLD), in one request, nothing written; a holding condition writes.
func TestConditionVersusGuard(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := newBlog(t, false)
	for c, wc := range b.writeCases() {
		t.Run(wc.name, func(t *testing.T) {
			type scenario struct {
				name    string
				seeded  bool
				cond    expression.ConditionBuilder
				wantErr error
			}
			var scenarios []scenario
			switch wc.guard {
			case "absent":
				scenarios = []scenario{
					{"guard fails, condition holds", true, holdsOnStored, wc.guardErr},
					{"guard and condition fail: the guard is reported", true, failsOnStored, wc.guardErr},
					{"condition fails", false, failsOnMissing, adjlist.ErrConditionFailed},
					{"both hold", false, holdsOnMissing, nil},
				}
			case "present":
				scenarios = []scenario{
					{"guard fails, condition holds", false, holdsOnMissing, wc.guardErr},
					{"guard and condition fail: the guard is reported", false, failsOnMissing, wc.guardErr},
					{"condition fails", true, failsOnStored, adjlist.ErrConditionFailed},
					{"both hold", true, holdsOnStored, nil},
				}
			default:
				scenarios = []scenario{
					{"condition fails on a stored item", true, failsOnStored, adjlist.ErrConditionFailed},
					{"condition fails on a missing item", false, failsOnMissing, adjlist.ErrConditionFailed},
					{"condition holds", true, holdsOnStored, nil},
				}
			}
			for i, sc := range scenarios {
				t.Run(sc.name, func(t *testing.T) {
					id := fmt.Sprintf("c%d-%d", c, i)
					if sc.seeded {
						require.NoError(t, wc.seed(ctx, id))
					}
					pk, sk := wc.key(id)
					before := b.raw(t, pk, sk)
					b.calls.counts()
					err := wc.write(ctx, id, adjlist.If(sc.cond))
					assert.Equal(t, map[string]int{wc.request: 1}, b.calls.counts(), "one request")
					if sc.wantErr == nil {
						require.NoError(t, err)
						return
					}
					require.ErrorIs(t, err, sc.wantErr)
					if sc.wantErr == adjlist.ErrConditionFailed {
						assert.NotErrorIs(t, err, adjlist.ErrExists)
						assert.NotErrorIs(t, err, adjlist.ErrNotFound)
					} else {
						assert.NotErrorIs(t, err, adjlist.ErrConditionFailed)
					}
					assert.NotErrorIs(t, err, adjlist.ErrVersionConflict)
					assert.True(t, conditionFailed(err))
					assert.Equal(t, before, storedItem(t, err), "the stored item, from the same response")
					assert.Equal(t, before, b.raw(t, pk, sk), "nothing written")
				})
			}
		})
	}
}

// The condition expressions sent are the ones the README shows.
func TestConditionExpressionSent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := newBlog(t, false)
	draft := adjlist.If(holdsOnMissing)
	require.NoError(t, b.follows.Put(ctx, "bob", "ada", Following{Since: "2026"}, draft))
	put := b.calls.lastInput("PutItem").(*dynamodb.PutItemInput)
	assert.Equal(t, "(attribute_not_exists (#0)) AND (attribute_not_exists (#1))", aws.ToString(put.ConditionExpression))
	assert.Equal(t, map[string]string{"#0": "PK", "#1": "status"}, put.ExpressionAttributeNames)
	assert.Equal(t, types.ReturnValuesOnConditionCheckFailureAllOld, put.ReturnValuesOnConditionCheckFailure)

	require.NoError(t, b.posts.Put(ctx, "ada", "p1", Post{Title: "Hello", Status: "DRAFT"}))
	put = b.calls.lastInput("PutItem").(*dynamodb.PutItemInput)
	assert.Equal(t, "attribute_not_exists (#0)", aws.ToString(put.ConditionExpression))

	_, err := b.posts.Update(ctx, "ada", "p1", adjlist.Set("likes", 1), adjlist.If(holdsOnStored))
	require.NoError(t, err)
	upd := b.calls.lastInput("UpdateItem").(*dynamodb.UpdateItemInput)
	assert.Equal(t, "(attribute_exists (#0)) AND (#1 = :0)", aws.ToString(upd.ConditionExpression))
	assert.Equal(t, "PK", upd.ExpressionAttributeNames["#0"])
	assert.Equal(t, "status", upd.ExpressionAttributeNames["#1"])
	assert.Equal(t, &types.AttributeValueMemberS{Value: "DRAFT"}, upd.ExpressionAttributeValues[":0"])

	// Several If options are ANDed in order.
	require.NoError(t, b.posts.Delete(ctx, "ada", "p1", adjlist.If(holdsOnStored), adjlist.If(expression.Name("likes").Equal(expression.Value(1)))))
	del := b.calls.lastInput("DeleteItem").(*dynamodb.DeleteItemInput)
	assert.Equal(t, "(attribute_exists (#0)) AND ((#1 = :0) AND (#2 = :1))", aws.ToString(del.ConditionExpression))

	// Node.Replace with no condition sends none.
	require.NoError(t, b.authors.Replace(ctx, "ada", Author{Name: "Ada"}))
	assert.Nil(t, b.calls.lastInput("PutItem").(*dynamodb.PutItemInput).ConditionExpression)
	require.NoError(t, b.authors.Replace(ctx, "ada", Author{Name: "Ada"}, adjlist.If(expression.Name("name").Equal(expression.Value("Ada")))))
	assert.Equal(t, "#0 = :0", aws.ToString(b.calls.lastInput("PutItem").(*dynamodb.PutItemInput).ConditionExpression))

	// Values that look like expression syntax are values.
	odd := "x) OR (attribute_exists(PK)"
	require.ErrorIs(t, b.authors.Delete(ctx, "ada", adjlist.If(expression.Name("name").Equal(expression.Value(odd)))), adjlist.ErrConditionFailed)
	_, err = b.authors.Get(ctx, "ada")
	require.NoError(t, err)
}

// Optimistic locking: 1 on create, +1 per update, conditioned on the
// version read; a stale write changes nothing, alone or in a transaction.
func TestOptimisticLocking(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := newBlog(t, true)

	require.NoError(t, b.authors.Put(ctx, "ada", Author{Name: "Ada", Version: 7}))
	got, err := b.authors.Get(ctx, "ada")
	require.NoError(t, err)
	assert.Equal(t, int64(1), got.Version, "a create writes 1, whatever the data says")

	upd, err := b.authors.Update(ctx, "ada", adjlist.Set("posts", 1), adjlist.IfVersion(1))
	require.NoError(t, err)
	assert.Equal(t, Author{Name: "Ada", Posts: 1, Version: 2}, upd, "the new item, version included")
	sent := b.calls.lastInput("UpdateItem").(*dynamodb.UpdateItemInput)
	assert.Equal(t, "(attribute_exists (#0)) AND (#1 = :0)", aws.ToString(sent.ConditionExpression))
	assert.Equal(t, "version", sent.ExpressionAttributeNames["#1"])

	// A stale version: ErrVersionConflict, the stored item in the error,
	// nothing changed.
	before := b.raw(t, "AUTHOR#ada", "PROFILE")
	_, err = b.authors.Update(ctx, "ada", adjlist.Set("posts", 9), adjlist.IfVersion(1))
	require.ErrorIs(t, err, adjlist.ErrVersionConflict)
	assert.NotErrorIs(t, err, adjlist.ErrConditionFailed)
	assert.Equal(t, before, storedItem(t, err))
	require.ErrorIs(t, b.authors.Delete(ctx, "ada", adjlist.IfVersion(1)), adjlist.ErrVersionConflict)
	// Replace conditions on the version in the data (the one read) ...
	got.Name = "Stale"
	require.ErrorIs(t, b.authors.Replace(ctx, "ada", got), adjlist.ErrVersionConflict) // got.Version is 1
	require.ErrorIs(t, b.authors.Put(ctx, "ada", got), adjlist.ErrExists)
	assert.Equal(t, before, b.raw(t, "AUTHOR#ada", "PROFILE"), "nothing changed")
	// ... or on IfVersion, and writes the next.
	require.NoError(t, b.authors.Replace(ctx, "ada", Author{Name: "Ada L."}, adjlist.IfVersion(2)))
	got, err = b.authors.Get(ctx, "ada")
	require.NoError(t, err)
	assert.Equal(t, Author{Name: "Ada L.", Version: 3}, got)
	require.NoError(t, b.authors.Replace(ctx, "ada", got)) // version 3 in the data
	// Replace without a version creates: "attribute_not_exists (#0)" on the version.
	require.NoError(t, b.authors.Replace(ctx, "bob", Author{Name: "Bob"}))
	assert.Equal(t, "attribute_not_exists (#0)", aws.ToString(b.calls.lastInput("PutItem").(*dynamodb.PutItemInput).ConditionExpression))
	require.ErrorIs(t, b.authors.Replace(ctx, "bob", Author{Name: "Bob 2"}), adjlist.ErrVersionConflict)
	require.ErrorIs(t, b.authors.Replace(ctx, "bob", Author{Name: "Bob"}), adjlist.ErrVersionConflict, "the stored item's data from a separate call: no retry, so a conflict")

	// A version mismatch and a caller's condition: each reported as itself.
	_, err = b.authors.Update(ctx, "ada", adjlist.Set("posts", 2), adjlist.IfVersion(4), adjlist.If(failsOnStored))
	require.ErrorIs(t, err, adjlist.ErrConditionFailed)
	_, err = b.authors.Update(ctx, "ada", adjlist.Set("posts", 2), adjlist.IfVersion(3), adjlist.If(holdsOnMissing))
	require.ErrorIs(t, err, adjlist.ErrVersionConflict)
	_, err = b.authors.Update(ctx, "nobody", adjlist.Set("posts", 2), adjlist.IfVersion(1))
	require.ErrorIs(t, err, adjlist.ErrNotFound)

	// Edges and children: 1 on create, +1 on update.
	require.NoError(t, b.posts.Put(ctx, "ada", "p1", Post{Title: "Hello"}))
	post, err := b.posts.Update(ctx, "ada", "p1", adjlist.Set("likes", 1), adjlist.IfVersion(1))
	require.NoError(t, err)
	assert.Equal(t, int64(2), post.Version)
	require.NoError(t, b.follows.Put(ctx, "bob", "ada", Following{Since: "2026"}))
	fol, err := b.follows.Get(ctx, "bob", "ada")
	require.NoError(t, err)
	assert.Equal(t, int64(1), fol.Version)
	require.ErrorIs(t, b.follows.Delete(ctx, "bob", "ada", adjlist.IfVersion(2)), adjlist.ErrVersionConflict)

	// In a transaction: one stale action, nothing written.
	beforePost := b.raw(t, "AUTHOR#ada", "POST#p1")
	tx := adjlist.NewTx(b.table)
	b.posts.Update(ctx, "ada", "p1", adjlist.Set("likes", 5), adjlist.IfVersion(2), adjlist.InTx(tx))
	b.follows.Update(ctx, "bob", "ada", adjlist.Set("since", "2027"), adjlist.IfVersion(9), adjlist.InTx(tx))
	err = tx.Commit(ctx)
	require.ErrorIs(t, err, adjlist.ErrVersionConflict)
	assert.NotErrorIs(t, err, adjlist.ErrConditionFailed)
	assert.Equal(t, beforePost, b.raw(t, "AUTHOR#ada", "POST#p1"))
	tx = adjlist.NewTx(b.table)
	b.posts.Update(ctx, "ada", "p1", adjlist.Set("likes", 5), adjlist.IfVersion(2), adjlist.InTx(tx))
	b.follows.Delete(ctx, "bob", "ada", adjlist.IfVersion(1), adjlist.InTx(tx))
	b.authors.TxCheck(tx, "ada", adjlist.IfVersion(4))
	require.NoError(t, tx.Commit(ctx))
	stored, err := b.posts.Get(ctx, "ada", "p1")
	require.NoError(t, err)
	assert.Equal(t, Post{Title: "Hello", Likes: 5, Version: 3}, stored)
}

// 50 goroutines read-modify-write one node, retrying on a version
// conflict: the final counter equals the writes that succeeded, no update
// lost.
func TestNoLostUpdates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := newBlog(t, true)
	require.NoError(t, b.authors.Put(ctx, "ada", Author{Name: "Ada"}))
	// 50 workers in make stress; 16 still conflict on most attempts, at a
	// tenth of the requests (each round of conflicts costs a request per
	// worker still trying).
	workers, increments := testsize.Pick(16, 50), 2
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		succeeded int
		conflicts int
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range increments {
				for attempt := 0; ; attempt++ {
					if attempt == 1000 {
						t.Error("no progress after 1000 attempts")
						return
					}
					a, err := b.authors.Get(ctx, "ada")
					if err != nil {
						t.Error(err)
						return
					}
					_, err = b.authors.Update(ctx, "ada", adjlist.Set("posts", a.Posts+1), adjlist.IfVersion(a.Version))
					if errors.Is(err, adjlist.ErrVersionConflict) {
						mu.Lock()
						conflicts++
						mu.Unlock()
						continue
					}
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					succeeded++
					mu.Unlock()
					break
				}
			}
		}()
	}
	wg.Wait()
	got, err := b.authors.Get(ctx, "ada")
	require.NoError(t, err)
	assert.Equal(t, workers*increments, succeeded)
	assert.Equal(t, succeeded, got.Posts, "no lost update")
	assert.Equal(t, int64(succeeded+1), got.Version)
	t.Logf("%d writes, %d conflicts retried", succeeded, conflicts)
}

// Bad write options and updates are refused before any request.
func TestWriteOptionsRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	plain := newBlog(t, false)
	locked := newBlog(t, true)
	set := adjlist.Set("likes", 1)
	bad := expression.Name("").Equal(expression.Value(1)) // the builder's error
	tests := []struct {
		name string
		b    *blog
		run  func(b *blog) error
		want error
	}{
		{"invalid condition", plain, func(b *blog) error { return b.authors.Put(ctx, "ada", Author{}, adjlist.If(bad)) }, nil},
		{"invalid condition on update", plain, func(b *blog) error { _, err := b.posts.Update(ctx, "ada", "p", set, adjlist.If(bad)); return err }, nil},
		{"invalid condition in a tx", plain, func(b *blog) error {
			tx := adjlist.NewTx(b.table)
			b.follows.TxCheck(tx, "a", "b", adjlist.If(bad))
			return tx.Commit(ctx)
		}, nil},
		{"version on a handle without locking", plain, func(b *blog) error { return b.authors.Delete(ctx, "ada", adjlist.IfVersion(1)) }, adjlist.ErrInvalidOption},
		{"negative version", locked, func(b *blog) error { return b.authors.Delete(ctx, "ada", adjlist.IfVersion(-1)) }, adjlist.ErrInvalidOption},
		{"version on a create", locked, func(b *blog) error { return b.follows.Put(ctx, "a", "b", Following{}, adjlist.IfVersion(1)) }, adjlist.ErrInvalidOption},
		{"update without the version read", locked, func(b *blog) error { _, err := b.authors.Update(ctx, "ada", set); return err }, adjlist.ErrInvalidOption},
		{"delete without the version read", locked, func(b *blog) error { return b.posts.Delete(ctx, "ada", "p") }, adjlist.ErrInvalidOption},
		{"tx update without the version read", locked, func(b *blog) error {
			tx := adjlist.NewTx(b.table)
			b.follows.Update(ctx, "a", "b", set, adjlist.InTx(tx))
			return tx.Commit(ctx)
		}, adjlist.ErrInvalidOption},
		{"update naming the version", locked, func(b *blog) error {
			_, err := b.authors.Update(ctx, "ada", adjlist.Set("version", 9), adjlist.IfVersion(1))
			return err
		}, adjlist.ErrInvalidOption},
		{"update naming a key", plain, func(b *blog) error {
			tx := adjlist.NewTx(b.table)
			b.authors.Update(ctx, "ada", adjlist.Set("PK", "x"), adjlist.InTx(tx))
			return tx.Commit(ctx)
		}, adjlist.ErrKeyAttribute},
		{"update a derived key cannot follow", plain, func(b *blog) error {
			_, err := b.authors.Update(ctx, "ada", adjlist.Update{}.SetTo("status", expression.Name("status").IfNotExists(expression.Value("X"))))
			return err
		}, adjlist.ErrInvalidOption},
		{"bad id", plain, func(b *blog) error { return b.authors.Put(ctx, "", Author{}) }, adjlist.ErrInvalidKey},
		{"bad id in Node.DeleteMany", plain, func(b *blog) error { _, err := b.authors.DeleteMany(ctx, []string{"a", ""}); return err }, adjlist.ErrInvalidKey},
		{"duplicate in Node.DeleteMany", plain, func(b *blog) error { _, err := b.authors.DeleteMany(ctx, []string{"a", "a"}); return err }, adjlist.ErrDuplicateKey},
		{"bad id in Collection.GetMany", plain, func(b *blog) error {
			_, err := b.posts.GetMany(ctx, []adjlist.Child[Post]{{Parent: "ada", ID: ""}})
			return err
		}, adjlist.ErrInvalidKey},
		{"bad id in Collection.DeleteMany", plain, func(b *blog) error {
			_, err := b.posts.DeleteMany(ctx, []adjlist.Child[Post]{{Parent: "", ID: "p"}})
			return err
		}, adjlist.ErrInvalidKey},
		{"version attribute is a key", plain, func(b *blog) error {
			n := adjlist.NewNode[Author](b.table, "X", "META", func(o *adjlist.NodeOptions) { o.Version = "SK" })
			return n.Put(ctx, "x", Author{})
		}, adjlist.ErrInvalidOption},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.b.calls.counts()
			err := tt.run(tt.b)
			require.Error(t, err)
			if tt.want != nil {
				require.ErrorIs(t, err, tt.want)
			}
			var op *adjlist.OpError
			require.ErrorAs(t, err, &op)
			assert.Empty(t, tt.b.calls.counts(), "no request")
		})
	}
}

// Update of nodes, edges and children in a Tx (InTx) keeps
// derived index keys true, as Put does.
func TestNewWritesKeepIndexTrue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := newBlog(t, false)
	byStatus := func(c, status string) []string {
		var ids []string
		switch c {
		case "AUTHORS":
			items, err := b.authors.ByIndex("GSI2", status).Collect(ctx)
			require.NoError(t, err)
			for _, v := range items {
				ids = append(ids, v.ID)
			}
		case "POSTS":
			items, err := b.posts.ByIndex("GSI2", status).Collect(ctx)
			require.NoError(t, err)
			for _, v := range items {
				ids = append(ids, v.ID)
			}
		case "FOLLOWS":
			items, err := b.follows.ByIndex("GSI2", status).Collect(ctx)
			require.NoError(t, err)
			for _, v := range items {
				ids = append(ids, v.From)
			}
		}
		return ids
	}
	eventually := func(c, status string, want ...string) {
		t.Helper()
		var got []string
		if !assert.Eventually(t, func() bool { got = byStatus(c, status); return fmt.Sprint(got) == fmt.Sprint(want) }, 5e9, 2e7) {
			t.Fatalf("%s %s: %v, want %v", c, status, got, want)
		}
	}
	status := func(s string) adjlist.Update {
		return adjlist.Set("status", s)
	}

	require.NoError(t, b.authors.Put(ctx, "ada", Author{Name: "Ada", Status: "DRAFT"}))
	require.NoError(t, b.posts.Put(ctx, "ada", "p1", Post{Title: "Hello", Status: "DRAFT"}))
	require.NoError(t, b.follows.Put(ctx, "bob", "ada", Following{Since: "2026", Status: "DRAFT"}))
	eventually("AUTHORS", "DRAFT", "ada")

	got, err := b.authors.Update(ctx, "ada", status("ACTIVE"))
	require.NoError(t, err)
	assert.Equal(t, Author{Name: "Ada", Status: "ACTIVE"}, got)
	eventually("AUTHORS", "ACTIVE", "ada")
	eventually("AUTHORS", "DRAFT")

	tx := adjlist.NewTx(b.table)
	b.authors.Update(ctx, "ada", status("RETIRED"), adjlist.InTx(tx))
	b.posts.Update(ctx, "ada", "p1", status("PUBLISHED"), adjlist.InTx(tx))
	b.follows.Update(ctx, "bob", "ada", status("MUTED"), adjlist.InTx(tx))
	require.NoError(t, tx.Commit(ctx))
	eventually("AUTHORS", "RETIRED", "ada")
	eventually("AUTHORS", "ACTIVE")
	eventually("POSTS", "PUBLISHED", "p1")
	eventually("POSTS", "DRAFT")
	eventually("FOLLOWS", "MUTED", "bob")
	eventually("FOLLOWS", "DRAFT")

	// Removing the attribute takes the item out of the index.
	tx = adjlist.NewTx(b.table)
	b.posts.Update(ctx, "ada", "p1", adjlist.Remove("status"), adjlist.InTx(tx))
	require.NoError(t, tx.Commit(ctx))
	eventually("POSTS", "PUBLISHED")
	assert.NotContains(t, b.raw(t, "AUTHOR#ada", "POST#p1"), "GSI2PK")
}

func TestNodeCreateUpdateDelete(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := newBlog(t, false)
	require.NoError(t, b.authors.Put(ctx, "ada", Author{Name: "Ada"}))
	require.ErrorIs(t, b.authors.Put(ctx, "ada", Author{Name: "Ada"}), adjlist.ErrExists, "the same item again from a separate call is a duplicate")
	err := b.authors.Put(ctx, "ada", Author{Name: "Eve"})
	require.ErrorIs(t, err, adjlist.ErrExists)
	assert.Equal(t, "Ada", rawText(storedItem(t, err))["name"])
	require.NoError(t, b.authors.Replace(ctx, "ada", Author{Name: "Eve"}), "Replace is the overwrite")

	_, err = b.authors.Update(ctx, "nobody", adjlist.Set("name", "X"))
	require.ErrorIs(t, err, adjlist.ErrNotFound)
	_, err = b.authors.Get(ctx, "nobody")
	require.ErrorIs(t, err, adjlist.ErrNotFound, "an update never creates")

	tx := adjlist.NewTx(b.table)
	b.authors.Put(ctx, "bob", Author{Name: "Bob"}, adjlist.InTx(tx))
	b.authors.Delete(ctx, "ada", adjlist.InTx(tx))
	require.NoError(t, tx.Commit(ctx))
	_, err = b.authors.Get(ctx, "ada")
	require.ErrorIs(t, err, adjlist.ErrNotFound)

	tx = adjlist.NewTx(b.table)
	b.authors.Delete(ctx, "ada", adjlist.InTx(tx))
	require.ErrorIs(t, tx.Commit(ctx), adjlist.ErrNotFound)
}

func TestBatchNodesAndChildren(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := newBlog(t, false)
	var posts []adjlist.Child[Post]
	for i := range 130 {
		posts = append(posts, adjlist.Child[Post]{Parent: fmt.Sprintf("a%d", i%3), ID: fmt.Sprintf("p%03d", i), Data: Post{Title: fmt.Sprint(i)}})
	}
	_, err := b.posts.PutMany(ctx, posts)
	require.NoError(t, err)
	b.calls.counts()

	ask := append([]adjlist.Child[Post]{{Parent: "a0", ID: "missing"}}, posts...)
	ask = append(ask, posts[0]) // twice
	got, err := b.posts.GetMany(ctx, ask)
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"BatchGetItem": 2}, b.calls.counts(), "131 distinct keys: 100 + 31")
	require.Len(t, got, 131)
	assert.Equal(t, posts, got[:130], "input order, data filled in, the missing one left out")
	assert.Equal(t, posts[0], got[130])

	res, err := b.posts.DeleteMany(ctx, posts[:60])
	require.NoError(t, err)
	assert.Equal(t, 60, res.Written)
	assert.Equal(t, map[string]int{"BatchWriteItem": 3}, b.calls.counts())
	got, err = b.posts.GetMany(ctx, posts)
	require.NoError(t, err)
	assert.Equal(t, posts[60:], got)

	for _, id := range []string{"ada", "bob", "cy"} {
		require.NoError(t, b.authors.Put(ctx, id, Author{Name: id}))
	}
	b.calls.counts()
	res, err = b.authors.DeleteMany(ctx, []string{"ada", "bob", "nobody"})
	require.NoError(t, err)
	assert.Equal(t, 3, res.Written)
	assert.Equal(t, map[string]int{"BatchWriteItem": 1}, b.calls.counts())
	left, err := b.authors.GetMany(ctx, []string{"ada", "bob", "cy"})
	require.NoError(t, err)
	assert.Equal(t, []adjlist.NodeItem[Author]{{ID: "cy", Data: Author{Name: "cy"}}}, left)
}

// Bulk writes carry no condition: PutMany writes version 1 on a locked
// handle, whatever was stored, and DeleteMany checks no version.
func TestBulkWritesAndVersions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := newBlog(t, true)
	require.NoError(t, b.posts.Put(ctx, "ada", "p1", Post{Title: "Hello"}))
	_, err := b.posts.Update(ctx, "ada", "p1", adjlist.Set("likes", 3), adjlist.IfVersion(1))
	require.NoError(t, err)
	_, err = b.posts.PutMany(ctx, []adjlist.Child[Post]{{Parent: "ada", ID: "p1", Data: Post{Title: "Again", Version: 9}}, {Parent: "ada", ID: "p2"}})
	require.NoError(t, err)
	got, err := b.posts.GetMany(ctx, []adjlist.Child[Post]{{Parent: "ada", ID: "p1"}, {Parent: "ada", ID: "p2"}})
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, Post{Title: "Again", Version: 1}, got[0].Data)
	assert.Equal(t, int64(1), got[1].Data.Version)
	_, err = b.follows.PutMany(ctx, []adjlist.EdgeItem[Following]{{From: "bob", To: "ada"}})
	require.NoError(t, err)
	f, err := b.follows.Get(ctx, "bob", "ada")
	require.NoError(t, err)
	assert.Equal(t, int64(1), f.Version)
	_, err = b.posts.DeleteMany(ctx, got)
	require.NoError(t, err)
	left, err := b.posts.GetMany(ctx, got)
	require.NoError(t, err)
	assert.Empty(t, left)
}

// TxCheck with a version and with conditions: a stale version is a
// conflict; two checks of one item for the same condition are sent once,
// for different conditions refused (two actions on one item), as is a check
// beside an update of the item.
func TestTxChecks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := newBlog(t, true)
	require.NoError(t, b.authors.Put(ctx, "ada", Author{Name: "Ada", Status: "DRAFT"}))

	tx := adjlist.NewTx(b.table)
	b.authors.TxCheck(tx, "ada", adjlist.IfVersion(2))
	require.NoError(t, b.posts.Put(ctx, "ada", "p1", Post{}))
	b.posts.Delete(ctx, "ada", "p1", adjlist.IfVersion(1), adjlist.InTx(tx))
	err := tx.Commit(ctx)
	require.ErrorIs(t, err, adjlist.ErrVersionConflict)
	assert.NotErrorIs(t, err, adjlist.ErrNodeNotFound)
	_, err = b.posts.Get(ctx, "ada", "p1")
	require.NoError(t, err, "nothing written")

	tx = adjlist.NewTx(b.table)
	b.authors.TxCheck(tx, "ada", adjlist.If(holdsOnStored))
	b.authors.TxCheck(tx, "ada", adjlist.If(holdsOnStored))
	assert.Equal(t, 1, tx.Len(), "the same check once")
	b.posts.Delete(ctx, "ada", "p1", adjlist.IfVersion(1), adjlist.InTx(tx))
	require.NoError(t, tx.Commit(ctx))

	b.calls.counts()
	tx = adjlist.NewTx(b.table)
	b.authors.TxCheck(tx, "ada", adjlist.If(holdsOnStored))
	b.authors.TxCheck(tx, "ada", adjlist.If(failsOnStored))
	require.ErrorIs(t, tx.Commit(ctx), adjlist.ErrTxLimit)
	tx = adjlist.NewTx(b.table)
	b.authors.TxCheck(tx, "ada")
	b.authors.Update(ctx, "ada", adjlist.Set("name", "x"), adjlist.IfVersion(1), adjlist.InTx(tx))
	require.ErrorIs(t, tx.Commit(ctx), adjlist.ErrTxLimit)
	assert.Empty(t, b.calls.counts(), "refused before any request")
}

// A response lost after DynamoDB applied the write, then the SDK's retry:
// a locked put succeeds (the stored item is the one written); a locked
// update succeeds too (the stored item holds the version and the values
// it writes), returning the item as stored.
func TestLostResponseOnLockedWrites(t *testing.T) {
	t.Parallel()
	lost := fault{forward: true, status: 500, body: ddbError("InternalServerError", "lost")}
	s, ft := faultySchool(t, func(op string, n int, _ []byte) fault {
		if (op == "PutItem" || op == "UpdateItem") && n == 1 {
			return lost
		}
		return fault{forward: true}
	}, 0)
	ctx := context.Background()
	authors := adjlist.NewNode[Author](s.table, "AUTHOR", "PROFILE", func(o *adjlist.NodeOptions) { o.Version = "version" })
	require.NoError(t, authors.Put(ctx, "ada", Author{Name: "Ada"}))
	assert.Equal(t, 2, ft.requests("PutItem"), "the retry went out")

	got, err := authors.Update(ctx, "ada", adjlist.Set("posts", 1), adjlist.IfVersion(1))
	require.NoError(t, err, "the retry found the call's own write")
	assert.Equal(t, 2, ft.requests("UpdateItem"))
	assert.Equal(t, Author{Name: "Ada", Posts: 1, Version: 2}, got)
	got, err = authors.Get(ctx, "ada")
	require.NoError(t, err)
	assert.Equal(t, Author{Name: "Ada", Posts: 1, Version: 2}, got, "applied once")
}

// A create retried after a lost response succeeds with a condition of the
// caller's too: the stored item is the one written.
func TestLostResponseOnConditionalCreate(t *testing.T) {
	t.Parallel()
	lost := fault{forward: true, status: 500, body: ddbError("InternalServerError", "lost")}
	s, ft := faultySchool(t, func(op string, n int, _ []byte) fault {
		if op == "PutItem" && n == 1 {
			return lost
		}
		return fault{forward: true}
	}, 0)
	ctx := context.Background()
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", math204, adjlist.If(expression.AttributeNotExists(expression.Name("grade")))))
	assert.Equal(t, 2, ft.requests("PutItem"), "the retry went out")
}

// Collection.GetMany resends unprocessed keys as Node.GetMany does, and
// gives up at Options.BatchMaxAttempts with ErrUnprocessed.
func TestCollectionGetManyUnprocessed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		stingy  int64
		keep    int
		wantErr error
		calls   int64
	}{
		{"resent until done: 1 key, 1 key, the rest", 2, 1, nil, 3},
		{"gives up at the bound", -1, 0, adjlist.ErrUnprocessed, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stingy := &stingyClient{stingy: tc.stingy, keep: tc.keep}
			s := hydrationSchool(t, stingy, &noWait{}, 4)
			notes := adjlist.NewCollection[Enrollment](s.students, "NOTE")
			var want []adjlist.Child[Enrollment]
			for i := range 3 {
				c := adjlist.Child[Enrollment]{Parent: "a91", ID: fmt.Sprint(i), Data: Enrollment{Grade: fmt.Sprint(i)}}
				require.NoError(t, notes.Put(ctx, c.Parent, c.ID, c.Data))
				want = append(want, c)
			}
			got, err := notes.GetMany(ctx, want)
			assert.Equal(t, tc.calls, stingy.batchCalls.Load())
			if tc.wantErr != nil {
				require.ErrorIs(t, err, tc.wantErr)
				assert.Nil(t, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
}
