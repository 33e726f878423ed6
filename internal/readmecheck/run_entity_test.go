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
func TestReadmeSocialNetwork(t *testing.T) { require.NoError(t, readmeSocialNetwork(t)) }

// readmeSocialNetwork is TestReadmeSocialNetwork's body: its README blocks return their errors.
func readmeSocialNetwork(t *testing.T) error {
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
	pk, sk, keyErr := followers.Key("12345", "34567")
	require.NoError(t, keyErr)
	assert.Equal(t, [2]string{"u#12345#follower", "u#34567"}, [2]string{pk, sk}, "ids in the order userID, followerID")
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
	if err != nil {
		return err
	}

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
	followers.Put(ctx, adjlist.IDs{"12345", "34567"}, Relation{}, adjlist.InTx(tx))
	following.Put(ctx, adjlist.IDs{"34567", "12345"}, Relation{}, adjlist.InTx(tx))
	userCounts.Update(ctx, adjlist.IDs{"12345"}, adjlist.Update{}.Add("follower#", 1), adjlist.InTx(tx))
	userCounts.Update(ctx, adjlist.IDs{"34567"}, adjlist.Update{}.Add("following#", 1), adjlist.InTx(tx))
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
	followers.Put(ctx, adjlist.IDs{"12345", "34567"}, Relation{}, adjlist.InTx(tx))
	userCounts.Update(ctx, adjlist.IDs{"12345"}, adjlist.Update{}.Add("follower#", 1), adjlist.InTx(tx))
	require.ErrorIs(t, tx.Commit(ctx), adjlist.ErrExists)
	c, err = userCounts.Get(ctx, adjlist.IDs{"12345"})
	require.NoError(t, err)
	assert.Equal(t, 3, c.Followers, "all or nothing")
	return nil
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
	other, err := adjlist.Load(ctx, adjlist.AllTypes(items.List("player001")), meta.Into(&ms), friends.Into(&fs), items.Into(&is))
	require.NoError(t, err)
	assert.Zero(t, other)
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

// Key fields that are attributes too: written from the data alone, the
// one kept only in the partition key left out, read back from the keys.
func TestReadmeKeyFieldsAreAttributes(t *testing.T) {
	require.NoError(t, readmeKeyFieldsAreAttributes(t))
}

// readmeKeyFieldsAreAttributes is TestReadmeKeyFieldsAreAttributes's body: its README blocks return their errors.
func readmeKeyFieldsAreAttributes(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "complaints")
	client, ctx := l.client, t.Context()
	table := adjlist.NewTable(client, "complaints", func(o *adjlist.Options) { o.NoIndex = true })
	// readme:begin
	complaints := adjlist.NewEntity[Complaint](table, "complaint", "{complaint_id}", "metadata")
	comms := adjlist.NewEntity[Comm](table, "comm", "{complaint_id}", "comm#{comm_date}#{comm_id}",
		func(o *adjlist.EntityOptions) { o.KeyOnly = []string{"complaint_id"} })
	// readme:end
	require.NoError(t, table.Check())
	l.create(t, table)
	// readme:continue

	// PK = "Complaint123", SK = "comm#2023-04-30T12:00:24#comm1",
	// comm_id, comm_date, comm_text: the design's item, no complaint_id
	err := comms.Put(ctx, nil, Comm{ComplaintID: "Complaint123", CommID: "comm1",
		CommDate: "2023-04-30T12:00:24", Text: "<comm text>"})
	if err != nil {
		return err
	}

	// PK = "Complaint123", SK = "metadata", complaint_id = "Complaint123"
	err = complaints.Put(ctx, nil, Complaint{ComplaintID: "Complaint123", Severity: "P2"})
	if err != nil {
		return err
	}

	// ids still name items to read: the value comes back in c.ComplaintID
	c, err := complaints.Get(ctx, adjlist.IDs{"Complaint123"})
	if err != nil {
		return err
	}
	_ = c
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, Complaint{ComplaintID: "Complaint123", Severity: "P2"}, c)
	raw := func(sk string) map[string]any {
		out, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("complaints"),
			Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "Complaint123"}, "SK": &types.AttributeValueMemberS{Value: sk}}})
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, attributevalue.UnmarshalMap(out.Item, &m))
		return m
	}
	assert.Equal(t, map[string]any{"PK": "Complaint123", "SK": "comm#2023-04-30T12:00:24#comm1",
		"comm_id": "comm1", "comm_date": "2023-04-30T12:00:24", "comm_text": "<comm text>"}, raw("comm#2023-04-30T12:00:24#comm1"))
	assert.Equal(t, map[string]any{"PK": "Complaint123", "SK": "metadata", "complaint_id": "Complaint123", "severity": "P2"}, raw("metadata"))
	got, err := comms.List("Complaint123").Collect(ctx)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, "Complaint123", got[0].Data.ComplaintID)

	before := l.requests.Load()
	err = complaints.Put(ctx, adjlist.IDs{"Complaint9"}, Complaint{ComplaintID: "Complaint123"})
	require.ErrorIs(t, err, adjlist.ErrInvalidKey)
	var ke *adjlist.KeyError
	require.ErrorAs(t, err, &ke)
	_, err = complaints.Update(ctx, adjlist.IDs{"Complaint123"}, adjlist.Set("complaint_id", "x"))
	require.ErrorIs(t, err, adjlist.ErrKeyAttribute)
	assert.Equal(t, before, l.requests.Load(), "refused before any request")
	return nil
}
