package adjlist_test

import (
	"context"
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

// TestCreateTableTimeToLiveFromModel: CreateTable enables TTL on the
// attribute the table's item types name in Tracking.Expiry, as the blog
// (a collection's sessions) and the social network (an entity's
// timeline) declare it; an explicit TimeToLive wins; two attributes, or
// a client without UpdateTimeToLive, are refused before any request.
func TestCreateTableTimeToLiveFromModel(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	blog := func() *adjlist.Table {
		table := adjlist.NewTable(nil, "blog")
		authors := adjlist.NewNode[Student](table, "AUTHOR", "PROFILE")
		adjlist.NewCollection[session](authors, "SESSION", func(o *adjlist.CollectionOptions) {
			o.Expiry, o.Lifetime = "expiresAt", 24*time.Hour
		})
		return table
	}
	socialnetwork := func() *adjlist.Table {
		table := adjlist.NewTable(nil, "socialnetwork", func(o *adjlist.Options) { o.NoIndex = true })
		adjlist.NewEntity[anyData](table, "user", "u#{userID}", "info")
		adjlist.NewEntity[anyData](table, "timeline", "u#{userID}#timeline", "p#{postID}#u#{authorID}", func(o *adjlist.EntityOptions) { o.Expiry = "ttl" })
		return table
	}
	ttlOf := func(in *dynamodb.UpdateTimeToLiveInput) types.TimeToLiveSpecification {
		return *in.TimeToLiveSpecification
	}
	for _, tc := range []struct {
		name  string
		table *adjlist.Table
		opts  func(*adjlist.CreateTableOptions)
		want  string
	}{
		{"blog", blog(), func(*adjlist.CreateTableOptions) {}, "expiresAt"},
		{"socialnetwork", socialnetwork(), func(*adjlist.CreateTableOptions) {}, "ttl"},
		{"explicit wins", blog(), func(o *adjlist.CreateTableOptions) { o.TimeToLive = "other" }, "other"},
	} {
		admin := &tableAdmin{}
		require.NoError(t, adjlist.CreateTable(ctx, admin, tc.table, tc.opts), tc.name)
		require.Len(t, admin.ttls, 1, tc.name)
		assert.Equal(t, types.TimeToLiveSpecification{AttributeName: aws.String(tc.want), Enabled: aws.Bool(true)}, ttlOf(admin.ttls[0]), tc.name)
	}

	admin := &tableAdmin{}
	require.NoError(t, adjlist.CreateTable(ctx, admin, adjlist.NewTable(nil, "plain")))
	assert.Empty(t, admin.ttls, "no item type expires: TTL is not touched")

	two := blog()
	adjlist.NewEntity[anyData](two, "timeline", "u#{userID}#timeline", "p#{postID}", func(o *adjlist.EntityOptions) { o.Expiry = "ttl" })
	admin = &tableAdmin{}
	err := adjlist.CreateTable(ctx, admin, two)
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	var opErr *adjlist.OpError
	require.ErrorAs(t, err, &opErr)
	assert.Equal(t, "CreateTable", opErr.Op)
	assert.Zero(t, admin.calls, "refused before any request")
	require.NoError(t, adjlist.CreateTable(ctx, admin, two, func(o *adjlist.CreateTableOptions) { o.TimeToLive = "ttl" }), "TimeToLive chooses")
}

// TestCreateTableTimeToLiveFromModelOnLocal: on DynamoDB Local the table
// of a model with an expiry has TTL on after CreateTable alone.
func TestCreateTableTimeToLiveFromModelOnLocal(t *testing.T) {
	t.Parallel()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	users := adjlist.NewNode[Student](table, "USER", "PROFILE")
	adjlist.NewCollection[session](users, "SESSION", func(o *adjlist.CollectionOptions) { o.Expiry = "expiresAt" })
	ddbtest.CreateTable(t, table)
	desc, err := db.DescribeTimeToLive(context.Background(), &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(table.Name())})
	require.NoError(t, err)
	assert.Equal(t, types.TimeToLiveStatusEnabled, desc.TimeToLiveDescription.TimeToLiveStatus)
	assert.Equal(t, "expiresAt", aws.ToString(desc.TimeToLiveDescription.AttributeName))
}
