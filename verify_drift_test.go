package adjlist_test

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// moveRaw moves the item at (pk, sk) to partition key toPK with plain SDK
// calls, as another program, or a handle with another shard count, would
// have written it; replace gives it other attributes on the way.
func moveRaw(t *testing.T, db *dynamodb.Client, table, pk, sk, toPK string, replace map[string]types.AttributeValue) {
	t.Helper()
	ctx := t.Context()
	out, err := db.GetItem(ctx, getInput(table, pk, sk))
	require.NoError(t, err)
	require.NotNil(t, out.Item, "%s %s", pk, sk)
	item := out.Item
	if toPK != pk {
		_, err = db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: getInput(table, pk, sk).Key})
		require.NoError(t, err)
		item["PK"] = &types.AttributeValueMemberS{Value: toPK}
	}
	for k, v := range replace {
		item[k] = v
	}
	_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item})
	require.NoError(t, err)
}

// otherShard is a shard partition key of pk ("STU#a91#02") other than
// its own.
func otherShard(pk string) string {
	if pk[len(pk)-2:] == "01" {
		return pk[:len(pk)-2] + "02"
	}
	return pk[:len(pk)-2] + "01"
}

// A collection's child that sits in another shard than its id's, or where
// another shard layout put it, is unreachable by its ids: Verify reports
// it as misplaced (the handle's partition key as Want), Repair moves it
// as Migrate does, or leaves it when its key is taken, and the next
// Verify finds nothing more.
func TestVerifyReportsMisplacedChildren(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := newSchool(t)
	sharded := adjlist.NewCollection[Ticket](s.students, "TCK", func(o *adjlist.CollectionOptions) { o.Shards = 4 })
	plain := adjlist.NewCollection[Ticket](s.courses, "NOTE")
	require.NoError(t, s.table.Check())
	require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ada"}))
	require.NoError(t, s.courses.Put(ctx, "math204", Course{Title: "Algebra"}))
	for _, id := range []string{"t1", "t2", "t3"} {
		require.NoError(t, sharded.Put(ctx, "a91", id, Ticket{CreatedAt: id}))
	}
	require.NoError(t, plain.Put(ctx, "math204", "n1", Ticket{CreatedAt: "n1"}))
	clean, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	require.Empty(t, clean.Findings)

	name := s.table.Name()
	pk1, _, err := sharded.Key("a91", "t1")
	require.NoError(t, err)
	pk2, _, err := sharded.Key("a91", "t2")
	require.NoError(t, err)
	pk3, _, err := sharded.Key("a91", "t3")
	require.NoError(t, err)
	wrong1 := otherShard(pk1)
	moveRaw(t, s.db, name, pk1, "TCK#t1", wrong1, nil)                      // another shard
	moveRaw(t, s.db, name, pk2, "TCK#t2", "STU#a91", nil)                   // unsharded, as before Shards was set
	moveRaw(t, s.db, name, "CRS#math204", "NOTE#n1", "CRS#math204#05", nil) // sharded, as before Shards was unset
	copy3 := otherShard(pk3)                                                // t3 stays; a stale copy of it elsewhere
	out, err := s.db.GetItem(ctx, getInput(name, pk3, "TCK#t3"))
	require.NoError(t, err)
	out.Item["PK"] = &types.AttributeValueMemberS{Value: copy3}
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: out.Item})
	require.NoError(t, err)

	_, err = sharded.Get(ctx, "a91", "t1")
	require.ErrorIs(t, err, adjlist.ErrNotFound, "a misplaced child is not found by its ids")

	res, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	want := []string{
		"misplaced|CRS#math204#05|NOTE#n1|PK|CRS#math204#05|CRS#math204",
		"misplaced|STU#a91|TCK#t2|PK|STU#a91|" + pk2,
		"misplaced|" + copy3 + "|TCK#t3|PK|" + copy3 + "|" + pk3,
		"misplaced|" + wrong1 + "|TCK#t1|PK|" + wrong1 + "|" + pk1,
	}
	require.ElementsMatch(t, want, findingKeys(res.Findings))
	for _, f := range res.Findings {
		assert.Contains(t, f.String(), `misplaced: `)
		assert.Contains(t, f.String(), `: PK = "`+f.Have+`", want "`+f.Want+`"`)
	}

	rep, err := adjlist.Repair(ctx, s.db, s.table, res.Findings)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{want[0], want[1], want[3]}, findingKeys(rep.Repaired))
	assert.Equal(t, []string{"misplaced|" + copy3 + "|TCK#t3|PK|" + copy3 + "|" + pk3}, findingKeys(rep.Left),
		"t3 is stored at its key: the copy is not moved over it")

	got, err := sharded.Get(ctx, "a91", "t1")
	require.NoError(t, err)
	assert.Equal(t, "t1", got.CreatedAt)
	got, err = sharded.Get(ctx, "a91", "t2")
	require.NoError(t, err)
	assert.Equal(t, "t2", got.CreatedAt)
	got, err = plain.Get(ctx, "math204", "n1")
	require.NoError(t, err)
	assert.Equal(t, "n1", got.CreatedAt)
	again, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	assert.Equal(t, findingKeys(rep.Left), findingKeys(again.Findings))
}

// An expiry that is not a Number is one DynamoDB's Time to Live passes
// over, and one in milliseconds never comes: Verify reports both as a bad
// expiry, alone (not undecodable, also on a type that exposes the field),
// and Repair leaves them.
func TestVerifyReportsBadExpiry(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := newSchool(t)
	type exposed struct {
		Name string `dynamodbav:"name"`
		TTL  int64  `dynamodbav:"ttl"`
	}
	tr := adjlist.Tracking{Expiry: "ttl", Version: "version"}
	authors := adjlist.NewNode[exposed](s.table, "AUTH", "PROFILE", func(o *adjlist.NodeOptions) { o.Tracking = tr })
	notes := adjlist.NewEntity[Ticket](s.table, "note", "n#{noteID}", "note", func(o *adjlist.EntityOptions) { o.Tracking = tr })
	require.NoError(t, s.table.Check())
	soon := adjlist.Expires(time.Now().Add(time.Hour))
	require.NoError(t, authors.Put(ctx, "ada", exposed{Name: "Ada"}, soon))
	require.NoError(t, authors.Put(ctx, "bob", exposed{Name: "Bob"}, soon))
	require.NoError(t, notes.Put(ctx, adjlist.IDs{"n1"}, Ticket{CreatedAt: "x"}, soon))
	require.NoError(t, notes.Put(ctx, adjlist.IDs{"n2"}, Ticket{CreatedAt: "y"}))
	clean, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	require.Empty(t, clean.Findings)

	name := s.table.Name()
	sval := func(v string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"ttl": &types.AttributeValueMemberS{Value: v}}
	}
	moveRaw(t, s.db, name, "AUTH#ada", "PROFILE", "AUTH#ada", sval("2026-12-01"))
	moveRaw(t, s.db, name, "AUTH#bob", "PROFILE", "AUTH#bob", map[string]types.AttributeValue{
		"ttl": &types.AttributeValueMemberS{Value: "soon"}, "version": &types.AttributeValueMemberS{Value: "v"}})
	moveRaw(t, s.db, name, "n#n1", "note", "n#n1", sval("tomorrow"))
	moveRaw(t, s.db, name, "n#n2", "note", "n#n2", map[string]types.AttributeValue{
		"ttl": &types.AttributeValueMemberN{Value: "1764000000000"}}) // milliseconds

	res, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	require.Equal(t, []string{
		`bad expiry|AUTH#ada|PROFILE|ttl|S "2026-12-01"|`,
		`bad expiry|AUTH#bob|PROFILE|ttl|S "soon"|`,
		`bad version|AUTH#bob|PROFILE|version|S "v"|`,
		`bad expiry|n#n1|note|ttl|S "tomorrow"|`,
		`bad expiry|n#n2|note|ttl|N 1764000000000|`,
	}, findingKeysInOrder(res.Findings))
	assert.Equal(t, `bad expiry: "AUTH#ada" "PROFILE" (node AUTH): ttl is S "2026-12-01"`, res.Findings[0].String())

	rep, err := adjlist.Repair(ctx, s.db, s.table, res.Findings, func(o *adjlist.RepairOptions) {
		o.DeleteUnknown, o.DeleteUndecodable, o.DeleteDangling = true, true, true
	})
	require.NoError(t, err)
	assert.Empty(t, rep.Repaired)
	assert.Equal(t, findingKeys(res.Findings), findingKeys(rep.Left))
}
