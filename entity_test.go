package adjlist_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// The AWS gaming profile design's item types (data only: ids are keys).
type (
	playerMeta struct {
		Nickname string `dynamodbav:"Nickname"`
		Currency int    `dynamodbav:"Currency"`
	}
	playerItem struct {
		ItemName  string `dynamodbav:"ItemName"`
		ItemType  string `dynamodbav:"ItemType"`
		ItemCount int    `dynamodbav:"ItemCount"`
		Flagged   string `dynamodbav:"Flagged,omitempty"`
	}
	playerFriends struct {
		FriendList []string `dynamodbav:"FriendList"`
	}
)

// gaming is the gaming profile design on a fresh table, with a sparse
// index of flagged items (GSI1 on GSI1PK/GSI1SK, overloaded by entities).
type gaming struct {
	db      *dynamodb.Client
	calls   *countingClient
	table   *adjlist.Table
	meta    *adjlist.Entity[playerMeta]
	items   *adjlist.Entity[playerItem]
	friends *adjlist.Entity[playerFriends]
}

func newGaming(t *testing.T) *gaming {
	t.Helper()
	db := ddbtest.Client(t)
	g := &gaming{db: db, calls: &countingClient{Client: db}}
	g.table = adjlist.NewTable(g.calls, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{{Name: "GSI1", PartitionKey: "GSI1PK", SortKey: "GSI1SK", Projection: "ALL"}}
	})
	ddbtest.CreateTable(t, g.table)
	g.meta = adjlist.NewEntity[playerMeta](g.table, "metadata", "{playerID}", "#METADATA#{playerID}")
	g.items = adjlist.NewEntity[playerItem](g.table, "item", "{playerID}", "ITEMS#{itemID}", func(o *adjlist.EntityOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI1",
			PartitionKey: adjlist.Template("FLAGGED#{Flagged}"), SortKey: adjlist.Template("{playerID}#{itemID}")}}
	})
	g.friends = adjlist.NewEntity[playerFriends](g.table, "friends", "{playerID}", "FRIENDS#{playerID}")
	require.NoError(t, g.table.Check())
	return g
}

// TestEntityOnDynamoDB: writes, reads, updates, deletes and transactions
// of template-keyed items, with the exact items stored.
func TestEntityOnDynamoDB(t *testing.T) {
	t.Parallel()
	g := newGaming(t)
	ctx := context.Background()
	require.NoError(t, g.meta.Put(ctx, adjlist.IDs{"player001"}, playerMeta{Nickname: "John", Currency: 500}))
	err := g.meta.Put(ctx, adjlist.IDs{"player001"}, playerMeta{Nickname: "John", Currency: 500})
	assert.ErrorIs(t, err, adjlist.ErrExists, "a second, separate create is a duplicate")
	require.NoError(t, g.items.Put(ctx, adjlist.IDs{"player001", "001"}, playerItem{ItemName: "Health Potion", ItemType: "Consumable", ItemCount: 5}))

	out, err := g.db.GetItem(ctx, getInput(g.table.Name(), "player001", "#METADATA#player001"))
	require.NoError(t, err)
	require.NotNil(t, out.Item, "the design's own keys")
	assert.Len(t, out.Item, 4, "PK, SK and the data: no id attributes")

	m, err := g.meta.Get(ctx, adjlist.IDs{"player001"}, adjlist.Consistent)
	require.NoError(t, err)
	assert.Equal(t, playerMeta{Nickname: "John", Currency: 500}, m)

	// updateItemCount: SET ItemCount = ItemCount - :incr, guarded.
	it, err := g.items.Update(ctx, adjlist.IDs{"player001", "001"}, adjlist.Update{}.SetTo("ItemCount", expression.Name("ItemCount").Minus(expression.Value(1))),
		adjlist.If(expression.Name("ItemCount").GreaterThanEqual(expression.Value(1))))
	require.NoError(t, err)
	assert.Equal(t, 4, it.ItemCount)

	_, err = g.items.Update(ctx, adjlist.IDs{"player001", "404"}, adjlist.Update{}.SetTo("ItemCount", expression.Name("ItemCount").Minus(expression.Value(1))))
	assert.ErrorIs(t, err, adjlist.ErrNotFound)

	// A purchase: currency down, item created, atomically.
	tx := adjlist.NewTx(g.table)
	g.meta.Update(ctx, adjlist.IDs{"player001"}, adjlist.Update{}.SetTo("Currency", expression.Name("Currency").Minus(expression.Value(100))),
		adjlist.If(expression.Name("Currency").GreaterThanEqual(expression.Value(100))), adjlist.InTx(tx))
	g.items.Put(ctx, adjlist.IDs{"player001", "002"}, playerItem{ItemName: "Armor of the Knight", ItemType: "Armor", ItemCount: 1}, adjlist.InTx(tx))
	require.NoError(t, tx.Commit(ctx))

	rt := adjlist.NewReadTx(g.table)
	meta := g.meta.TxGet(rt, adjlist.IDs{"player001"})
	armor := g.items.TxGet(rt, adjlist.IDs{"player001", "002"})
	require.NoError(t, rt.Run(ctx))
	assert.Equal(t, 400, meta.Data.Currency)
	assert.True(t, armor.Found)

	before := g.calls.total()
	_, err = g.items.Get(ctx, adjlist.IDs{"player001"})
	assert.ErrorIs(t, err, adjlist.ErrInvalidKey)
	assert.Equal(t, before, g.calls.total(), "bad ids are refused before any request")

	require.NoError(t, g.items.Delete(ctx, adjlist.IDs{"player001", "001"}))
	assert.ErrorIs(t, g.items.Delete(ctx, adjlist.IDs{"player001", "001"}), adjlist.ErrNotFound)
}

// TestEntityReads: List in one request per page, Equal, a read spanning
// the item types of a partition (Load of AllTypes), and a Scan of a
// sparse index.
func TestEntityReads(t *testing.T) {
	t.Parallel()
	g := newGaming(t)
	ctx := context.Background()
	require.NoError(t, g.meta.Put(ctx, adjlist.IDs{"player001"}, playerMeta{Nickname: "John", Currency: 500}))
	require.NoError(t, g.friends.Put(ctx, adjlist.IDs{"player001"}, playerFriends{FriendList: []string{"player002"}}))
	for _, it := range []struct {
		id, name, kind, flagged string
	}{{"001", "Health Potion", "Consumable", ""}, {"002", "Armor of the Knight", "Armor", "yes"}, {"003", "Sword of the Dragon", "Weapon", "yes"}} {
		require.NoError(t, g.items.Put(ctx, adjlist.IDs{"player001", it.id}, playerItem{ItemName: it.name, ItemType: it.kind, ItemCount: 1, Flagged: it.flagged}))
	}
	require.NoError(t, g.items.Put(ctx, adjlist.IDs{"player002", "009"}, playerItem{ItemName: "Ring", ItemType: "Accessory", ItemCount: 1}))

	// getPlayerAllItems: PK = "player001" AND begins_with(SK, "ITEMS#").
	before := g.calls.queries.Load()
	items, err := g.items.List("player001").Collect(ctx)
	require.NoError(t, err)
	assert.Equal(t, int64(1), g.calls.queries.Load()-before)
	require.Len(t, items, 3)
	assert.Equal(t, adjlist.IDs{"player001", "001"}, items[0].IDs)

	// getPlayerSpecificItem: the same with a filter on ItemType.
	weapons, err := g.items.List("player001").Filter(expression.Name("ItemType").Equal(expression.Value("Weapon"))).Collect(ctx)
	require.NoError(t, err)
	require.Len(t, weapons, 1)
	assert.Equal(t, "Sword of the Dragon", weapons[0].Data.ItemName)

	// Equality on the sort key: SK = "ITEMS#002".
	one, err := g.items.List("player001").Equal("002").Collect(ctx)
	require.NoError(t, err)
	require.Len(t, one, 1)
	assert.Equal(t, "Armor of the Knight", one[0].Data.ItemName)

	// A sort key all of whose fields are given is an equality.
	metas, err := g.meta.List("player001").Collect(ctx)
	require.NoError(t, err)
	require.Len(t, metas, 1)

	// getPlayerAllProfile: PK = "player001", every item type, typed, in
	// one request.
	var (
		ms    []adjlist.EntityItem[playerMeta]
		is    []adjlist.EntityItem[playerItem]
		fs    []adjlist.EntityItem[playerFriends]
		other int
	)
	before = g.calls.queries.Load()
	other, err = adjlist.Load(ctx, adjlist.AllTypes(g.items.List("player001")), g.meta.Into(&ms), g.items.Into(&is), g.friends.Into(&fs))
	require.NoError(t, err)
	assert.Equal(t, int64(1), g.calls.queries.Load()-before)
	assert.Len(t, ms, 1)
	assert.Len(t, is, 3)
	assert.Len(t, fs, 1)
	assert.Zero(t, other)

	// A begins_with spanning types: the items and the friends have no
	// common prefix, but "#METADATA#" and "FRIENDS#" sort before "ITEMS#".
	ms, is, fs = nil, nil, nil
	other, err = adjlist.Load(ctx, adjlist.AllTypes(g.items.List("player001")).LessThan("ITEMS#"), g.meta.Into(&ms), g.items.Into(&is))
	require.NoError(t, err)
	assert.Len(t, ms, 1)
	assert.Empty(t, is)
	assert.Equal(t, 1, other, "the friends item has no target")

	// Every flagged item of every player: a Scan of the sparse index
	// reads only what it holds.
	var flagged []adjlist.IDs
	// The index is eventually consistent: a bounded poll.
	require.Eventually(t, func() bool {
		flagged = nil
		_, err = adjlist.Scan(ctx, g.db, g.items, func(_ context.Context, v adjlist.EntityItem[playerItem]) error {
			flagged = append(flagged, v.IDs)
			return nil
		}, func(o *adjlist.ScanOptions) { o.Index = "GSI1"; o.Segments = 1 })
		return err == nil && len(flagged) == 2
	}, waitIndex, 50*time.Millisecond)
	require.NoError(t, err)
	assert.ElementsMatch(t, []adjlist.IDs{{"player001", "002"}, {"player001", "003"}}, flagged)

	// ByIndex with a data attribute and key fields in the templates.
	var got []adjlist.EntityItem[playerItem]
	require.Eventually(t, func() bool {
		got, err = g.items.ByIndex("GSI1", "yes").Collect(ctx)
		return err == nil && len(got) == 2
	}, waitIndex, 50*time.Millisecond)
	assert.Equal(t, adjlist.IDs{"player001", "002"}, got[0].IDs)

	before = g.calls.total()
	_, err = adjlist.Scan(ctx, g.db, g.items, func(context.Context, adjlist.EntityItem[playerItem]) error { return nil },
		func(o *adjlist.ScanOptions) { o.Index = "nope" })
	assert.ErrorIs(t, err, adjlist.ErrInvalidOption)
	_, err = adjlist.Migrate(ctx, g.calls, g.items, func(o *adjlist.ScanOptions) { o.Index = "GSI1" })
	assert.ErrorIs(t, err, adjlist.ErrInvalidOption, "Migrate walks the table")
	for _, ids := range [][]string{{}, {"player001", "001", "x"}, {""}} {
		_, err = g.items.List(ids...).Collect(ctx)
		assert.ErrorIs(t, err, adjlist.ErrInvalidKey, "%q", ids)
	}
	assert.Equal(t, before, g.calls.total(), "refused before any request")

	// Prefix closure: a type whose sort keys start with the items' prefix
	// ("ITEMS#003#enchant") is read by the items' Query but never returned.
	enchants := adjlist.NewEntity[playerItem](g.table, "enchantment", "{playerID}", "ITEMS#{itemID}#{enchantID}")
	require.NoError(t, enchants.Put(ctx, adjlist.IDs{"player001", "003", "fire"}, playerItem{ItemName: "Fire"}))
	items, err = g.items.List("player001").Collect(ctx)
	require.NoError(t, err)
	assert.Len(t, items, 3, "the enchantment is not an item")
	n, err := g.items.List("player001").Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	ench, err := enchants.List("player001", "003").Collect(ctx)
	require.NoError(t, err)
	require.Len(t, ench, 1)
	assert.Equal(t, adjlist.IDs{"player001", "003", "fire"}, ench[0].IDs)
}

// TestWalkEveryRecordedType: a Table is Scannable of every item type it
// records, in one pass: Scan names each item's type, Migrate brings every
// type into the layout declared now (here a new index on the items), and
// TypeOf and Decode refuse items no type records.
func TestWalkEveryRecordedType(t *testing.T) {
	t.Parallel()
	db := ddbtest.Client(t)
	ctx := context.Background()
	name := ddbtest.TableName(t)
	declare := func(indexed bool) (*adjlist.Table, *adjlist.Entity[playerMeta], *adjlist.Entity[playerItem], *adjlist.Node[Student], *adjlist.Edge[Enrollment]) {
		table := adjlist.NewTable(db, name, func(o *adjlist.Options) {
			o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
		})
		meta := adjlist.NewEntity[playerMeta](table, "metadata", "{playerID}", "#METADATA#{playerID}")
		var opts []func(*adjlist.EntityOptions)
		if indexed {
			opts = append(opts, func(o *adjlist.EntityOptions) {
				o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("TYPE#{ItemType}"), SortKey: adjlist.Template("{itemID}")}}
			})
		}
		items := adjlist.NewEntity[playerItem](table, "item", "{playerID}", "ITEMS#{itemID}", opts...)
		students := adjlist.NewNode[Student](table, "STU", "PROFILE")
		courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
		enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
		require.NoError(t, table.Check())
		return table, meta, items, students, enrolled
	}
	table, meta, items, students, enrolled := declare(false)
	ddbtest.CreateTable(t, table)
	require.NoError(t, meta.Put(ctx, adjlist.IDs{"player001"}, playerMeta{Nickname: "John"}))
	require.NoError(t, items.Put(ctx, adjlist.IDs{"player001", "001"}, playerItem{ItemName: "Potion", ItemType: "Consumable"}))
	require.NoError(t, items.Put(ctx, adjlist.IDs{"player001", "002"}, playerItem{ItemName: "Sword", ItemType: "Weapon"}))
	require.NoError(t, students.Put(ctx, "a91", Student{Name: "Ada"}))
	require.NoError(t, enrolled.Put(ctx, "a91", "math204", Enrollment{Grade: "A"}))
	_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &name, Item: keysItem("foreign", "thing")})
	require.NoError(t, err)

	var mu sync.Mutex
	types := map[string]int{}
	_, err = adjlist.Scan(ctx, db, table, func(_ context.Context, v adjlist.TypedItem) error {
		mu.Lock()
		defer mu.Unlock()
		types[v.Type]++
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"entity metadata": 1, "entity item": 2, "node STU": 1, "edge ENROLL (STU → CRS)": 1}, types)
	_, ok := table.TypeOf(keysItem("foreign", "thing"))
	assert.False(t, ok)
	typ, ok := table.TypeOf(keysItem("player001", "ITEMS#001"))
	assert.True(t, ok)
	assert.Equal(t, "entity item", typ)

	// The model gains an index on the items; one Migrate of the table
	// backfills it, and touches nothing else.
	table2, _, items2, _, _ := declare(true)
	res, err := adjlist.Migrate(ctx, db, table2)
	require.NoError(t, err)
	assert.Equal(t, 5, res.Matched)
	assert.Equal(t, 2, res.Rewritten)
	weapons, err := items2.ByIndex("GSI2", "Weapon").Collect(ctx)
	require.NoError(t, err)
	require.Len(t, weapons, 1)
	assert.Equal(t, adjlist.IDs{"player001", "002"}, weapons[0].IDs)
	res, err = adjlist.Migrate(ctx, db, table2)
	require.NoError(t, err)
	assert.Zero(t, res.Rewritten, "a second run rewrites nothing")
}

// TestEntityBatches: PutMany, GetMany and DeleteMany of entity items, one
// BatchWriteItem per 25 and one BatchGetItem per 100, in the input's order.
func TestEntityBatches(t *testing.T) {
	t.Parallel()
	g := newGaming(t)
	ctx := context.Background()
	var items []adjlist.EntityItem[playerItem]
	var ids []adjlist.IDs
	for i := range 30 {
		id := adjlist.IDs{"player001", fmt.Sprintf("%03d", i)}
		items = append(items, adjlist.EntityItem[playerItem]{IDs: id, Data: playerItem{ItemName: "n" + id[1], ItemCount: i}})
		ids = append(ids, id)
	}
	res, err := g.items.PutMany(ctx, items)
	require.NoError(t, err)
	assert.Equal(t, 30, res.Written)
	assert.Equal(t, 2, res.Requests, "25 per BatchWriteItem")

	got, err := g.items.GetMany(ctx, append([]adjlist.IDs{{"player001", "404"}}, ids[:5]...))
	require.NoError(t, err)
	assert.Equal(t, int64(1), g.calls.batchGets.Load(), "one BatchGetItem")
	require.Len(t, got, 5, "the missing item is left out")
	for i, v := range got {
		assert.Equal(t, items[i], v)
	}

	_, err = g.items.PutMany(ctx, []adjlist.EntityItem[playerItem]{{IDs: adjlist.IDs{"player001"}}})
	assert.ErrorIs(t, err, adjlist.ErrInvalidKey)

	res, err = g.items.DeleteMany(ctx, ids)
	require.NoError(t, err)
	assert.Equal(t, 30, res.Written)
	left, err := g.items.List("player001").Count(ctx)
	require.NoError(t, err)
	assert.Zero(t, left)
}

// TestEntityListWholeSortKey: a sort key that starts with a field has no
// prefix, so List reads the partition and ranges compare whole values.
func TestEntityListWholeSortKey(t *testing.T) {
	t.Parallel()
	db := ddbtest.Client(t)
	ctx := context.Background()
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) { o.NoIndex = true })
	ddbtest.CreateTable(t, table)
	orders := adjlist.NewEntity[anyData](table, "order", "CUSTOMER#{customerID}", "{date}#{orderID}")
	for _, d := range []string{"2026-01-05", "2026-02-01", "2026-03-09"} {
		require.NoError(t, orders.Put(ctx, adjlist.IDs{"c1", d, "o" + d[5:7]}, anyData{Name: d}))
	}
	got, err := orders.List("c1").GreaterThan("2026-02").Collect(ctx)
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, adjlist.IDs{"c1", "2026-02-01", "o02"}, got[0].IDs)
	got, err = orders.List("c1", "2026-03-09").Collect(ctx)
	require.NoError(t, err)
	require.Len(t, got, 1, "a leading field given narrows the prefix: 2026-03-09#")
}

// TestEntityTracking: an entity's Tracking works as on the other
// handles: a version set on create, required and checked by Update, and
// timestamps stamped.
func TestEntityTracking(t *testing.T) {
	t.Parallel()
	db := ddbtest.Client(t)
	ctx := context.Background()
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) { o.NoIndex = true })
	ddbtest.CreateTable(t, table)
	type versioned struct {
		Name    string `dynamodbav:"name"`
		Version int64  `dynamodbav:"version,omitempty"`
		Updated string `dynamodbav:"updatedAt,omitempty"`
	}
	users := adjlist.NewEntity[versioned](table, "user", "u#{userID}", "info", func(o *adjlist.EntityOptions) {
		o.Version, o.UpdatedAt = "version", "updatedAt"
	})
	ids := adjlist.IDs{"12345"}
	require.NoError(t, users.Put(ctx, ids, versioned{Name: "Ada"}))
	v, err := users.Get(ctx, ids)
	require.NoError(t, err)
	assert.Equal(t, int64(1), v.Version)
	assert.NotEmpty(t, v.Updated)

	_, err = users.Update(ctx, ids, adjlist.Set("name", "Bea"))
	assert.ErrorIs(t, err, adjlist.ErrInvalidOption, "the version read is required")
	v, err = users.Update(ctx, ids, adjlist.Set("name", "Bea"), adjlist.IfVersion(1))
	require.NoError(t, err)
	assert.Equal(t, int64(2), v.Version)
	_, err = users.Update(ctx, ids, adjlist.Set("name", "Cy"), adjlist.IfVersion(1))
	assert.ErrorIs(t, err, adjlist.ErrVersionConflict)
}

// TestAllTypesAndLoadPromises: AllTypes keeps q's Limit and
// ConsistentRead and drops its direction; Load refuses a zero target, a
// target of another table and a bad query before any request; a bad
// entity name is ErrInvalidKey.
func TestAllTypesAndLoadPromises(t *testing.T) {
	t.Parallel()
	g := newGaming(t)
	ctx := context.Background()
	for _, id := range []string{"001", "002", "003"} {
		require.NoError(t, g.items.Put(ctx, adjlist.IDs{"player001", id}, playerItem{ItemName: id}))
	}
	require.NoError(t, g.meta.Put(ctx, adjlist.IDs{"player001"}, playerMeta{Nickname: "John"}))

	page, err := adjlist.AllTypes(g.items.List("player001").Desc().Limit(1)).Page(ctx, "")
	require.NoError(t, err)
	require.Len(t, page.Items, 1, "Limit kept")
	assert.NotEmpty(t, page.Cursor)
	sk := page.Items[0]["SK"].(*types.AttributeValueMemberS).Value
	assert.Equal(t, "#METADATA#player001", sk, "ascending: the direction is not kept")

	before := g.calls.total()
	other := adjlist.NewTable(nil, "other", func(o *adjlist.Options) { o.NoIndex = true })
	foreign := adjlist.NewEntity[playerItem](other, "item", "{playerID}", "ITEMS#{itemID}")
	var mine, theirs []adjlist.EntityItem[playerItem]
	for name, targets := range map[string][]adjlist.Target{
		"zero target":   {{}},
		"another table": {g.items.Into(&mine), foreign.Into(&theirs)},
		"nil slice":     {g.items.Into(nil)},
	} {
		_, err := adjlist.Load(ctx, adjlist.AllTypes(g.items.List("player001")), targets...)
		assert.ErrorIs(t, err, adjlist.ErrInvalidOption, name)
	}
	_, err = adjlist.Load(ctx, adjlist.AllTypes(g.items.List()), g.items.Into(&mine))
	assert.ErrorIs(t, err, adjlist.ErrInvalidKey, "the query's own error")
	assert.Equal(t, before, g.calls.total(), "all refused before any request")

	bad := adjlist.NewEntity[playerItem](other, "bad name", "{playerID}", "X#{id}")
	_, _, err = bad.Key("a", "b")
	assert.ErrorIs(t, err, adjlist.ErrInvalidKey)
}
