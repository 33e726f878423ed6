package adjlist_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// TestConsistentReads: every read by key or of a partition sends
// ConsistentRead=true with adjlist.Consistent, and nothing (DynamoDB's
// eventually consistent default) without, and reads what was just
// written.
func TestConsistentReads(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := newBlog(t, false)
	require.NoError(t, b.authors.Put(ctx, "ada", Author{Name: "Ada"}))
	require.NoError(t, b.authors.Put(ctx, "bob", Author{Name: "Bob"}))
	require.NoError(t, b.follows.Put(ctx, "bob", "ada", Following{Since: "2026"}))
	require.NoError(t, b.posts.Put(ctx, "ada", "p1", Post{Title: "One"}))

	consistent := func(op string) *bool {
		switch in := b.calls.lastInput(op).(type) {
		case *dynamodb.GetItemInput:
			return in.ConsistentRead
		case *dynamodb.QueryInput:
			return in.ConsistentRead
		case *dynamodb.BatchGetItemInput:
			for _, ka := range in.RequestItems {
				return ka.ConsistentRead
			}
		}
		t.Fatalf("no %s sent", op)
		return nil
	}
	for _, tc := range []struct {
		name, op string
		read     func(o ...func(*adjlist.ReadOptions)) error
	}{
		{"Node.Get", "GetItem", func(o ...func(*adjlist.ReadOptions)) error {
			a, err := b.authors.Get(ctx, "ada", o...)
			assert.Equal(t, "Ada", a.Name)
			return err
		}},
		{"Edge.Get", "GetItem", func(o ...func(*adjlist.ReadOptions)) error {
			_, err := b.follows.Get(ctx, "bob", "ada", o...)
			return err
		}},
		{"Collection.Get", "GetItem", func(o ...func(*adjlist.ReadOptions)) error {
			_, err := b.posts.Get(ctx, "ada", "p1", o...)
			return err
		}},
		{"Node.GetMany", "BatchGetItem", func(o ...func(*adjlist.ReadOptions)) error {
			got, err := b.authors.GetMany(ctx, []string{"ada", "bob"}, o...)
			assert.Len(t, got, 2)
			return err
		}},
		{"Collection.GetMany", "BatchGetItem", func(o ...func(*adjlist.ReadOptions)) error {
			got, err := b.posts.GetMany(ctx, []adjlist.Child[Post]{{Parent: "ada", ID: "p1"}}, o...)
			assert.Len(t, got, 1)
			return err
		}},
		{"Edge.Hydrate", "BatchGetItem", func(o ...func(*adjlist.ReadOptions)) error {
			got, err := b.follows.Hydrate(ctx, []adjlist.EdgeItem[Following]{{From: "bob", To: "ada"}}, o...)
			assert.Len(t, got, 1)
			return err
		}},
		{"LoadNode", "Query", func(o ...func(*adjlist.ReadOptions)) error {
			got, err := adjlist.LoadNode(ctx, b.authors, b.follows, "bob", o...)
			assert.Len(t, got.Edges, 1)
			return err
		}},
		{"Collection.Load", "Query", func(o ...func(*adjlist.ReadOptions)) error {
			got, err := b.posts.Load(ctx, "ada", o...)
			assert.Len(t, got.Children, 1)
			return err
		}},
		{"Query.All", "Query", func(o ...func(*adjlist.ReadOptions)) error {
			n := 0
			for _, err := range b.follows.From("bob").All(ctx, o...) {
				if err != nil {
					return err
				}
				n++
			}
			assert.Equal(t, 1, n)
			return nil
		}},
		{"Query.Collect", "Query", func(o ...func(*adjlist.ReadOptions)) error {
			got, err := b.posts.List("ada").Collect(ctx, o...)
			assert.Len(t, got, 1)
			return err
		}},
		{"Query.Count", "Query", func(o ...func(*adjlist.ReadOptions)) error {
			n, err := b.follows.From("bob").Count(ctx, o...)
			assert.Equal(t, 1, n)
			return err
		}},
		{"Query.Page", "Query", func(o ...func(*adjlist.ReadOptions)) error {
			p, err := b.posts.List("ada").Page(ctx, "", o...)
			assert.Len(t, p.Items, 1)
			return err
		}},
		{"PageIndex of AllTypes", "Query", func(o ...func(*adjlist.ReadOptions)) error {
			var me []adjlist.NodeItem[Author]
			_, err := adjlist.PageIndex(ctx, adjlist.AllTypes(b.follows.From("bob"), o...), "", b.authors.Into(&me))
			assert.Len(t, me, 1)
			return err
		}},
		{"Load of a node's partition", "Query", func(o ...func(*adjlist.ReadOptions)) error {
			// A partition read with any targets: AllTypes' read
			// options, as LoadPartition's doc says.
			q := adjlist.AllTypes(b.follows.From("bob"), o...)
			var me []adjlist.NodeItem[Author]
			var follows []adjlist.EdgeItem[Following]
			_, err := adjlist.Load(ctx, q, b.authors.Into(&me), b.follows.Into(&follows))
			assert.Len(t, me, 1)
			assert.Len(t, follows, 1)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, tc.read())
			assert.Nil(t, consistent(tc.op), "eventually consistent by default")
			require.NoError(t, tc.read(adjlist.Consistent))
			assert.Equal(t, aws.Bool(true), consistent(tc.op), "ConsistentRead sent")
		})
	}
}
