// Command gamingprofile is the AWS DynamoDB Developer Guide's "Gaming
// profile schema design"
// (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/data-modeling-schema-gaming-profile.html)
// served by adjlist over a table that adjlist did not create: the design's
// own key spellings, adopted as they are.
//
// One player is one item collection: the partition key is the bare player
// id and the sort key's prefix tells the item types apart. Every item also
// carries a Type attribute, kept as data.
//
//	PK          SK                     Type        attributes
//	player001   #METADATA#player001    Metadata    CreatedAt, UpdatedAt, Nickname, Email, Gender, Avatar, Currency, PlayerLevel, PlayerHealth, PlayerExperience
//	player001   ACTIVITY#001           Activity    ActivityName, ActivityType, ActivityStartTime, ActivityEndTime, ActivityReward
//	player001   EQUIPMENTS#001         Equipment   EquipmentName, EquipmentType, EquipmentAttributes
//	player001   FRIENDS#player001      Friends     FriendList
//	player001   ITEMS#001              Item        ItemName, ItemType, ItemCount, ItemAttributes
//	player001   TASK#001               Task        TaskName, TaskDescription, TaskStatus, TaskReward
//
// The table has no secondary index. The run first plays the existing
// application: it creates the table with dynamodb.CreateTable and writes
// the guide's sample player (the items of the aws-samples model
// GamePlayerProfilesSchema.json, its typos corrected and its numbers
// stored as numbers) with dynamodb.PutItem. Then it declares the adjlist
// model over that table, one adjlist.Entity per item type, and serves the
// guide's access patterns, each with one call and one request:
//
//	getPlayerFriends            GetItem  PK = player001, SK = FRIENDS#player001
//	getPlayerAllProfile         Query    PK = player001 (six item types, each typed)
//	getPlayerAllItems           Query    PK = player001 AND begins_with(SK, "ITEMS#")
//	getPlayerSpecificItem       Query    the same, filter ItemType = "Weapon"
//	updateCharacterAttributes   UpdateItem SET Currency = Currency - :amount, if Currency >= :amount
//	updateItemCount             UpdateItem SET ItemCount = ItemCount - :incr
//
// and a purchase, which the guide makes one TransactWriteItems: the
// currency goes down and the item is created, or neither. Each run writes
// the sample again (and deletes the item an earlier run bought), so a
// rerun prints the same results.
//
// By default it talks to DynamoDB Local: the endpoint in
// AWS_ENDPOINT_URL_DYNAMODB if set, else a private in-memory server it starts
// (installed by `make deps`). Only -aws makes it use your AWS configuration.
//
//	go run ./examples/gamingprofile [-table NAME] [-cleanup] [-aws] [-describe] [-verify] [-workbench FILE] [-cloudformation FILE]
//
// -describe prints the model (adjlist.Describe) and its Mermaid diagram
// without touching DynamoDB; -workbench and -cloudformation write it as a
// NoSQL Workbench data model and a CloudFormation template.
//
// -verify, after the run, checks every item of the table against the model
// (adjlist.Verify), prints the items scanned and each finding, and exits
// with status 1 if there is any; with -cleanup, the table is deleted after
// the check. -cleanup, -aws and -verify beside -describe are usage errors
// (status 2; `go run` then exits 1).
package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
)

// Metadata is a player's profile: PK=<playerID>, SK=#METADATA#<playerID>.
// The times are epoch seconds.
type Metadata struct {
	Type             string `dynamodbav:"Type"`
	CreatedAt        int64  `dynamodbav:"CreatedAt"`
	UpdatedAt        int64  `dynamodbav:"UpdatedAt"`
	Nickname         string `dynamodbav:"Nickname"`
	Email            string `dynamodbav:"Email"`
	Gender           string `dynamodbav:"Gender"`
	Avatar           string `dynamodbav:"Avatar"`
	Currency         int    `dynamodbav:"Currency"`
	PlayerLevel      int    `dynamodbav:"PlayerLevel"`
	PlayerHealth     int    `dynamodbav:"PlayerHealth"`
	PlayerExperience int    `dynamodbav:"PlayerExperience"`
}

// Friends is a player's friend list, one item (the guide's 1:1 modelling
// of a small, simple friendship): PK=<playerID>, SK=FRIENDS#<playerID>.
type Friends struct {
	Type       string   `dynamodbav:"Type"`
	FriendList []Friend `dynamodbav:"FriendList"`
}

// Friend is one entry of a FriendList: the friend's id and their name,
// copied (denormalised) into the list.
type Friend struct {
	FriendID   string `dynamodbav:"FriendId"`
	FriendName string `dynamodbav:"FriendName"`
}

// Item is one kind of item a player holds, ItemCount of it:
// PK=<playerID>, SK=ITEMS#<itemID>.
type Item struct {
	Type           string         `dynamodbav:"Type"`
	ItemName       string         `dynamodbav:"ItemName"`
	ItemType       string         `dynamodbav:"ItemType"`
	ItemCount      int            `dynamodbav:"ItemCount"`
	ItemAttributes map[string]int `dynamodbav:"ItemAttributes"`
}

// Equipment is one piece a player has equipped:
// PK=<playerID>, SK=EQUIPMENTS#<equipID>.
type Equipment struct {
	Type                string         `dynamodbav:"Type"`
	EquipmentName       string         `dynamodbav:"EquipmentName"`
	EquipmentType       string         `dynamodbav:"EquipmentType"`
	EquipmentAttributes map[string]int `dynamodbav:"EquipmentAttributes"`
}

// Task is one of a player's quests: PK=<playerID>, SK=TASK#<taskID>.
type Task struct {
	Type            string         `dynamodbav:"Type"`
	TaskName        string         `dynamodbav:"TaskName"`
	TaskDescription string         `dynamodbav:"TaskDescription"`
	TaskStatus      string         `dynamodbav:"TaskStatus"`
	TaskReward      map[string]int `dynamodbav:"TaskReward"`
}

// Activity is an event a player takes part in:
// PK=<playerID>, SK=ACTIVITY#<activityID>. The times are epoch seconds.
type Activity struct {
	Type              string         `dynamodbav:"Type"`
	ActivityName      string         `dynamodbav:"ActivityName"`
	ActivityType      string         `dynamodbav:"ActivityType"`
	ActivityStartTime int64          `dynamodbav:"ActivityStartTime"`
	ActivityEndTime   int64          `dynamodbav:"ActivityEndTime"`
	ActivityReward    map[string]int `dynamodbav:"ActivityReward"`
}

var example = exampleutil.Example{Name: "gamingprofile", Model: described, Run: run}

func main() { exampleutil.Main(example) }

// model is the design declared over the table as it exists: one Entity
// per item type, its keys spelled as the design spells them. Declaring it
// makes no request and creates nothing.
type model struct {
	table      *adjlist.Table
	metadata   *adjlist.Entity[Metadata]
	friends    *adjlist.Entity[Friends]
	items      *adjlist.Entity[Item]
	equipment  *adjlist.Entity[Equipment]
	tasks      *adjlist.Entity[Task]
	activities *adjlist.Entity[Activity]
}

// newModel declares the design over the table tableName. Ids are escaped
// in keys ('#' and '%' percent-encoded): the sample's ids hold neither, so
// every key is spelled exactly as the existing application wrote it (an
// existing id holding one would not be read as one of these types).
func newModel(db adjlist.Client, tableName string) model {
	// The existing table's key attributes, and no secondary index.
	table := adjlist.NewTable(db, tableName, func(o *adjlist.Options) {
		o.PartitionKey, o.SortKey = "PK", "SK"
		o.NoIndex = true
	})
	return model{
		table:      table,
		metadata:   adjlist.NewEntity[Metadata](table, "metadata", "{playerID}", "#METADATA#{playerID}"),
		friends:    adjlist.NewEntity[Friends](table, "friends", "{playerID}", "FRIENDS#{playerID}"),
		items:      adjlist.NewEntity[Item](table, "item", "{playerID}", "ITEMS#{itemID}"),
		equipment:  adjlist.NewEntity[Equipment](table, "equipment", "{playerID}", "EQUIPMENTS#{equipID}"),
		tasks:      adjlist.NewEntity[Task](table, "task", "{playerID}", "TASK#{taskID}"),
		activities: adjlist.NewEntity[Activity](table, "activity", "{playerID}", "ACTIVITY#{activityID}"),
	}
}

// described is the model -describe and the exports render (see
// exampleutil.Example.Model), with the guide's queries under its names.
func described(db adjlist.Client, tableName string) (*adjlist.Table, []adjlist.Describer) {
	m := newModel(db, tableName)
	return m.table, []adjlist.Describer{m.metadata, m.friends, m.items, m.equipment, m.tasks, m.activities,
		adjlist.AccessPattern("getPlayerAllProfile", adjlist.AllTypes(m.items.List("<playerID>"))),
		adjlist.AccessPattern("getPlayerAllItems", m.items.List("<playerID>")),
		adjlist.AccessPattern("getPlayerSpecificItem", itemsOfType(m.items, "<playerID>", "<itemType>")),
	}
}

// The guide's sample player, and what the run has them buy.
const (
	player = "player001"
	price  = 50 // of the Mana Potion
	bought = "004"
)

// manaPotion is the item the player buys.
var manaPotion = Item{Type: "Item", ItemName: "Mana Potion", ItemType: "Consumable", ItemCount: 1, ItemAttributes: map[string]int{"MP": 50}}

// sample is the guide's player as the existing application stores it,
// written without adjlist. Corrected from the aws-samples JSON: the
// equipment key "EQUIPMENTS#001EQUIPMENTS#002" is EQUIPMENTS#002, the
// TaskName "Find the Lost TreasureFind the Lost Treasure" is given once,
// ItemAttributes are plain maps (not {"M": {...}}), and numbers (Currency,
// levels, counts, epoch times) are numbers (N), which the guide's
// arithmetic needs.
var sample = []map[string]any{
	{"PK": "player001", "SK": "#METADATA#player001", "Type": "Metadata",
		"CreatedAt": 1618500000, "UpdatedAt": 1620000000, "Nickname": "John", "Email": "john@example.com", "Gender": "male",
		"Avatar": "s3://gaming-blki65wn3bgc-lob-avatar/player001.png", "Currency": 500, "PlayerLevel": 10, "PlayerHealth": 80, "PlayerExperience": 1000},
	{"PK": "player001", "SK": "FRIENDS#player001", "Type": "Friends", "FriendList": []map[string]any{
		{"FriendId": "player002", "FriendName": "Alice"},
		{"FriendId": "player003", "FriendName": "Bob"},
	}},
	{"PK": "player001", "SK": "ITEMS#001", "Type": "Item", "ItemName": "Health Potion", "ItemType": "Consumable", "ItemCount": 5, "ItemAttributes": map[string]any{"HP": 50}},
	{"PK": "player001", "SK": "ITEMS#002", "Type": "Item", "ItemName": "Armor of the Knight", "ItemType": "Armor", "ItemCount": 1, "ItemAttributes": map[string]any{"DEF": 100}},
	{"PK": "player001", "SK": "ITEMS#003", "Type": "Item", "ItemName": "Sword of the Dragon", "ItemType": "Weapon", "ItemCount": 1, "ItemAttributes": map[string]any{"ATK": 100, "DEF": 50}},
	{"PK": "player001", "SK": "EQUIPMENTS#001", "Type": "Equipment", "EquipmentName": "Sword of the Dragon", "EquipmentType": "Weapon", "EquipmentAttributes": map[string]any{"ATK": 100, "DEF": 50}},
	{"PK": "player001", "SK": "EQUIPMENTS#002", "Type": "Equipment", "EquipmentName": "Armor of the Knight", "EquipmentType": "Armor", "EquipmentAttributes": map[string]any{"DEF": 100}},
	{"PK": "player001", "SK": "EQUIPMENTS#003", "Type": "Equipment", "EquipmentName": "Ring of the Mage", "EquipmentType": "Accessory", "EquipmentAttributes": map[string]any{"SP": 50}},
	{"PK": "player001", "SK": "TASK#001", "Type": "Task", "TaskName": "Find the Lost Treasure",
		"TaskDescription": "Get clues from a lost adventurer and find the lost treasure.", "TaskStatus": "InProgress", "TaskReward": map[string]any{"Gold": 100, "XP": 50}},
	{"PK": "player001", "SK": "TASK#002", "Type": "Task", "TaskName": "Defeat Magic Monsters",
		"TaskDescription": "Go to the Magic Forest and defeat three magic monsters.", "TaskStatus": "Completed", "TaskReward": map[string]any{"Gold": 200, "XP": 100}},
	{"PK": "player001", "SK": "TASK#003", "Type": "Task", "TaskName": "Rescue the Princess",
		"TaskDescription": "Go to the Demon King's Castle and rescue the princess who is being held captive by the Demon King.", "TaskStatus": "Available", "TaskReward": map[string]any{"Gold": 500, "XP": 200}},
	{"PK": "player001", "SK": "ACTIVITY#001", "Type": "Activity", "ActivityName": "Hunting Trip", "ActivityType": "Hunting",
		"ActivityStartTime": 1647388800, "ActivityEndTime": 1647475199, "ActivityReward": map[string]any{"Gold": 50, "XP": 200}},
	{"PK": "player001", "SK": "ACTIVITY#002", "Type": "Activity", "ActivityName": "Mining Adventure", "ActivityType": "Mining",
		"ActivityStartTime": 1647561600, "ActivityEndTime": 1647647999, "ActivityReward": map[string]any{"Gold": 1000, "XP": 500}},
	{"PK": "player001", "SK": "ACTIVITY#003", "Type": "Activity", "ActivityName": "Arena Challenge", "ActivityType": "Arena",
		"ActivityStartTime": 1647734400, "ActivityEndTime": 1647820799, "ActivityReward": map[string]any{"Gold": 2000, "XP": 1000}},
}

// createExisting creates the table as the existing application did, with
// the plain SDK: PK and SK strings, on demand (as the guide starts), no
// index. It leaves a table that exists as it is, and waits until the table
// is ACTIVE. created reports whether this call created it.
func createExisting(ctx context.Context, db exampleutil.API, tableName string) (created bool, err error) {
	_, err = db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String(tableName),
		BillingMode: types.BillingModePayPerRequest,
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange},
		},
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeS},
		},
	})
	var inUse *types.ResourceInUseException
	switch {
	case err == nil:
		created = true
	case !errors.As(err, &inUse):
		return false, err
	}
	in := &dynamodb.DescribeTableInput{TableName: aws.String(tableName)}
	return created, dynamodb.NewTableExistsWaiter(db).Wait(ctx, in, 5*time.Minute)
}

// checkKeys refuses a table whose key schema is not the model's: adopting
// a table changes none of its keys, so they must be the ones the model
// spells.
func checkKeys(ctx context.Context, db exampleutil.API, t *adjlist.Table) error {
	out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(t.Name())})
	if err != nil {
		return err
	}
	want := []string{t.Options().PartitionKey + " HASH", t.Options().SortKey + " RANGE"}
	var got []string
	for _, k := range out.Table.KeySchema {
		got = append(got, aws.ToString(k.AttributeName)+" "+string(k.KeyType))
	}
	if !slices.Equal(got, want) {
		return fmt.Errorf("table %s is keyed %v, the model %v", t.Name(), got, want)
	}
	return nil
}

// writeExisting writes the sample player as the existing application
// does, one plain PutItem per item (attributevalue turns Go numbers into
// N), replacing what an earlier run changed, and deletes the item an
// earlier run bought: every run starts from the guide's sample.
func writeExisting(ctx context.Context, db exampleutil.API, tableName string) error {
	for _, v := range sample {
		item, err := attributevalue.MarshalMap(v)
		if err != nil {
			return err
		}
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(tableName), Item: item}); err != nil {
			return err
		}
	}
	_, err := db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(tableName), Key: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: player},
		"SK": &types.AttributeValueMemberS{Value: "ITEMS#" + bought},
	}})
	return err
}

// getPlayerFriends is the player's friend list: one GetItem,
// PK = "player001", SK = "FRIENDS#player001".
func getPlayerFriends(ctx context.Context, m model, playerID string) (Friends, error) {
	return m.friends.Get(ctx, adjlist.IDs{playerID})
}

// Profile is everything a player has: getPlayerAllProfile's result.
type Profile struct {
	Metadata   adjlist.EntityItem[Metadata]
	Friends    adjlist.EntityItem[Friends]
	Items      []adjlist.EntityItem[Item]
	Equipment  []adjlist.EntityItem[Equipment]
	Tasks      []adjlist.EntityItem[Task]
	Activities []adjlist.EntityItem[Activity]
	// Unmodelled counts the player's items of no type the model declares.
	Unmodelled int
}

// getPlayerAllProfile reads the player's whole item collection with one
// Query per page (PK = "player001", one page here) and hands each item to
// its type, decoded; items of no modelled type are counted, not decoded.
// A player without a metadata item is ErrNotFound.
func getPlayerAllProfile(ctx context.Context, m model, playerID string) (Profile, error) {
	var (
		p         Profile
		meta      []adjlist.EntityItem[Metadata]
		friendsOf []adjlist.EntityItem[Friends]
	)
	other, err := adjlist.Load(ctx, adjlist.AllTypes(m.items.List(playerID)),
		m.metadata.Into(&meta), m.friends.Into(&friendsOf), m.items.Into(&p.Items),
		m.equipment.Into(&p.Equipment), m.tasks.Into(&p.Tasks), m.activities.Into(&p.Activities))
	switch {
	case err != nil:
		return Profile{}, err
	case len(meta) != 1:
		return Profile{}, fmt.Errorf("player %s: %w", playerID, adjlist.ErrNotFound)
	}
	p.Metadata, p.Unmodelled = meta[0], other
	if len(friendsOf) > 0 {
		p.Friends = friendsOf[0]
	}
	return p, nil
}

// getPlayerAllItems is the player's items: one Query per page,
// PK = "player001" AND begins_with(SK, "ITEMS#").
func getPlayerAllItems(ctx context.Context, m model, playerID string) ([]adjlist.EntityItem[Item], error) {
	return m.items.List(playerID).Collect(ctx)
}

// itemsOfType is the player's items of one ItemType: getPlayerAllItems'
// Query with the filter ItemType = :itemType. DynamoDB filters after
// reading, so it reads (and bills) every item of the player; the guide
// suggests ITEMS#<ItemType>#<ItemID> sort keys if this read is frequent.
func itemsOfType(items *adjlist.Entity[Item], playerID, itemType string) adjlist.Query[adjlist.EntityItem[Item]] {
	return items.List(playerID).Filter(expression.Name("ItemType").Equal(expression.Value(itemType)))
}

// getPlayerSpecificItem runs itemsOfType.
func getPlayerSpecificItem(ctx context.Context, m model, playerID, itemType string) ([]adjlist.EntityItem[Item], error) {
	return itemsOfType(m.items, playerID, itemType).Collect(ctx)
}

// spend is the guide's currency update, SET Currency = Currency - :amount,
// and canAfford its condition, Currency >= :amount: the balance never goes
// below zero.
func spend(amount int) (adjlist.Update, func(*adjlist.WriteOptions)) {
	return adjlist.Update{}.SetTo("Currency", expression.Name("Currency").Minus(expression.Value(amount))),
		adjlist.If(expression.Name("Currency").GreaterThanEqual(expression.Value(amount)))
}

// updateCharacterAttributes takes amount from the player's Currency with
// one UpdateItem and returns the metadata as stored afterwards; a player
// short of amount is ErrConditionFailed, with nothing changed.
func updateCharacterAttributes(ctx context.Context, m model, playerID string, amount int) (Metadata, error) {
	update, canAfford := spend(amount)
	return m.metadata.Update(ctx, adjlist.IDs{playerID}, update, canAfford)
}

// updateItemCount takes incr from an item's ItemCount with one UpdateItem,
// SET ItemCount = ItemCount - :incr: an atomic counter, with no read
// first. It returns the item as stored afterwards.
func updateItemCount(ctx context.Context, m model, playerID, itemID string, incr int) (Item, error) {
	return m.items.Update(ctx, adjlist.IDs{playerID, itemID},
		adjlist.Update{}.SetTo("ItemCount", expression.Name("ItemCount").Minus(expression.Value(incr))))
}

// purchase buys item for cost as the guide recommends, with one
// TransactWriteItems: the player's Currency goes down by cost if they can
// afford it, and the item is created (a guarded create), or neither
// happens. A player short of cost is ErrConditionFailed; an item id the
// player holds already is ErrExists.
func purchase(ctx context.Context, m model, playerID, itemID string, item Item, cost int) error {
	tx := adjlist.NewTx(m.table)
	update, canAfford := spend(cost)
	m.metadata.Update(ctx, adjlist.IDs{playerID}, update, canAfford, adjlist.InTx(tx))
	m.items.Put(ctx, adjlist.IDs{playerID, itemID}, item, adjlist.InTx(tx))
	return tx.Commit(ctx)
}

// run creates the table and the sample player with the plain SDK, as an
// existing application would, then serves every access pattern with
// adjlist over those items, printing what each cost. It can run again on
// the same table: the sample is written again, so every run starts from
// the same data and prints the same results.
func run(ctx context.Context, db exampleutil.API, tableName string, cleanup bool, w io.Writer) error {
	m := newModel(db, tableName)
	// No two of the six templates can spell the same key, so an item read
	// back is of one type.
	if err := m.table.Check(); err != nil {
		return err
	}

	// The existing table and data, written without adjlist.
	created, err := createExisting(ctx, db, tableName)
	if err != nil {
		return err
	}
	if err := checkKeys(ctx, db, m.table); err != nil {
		return err
	}
	if created {
		fmt.Fprintf(w, "table %s created with dynamodb.CreateTable: PK (S), SK (S), on demand, no index\n", tableName)
	} else {
		fmt.Fprintf(w, "table %s exists already, keyed PK, SK as the model\n", tableName)
	}
	if err := writeExisting(ctx, db, tableName); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d items of %s written with dynamodb.PutItem, the guide's sample\n", len(sample), player)

	// From here on adjlist serves the design over those items, their keys
	// as they are.
	if err := cost(ctx, w, `getPlayerFriends: GetItem PK = "player001", SK = "FRIENDS#player001"`, func(ctx context.Context) error {
		f, err := getPlayerFriends(ctx, m, player)
		for _, fr := range f.FriendList {
			fmt.Fprintf(w, "  %s  %s\n", fr.FriendID, fr.FriendName)
		}
		return err
	}); err != nil {
		return err
	}

	if err := cost(ctx, w, `getPlayerAllProfile: Query PK = "player001", six item types`, func(ctx context.Context) error {
		p, err := getPlayerAllProfile(ctx, m, player)
		if err != nil {
			return err
		}
		printProfile(w, p)
		return nil
	}); err != nil {
		return err
	}

	if err := cost(ctx, w, `getPlayerAllItems: Query PK = "player001" AND begins_with(SK, "ITEMS#")`, func(ctx context.Context) error {
		items, err := getPlayerAllItems(ctx, m, player)
		printItems(w, items)
		return err
	}); err != nil {
		return err
	}

	if err := cost(ctx, w, `getPlayerSpecificItem: the same Query, filter ItemType = "Weapon"`, func(ctx context.Context) error {
		items, err := getPlayerSpecificItem(ctx, m, player, "Weapon")
		printItems(w, items)
		return err
	}); err != nil {
		return err
	}

	if err := cost(ctx, w, `one item by its sort key: Query PK = "player001" AND SK = "ITEMS#002" (Query.Equal)`, func(ctx context.Context) error {
		items, err := m.items.List(player).Equal("002").Collect(ctx)
		printItems(w, items)
		return err
	}); err != nil {
		return err
	}

	if err := cost(ctx, w, "updateCharacterAttributes: SET Currency = Currency - :amount, if Currency >= :amount", func(ctx context.Context) error {
		meta, err := updateCharacterAttributes(ctx, m, player, 100)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  spend 100: Currency %d\n", meta.Currency)
		_, err = updateCharacterAttributes(ctx, m, player, 1000)
		if !errors.Is(err, adjlist.ErrConditionFailed) {
			return fmt.Errorf("spending more than the player has: %v", err)
		}
		fmt.Fprintf(w, "  spend 1000: refused (condition failed), Currency still %d\n", meta.Currency)
		return nil
	}); err != nil {
		return err
	}

	if err := cost(ctx, w, "updateItemCount: SET ItemCount = ItemCount - :incr", func(ctx context.Context) error {
		it, err := updateItemCount(ctx, m, player, "001", 1)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  use a %s: %d left\n", it.ItemName, it.ItemCount)
		return nil
	}); err != nil {
		return err
	}

	if err := cost(ctx, w, "purchase: one TransactWriteItems, Currency down and the item created, or neither", func(ctx context.Context) error {
		if err := purchase(ctx, m, player, bought, manaPotion, price); err != nil {
			return err
		}
		fmt.Fprintf(w, "  buy a %s for %d: ITEMS#%s created\n", manaPotion.ItemName, price, bought)
		shield := Item{Type: "Item", ItemName: "Dragon Shield", ItemType: "Armor", ItemCount: 1, ItemAttributes: map[string]int{"DEF": 300}}
		err := purchase(ctx, m, player, "005", shield, 10000)
		if !errors.Is(err, adjlist.ErrConditionFailed) {
			return fmt.Errorf("buying more than the player can afford: %v", err)
		}
		fmt.Fprintf(w, "  buy a %s for 10000: refused (condition failed), ITEMS#005 not created\n", shield.ItemName)
		return nil
	}); err != nil {
		return err
	}

	// What the player has now, in one Query again.
	p, err := getPlayerAllProfile(ctx, m, player)
	if err != nil {
		return err
	}
	var held []string
	for _, it := range p.Items {
		held = append(held, fmt.Sprintf("%s x%d", it.Data.ItemName, it.Data.ItemCount))
	}
	fmt.Fprintf(w, "\n%s now: Currency %d; %s\n", player, p.Metadata.Data.Currency, strings.Join(held, ", "))

	if err := printKeys(ctx, db, tableName, w); err != nil {
		return err
	}
	if cleanup {
		return exampleutil.DeleteTable(ctx, db, tableName)
	}
	return nil
}

// cost prints what, runs fn with a fresh Usage and prints the requests it
// made, and for queries the items DynamoDB read and returned.
func cost(ctx context.Context, w io.Writer, what string, fn func(ctx context.Context) error) error {
	fmt.Fprintf(w, "\n%s\n", what)
	var u adjlist.Usage
	if err := fn(adjlist.WithUsage(ctx, &u)); err != nil {
		return err
	}
	n := plural(u.Totals().Requests, "request")
	if u.Totals().Scanned > 0 {
		n += fmt.Sprintf(", %s read, %d returned", plural(u.Totals().Scanned, "item"), u.Totals().Matched)
	}
	fmt.Fprintf(w, "  [%s]\n", n)
	return nil
}

// plural says "1 request", "2 requests".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// printProfile prints a profile, one line per item.
func printProfile(w io.Writer, p Profile) {
	md := p.Metadata.Data
	fmt.Fprintf(w, "  metadata   %s <%s>, %s, level %d, health %d, experience %d, currency %d, since %s\n",
		md.Nickname, md.Email, md.Gender, md.PlayerLevel, md.PlayerHealth, md.PlayerExperience, md.Currency, day(md.CreatedAt))
	var names []string
	for _, f := range p.Friends.Data.FriendList {
		names = append(names, f.FriendName)
	}
	fmt.Fprintf(w, "  friends    %s\n", strings.Join(names, ", "))
	for _, it := range p.Items {
		fmt.Fprintf(w, "  item       %s  %s x%d (%s; %s)\n", it.IDs[1], it.Data.ItemName, it.Data.ItemCount, it.Data.ItemType, stats(it.Data.ItemAttributes))
	}
	for _, e := range p.Equipment {
		fmt.Fprintf(w, "  equipment  %s  %s (%s; %s)\n", e.IDs[1], e.Data.EquipmentName, e.Data.EquipmentType, stats(e.Data.EquipmentAttributes))
	}
	for _, t := range p.Tasks {
		fmt.Fprintf(w, "  task       %s  %s: %s (%s)\n", t.IDs[1], t.Data.TaskName, t.Data.TaskStatus, stats(t.Data.TaskReward))
	}
	for _, a := range p.Activities {
		fmt.Fprintf(w, "  activity   %s  %s on %s (%s)\n", a.IDs[1], a.Data.ActivityName, day(a.Data.ActivityStartTime), stats(a.Data.ActivityReward))
	}
	if p.Unmodelled > 0 {
		fmt.Fprintf(w, "  and %s of no modelled type\n", plural(p.Unmodelled, "item"))
	}
}

// printItems prints items, one line each.
func printItems(w io.Writer, items []adjlist.EntityItem[Item]) {
	for _, it := range items {
		fmt.Fprintf(w, "  %s  %-20s %-10s x%d  %s\n", it.IDs[1], it.Data.ItemName, it.Data.ItemType, it.Data.ItemCount, stats(it.Data.ItemAttributes))
	}
}

// stats writes a map of numbers as "ATK=100, DEF=50".
func stats(m map[string]int) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, fmt.Sprintf("%s=%d", k, m[k]))
	}
	return strings.Join(out, ", ")
}

// day is the UTC date of epoch seconds.
func day(sec int64) string { return time.Unix(sec, 0).UTC().Format(time.DateOnly) }

// printKeys scans the table raw and prints every item's keys and Type in
// key order: the keys the existing application wrote, which adjlist
// reads and writes as they are.
func printKeys(ctx context.Context, db exampleutil.API, tableName string, w io.Writer) error {
	var rows [][3]string
	pages := dynamodb.NewScanPaginator(db, &dynamodb.ScanInput{TableName: aws.String(tableName)})
	for pages.HasMorePages() {
		out, err := pages.NextPage(ctx)
		if err != nil {
			return err
		}
		for _, item := range out.Items {
			var k struct{ PK, SK, Type string }
			if err := attributevalue.UnmarshalMap(item, &k); err != nil {
				return err
			}
			rows = append(rows, [3]string{k.PK, k.SK, k.Type})
		}
	}
	slices.SortFunc(rows, func(a, b [3]string) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	fmt.Fprintf(w, "\ntable %s (a raw Scan):\n", tableName)
	for _, r := range rows {
		fmt.Fprintf(w, "  %-10s %-20s %s\n", r[0], r[1], r[2])
	}
	return nil
}
