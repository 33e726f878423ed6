package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
	"github.com/adjlist/adjlist/examples/internal/exampleutil/exampletest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// item is one item of player001: its sort key and the names of its other
// attributes.
func item(sk string, attrs ...string) exampleutil.Shape {
	return exampletest.Item(map[string]string{"PK": "player001", "SK": sk}, attrs...)
}

// playerTable is what every run leaves: the guide's sample player, keyed
// as the SDK wrote them, and the Mana Potion adjlist created in the
// purchase, with the same attributes as the other items.
func playerTable() exampletest.Seed {
	metadata := []string{"Type", "CreatedAt", "UpdatedAt", "Nickname", "Email", "Gender", "Avatar", "Currency", "PlayerLevel", "PlayerHealth", "PlayerExperience"}
	items := []exampleutil.Shape{item("#METADATA#player001", metadata...), item("FRIENDS#player001", "Type", "FriendList")}
	for _, id := range []string{"001", "002", "003", "004"} {
		items = append(items, item("ITEMS#"+id, "Type", "ItemName", "ItemType", "ItemCount", "ItemAttributes"))
	}
	for _, id := range []string{"001", "002", "003"} {
		items = append(items,
			item("EQUIPMENTS#"+id, "Type", "EquipmentName", "EquipmentType", "EquipmentAttributes"),
			item("TASK#"+id, "Type", "TaskName", "TaskDescription", "TaskStatus", "TaskReward"),
			item("ACTIVITY#"+id, "Type", "ActivityName", "ActivityType", "ActivityStartTime", "ActivityEndTime", "ActivityReward"))
	}
	return exampletest.Seed{KeyAttrs: []string{"PK", "SK"}, Items: items}
}

// runOutput is everything a run prints after its first line, which says
// whether it created the table; %[1]s is the table name.
const runOutput = `14 items of player001 written with dynamodb.PutItem, the guide's sample

getPlayerFriends: GetItem PK = "player001", SK = "FRIENDS#player001"
  player002  Alice
  player003  Bob
  [1 request]

getPlayerAllProfile: Query PK = "player001", six item types
  metadata   John <john@example.com>, male, level 10, health 80, experience 1000, currency 500, since 2021-04-15
  friends    Alice, Bob
  item       001  Health Potion x5 (Consumable; HP=50)
  item       002  Armor of the Knight x1 (Armor; DEF=100)
  item       003  Sword of the Dragon x1 (Weapon; ATK=100, DEF=50)
  equipment  001  Sword of the Dragon (Weapon; ATK=100, DEF=50)
  equipment  002  Armor of the Knight (Armor; DEF=100)
  equipment  003  Ring of the Mage (Accessory; SP=50)
  task       001  Find the Lost Treasure: InProgress (Gold=100, XP=50)
  task       002  Defeat Magic Monsters: Completed (Gold=200, XP=100)
  task       003  Rescue the Princess: Available (Gold=500, XP=200)
  activity   001  Hunting Trip on 2022-03-16 (Gold=50, XP=200)
  activity   002  Mining Adventure on 2022-03-18 (Gold=1000, XP=500)
  activity   003  Arena Challenge on 2022-03-20 (Gold=2000, XP=1000)
  [1 request, 14 items read, 14 returned]

getPlayerAllItems: Query PK = "player001" AND begins_with(SK, "ITEMS#")
  001  Health Potion        Consumable x5  HP=50
  002  Armor of the Knight  Armor      x1  DEF=100
  003  Sword of the Dragon  Weapon     x1  ATK=100, DEF=50
  [1 request, 3 items read, 3 returned]

getPlayerSpecificItem: the same Query, filter ItemType = "Weapon"
  003  Sword of the Dragon  Weapon     x1  ATK=100, DEF=50
  [1 request, 3 items read, 1 returned]

one item by its sort key: Query PK = "player001" AND SK = "ITEMS#002" (Query.Equal)
  002  Armor of the Knight  Armor      x1  DEF=100
  [1 request, 1 item read, 1 returned]

updateCharacterAttributes: SET Currency = Currency - :amount, if Currency >= :amount
  spend 100: Currency 400
  spend 1000: refused (condition failed), Currency still 400
  [2 requests]

updateItemCount: SET ItemCount = ItemCount - :incr
  use a Health Potion: 4 left
  [1 request]

purchase: one TransactWriteItems, Currency down and the item created, or neither
  buy a Mana Potion for 50: ITEMS#004 created
  buy a Dragon Shield for 10000: refused (condition failed), ITEMS#005 not created
  [2 requests]

player001 now: Currency 350; Health Potion x4, Armor of the Knight x1, Sword of the Dragon x1, Mana Potion x1

table %[1]s (a raw Scan):
  player001  #METADATA#player001  Metadata
  player001  ACTIVITY#001         Activity
  player001  ACTIVITY#002         Activity
  player001  ACTIVITY#003         Activity
  player001  EQUIPMENTS#001       Equipment
  player001  EQUIPMENTS#002       Equipment
  player001  EQUIPMENTS#003       Equipment
  player001  FRIENDS#player001    Friends
  player001  ITEMS#001            Item
  player001  ITEMS#002            Item
  player001  ITEMS#003            Item
  player001  ITEMS#004            Item
  player001  TASK#001             Task
  player001  TASK#002             Task
  player001  TASK#003             Task
`

// TestRunAdoptsTheTable: the first run creates the table with the SDK,
// the second finds it; both write the sample again and print exactly the
// same results, and leave exactly the same items.
func TestRunAdoptsTheTable(t *testing.T) {
	exampletest.RunTwice(t, example, playerTable(), func(run int, out string) {
		first, rest, _ := strings.Cut(out, "\n")
		table := strings.Fields(first)[1]
		if run == 0 {
			assert.Equal(t, "table "+table+" created with dynamodb.CreateTable: PK (S), SK (S), on demand, no index", first)
		} else {
			assert.Equal(t, "table "+table+" exists already, keyed PK, SK as the model", first)
		}
		assert.Equal(t, fmt.Sprintf(runOutput, table), rest, "run %d", run)
	})
}

func TestRunCleanup(t *testing.T) { exampletest.CleanupDeletesTable(t, example) }

// TestVerify: the items the run leaves all fit the model it declares
// (go run ./examples/gamingprofile -verify).
func TestVerify(t *testing.T) { exampletest.VerifyClean(t, example) }

// existing is a fresh table holding the sample as the existing
// application writes it, and the model over it on a client that records
// every request the model sends.
func existing(t *testing.T) (*dynamodb.Client, model, *exampletest.Recorder) {
	t.Helper()
	db := ddbtest.Client(t)
	table := ddbtest.TableName(t)
	t.Cleanup(func() { require.NoError(t, exampleutil.DeleteTable(context.Background(), db, table)) })
	rec := exampletest.NewRecorder(db)
	m := newModel(rec, table)
	created, err := createExisting(context.Background(), db, table)
	require.NoError(t, err)
	require.True(t, created)
	require.NoError(t, checkKeys(context.Background(), db, m.table))
	require.NoError(t, writeExisting(context.Background(), db, table))
	require.Empty(t, rec.Take(), "the existing data is written without adjlist")
	return db, m, rec
}

// The guide's sample, as the model reads it.
var (
	wantMetadata = Metadata{Type: "Metadata", CreatedAt: 1618500000, UpdatedAt: 1620000000, Nickname: "John", Email: "john@example.com",
		Gender: "male", Avatar: "s3://gaming-blki65wn3bgc-lob-avatar/player001.png", Currency: 500, PlayerLevel: 10, PlayerHealth: 80, PlayerExperience: 1000}
	wantFriends = Friends{Type: "Friends", FriendList: []Friend{{FriendID: "player002", FriendName: "Alice"}, {FriendID: "player003", FriendName: "Bob"}}}
	wantItems   = []adjlist.EntityItem[Item]{
		{IDs: adjlist.IDs{"player001", "001"}, Data: Item{Type: "Item", ItemName: "Health Potion", ItemType: "Consumable", ItemCount: 5, ItemAttributes: map[string]int{"HP": 50}}},
		{IDs: adjlist.IDs{"player001", "002"}, Data: Item{Type: "Item", ItemName: "Armor of the Knight", ItemType: "Armor", ItemCount: 1, ItemAttributes: map[string]int{"DEF": 100}}},
		{IDs: adjlist.IDs{"player001", "003"}, Data: Item{Type: "Item", ItemName: "Sword of the Dragon", ItemType: "Weapon", ItemCount: 1, ItemAttributes: map[string]int{"ATK": 100, "DEF": 50}}},
	}
	wantProfile = Profile{
		Metadata: adjlist.EntityItem[Metadata]{IDs: adjlist.IDs{"player001"}, Data: wantMetadata},
		Friends:  adjlist.EntityItem[Friends]{IDs: adjlist.IDs{"player001"}, Data: wantFriends},
		Items:    wantItems,
		Equipment: []adjlist.EntityItem[Equipment]{
			{IDs: adjlist.IDs{"player001", "001"}, Data: Equipment{Type: "Equipment", EquipmentName: "Sword of the Dragon", EquipmentType: "Weapon", EquipmentAttributes: map[string]int{"ATK": 100, "DEF": 50}}},
			{IDs: adjlist.IDs{"player001", "002"}, Data: Equipment{Type: "Equipment", EquipmentName: "Armor of the Knight", EquipmentType: "Armor", EquipmentAttributes: map[string]int{"DEF": 100}}},
			{IDs: adjlist.IDs{"player001", "003"}, Data: Equipment{Type: "Equipment", EquipmentName: "Ring of the Mage", EquipmentType: "Accessory", EquipmentAttributes: map[string]int{"SP": 50}}},
		},
		Tasks: []adjlist.EntityItem[Task]{
			{IDs: adjlist.IDs{"player001", "001"}, Data: Task{Type: "Task", TaskName: "Find the Lost Treasure",
				TaskDescription: "Get clues from a lost adventurer and find the lost treasure.", TaskStatus: "InProgress", TaskReward: map[string]int{"Gold": 100, "XP": 50}}},
			{IDs: adjlist.IDs{"player001", "002"}, Data: Task{Type: "Task", TaskName: "Defeat Magic Monsters",
				TaskDescription: "Go to the Magic Forest and defeat three magic monsters.", TaskStatus: "Completed", TaskReward: map[string]int{"Gold": 200, "XP": 100}}},
			{IDs: adjlist.IDs{"player001", "003"}, Data: Task{Type: "Task", TaskName: "Rescue the Princess",
				TaskDescription: "Go to the Demon King's Castle and rescue the princess who is being held captive by the Demon King.", TaskStatus: "Available", TaskReward: map[string]int{"Gold": 500, "XP": 200}}},
		},
		Activities: []adjlist.EntityItem[Activity]{
			{IDs: adjlist.IDs{"player001", "001"}, Data: Activity{Type: "Activity", ActivityName: "Hunting Trip", ActivityType: "Hunting",
				ActivityStartTime: 1647388800, ActivityEndTime: 1647475199, ActivityReward: map[string]int{"Gold": 50, "XP": 200}}},
			{IDs: adjlist.IDs{"player001", "002"}, Data: Activity{Type: "Activity", ActivityName: "Mining Adventure", ActivityType: "Mining",
				ActivityStartTime: 1647561600, ActivityEndTime: 1647647999, ActivityReward: map[string]int{"Gold": 1000, "XP": 500}}},
			{IDs: adjlist.IDs{"player001", "003"}, Data: Activity{Type: "Activity", ActivityName: "Arena Challenge", ActivityType: "Arena",
				ActivityStartTime: 1647734400, ActivityEndTime: 1647820799, ActivityReward: map[string]int{"Gold": 2000, "XP": 1000}}},
		},
	}
)

// TestReads: each read access pattern returns exactly the sample's items,
// typed, with the one request the guide's table gives it.
func TestReads(t *testing.T) {
	_, m, rec := existing(t)
	ctx := context.Background()

	t.Run("getPlayerFriends", func(t *testing.T) {
		f, err := getPlayerFriends(ctx, m, "player001")
		require.NoError(t, err)
		assert.Equal(t, wantFriends, f)
		assert.Equal(t, []string{`GetItem PK="player001" SK="FRIENDS#player001"`}, rec.Take())
	})
	t.Run("getPlayerAllProfile", func(t *testing.T) {
		p, err := getPlayerAllProfile(ctx, m, "player001")
		require.NoError(t, err)
		assert.Equal(t, wantProfile, p)
		assert.Equal(t, []string{`Query PK = "player001"`}, rec.Take(), "six item types in one Query")
	})
	t.Run("getPlayerAllItems", func(t *testing.T) {
		items, err := getPlayerAllItems(ctx, m, "player001")
		require.NoError(t, err)
		assert.Equal(t, wantItems, items)
		assert.Equal(t, []string{`Query (PK = "player001") AND (begins_with (SK, "ITEMS#"))`}, rec.Take())
	})
	t.Run("getPlayerSpecificItem", func(t *testing.T) {
		items, err := getPlayerSpecificItem(ctx, m, "player001", "Weapon")
		require.NoError(t, err)
		assert.Equal(t, wantItems[2:], items)
		assert.Equal(t, []string{`Query (PK = "player001") AND (begins_with (SK, "ITEMS#")) FILTER ItemType = "Weapon"`}, rec.Take())
	})
	t.Run("one item by its sort key", func(t *testing.T) {
		items, err := m.items.List("player001").Equal("002").Collect(ctx)
		require.NoError(t, err)
		assert.Equal(t, wantItems[1:2], items)
		assert.Equal(t, []string{`Query (PK = "player001") AND (SK = "ITEMS#002")`}, rec.Take())
	})
	t.Run("a player with no items", func(t *testing.T) {
		_, err := getPlayerAllProfile(ctx, m, "player404")
		require.ErrorIs(t, err, adjlist.ErrNotFound)
		assert.Equal(t, []string{`Query PK = "player404"`}, rec.Take())
	})
}

// TestUpdates: the guide's two UpdateItems and the purchase transaction,
// each one request, with the items stored afterwards.
func TestUpdates(t *testing.T) {
	db, m, rec := existing(t)
	ctx := context.Background()
	stored := func(sk string) map[string]types.AttributeValue {
		t.Helper()
		out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(m.table.Name()), ConsistentRead: aws.Bool(true),
			Key: map[string]types.AttributeValue{"PK": s("player001"), "SK": s(sk)}})
		require.NoError(t, err)
		return out.Item
	}
	const spendUpdate = `UpdateItem PK="player001" SK="#METADATA#player001" SET Currency = Currency - %d IF (attribute_exists (PK)) AND (Currency >= %d)`

	t.Run("updateCharacterAttributes", func(t *testing.T) {
		meta, err := updateCharacterAttributes(ctx, m, "player001", 100)
		require.NoError(t, err)
		want := wantMetadata
		want.Currency = 400
		assert.Equal(t, want, meta, "the item as stored afterwards")
		assert.Equal(t, []string{fmt.Sprintf(spendUpdate, 100, 100)}, rec.Take())

		// Short of the amount: refused, nothing changed.
		_, err = updateCharacterAttributes(ctx, m, "player001", 1000)
		require.ErrorIs(t, err, adjlist.ErrConditionFailed)
		assert.Equal(t, []string{fmt.Sprintf(spendUpdate, 1000, 1000)}, rec.Take())
		assert.Equal(t, n("400"), stored("#METADATA#player001")["Currency"])

		_, err = updateCharacterAttributes(ctx, m, "player404", 1)
		require.ErrorIs(t, err, adjlist.ErrNotFound, "no item is created by an update")
		assert.Len(t, rec.Take(), 1)
		assert.Nil(t, stored("#METADATA#player404"))
	})
	t.Run("updateItemCount", func(t *testing.T) {
		it, err := updateItemCount(ctx, m, "player001", "001", 1)
		require.NoError(t, err)
		want := wantItems[0].Data
		want.ItemCount = 4
		assert.Equal(t, want, it)
		assert.Equal(t, []string{`UpdateItem PK="player001" SK="ITEMS#001" SET ItemCount = ItemCount - 1 IF attribute_exists (PK)`}, rec.Take())
	})
	t.Run("purchase", func(t *testing.T) {
		currency := stored("#METADATA#player001")["Currency"].(*types.AttributeValueMemberN).Value
		before, err := strconv.Atoi(currency)
		require.NoError(t, err)
		rec.Take()

		require.NoError(t, purchase(ctx, m, "player001", "004", manaPotion, 50))
		assert.Equal(t, []string{`TransactWriteItems` +
			` [Update PK="player001" SK="#METADATA#player001" SET Currency = Currency - 50 IF (attribute_exists (PK)) AND (Currency >= 50)]` +
			` [Put PK="player001" SK="ITEMS#004" IF attribute_not_exists (PK)]`}, rec.Take())
		assert.Equal(t, n(strconv.Itoa(before-50)), stored("#METADATA#player001")["Currency"])
		// The item adjlist created is spelled as the SDK-written ones:
		// the design's keys and the data, nothing else.
		assert.Equal(t, map[string]types.AttributeValue{
			"PK": s("player001"), "SK": s("ITEMS#004"), "Type": s("Item"), "ItemName": s("Mana Potion"),
			"ItemType": s("Consumable"), "ItemCount": n("1"), "ItemAttributes": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"MP": n("50")}},
		}, stored("ITEMS#004"))

		// Too dear: the transaction is cancelled, the item not created
		// and the currency not taken.
		err = purchase(ctx, m, "player001", "005", manaPotion, 10000)
		require.ErrorIs(t, err, adjlist.ErrConditionFailed)
		assert.Len(t, rec.Take(), 1)
		assert.Nil(t, stored("ITEMS#005"))
		assert.Equal(t, n(strconv.Itoa(before-50)), stored("#METADATA#player001")["Currency"])

		// The same item id twice: the guarded create refuses, and the
		// currency is not taken either.
		err = purchase(ctx, m, "player001", "004", manaPotion, 50)
		require.ErrorIs(t, err, adjlist.ErrExists)
		assert.Len(t, rec.Take(), 1)
		assert.Equal(t, n(strconv.Itoa(before-50)), stored("#METADATA#player001")["Currency"])
	})
}

// TestEveryItemAdopted: every item the existing application wrote is of
// exactly one of the model's item types, its ids parse from its keys, and
// its data decodes without loss: marshalled back with its keys, it is the
// stored item.
func TestEveryItemAdopted(t *testing.T) {
	db, m, _ := existing(t)
	out, err := db.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(m.table.Name())})
	require.NoError(t, err)
	require.Len(t, out.Items, len(sample))
	decoders := map[string]func(adjlist.Item) (decoded, bool, error){
		"metadata":  decoder(m.metadata),
		"friends":   decoder(m.friends),
		"item":      decoder(m.items),
		"equipment": decoder(m.equipment),
		"task":      decoder(m.tasks),
		"activity":  decoder(m.activities),
	}
	for _, raw := range out.Items {
		sk := raw["SK"].(*types.AttributeValueMemberS).Value
		var kinds []string
		for name, decode := range decoders {
			d, ok, err := decode(maps.Clone(raw))
			if !ok {
				continue
			}
			kinds = append(kinds, name)
			require.NoError(t, err, sk)
			again, err := attributevalue.MarshalMap(d.data)
			require.NoError(t, err)
			again["PK"], again["SK"] = raw["PK"], raw["SK"]
			assert.Equal(t, raw, again, "%s decodes without loss", sk)
			_, id, _ := strings.Cut(sk, "#")
			if name == "metadata" || name == "friends" {
				id = ""
			}
			assert.Equal(t, slicesOf("player001", id), d.ids, sk)
		}
		assert.Len(t, kinds, 1, "%s is of one item type: %v", sk, kinds)
	}
}

// decoded is an item an entity decoded: its ids and its data.
type decoded struct {
	ids  adjlist.IDs
	data any
}

// decoder is e.Decode with the data as any.
func decoder[T any](e *adjlist.Entity[T]) func(adjlist.Item) (decoded, bool, error) {
	return func(item adjlist.Item) (decoded, bool, error) {
		v, ok, err := e.Decode(item)
		return decoded{v.IDs, v.Data}, ok, err
	}
}

// slicesOf is the ids given, leaving out "".
func slicesOf(ids ...string) adjlist.IDs {
	var out adjlist.IDs
	for _, id := range ids {
		if id != "" {
			out = append(out, id)
		}
	}
	return out
}

// TestAdoptRefusesOtherKeys: a run on a table keyed otherwise than the
// model fails before it writes anything.
func TestAdoptRefusesOtherKeys(t *testing.T) {
	db := ddbtest.Client(t)
	other := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.NoIndex, o.PartitionKey, o.SortKey = true, "pk", "sk"
	})
	ddbtest.CreateTable(t, other)
	err := example.Run(context.Background(), db, other.Name(), false, io.Discard)
	require.ErrorContains(t, err, "is keyed [pk HASH sk RANGE], the model [PK HASH SK RANGE]")
	out, err := db.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(other.Name())})
	require.NoError(t, err)
	assert.Empty(t, out.Items)
}

// TestProfileCountsUnmodelledItems: an item of the player's that no
// entity declares is counted, not decoded and not an error.
func TestProfileCountsUnmodelledItems(t *testing.T) {
	db, m, rec := existing(t)
	_, err := db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(m.table.Name()),
		Item: map[string]types.AttributeValue{"PK": s("player001"), "SK": s("GUILD#007"), "Type": s("Guild")}})
	require.NoError(t, err)
	p, err := getPlayerAllProfile(context.Background(), m, "player001")
	require.NoError(t, err)
	want := wantProfile
	want.Unmodelled = 1
	assert.Equal(t, want, p)
	assert.Len(t, rec.Take(), 1)
}

func TestDescribe(t *testing.T) {
	out := exampletest.Describe(t, example)
	exampletest.ContainsAll(t, out,
		"### Table `adjlist-gamingprofile`",
		"| item | PK | SK | attributes |",
		"| entity metadata | `<playerID>` | `#METADATA#<playerID>` | Type, CreatedAt, UpdatedAt, Nickname, Email, Gender, Avatar, Currency, PlayerLevel, PlayerHealth, PlayerExperience |",
		"| entity friends | `<playerID>` | `FRIENDS#<playerID>` | Type, FriendList |",
		"| entity item | `<playerID>` | `ITEMS#<itemID>` | Type, ItemName, ItemType, ItemCount, ItemAttributes |",
		"| entity equipment | `<playerID>` | `EQUIPMENTS#<equipID>` | Type, EquipmentName, EquipmentType, EquipmentAttributes |",
		"| entity task | `<playerID>` | `TASK#<taskID>` | Type, TaskName, TaskDescription, TaskStatus, TaskReward |",
		"| entity activity | `<playerID>` | `ACTIVITY#<activityID>` | Type, ActivityName, ActivityType, ActivityStartTime, ActivityEndTime, ActivityReward |",
		"| one friends item | `Entity.Get` | GetItem | `PK = \"<playerID>\" AND SK = \"FRIENDS#<playerID>\"` | table |",
		"| getPlayerAllProfile | `AllTypes(Entity.List(id))` | Query | `PK = \"<playerID>\"` | table |",
		"| getPlayerAllItems | `Entity.List(id)` | Query | `(PK = \"<playerID>\") AND (begins_with (SK, \"ITEMS#\"))` | table |",
		"| getPlayerSpecificItem | `Entity.List(id).Filter(cond)` | Query | `(PK = \"<playerID>\") AND (begins_with (SK, \"ITEMS#\")); filter ItemType = \"<itemType>\"` | table |",
	)
	assert.NotContains(t, out, "Index `", "the design has no secondary index")
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
