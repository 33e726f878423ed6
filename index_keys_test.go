package adjlist_test

import (
	"context"
	"slices"
	"strings"
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

// hostileIDs are ids whose escaped spelling differs from their own: each
// is found by ByIndex under the id it was written with, and no other.
var hostileIDs = []string{"a#b", "u%1", "%23", "#", "%"}

// follow is a follower's data; since feeds an index sort key.
type follow struct {
	Since string `dynamodbav:"since"`
}

// followers is the follower entity with index keys built from its key
// fields (and a data attribute) on a fresh table.
type followers struct {
	db    *dynamodb.Client
	calls *countingClient
	table *adjlist.Table
	e     *adjlist.Entity[follow]
}

func newFollowers(t *testing.T) *followers {
	t.Helper()
	db := ddbtest.Client(t)
	f := &followers{db: db, calls: &countingClient{Client: db}}
	f.table = adjlist.NewTable(f.calls, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	ddbtest.CreateTable(t, f.table)
	f.e = adjlist.NewEntity[follow](f.table, "follower", "u#{userID}#follower", "u#{followerID}", func(o *adjlist.EntityOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("F#{followerID}"), SortKey: adjlist.Template("U#{userID}#{since}")}}
	})
	require.NoError(t, f.table.Check())
	return f
}

// esc is an id as NodeKey escapes it.
func esc(t *testing.T, id string) string {
	t.Helper()
	k, err := adjlist.NodeKey("X", id)
	require.NoError(t, err)
	return strings.TrimPrefix(k, "X#")
}

// eventuallyFound runs q until it yields exactly want (each item shown
// by show), polling for at most waitIndex: global indexes are eventually
// consistent.
func eventuallyFound[T any](t *testing.T, q adjlist.Query[T], show func(T) string, want ...string) {
	t.Helper()
	var got []string
	var err error
	ok := assert.Eventually(t, func() bool {
		var items []T
		items, err = q.Collect(context.Background())
		got = got[:0]
		for _, v := range items {
			got = append(got, show(v))
		}
		return err == nil && slices.Equal(got, want)
	}, waitIndex, 20*time.Millisecond)
	if !ok {
		t.Fatalf("ByIndex found %q (err %v), want %q", got, err, want)
	}
}

func showIDs[T any](v adjlist.EntityItem[T]) string { return strings.Join(v.IDs, ",") }

// TestIndexKeysEscapeKeyFields: a key field in an index key template is
// escaped as in the table keys, on a put, an update's re-derivation and
// Verify's, so ByIndex finds every item under the id it was written with,
// hostile ids included.
func TestIndexKeysEscapeKeyFields(t *testing.T) {
	t.Parallel()
	f := newFollowers(t)
	ctx := context.Background()
	for i, follower := range hostileIDs {
		user := hostileIDs[(i+1)%len(hostileIDs)]
		require.NoError(t, f.e.Put(ctx, adjlist.IDs{user, follower}, follow{Since: "2026"}))
		pk, sk, err := f.e.Key(user, follower)
		require.NoError(t, err)
		out, err := f.db.GetItem(ctx, getInput(f.table.Name(), pk, sk))
		require.NoError(t, err)
		assert.Equal(t, "F#"+esc(t, follower), rawText(out.Item)["GSI2PK"], "the put escapes the key field")
		assert.Equal(t, "U#"+esc(t, user)+"#2026", rawText(out.Item)["GSI2SK"])

		_, err = f.e.Update(ctx, adjlist.IDs{user, follower}, adjlist.Set("since", "2027"))
		require.NoError(t, err)
		out, err = f.db.GetItem(ctx, getInput(f.table.Name(), pk, sk))
		require.NoError(t, err)
		assert.Equal(t, "U#"+esc(t, user)+"#2027", rawText(out.Item)["GSI2SK"], "the update re-derives it escaped")
	}
	for i, follower := range hostileIDs {
		user := hostileIDs[(i+1)%len(hostileIDs)]
		eventuallyFound(t, f.e.ByIndex("GSI2", follower), showIDs[follow], user+","+follower)
	}
	res, err := adjlist.Verify(ctx, f.db, f.table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings, "Verify derives the keys the writes wrote")
}

// TestMigrateEscapesOldIndexKeys: items whose index keys hold key fields
// unescaped (as written before key fields were escaped there) are stale
// to Verify, and Migrate re-keys them so that ByIndex finds them; ids
// without '#' or '%' were written the same way, and are left alone.
func TestMigrateEscapesOldIndexKeys(t *testing.T) {
	t.Parallel()
	f := newFollowers(t)
	ctx := context.Background()
	ids := append([]string{"plain"}, hostileIDs...)
	for _, id := range ids {
		pk, sk, err := f.e.Key("u1", id)
		require.NoError(t, err)
		// The item as the old code wrote it: table keys escaped, the
		// key field in GSI2PK raw.
		_, err = f.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(f.table.Name()), Item: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk},
			"GSI2PK": &types.AttributeValueMemberS{Value: "F#" + id}, "GSI2SK": &types.AttributeValueMemberS{Value: "U#u1#2026"},
			"since": &types.AttributeValueMemberS{Value: "2026"},
		}})
		require.NoError(t, err)
	}

	res, err := adjlist.Verify(ctx, f.db, f.table)
	require.NoError(t, err)
	var stale []string
	for _, fd := range res.Findings {
		require.Equal(t, adjlist.FindingIndexKeyStale, fd.Kind, "%s", fd)
		stale = append(stale, fd.Have+" → "+fd.Want)
	}
	var want []string
	for _, id := range hostileIDs {
		want = append(want, "F#"+id+" → F#"+esc(t, id))
	}
	assert.ElementsMatch(t, want, stale, "Verify sees the old spelling")

	m, err := adjlist.Migrate(ctx, f.calls, f.e)
	require.NoError(t, err)
	assert.Equal(t, len(hostileIDs), m.Rewritten, "only the ids with '#' or '%' change")
	for _, id := range ids {
		eventuallyFound(t, f.e.ByIndex("GSI2", id), showIDs[follow], "u1,"+id)
	}
	res, err = adjlist.Verify(ctx, f.db, f.table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
	again, err := adjlist.Migrate(ctx, f.calls, f.e)
	require.NoError(t, err)
	assert.Zero(t, again.Rewritten, "a second run rewrites nothing")
}

// TestTemplateNeedsHashBetweenParts: two {names} with text between them
// but no '#' cannot be split back (an escaped id holds any character but
// '#'), so an index key template like that is refused where declared.
func TestTemplateNeedsHashBetweenParts(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		tpl string
		ok  bool
	}{
		{"{a}-{b}", false},
		{"D#{date}T{time}", false},
		{"{a}x#{b}", true},
		{"{a}#x{b}", true},
		{"{a}-x", true},
		{"S#{status}#{createdAt}", true},
	} {
		t.Run(tt.tpl, func(t *testing.T) {
			table := adjlist.NewTable(nil, "hash", func(o *adjlist.Options) {
				o.NoIndex = true
				o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
			})
			adjlist.NewEntity[anyData](table, "e", "u#{userID}", "info", func(o *adjlist.EntityOptions) {
				o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("P"), SortKey: adjlist.Template(tt.tpl)}}
			})
			if tt.ok {
				assert.NoError(t, table.Check())
			} else {
				assert.ErrorIs(t, table.Check(), adjlist.ErrInvalidOption)
			}
		})
	}
}
