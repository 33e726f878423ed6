package adjlist_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
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

// writeHandle is one handle kind's single-item writes of the item named
// id, for the tests of the docs that link Node's ("as [Node.Put] does").
type writeHandle struct {
	name   string
	put    func(ctx context.Context, id string, data Author, o ...func(*adjlist.WriteOptions)) error
	repl   func(ctx context.Context, id string, data Author, o ...func(*adjlist.WriteOptions)) error
	update func(ctx context.Context, id string, u adjlist.Update, o ...func(*adjlist.WriteOptions)) (Author, error)
	delete func(ctx context.Context, id string, o ...func(*adjlist.WriteOptions)) error
	check  func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions))
	key    func(id string) (pk, sk string)
}

// writeHandles are a Node, an Edge, a Collection and an Entity of Author
// on b's table, each with the optimistic locking of the blog's (version).
func writeHandles(t *testing.T, b *blog) []writeHandle {
	t.Helper()
	tr := adjlist.Tracking{Version: "version"}
	nodes := adjlist.NewNode[Author](b.table, "WN", "META", func(o *adjlist.NodeOptions) { o.Tracking = tr })
	edges := adjlist.NewEdge[Author](nodes, "LINK", nodes, func(o *adjlist.EdgeOptions) { o.Tracking = tr })
	kids := adjlist.NewCollection[Author](nodes, "KID", func(o *adjlist.CollectionOptions) { o.Tracking = tr })
	ents := adjlist.NewEntity[Author](b.table, "writer", "WE#{id}", "meta", func(o *adjlist.EntityOptions) { o.Tracking = tr })
	require.NoError(t, b.table.Check())
	return []writeHandle{
		{"Node", func(ctx context.Context, id string, d Author, o ...func(*adjlist.WriteOptions)) error {
			return nodes.Put(ctx, id, d, o...)
		},
			func(ctx context.Context, id string, d Author, o ...func(*adjlist.WriteOptions)) error {
				return nodes.Replace(ctx, id, d, o...)
			},
			func(ctx context.Context, id string, u adjlist.Update, o ...func(*adjlist.WriteOptions)) (Author, error) {
				return nodes.Update(ctx, id, u, o...)
			},
			func(ctx context.Context, id string, o ...func(*adjlist.WriteOptions)) error {
				return nodes.Delete(ctx, id, o...)
			},
			func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions)) { nodes.TxCheck(tx, id, o...) },
			func(id string) (string, string) { return "WN#" + id, "META" }},
		{"Edge", func(ctx context.Context, id string, d Author, o ...func(*adjlist.WriteOptions)) error {
			return edges.Put(ctx, id, "to", d, o...)
		},
			func(ctx context.Context, id string, d Author, o ...func(*adjlist.WriteOptions)) error {
				return edges.Replace(ctx, id, "to", d, o...)
			},
			func(ctx context.Context, id string, u adjlist.Update, o ...func(*adjlist.WriteOptions)) (Author, error) {
				return edges.Update(ctx, id, "to", u, o...)
			},
			func(ctx context.Context, id string, o ...func(*adjlist.WriteOptions)) error {
				return edges.Delete(ctx, id, "to", o...)
			},
			func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions)) { edges.TxCheck(tx, id, "to", o...) },
			func(id string) (string, string) { return "WN#" + id, "LINK#WN#to" }},
		{"Collection", func(ctx context.Context, id string, d Author, o ...func(*adjlist.WriteOptions)) error {
			return kids.Put(ctx, "p", id, d, o...)
		},
			func(ctx context.Context, id string, d Author, o ...func(*adjlist.WriteOptions)) error {
				return kids.Replace(ctx, "p", id, d, o...)
			},
			func(ctx context.Context, id string, u adjlist.Update, o ...func(*adjlist.WriteOptions)) (Author, error) {
				return kids.Update(ctx, "p", id, u, o...)
			},
			func(ctx context.Context, id string, o ...func(*adjlist.WriteOptions)) error {
				return kids.Delete(ctx, "p", id, o...)
			},
			func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions)) { kids.TxCheck(tx, "p", id, o...) },
			func(id string) (string, string) { return "WN#p", "KID#" + id }},
		{"Entity", func(ctx context.Context, id string, d Author, o ...func(*adjlist.WriteOptions)) error {
			return ents.Put(ctx, adjlist.IDs{id}, d, o...)
		},
			func(ctx context.Context, id string, d Author, o ...func(*adjlist.WriteOptions)) error {
				return ents.Replace(ctx, adjlist.IDs{id}, d, o...)
			},
			func(ctx context.Context, id string, u adjlist.Update, o ...func(*adjlist.WriteOptions)) (Author, error) {
				return ents.Update(ctx, adjlist.IDs{id}, u, o...)
			},
			func(ctx context.Context, id string, o ...func(*adjlist.WriteOptions)) error {
				return ents.Delete(ctx, adjlist.IDs{id}, o...)
			},
			func(tx *adjlist.Tx, id string, o ...func(*adjlist.WriteOptions)) {
				ents.TxCheck(tx, adjlist.IDs{id}, o...)
			},
			func(id string) (string, string) { return "WE#" + id, "meta" }},
	}
}

// sentCond is the condition of the last request op sent, with its
// placeholders' names: what "as [Node.X] does" compares.
type sentCond struct {
	Cond  string
	Names map[string]string
}

func lastCond(c *opsClient, op string) sentCond {
	switch in := c.lastInput(op).(type) {
	case *dynamodb.PutItemInput:
		return sentCond{aws.ToString(in.ConditionExpression), in.ExpressionAttributeNames}
	case *dynamodb.DeleteItemInput:
		return sentCond{aws.ToString(in.ConditionExpression), in.ExpressionAttributeNames}
	case *dynamodb.UpdateItemInput:
		return sentCond{aws.ToString(in.ConditionExpression), nil} // its names hold the update's too
	case *dynamodb.TransactWriteItemsInput:
		cc := in.TransactItems[0].ConditionCheck
		return sentCond{aws.ToString(cc.ConditionExpression), cc.ExpressionAttributeNames}
	}
	return sentCond{}
}

// TestHandleWritesAsNodeDoes: Edge's, Collection's and Entity's Put,
// Replace, Update, Delete and TxCheck docs link Node's ("as [Node.Put]
// does", "with the options and version handling of [Node.Delete]",
// "[Node.Replace]"). Each sends Node's
// condition, with the caller's If ANDed after the guard and the version
// check before it, and fails as Node's does (ErrExists with the stored
// item in the SDK's exception, ErrNotFound, ErrConditionFailed,
// ErrVersionConflict, ErrInvalidOption for a missing version before any
// request); only TxCheck's missing item differs, as each doc says: a
// *NodeNotFoundError for a Node, ErrNotFound for the others. An edge's
// ErrExists says "edge already exists".
func TestHandleWritesAsNodeDoes(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	b := newBlog(t, true)
	// results[step] is Node's sent condition, then compared with the others'.
	node := map[string]sentCond{}
	for _, h := range writeHandles(t, b) {
		t.Run(h.name, func(t *testing.T) {
			same := func(step, op string) {
				t.Helper()
				got := lastCond(b.calls, op)
				if h.name == "Node" {
					node[step] = got
					return
				}
				assert.Equal(t, node[step], got, "%s sends Node's condition", step)
			}
			pk, sk := h.key("a")
			b.calls.counts()

			// Put: the guarded create, version 1.
			require.NoError(t, h.put(ctx, "a", Author{Name: "A", Status: "DRAFT", Version: 7}))
			assert.Equal(t, "attribute_not_exists (#0)", lastCond(b.calls, "PutItem").Cond)
			assert.Equal(t, "PK", lastCond(b.calls, "PutItem").Names["#0"])
			same("put", "PutItem")
			stored := b.raw(t, pk, sk)
			assert.Equal(t, &types.AttributeValueMemberN{Value: "1"}, stored["version"], "a create writes version 1")
			err := h.put(ctx, "a", Author{Name: "B"})
			require.ErrorIs(t, err, adjlist.ErrExists)
			var ccf *types.ConditionalCheckFailedException
			require.ErrorAs(t, err, &ccf)
			assert.Equal(t, stored, ccf.Item, "the stored item in the SDK's exception")
			assert.Equal(t, stored, b.raw(t, pk, sk), "left unchanged")
			if h.name == "Edge" {
				assert.Contains(t, err.Error(), "edge already exists")
			}
			require.ErrorIs(t, h.put(ctx, "b", Author{Name: "B"}, adjlist.If(failsOnMissing)), adjlist.ErrConditionFailed)
			assert.Equal(t, "(attribute_not_exists (#0)) AND (attribute_exists (#1))", lastCond(b.calls, "PutItem").Cond)
			same("put if", "PutItem")

			// Update: ALL_NEW, the version read required and set one higher.
			b.calls.counts()
			_, err = h.update(ctx, "a", adjlist.Set("posts", 1))
			require.ErrorIs(t, err, adjlist.ErrInvalidOption, "the version read is required")
			assert.Empty(t, b.calls.counts(), "before any request")
			got, err := h.update(ctx, "a", adjlist.Set("posts", 1), adjlist.IfVersion(1))
			require.NoError(t, err)
			assert.Equal(t, Author{Name: "A", Status: "DRAFT", Posts: 1, Version: 2}, got)
			assert.Equal(t, types.ReturnValueAllNew, b.calls.lastInput("UpdateItem").(*dynamodb.UpdateItemInput).ReturnValues)
			same("update", "UpdateItem")
			_, err = h.update(ctx, "a", adjlist.Set("posts", 2), adjlist.IfVersion(2), adjlist.If(failsOnStored))
			require.ErrorIs(t, err, adjlist.ErrConditionFailed)
			assert.NotErrorIs(t, err, adjlist.ErrVersionConflict)
			assert.Equal(t, "((attribute_exists (#0)) AND (#1 = :0)) AND (#2 = :1)", lastCond(b.calls, "UpdateItem").Cond,
				"the version, then the caller's condition")
			names := b.calls.lastInput("UpdateItem").(*dynamodb.UpdateItemInput).ExpressionAttributeNames
			assert.Equal(t, []string{"PK", "version", "status"}, []string{names["#0"], names["#1"], names["#2"]})
			same("update if", "UpdateItem")
			_, err = h.update(ctx, "a", adjlist.Set("posts", 2), adjlist.IfVersion(1), adjlist.If(holdsOnStored))
			require.ErrorIs(t, err, adjlist.ErrVersionConflict)
			_, err = h.update(ctx, "none", adjlist.Set("posts", 2), adjlist.IfVersion(1))
			require.ErrorIs(t, err, adjlist.ErrNotFound)

			// TxCheck: the version optional, each failure its own error.
			check := func(o ...func(*adjlist.WriteOptions)) error {
				tx := adjlist.NewTx(b.table)
				h.check(tx, "a", o...)
				return tx.Commit(ctx)
			}
			require.NoError(t, check())
			require.NoError(t, check(adjlist.IfVersion(2), adjlist.If(holdsOnStored)))
			same("check", "TransactWriteItems")
			require.ErrorIs(t, check(adjlist.IfVersion(1)), adjlist.ErrVersionConflict)
			require.ErrorIs(t, check(adjlist.If(failsOnStored)), adjlist.ErrConditionFailed)
			tx := adjlist.NewTx(b.table)
			h.check(tx, "none")
			err = tx.Commit(ctx)
			require.ErrorIs(t, err, adjlist.ErrNotFound)
			var nnf *adjlist.NodeNotFoundError
			assert.Equal(t, h.name == "Node", errors.As(err, &nnf), "a *NodeNotFoundError for a Node's check alone: %v", err)

			// Replace: conditioned on the version expected (IfVersion, else
			// the data's, else none stored), writing it plus one; the
			// caller's condition after it; attributes T does not declare
			// dropped.
			rk, rs := h.key("r")
			require.NoError(t, h.repl(ctx, "r", Author{Name: "R", Status: "DRAFT"}))
			assert.Equal(t, "attribute_not_exists (#0)", lastCond(b.calls, "PutItem").Cond)
			assert.Equal(t, "version", lastCond(b.calls, "PutItem").Names["#0"])
			same("replace new", "PutItem")
			require.ErrorIs(t, h.repl(ctx, "r", Author{Name: "R2"}), adjlist.ErrVersionConflict, "none expected, one stored")
			require.NoError(t, h.repl(ctx, "r", Author{Name: "R", Status: "DRAFT"}, adjlist.IfVersion(1)))
			assert.Equal(t, "#0 = :0", lastCond(b.calls, "PutItem").Cond)
			same("replace version", "PutItem")
			require.NoError(t, h.repl(ctx, "r", Author{Name: "R", Status: "DRAFT", Version: 2}), "the data's version")
			require.ErrorIs(t, h.repl(ctx, "r", Author{Name: "R3", Version: 2}), adjlist.ErrVersionConflict, "stale")
			require.ErrorIs(t, h.repl(ctx, "r", Author{Name: "R3"}, adjlist.IfVersion(3), adjlist.If(failsOnStored)), adjlist.ErrConditionFailed)
			assert.Equal(t, "(#0 = :0) AND (#1 = :1)", lastCond(b.calls, "PutItem").Cond)
			same("replace if", "PutItem")
			_, err = b.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(b.table.Name()),
				Key: adjlist.Item{"PK": av(rk), "SK": av(rs)}, UpdateExpression: aws.String("SET extra = :x"),
				ExpressionAttributeValues: adjlist.Item{":x": av("x")}})
			require.NoError(t, err)
			require.NoError(t, h.repl(ctx, "r", Author{Name: "R4"}, adjlist.IfVersion(3)))
			stored = b.raw(t, rk, rs)
			assert.NotContains(t, stored, "extra", "an attribute Author does not declare is dropped")
			assert.Equal(t, &types.AttributeValueMemberN{Value: "4"}, stored["version"])

			// Delete: the version read required, then checked.
			b.calls.counts()
			require.ErrorIs(t, h.delete(ctx, "a"), adjlist.ErrInvalidOption)
			assert.Empty(t, b.calls.counts(), "before any request")
			require.ErrorIs(t, h.delete(ctx, "a", adjlist.IfVersion(1)), adjlist.ErrVersionConflict)
			require.ErrorIs(t, h.delete(ctx, "a", adjlist.IfVersion(2), adjlist.If(failsOnStored)), adjlist.ErrConditionFailed)
			same("delete if", "DeleteItem")
			require.ErrorIs(t, h.delete(ctx, "none", adjlist.IfVersion(1)), adjlist.ErrNotFound)
			require.NoError(t, h.delete(ctx, "a", adjlist.IfVersion(2)))
			assert.Equal(t, "(attribute_exists (#0)) AND (#1 = :0)", lastCond(b.calls, "DeleteItem").Cond)
			same("delete", "DeleteItem")
			assert.Empty(t, b.raw(t, pk, sk))
		})
	}
}

// TestPutManyWritesAsCreated: Edge.PutMany's "written as created: version
// 1 whatever was stored, CreatedAt and UpdatedAt now, the expiry from
// Lifetime", which Node's, Collection's and Entity's PutMany link, holds
// for each of them over an item stored earlier and updated since.
func TestPutManyWritesAsCreated(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	clk := &clock{now: time.Date(2026, 11, 23, 4, 5, 6, 0, time.UTC)}
	tr := adjlist.Tracking{Version: "version", CreatedAt: "createdAt", UpdatedAt: "updatedAt", Clock: clk.Now,
		Expiry: "expiresAt", Lifetime: time.Hour}
	nodes := adjlist.NewNode[Author](table, "WN", "META", func(o *adjlist.NodeOptions) { o.Tracking = tr })
	edges := adjlist.NewEdge[Author](nodes, "LINK", nodes, func(o *adjlist.EdgeOptions) { o.Tracking = tr })
	kids := adjlist.NewCollection[Author](nodes, "KID", func(o *adjlist.CollectionOptions) { o.Tracking = tr })
	ents := adjlist.NewEntity[Author](table, "writer", "WE#{id}", "meta", func(o *adjlist.EntityOptions) { o.Tracking = tr })
	require.NoError(t, table.Check())
	set := adjlist.Set("posts", 1)
	data := Author{Name: "again", Version: 9}
	for name, seed := range map[string]func() error{
		"Node": func() error {
			return errors.Join(nodes.Put(ctx, "a", Author{}), second(nodes.Update(ctx, "a", set, adjlist.IfVersion(1))))
		},
		"Edge": func() error {
			return errors.Join(edges.Put(ctx, "a", "b", Author{}), second(edges.Update(ctx, "a", "b", set, adjlist.IfVersion(1))))
		},
		"Collection": func() error {
			return errors.Join(kids.Put(ctx, "a", "k", Author{}), second(kids.Update(ctx, "a", "k", set, adjlist.IfVersion(1))))
		},
		"Entity": func() error {
			return errors.Join(ents.Put(ctx, adjlist.IDs{"a"}, Author{}), second(ents.Update(ctx, adjlist.IDs{"a"}, set, adjlist.IfVersion(1))))
		},
	} {
		require.NoError(t, seed(), "%s: stored at version 2", name)
	}
	clk.Add(90 * time.Second)
	now := clk.Now()
	stamp := now.UTC().Format("2006-01-02T15:04:05.000Z")
	for _, h := range []struct {
		name    string
		putMany func() error
		pk, sk  string
	}{
		{"Node", func() error {
			_, err := nodes.PutMany(ctx, []adjlist.NodeItem[Author]{{ID: "a", Data: data}})
			return err
		}, "WN#a", "META"},
		{"Edge", func() error {
			_, err := edges.PutMany(ctx, []adjlist.EdgeItem[Author]{{From: "a", To: "b", Data: data}})
			return err
		}, "WN#a", "LINK#WN#b"},
		{"Collection", func() error {
			_, err := kids.PutMany(ctx, []adjlist.Child[Author]{{Parent: "a", ID: "k", Data: data}})
			return err
		}, "WN#a", "KID#k"},
		{"Entity", func() error {
			_, err := ents.PutMany(ctx, []adjlist.EntityItem[Author]{{IDs: adjlist.IDs{"a"}, Data: data}})
			return err
		}, "WE#a", "meta"},
	} {
		t.Run(h.name, func(t *testing.T) {
			require.NoError(t, h.putMany())
			out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table.Name()), ConsistentRead: aws.Bool(true),
				Key: adjlist.Item{"PK": av(h.pk), "SK": av(h.sk)}})
			require.NoError(t, err)
			item := out.Item
			assert.Equal(t, &types.AttributeValueMemberN{Value: "1"}, item["version"], "version 1 whatever was stored (2) or given (9)")
			assert.Equal(t, av(stamp), item["createdAt"], "CreatedAt now")
			assert.Equal(t, av(stamp), item["updatedAt"], "UpdatedAt now")
			assert.Equal(t, &types.AttributeValueMemberN{Value: strconv.FormatInt(now.Add(time.Hour).Unix(), 10)}, item["expiresAt"],
				"the expiry from Lifetime")
			assert.Equal(t, av("again"), item["name"])
		})
	}
}

// second is the error of a call's two results.
func second[T any](_ T, err error) error { return err }

// TestErrExistsUnwraps: ErrExists, of every handle's Put, unwraps to the
// SDK's *types.ConditionalCheckFailedException alone and to its
// *types.TransactionCanceledException via Tx.Commit, each holding the
// stored item, and wins over a failed condition of the caller's.
func TestErrExistsUnwraps(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	b := newBlog(t, false)
	for _, h := range writeHandles(t, b) {
		t.Run(h.name, func(t *testing.T) {
			pk, sk := h.key("x")
			require.NoError(t, h.put(ctx, "x", Author{Name: "X", Status: "DRAFT"}))
			stored := b.raw(t, pk, sk)
			err := h.put(ctx, "x", Author{}, adjlist.If(failsOnStored))
			require.ErrorIs(t, err, adjlist.ErrExists)
			assert.NotErrorIs(t, err, adjlist.ErrConditionFailed)
			var ccf *types.ConditionalCheckFailedException
			require.ErrorAs(t, err, &ccf)
			assert.Equal(t, stored, ccf.Item)

			tx := adjlist.NewTx(b.table)
			require.NoError(t, h.put(ctx, "x", Author{}, adjlist.InTx(tx), adjlist.If(failsOnStored)))
			err = tx.Commit(ctx)
			require.ErrorIs(t, err, adjlist.ErrExists)
			assert.NotErrorIs(t, err, adjlist.ErrConditionFailed)
			var tce *types.TransactionCanceledException
			require.ErrorAs(t, err, &tce)
			assert.False(t, errors.As(err, &ccf), "no ConditionalCheckFailedException in a transaction's error")
			assert.Equal(t, stored, storedItem(t, err))
		})
	}
}

// TestUnlabelledEdgeBetweenSelfKeyedNodesRefused: NewEdge's "An
// unlabelled edge between self-keyed nodes of one type (PK = SK =
// "USER#u1") is refused the same way, with ErrInvalidOption" (every call,
// before any request); a label, or another target type, is taken.
func TestUnlabelledEdgeBetweenSelfKeyedNodesRefused(t *testing.T) {
	t.Parallel()
	calls := &countingClient{} // no DynamoDB behind it: a request would panic
	table := adjlist.NewTable(calls, "t")
	users := adjlist.NewNode[Student](table, "USER", "")
	friends := adjlist.NewEdge[Enrollment](users, "", users)
	ctx := t.Context()
	require.ErrorIs(t, friends.Put(ctx, "u1", "u2", Enrollment{}), adjlist.ErrInvalidOption)
	_, err := friends.Get(ctx, "u1", "u2")
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	_, err = friends.From("u1").Collect(ctx)
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	require.ErrorIs(t, table.Check(), adjlist.ErrInvalidOption)
	assert.Zero(t, calls.total(), "no request")

	other := adjlist.NewTable(calls, "t2")
	users = adjlist.NewNode[Student](other, "USER", "")
	groups := adjlist.NewNode[Student](other, "GROUP", "")
	adjlist.NewEdge[Enrollment](users, "FRIEND", users)
	adjlist.NewEdge[Enrollment](users, "", groups)
	require.NoError(t, other.Check(), "a label, or another type, is taken")
}

// TestModelIndexesOrderAndProjections: Model.Indexes are "the inverted
// index of [Options] first (... its Projection empty: [CreateTableOptions]
// chooses it ...), then [Options].Indexes in order, default projections
// filled in"; InvertedIndex names the first, and is empty with NoIndex.
func TestModelIndexesOrderAndProjections(t *testing.T) {
	t.Parallel()
	declared := []adjlist.Index{
		{Name: "GSI3", PartitionKey: "GSI3PK"},
		{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK", Projection: types.ProjectionTypeKeysOnly},
	}
	table := adjlist.NewTable(nil, "m", func(o *adjlist.Options) { o.Indexes = declared })
	m, err := adjlist.DescribeModel(table)
	require.NoError(t, err)
	assert.Equal(t, "GSI1", m.InvertedIndex)
	require.Len(t, m.Indexes, 3)
	assert.Equal(t, adjlist.Index{Name: "GSI1", PartitionKey: "GSI1PK", SortKey: "GSI1SK"}, m.Indexes[0], "its Projection empty")
	assert.Equal(t, adjlist.Index{Name: "GSI3", PartitionKey: "GSI3PK", Projection: types.ProjectionTypeAll}, m.Indexes[1], "the default filled in")
	assert.Equal(t, declared[1], m.Indexes[2])

	bare := adjlist.NewTable(nil, "n", func(o *adjlist.Options) { o.NoIndex = true })
	m, err = adjlist.DescribeModel(bare)
	require.NoError(t, err)
	assert.Empty(t, m.InvertedIndex)
	assert.Empty(t, m.Indexes)
}

// TestRepairLeavesKeyMismatch: FindingKeyMismatch's "[Repair] leaves it",
// in RepairResult.Left, the item as it was.
func TestRepairLeavesKeyMismatch(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	m := newComplaintModel(t)
	bad := adjlist.Item{"PK": av("Complaint4"), "SK": av("metadata"), "complaint_id": av("Complaint5"), "current_state": av("new")}
	_, err := m.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(m.table.Name()), Item: bad})
	require.NoError(t, err)
	res, err := adjlist.Verify(ctx, m.db, m.table)
	require.NoError(t, err)
	require.Len(t, res.Findings, 1)
	require.Equal(t, adjlist.FindingKeyMismatch, res.Findings[0].Kind)
	rep, err := adjlist.Repair(ctx, m.db, m.table, res.Findings, func(o *adjlist.RepairOptions) {
		o.DeleteDangling, o.DeleteUnknown, o.DeleteUndecodable = true, true, true
	})
	require.NoError(t, err)
	assert.Equal(t, res.Findings, rep.Left)
	assert.Empty(t, rep.Repaired)
	assert.Equal(t, bad, m.rawItem(t, "Complaint4", "metadata"))
}

// togglingClient, once armed, changes the status of the item at key
// before each TransactWriteItems it forwards, as a concurrent writer would.
type togglingClient struct {
	adjlist.Client
	db    *dynamodb.Client
	table string
	key   adjlist.Item
	armed atomic.Bool
	txs   atomic.Int32
}

func (c *togglingClient) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	if !c.armed.Load() {
		return c.Client.TransactWriteItems(ctx, in, o...)
	}
	status := []string{"open", "closed"}[c.txs.Add(1)%2]
	if _, err := c.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(c.table), Key: c.key,
		UpdateExpression: aws.String("SET #s = :s"), ExpressionAttributeNames: map[string]string{"#s": "status"},
		ExpressionAttributeValues: adjlist.Item{":s": av(status)}}); err != nil {
		return nil, err
	}
	return c.Client.TransactWriteItems(ctx, in, o...)
}

// TestCountedWriteTriedThreeTimes: ItemCounter's "Writes that must learn
// the stored item ... are conditioned on it as read: tried up to 3 times,
// then ErrConditionFailed": an Update of the GroupBy attribute whose item
// another writer changes before every commit sends 3 TransactWriteItems
// and fails with ErrConditionFailed, counting nothing.
func TestCountedWriteTriedThreeTimes(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := ddbtest.Client(t)
	name := ddbtest.TableName(t)
	c := &togglingClient{Client: db, db: db, table: name, key: adjlist.Item{"PK": av("PROJ#p1"), "SK": av("ISSUE#i1")}}
	table := adjlist.NewTable(c, name)
	ddbtest.CreateTable(t, table)
	tr := declareTracker(t, db, table)
	require.NoError(t, tr.issues.Put(ctx, "p1", "i1", trackerIssue{Title: "one", Status: "open"}))
	c.armed.Store(true)
	_, err := tr.issues.Update(ctx, "p1", "i1", adjlist.Set("status", "done"))
	require.ErrorIs(t, err, adjlist.ErrConditionFailed)
	assert.Equal(t, int32(3), c.txs.Load(), "tried 3 times")
	got, err := tr.byStatus.Get(ctx, adjlist.IDs{"p1"}, "done")
	require.NoError(t, err)
	assert.Zero(t, got, "nothing counted")
}

// TestNodeKeyLimits: Node.Key's "Errors are a [*KeyError] ..., also for a
// key over 2048 bytes, or over 1024 as the sort key of an empty marker".
func TestNodeKeyLimits(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "t")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	bills := adjlist.NewNode[Student](table, "BILL", "")
	for _, tc := range []struct {
		node *adjlist.Node[Student]
		id   string
		ok   bool
	}{
		{students, strings.Repeat("x", 2048-len("STU#")), true},
		{students, strings.Repeat("x", 2048-len("STU#")+1), false},
		{bills, strings.Repeat("x", 1024-len("BILL#")), true},
		{bills, strings.Repeat("x", 1024-len("BILL#")+1), false},
	} {
		_, _, err := tc.node.Key(tc.id)
		if tc.ok {
			assert.NoError(t, err, len(tc.id))
			continue
		}
		var ke *adjlist.KeyError
		assert.ErrorAs(t, err, &ke, len(tc.id))
		assert.ErrorIs(t, err, adjlist.ErrInvalidKey)
	}
}
