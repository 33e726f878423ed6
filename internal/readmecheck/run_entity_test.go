package readmecheck

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// The tests of this file run the README's blocks of "Modelling any
// design" and "Using adjlist on a table you already have".

// The AWS social network design: each item type's keys are two templates;
// each access pattern is one call and one request; a follow is one
// transaction.
func TestReadmeSocialNetwork(t *testing.T) {
	t.Parallel()
	l := newLocal(t, "social")
	client, ctx := l.client, t.Context()
	// readme:begin
	table := adjlist.NewTable(client, "social", func(o *adjlist.Options) { o.NoIndex = true })
	userInfo := adjlist.NewEntity[UserInfo](table, "user", "u#{userID}", "info")
	userCounts := adjlist.NewEntity[UserCounts](table, "count", "u#{userID}", "count")
	followers := adjlist.NewEntity[Relation](table, "follower", "u#{userID}#follower", "u#{followerID}")
	following := adjlist.NewEntity[Relation](table, "following", "u#{userID}#following", "u#{followedID}")
	userPosts := adjlist.NewEntity[UserPost](table, "post", "u#{userID}#post", "p#{postID}")
	timeline := adjlist.NewEntity[TimelineEntry](table, "timeline", "u#{userID}#timeline", "p#{postID}#u#{authorID}",
		func(o *adjlist.EntityOptions) { o.Expiry = "ttl" })
	_, _, _, _, _, _ = userInfo, userCounts, followers, following, userPosts, timeline
	// readme:end
	require.NoError(t, table.Check())
	assert.Equal(t, []string{"userID", "followerID"}, followers.Fields())
	l.create(t, table)

	// User 12345 with two followers and two posts on the timeline.
	require.NoError(t, userInfo.Put(ctx, adjlist.IDs{"12345"}, UserInfo{Name: "Jane"}))
	require.NoError(t, userCounts.Put(ctx, adjlist.IDs{"12345"}, UserCounts{Followers: 2}))
	require.NoError(t, userCounts.Put(ctx, adjlist.IDs{"34567"}, UserCounts{Following: 1}))
	for _, f := range []string{"34567", "45678"} {
		require.NoError(t, followers.Put(ctx, adjlist.IDs{"12345", f}, Relation{}))
	}
	require.NoError(t, timeline.Put(ctx, adjlist.IDs{"12345", "p1", "34567"}, TimelineEntry{}))
	require.NoError(t, timeline.Put(ctx, adjlist.IDs{"12345", "p2", "45678"}, TimelineEntry{}))
	before := l.requests.Load()
	// readme:begin
	// getUserInfoByUserID: Query PK = "u#12345", both item types, each typed
	var info []adjlist.EntityItem[UserInfo]
	var count []adjlist.EntityItem[UserCounts]
	_, err := adjlist.Load(ctx, adjlist.AllTypes(userInfo.List("12345")), userInfo.Into(&info), userCounts.Into(&count))

	// getFollowerListByUserID: PK = "u#12345#follower" AND begins_with(SK, "u#")
	for f, err := range followers.List("12345").All(ctx) {
		_, _ = f.IDs[1], err // the follower's id, "34567"
	}

	// getTimelineByUserID, newest first
	entries, err := timeline.List("12345").Desc().Limit(20).Page(ctx, "")
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, int64(3), l.requests.Load()-before, "one request per access pattern")
	assert.Equal(t, []adjlist.EntityItem[UserInfo]{{IDs: adjlist.IDs{"12345"}, Data: UserInfo{Name: "Jane"}}}, info)
	assert.Equal(t, []adjlist.EntityItem[UserCounts]{{IDs: adjlist.IDs{"12345"}, Data: UserCounts{Followers: 2}}}, count)
	fs, err := followers.List("12345").Collect(ctx)
	require.NoError(t, err)
	require.Len(t, fs, 2)
	assert.Equal(t, "34567", fs[0].IDs[1])
	require.Len(t, entries.Items, 2)
	assert.Equal(t, []adjlist.IDs{{"12345", "p2", "45678"}, {"12345", "p1", "34567"}}, []adjlist.IDs{entries.Items[0].IDs, entries.Items[1].IDs})

	// 34567 unfollows (by hand), to follow again below.
	require.NoError(t, followers.Delete(ctx, adjlist.IDs{"12345", "34567"}))
	// readme:continue

	// a follow: both relationship items and both counters, all or nothing
	tx := adjlist.NewTx(table)
	followers.TxPut(tx, adjlist.IDs{"12345", "34567"}, Relation{})
	following.TxPut(tx, adjlist.IDs{"34567", "12345"}, Relation{})
	userCounts.TxUpdate(tx, adjlist.IDs{"12345"}, adjlist.Update{}.Add("follower#", 1))
	userCounts.TxUpdate(tx, adjlist.IDs{"34567"}, adjlist.Update{}.Add("following#", 1))
	err = tx.Commit(ctx)
	_, _ = entries, err
	// readme:end
	require.NoError(t, err)
	c, err := userCounts.Get(ctx, adjlist.IDs{"12345"})
	require.NoError(t, err)
	assert.Equal(t, 3, c.Followers)
	c, err = userCounts.Get(ctx, adjlist.IDs{"34567"})
	require.NoError(t, err)
	assert.Equal(t, 2, c.Following)
	_, err = following.Get(ctx, adjlist.IDs{"34567", "12345"})
	require.NoError(t, err)

	// The same follow again: the guard fails, nothing changes.
	tx = adjlist.NewTx(table)
	followers.TxPut(tx, adjlist.IDs{"12345", "34567"}, Relation{})
	userCounts.TxUpdate(tx, adjlist.IDs{"12345"}, adjlist.Update{}.Add("follower#", 1))
	require.ErrorIs(t, tx.Commit(ctx), adjlist.ErrExists)
	c, err = userCounts.Get(ctx, adjlist.IDs{"12345"})
	require.NoError(t, err)
	assert.Equal(t, 3, c.Followers, "all or nothing")
}

// The AWS gaming profile design adopted: items another program wrote,
// served by entities as they are; a guarded update.
func TestReadmeGamingProfile(t *testing.T) {
	t.Parallel()
	l := newLocal(t, "gaming")
	table := adjlist.NewTable(l.client, "gaming", func(o *adjlist.Options) { o.NoIndex = true })
	l.create(t, table)
	ctx := t.Context()
	// The items as plain SDK code writes them.
	for _, item := range []map[string]any{
		{"PK": "player001", "SK": "#METADATA#player001", "Currency": 150},
		{"PK": "player001", "SK": "FRIENDS#player001", "FriendList": []string{"player002"}},
		{"PK": "player001", "SK": "ITEMS#ITEM001", "ItemCount": 2},
		{"PK": "player001", "SK": "ITEMS#ITEM002", "ItemCount": 1},
	} {
		av, err := attributevalue.MarshalMap(item)
		require.NoError(t, err)
		_, err = l.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("gaming"), Item: av})
		require.NoError(t, err)
	}
	// readme:begin
	meta := adjlist.NewEntity[PlayerMeta](table, "metadata", "{playerID}", "#METADATA#{playerID}")
	friends := adjlist.NewEntity[PlayerFriends](table, "friends", "{playerID}", "FRIENDS#{playerID}")
	items := adjlist.NewEntity[PlayerItem](table, "item", "{playerID}", "ITEMS#{itemID}")
	_ = friends
	// readme:end
	require.NoError(t, table.Check())
	its, err := items.List("player001").Collect(ctx)
	require.NoError(t, err)
	assert.Equal(t, []adjlist.EntityItem[PlayerItem]{
		{IDs: adjlist.IDs{"player001", "ITEM001"}, Data: PlayerItem{ItemCount: 2}},
		{IDs: adjlist.IDs{"player001", "ITEM002"}, Data: PlayerItem{ItemCount: 1}},
	}, its)
	var ms []adjlist.EntityItem[PlayerMeta]
	var fs []adjlist.EntityItem[PlayerFriends]
	var is []adjlist.EntityItem[PlayerItem]
	loaded, err := adjlist.Load(ctx, adjlist.AllTypes(items.List("player001")), meta.Into(&ms), friends.Into(&fs), items.Into(&is))
	require.NoError(t, err)
	assert.Zero(t, loaded.Other)
	assert.Equal(t, []int{1, 1, 2}, []int{len(ms), len(fs), len(is)}, "the whole profile, typed, in one Query")

	func() {
		// readme:begin
		// updateCharacterAttributes: SET Currency = Currency - :amount, only if Currency >= :amount
		m, err := meta.Update(ctx, adjlist.IDs{"player001"},
			adjlist.Update{}.SetTo("Currency", expression.Name("Currency").Minus(expression.Value(100))),
			adjlist.If(expression.Name("Currency").GreaterThanEqual(expression.Value(100))))
		_, _ = m, err
		// readme:end
		require.NoError(t, err)
		assert.Equal(t, PlayerMeta{Currency: 50}, m)
	}()
	_, err = meta.Update(ctx, adjlist.IDs{"player001"},
		adjlist.Update{}.SetTo("Currency", expression.Name("Currency").Minus(expression.Value(100))),
		adjlist.If(expression.Name("Currency").GreaterThanEqual(expression.Value(100))))
	require.ErrorIs(t, err, adjlist.ErrConditionFailed, "50 left: not enough")
	var ccf *types.ConditionalCheckFailedException
	require.ErrorAs(t, err, &ccf)
}
