package adjlist_test

import (
	"encoding/json"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// roundScore's key field round is a number the data may leave empty (a
// nil pointer): the id given is then its value.
type roundScore struct {
	Round *float64 `dynamodbav:"round"`
	Name  string   `dynamodbav:"name"`
}

// pointsScore's key field points is a json.Number, its text as given.
type pointsScore struct {
	Points json.Number `dynamodbav:"points"`
}

// TestNumberKeyFieldIDsAsDynamoDBStoresThem: DynamoDB stores a number in
// one text (007 as 7, 1.50 as 1.5); an id of a number key field in
// another text would make the item's attribute and keys disagree (Verify:
// FindingKeyMismatch), so a write refuses it before any request, whether
// the id is given or the data's own; ids in DynamoDB's text are written,
// verify clean, and Get + Replace stores the item as it was.
func TestNumberKeyFieldIDsAsDynamoDBStoresThem(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	calls := &countingClient{}
	table := adjlist.NewTable(calls, "t", func(o *adjlist.Options) { o.NoIndex = true })
	rounds := adjlist.NewEntity[roundScore](table, "round", "r#{round}", "s")
	points := adjlist.NewEntity[pointsScore](table, "points", "p#{points}", "s")
	require.NoError(t, table.Check())
	for _, id := range []string{"007", "1.50", "+5", "1e2", "-0", "0.0", ".5", "5.", "--5"} {
		var ke *adjlist.KeyError
		require.ErrorAs(t, rounds.Put(ctx, adjlist.IDs{id}, roundScore{}), &ke, "given %s", id)
		assert.Equal(t, id, ke.ID)
		require.ErrorIs(t, rounds.Replace(ctx, adjlist.IDs{id}, roundScore{}), adjlist.ErrInvalidKey, "given %s", id)
		require.ErrorIs(t, points.Put(ctx, nil, pointsScore{Points: json.Number(id)}), adjlist.ErrInvalidKey, "the data's %s", id)
		require.ErrorIs(t, errOf(points.PutMany(ctx, []adjlist.EntityItem[pointsScore]{{Data: pointsScore{Points: json.Number(id)}}})), adjlist.ErrInvalidKey, "the data's %s", id)
		tx := adjlist.NewTx(table)
		rounds.Put(ctx, adjlist.IDs{id}, roundScore{}, adjlist.InTx(tx))
		require.ErrorIs(t, tx.Commit(ctx), adjlist.ErrInvalidKey, "given %s", id)
	}
	assert.Zero(t, calls.total(), "refused before any request")

	db := ddbtest.Client(t)
	table = adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) { o.NoIndex = true })
	ddbtest.CreateTable(t, table)
	rounds = adjlist.NewEntity[roundScore](table, "round", "r#{round}", "s")
	points = adjlist.NewEntity[pointsScore](table, "points", "p#{points}", "s")
	for _, id := range []string{"7", "-12.5", "0", "0.25", "1000"} {
		require.NoError(t, rounds.Put(ctx, adjlist.IDs{id}, roundScore{Name: id}), id)
		require.NoError(t, points.Put(ctx, nil, pointsScore{Points: json.Number(id)}), id)
		out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table.Name()), ConsistentRead: aws.Bool(true),
			Key: adjlist.Item{"PK": av("r#" + id), "SK": av("s")}})
		require.NoError(t, err)
		assert.Equal(t, adjlist.Item{"PK": av("r#" + id), "SK": av("s"), "round": &typesN{Value: id}, "name": av(id)}, out.Item, id)
		v, err := rounds.Get(ctx, adjlist.IDs{id})
		require.NoError(t, err)
		require.NoError(t, rounds.Replace(ctx, nil, v), id)
		again, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table.Name()), ConsistentRead: aws.Bool(true),
			Key: adjlist.Item{"PK": av("r#" + id), "SK": av("s")}})
		require.NoError(t, err)
		assert.Equal(t, out.Item, again.Item, id)
	}
	res, err := adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
}

// TestKeyMismatchFindingSaysWhatDiffers: a FindingKeyMismatch's one line
// says what differs, as every finding's does: the attribute, its value and
// the id the keys hold.
func TestKeyMismatchFindingSaysWhatDiffers(t *testing.T) {
	f := adjlist.Finding{Kind: adjlist.FindingKeyMismatch, Type: "entity complaint", Key: adjlist.Key{PK: "Complaint4", SK: "metadata"},
		Attribute: "complaint_id", Have: "Complaint5", Want: "Complaint4"}
	assert.Equal(t, `key mismatch: "Complaint4" "metadata" (entity complaint): complaint_id = "Complaint5", want "Complaint4"`, f.String())
}

// intRound, tinyRound and countRound hold their key field in integer
// types, which take whole numbers in their range only.
type intRound struct {
	Round *int `dynamodbav:"round"`
}

type tinyRound struct {
	Round *int8 `dynamodbav:"round"`
}

type countRound struct {
	Round *uint `dynamodbav:"round"`
}

// TestNumberKeyFieldIDsFitTheGoType: an id that the Go type of its key
// field cannot hold (a fraction for an int, 300 for an int8, a negative
// number for a uint) would be written and then fail every read's
// decoding, so a write refuses it before any request; ids that fit are
// written and read back.
func TestNumberKeyFieldIDsFitTheGoType(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	calls := &countingClient{}
	table := adjlist.NewTable(calls, "t", func(o *adjlist.Options) { o.NoIndex = true })
	ints := adjlist.NewEntity[intRound](table, "int", "i#{round}", "s")
	tiny := adjlist.NewEntity[tinyRound](table, "tiny", "t#{round}", "s")
	counts := adjlist.NewEntity[countRound](table, "count", "c#{round}", "s")
	require.NoError(t, table.Check())
	for _, c := range []struct {
		put func() error
		id  string
	}{
		{func() error { return ints.Put(ctx, adjlist.IDs{"-12.5"}, intRound{}) }, "-12.5"},
		{func() error { return ints.Put(ctx, adjlist.IDs{"99999999999999999999"}, intRound{}) }, "99999999999999999999"},
		{func() error { return tiny.Put(ctx, adjlist.IDs{"300"}, tinyRound{}) }, "300"},
		{func() error { return counts.Replace(ctx, adjlist.IDs{"-1"}, countRound{}) }, "-1"},
	} {
		var ke *adjlist.KeyError
		require.ErrorAs(t, c.put(), &ke, c.id)
		assert.Equal(t, c.id, ke.ID)
		assert.ErrorIs(t, ke, adjlist.ErrInvalidKey)
	}
	assert.Zero(t, calls.total(), "refused before any request")

	db := ddbtest.Client(t)
	table = adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) { o.NoIndex = true })
	ddbtest.CreateTable(t, table)
	ints = adjlist.NewEntity[intRound](table, "int", "i#{round}", "s")
	tiny = adjlist.NewEntity[tinyRound](table, "tiny", "t#{round}", "s")
	require.NoError(t, ints.Put(ctx, adjlist.IDs{"-12"}, intRound{}))
	require.NoError(t, tiny.Put(ctx, adjlist.IDs{"127"}, tinyRound{}))
	got, err := ints.Get(ctx, adjlist.IDs{"-12"})
	require.NoError(t, err)
	require.NotNil(t, got.Round)
	assert.Equal(t, -12, *got.Round)
	small, err := tiny.Get(ctx, adjlist.IDs{"127"})
	require.NoError(t, err)
	require.NotNil(t, small.Round)
	assert.Equal(t, int8(127), *small.Round)
}
