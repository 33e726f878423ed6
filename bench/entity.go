package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"

	"github.com/adjlist/adjlist"
)

// The template-keyed set: two published single-table designs whose keys
// adjlist spells as the designs do (adjlist.Entity), done by each
// implementation.
//
// The AWS guide's social network, a user's follower:
//
//	PK = u#<userID>#follower   SK = u#<followerID>
//
// (the guide's follower item holds only its keys; here it carries two data
// attributes, name and since, as the enrolment edge does, so that decoding
// is part of the operation as in the other rows).
//
// The AWS guide's gaming profile, one partition per player holding every
// item type of the player; two of them here:
//
//	PK = <playerID>   SK = #METADATA#<playerID>   the player's profile
//	PK = <playerID>   SK = ITEMS#<itemID>         an item the player holds
//
// ('#' < 'I': the metadata item sorts first.)

// Follower is a follower item's data.
type Follower struct {
	Name  string `dynamodbav:"name" dynamo:"name"`
	Since string `dynamodbav:"since" dynamo:"since"`
}

// PlayerMeta is a player's metadata item's data (a subset of the guide's).
type PlayerMeta struct {
	Nickname    string `dynamodbav:"Nickname" dynamo:"Nickname"`
	Email       string `dynamodbav:"Email" dynamo:"Email"`
	PlayerLevel int    `dynamodbav:"PlayerLevel" dynamo:"PlayerLevel"`
	Currency    int    `dynamodbav:"Currency" dynamo:"Currency"`
}

// PlayerItem is the data of an item a player holds (a subset of the
// guide's).
type PlayerItem struct {
	ItemName  string `dynamodbav:"ItemName" dynamo:"ItemName"`
	ItemType  string `dynamodbav:"ItemType" dynamo:"ItemType"`
	ItemCount int    `dynamodbav:"ItemCount" dynamo:"ItemCount"`
}

// What every implementation returns for the set's reads: the library's
// own EntityItem, ids parsed from the keys, so results compare field by
// field.
type (
	FollowerItem = adjlist.EntityItem[Follower]
	MetaItem     = adjlist.EntityItem[PlayerMeta]
	InvItem      = adjlist.EntityItem[PlayerItem]
)

// Key spellings of the set, for the hand-written code.
const (
	userPrefix      = "u#"
	followerSuffix  = "#follower"
	playerMetaPrefx = "#METADATA#"
	playerItemPrefx = "ITEMS#"
)

// entityPatterns are the set's access patterns (part of Patterns).
type entityPatterns interface {
	// PutFollower creates a follower item with a PutItem guarded by
	// attribute_not_exists(PK).
	PutFollower(ctx context.Context, user, follower string, data Follower) error
	// GetFollower reads one follower item with GetItem.
	GetFollower(ctx context.Context, user, follower string) (Follower, error)
	// Followers lists a user's followers: Query PK = u#<user>#follower AND
	// begins_with(SK, u#), every page.
	Followers(ctx context.Context, user string) ([]FollowerItem, error)
	// LoadPlayer reads a player's partition, PK = <player> with no sort
	// key condition, every page, each item typed by its sort key: the
	// metadata item(s) and the held items.
	LoadPlayer(ctx context.Context, player string) ([]MetaItem, []InvItem, error)
}

// Fixtures of the set.
var (
	FixtureFollower   = Follower{Name: "Jane Doe", Since: "2026-03-14T09:00:00Z"}
	FixturePlayerMeta = PlayerMeta{Nickname: "Ayla", Email: "ayla@example.com", PlayerLevel: 7, Currency: 1000}
	FixturePlayerItem = PlayerItem{ItemName: "Mana Potion", ItemType: "Consumable", ItemCount: 3}
)

// FollowerID is the id of the i-th fixture follower; ItemID of the i-th
// fixture item a player holds.
func FollowerID(i int) string { return strconv.Itoa(20000 + i) }
func ItemID(i int) string     { return fmt.Sprintf("%03d", i+1) }

func followerJSON(user, follower string) map[string]av {
	return map[string]av{
		"PK": s(userPrefix + user + followerSuffix), "SK": s(userPrefix + follower),
		"name": s(FixtureFollower.Name), "since": s(FixtureFollower.Since),
	}
}

// GetFollowerBody is the GetItem response for user 12345's follower 34567.
func GetFollowerBody() []byte {
	b, err := json.Marshal(map[string]any{"Item": followerJSON("12345", "34567")})
	if err != nil {
		panic(err)
	}
	return b
}

// FollowersBody is the Query response listing k followers of user
// "12345".
func FollowersBody(k int) []byte {
	items := make([]map[string]av, k)
	for i := range items {
		items[i] = followerJSON("12345", FollowerID(i))
	}
	return queryBody(items)
}

// PlayerPartitionBody is the Query response for PK = player001: the
// metadata item, then k held items.
func PlayerPartitionBody(k int) []byte {
	const player = "player001"
	items := make([]map[string]av, 0, k+1)
	items = append(items, map[string]av{
		"PK": s(player), "SK": s(playerMetaPrefx + player),
		"Nickname": s(FixturePlayerMeta.Nickname), "Email": s(FixturePlayerMeta.Email),
		"PlayerLevel": n(FixturePlayerMeta.PlayerLevel), "Currency": n(FixturePlayerMeta.Currency),
	})
	for i := 0; i < k; i++ {
		items = append(items, map[string]av{
			"PK": s(player), "SK": s(playerItemPrefx + ItemID(i)),
			"ItemName": s(FixturePlayerItem.ItemName), "ItemType": s(FixturePlayerItem.ItemType),
			"ItemCount": n(FixturePlayerItem.ItemCount),
		})
	}
	return queryBody(items)
}

// adjEntities is the set declared with the library: one Table per design
// (each an existing table with PK/SK and no index, as the examples adopt
// them), on the same client.
type adjEntities struct {
	Followers   *adjlist.Entity[Follower]
	PlayerMeta  *adjlist.Entity[PlayerMeta]
	PlayerItems *adjlist.Entity[PlayerItem]
}

func newAdjEntities(client adjlist.Client, name string) adjEntities {
	noIndex := func(o *adjlist.Options) { o.NoIndex = true }
	social := adjlist.NewTable(client, name, noIndex)
	gaming := adjlist.NewTable(client, name, noIndex)
	return adjEntities{
		Followers:   adjlist.NewEntity[Follower](social, "follower", "u#{userID}#follower", "u#{followerID}"),
		PlayerMeta:  adjlist.NewEntity[PlayerMeta](gaming, "metadata", "{playerID}", "#METADATA#{playerID}"),
		PlayerItems: adjlist.NewEntity[PlayerItem](gaming, "item", "{playerID}", "ITEMS#{itemID}"),
	}
}

func (a *AdjList) PutFollower(ctx context.Context, user, follower string, data Follower) error {
	return a.Entities.Followers.Put(ctx, adjlist.IDs{user, follower}, data)
}

func (a *AdjList) GetFollower(ctx context.Context, user, follower string) (Follower, error) {
	return a.Entities.Followers.Get(ctx, adjlist.IDs{user, follower})
}

func (a *AdjList) Followers(ctx context.Context, user string) ([]FollowerItem, error) {
	return a.Entities.Followers.List(user).Collect(ctx)
}

func (a *AdjList) LoadPlayer(ctx context.Context, player string) ([]MetaItem, []InvItem, error) {
	var (
		meta  []MetaItem
		items []InvItem
	)
	e := a.Entities
	_, err := adjlist.Load(ctx, adjlist.AllTypes(e.PlayerItems.List(player)), e.PlayerMeta.Into(&meta), e.PlayerItems.Into(&items))
	return meta, items, err
}

// The floor, as the enrolment set's: literal maps and expressions,
// attributevalue.UnmarshalMap per item, ids cut from the keys by prefix,
// nothing validated or escaped.

func (s *SDK) PutFollower(ctx context.Context, user, follower string, data Follower) error {
	_, err := s.Client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String(s.Name),
		Item: map[string]types.AttributeValue{
			"PK":    &types.AttributeValueMemberS{Value: userPrefix + user + followerSuffix},
			"SK":    &types.AttributeValueMemberS{Value: userPrefix + follower},
			"name":  &types.AttributeValueMemberS{Value: data.Name},
			"since": &types.AttributeValueMemberS{Value: data.Since},
		},
		ConditionExpression:                 aws.String("attribute_not_exists(PK)"),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	})
	return err
}

func (s *SDK) GetFollower(ctx context.Context, user, follower string) (Follower, error) {
	out, err := s.Client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(s.Name),
		Key: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: userPrefix + user + followerSuffix},
			"SK": &types.AttributeValueMemberS{Value: userPrefix + follower},
		},
	})
	if err != nil {
		return Follower{}, err
	}
	if out.Item == nil {
		return Follower{}, errNotFound
	}
	var f Follower
	return f, attributevalue.UnmarshalMap(out.Item, &f)
}

func (s *SDK) Followers(ctx context.Context, user string) ([]FollowerItem, error) {
	var followers []FollowerItem
	err := s.query(ctx, &dynamodb.QueryInput{
		TableName:              aws.String(s.Name),
		KeyConditionExpression: aws.String("PK = :pk AND begins_with(SK, :sk)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": &types.AttributeValueMemberS{Value: userPrefix + user + followerSuffix},
			":sk": &types.AttributeValueMemberS{Value: userPrefix},
		},
	}, func(n int) { followers = slices.Grow(followers, n) }, func(item map[string]types.AttributeValue) error {
		f := FollowerItem{IDs: adjlist.IDs{user, strings.TrimPrefix(str(item, "SK"), userPrefix)}}
		if err := attributevalue.UnmarshalMap(item, &f.Data); err != nil {
			return err
		}
		followers = append(followers, f)
		return nil
	})
	return followers, err
}

func (s *SDK) LoadPlayer(ctx context.Context, player string) ([]MetaItem, []InvItem, error) {
	var (
		meta  []MetaItem
		items []InvItem
	)
	err := s.query(ctx, &dynamodb.QueryInput{
		TableName:              aws.String(s.Name),
		KeyConditionExpression: aws.String("PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": &types.AttributeValueMemberS{Value: player},
		},
	}, func(n int) { items = slices.Grow(items, n) }, func(item map[string]types.AttributeValue) error {
		sk := str(item, "SK")
		switch {
		case strings.HasPrefix(sk, playerMetaPrefx):
			m := MetaItem{IDs: adjlist.IDs{player}}
			if err := attributevalue.UnmarshalMap(item, &m.Data); err != nil {
				return err
			}
			meta = append(meta, m)
		case strings.HasPrefix(sk, playerItemPrefx):
			it := InvItem{IDs: adjlist.IDs{player, sk[len(playerItemPrefx):]}}
			if err := attributevalue.UnmarshalMap(item, &it.Data); err != nil {
				return err
			}
			items = append(items, it)
		}
		return nil
	})
	return meta, items, err
}

// guregu, as its README models items: one struct per item shape, keys
// included; a partition of several shapes read into one struct embedding
// them all.

type gFollower struct {
	PK    string `dynamo:"PK"`
	SK    string `dynamo:"SK"`
	Name  string `dynamo:"name"`
	Since string `dynamo:"since"`
}

// gPlayerPartition is any item of a player's partition.
type gPlayerPartition struct {
	SK string `dynamo:"SK"`
	PlayerMeta
	PlayerItem
}

func (g *Guregu) PutFollower(ctx context.Context, user, follower string, data Follower) error {
	return g.Table.Put(gFollower{
		PK: userPrefix + user + followerSuffix, SK: userPrefix + follower,
		Name: data.Name, Since: data.Since,
	}).If("attribute_not_exists(PK)").Run(ctx)
}

func (g *Guregu) GetFollower(ctx context.Context, user, follower string) (Follower, error) {
	var r gFollower
	err := g.Table.Get("PK", userPrefix+user+followerSuffix).Range("SK", dynamo.Equal, userPrefix+follower).One(ctx, &r)
	if err != nil {
		return Follower{}, err
	}
	return Follower{Name: r.Name, Since: r.Since}, nil
}

func (g *Guregu) Followers(ctx context.Context, user string) ([]FollowerItem, error) {
	var recs []gFollower
	err := g.Table.Get("PK", userPrefix+user+followerSuffix).Range("SK", dynamo.BeginsWith, userPrefix).All(ctx, &recs)
	followers := make([]FollowerItem, len(recs))
	for i := range recs {
		followers[i] = FollowerItem{
			IDs:  adjlist.IDs{user, strings.TrimPrefix(recs[i].SK, userPrefix)},
			Data: Follower{Name: recs[i].Name, Since: recs[i].Since},
		}
	}
	return followers, err
}

func (g *Guregu) LoadPlayer(ctx context.Context, player string) ([]MetaItem, []InvItem, error) {
	var recs []gPlayerPartition
	if err := g.Table.Get("PK", player).All(ctx, &recs); err != nil {
		return nil, nil, err
	}
	var (
		meta  []MetaItem
		items []InvItem
	)
	for i := range recs {
		switch r := &recs[i]; {
		case strings.HasPrefix(r.SK, playerMetaPrefx):
			meta = append(meta, MetaItem{IDs: adjlist.IDs{player}, Data: r.PlayerMeta})
		case strings.HasPrefix(r.SK, playerItemPrefx):
			items = append(items, InvItem{IDs: adjlist.IDs{player, r.SK[len(playerItemPrefx):]}, Data: r.PlayerItem})
		}
	}
	return meta, items, nil
}
