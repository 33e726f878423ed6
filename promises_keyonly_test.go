package adjlist_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// ticket keeps its opening date only inside its GSI1 sort key, after its
// status: "open#2026-01-02". A ticket with no status has no GSI1 sort
// key (a sparse index), so no key would hold its date.
type ticket struct {
	ID     string `dynamodbav:"id"`
	Status string `dynamodbav:"status,omitempty"`
	Date   string `dynamodbav:"date"`
	Note   string `dynamodbav:"note,omitempty"`
}

func newTickets(calls adjlist.Client, name string) (*adjlist.Table, *adjlist.Entity[ticket]) {
	table := adjlist.NewTable(calls, name, func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{{Name: "GSI1", PartitionKey: "GSI1PK", SortKey: "GSI1SK"}}
	})
	tickets := adjlist.NewEntity[ticket](table, "ticket", "t#{id}", "meta", func(o *adjlist.EntityOptions) {
		o.KeyOnly = []string{"date"}
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI1", PartitionKey: adjlist.Template("TICKET"), SortKey: adjlist.Template("{status}#{date}")}}
	})
	return table, tickets
}

// TestKeyOnlyValueNeverDroppedByAWrite: a value kept only inside an index
// key is written into that key; a write that would not write the key (a
// sparse index key whose other value is empty) would lose the value, and
// is refused before any request, for every kind of write.
func TestKeyOnlyValueNeverDroppedByAWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	calls := &countingClient{}
	table, tickets := newTickets(calls, "t")
	require.NoError(t, table.Check())
	lost := ticket{ID: "t1", Date: "2026-01-02"} // no status: no GSI1 sort key
	tx := adjlist.NewTx(table)
	tickets.Put(ctx, nil, lost, adjlist.InTx(tx))
	txr := adjlist.NewTx(table)
	tickets.Replace(ctx, nil, lost, adjlist.InTx(txr))
	for name, err := range map[string]error{
		"Put":          tickets.Put(ctx, nil, lost),
		"Put ids":      tickets.Put(ctx, adjlist.IDs{"t1"}, lost),
		"Replace":      tickets.Replace(ctx, nil, lost),
		"PutMany":      errOf(tickets.PutMany(ctx, []adjlist.EntityItem[ticket]{{Data: lost}})),
		"Put InTx":     tx.Commit(ctx),
		"Replace InTx": txr.Commit(ctx),
	} {
		require.ErrorIs(t, err, adjlist.ErrInvalidKey, name)
		var ke *adjlist.KeyError
		require.ErrorAs(t, err, &ke, name)
		assert.Contains(t, ke.Reason, "date", name)
	}
	assert.Zero(t, calls.total(), "refused before any request")
}

// TestKeyOnlyValueKeptByAnyKey: a value kept only inside index keys may
// be written by any of the keys holding it; a write that leaves the first
// out (its other value empty) but writes another keeps the value there,
// and a read parses it back from that key.
func TestKeyOnlyValueKeptByAnyKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{{Name: "GSI1", PartitionKey: "GSI1PK", SortKey: "GSI1SK"}, {Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	tickets := adjlist.NewEntity[ticket](table, "ticket", "t#{id}", "meta", func(o *adjlist.EntityOptions) {
		o.KeyOnly = []string{"date"}
		o.Indexes = []adjlist.IndexKeys{
			{Index: "GSI1", PartitionKey: adjlist.Template("TICKET"), SortKey: adjlist.Template("{status}#{date}")},
			{Index: "GSI2", PartitionKey: adjlist.Template("DAY"), SortKey: adjlist.Template("{date}")},
		}
	})
	ddbtest.CreateTable(t, table)
	want := ticket{ID: "t1", Date: "2026-01-02"} // no status: no GSI1 sort key
	require.NoError(t, tickets.Put(ctx, nil, want))
	out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table.Name()), ConsistentRead: aws.Bool(true),
		Key: adjlist.Item{"PK": av("t#t1"), "SK": av("meta")}})
	require.NoError(t, err)
	assert.Equal(t, adjlist.Item{"PK": av("t#t1"), "SK": av("meta"), "id": av("t1"), "GSI1PK": av("TICKET"), "GSI2PK": av("DAY"), "GSI2SK": av("2026-01-02")},
		out.Item, "the date only in the second index's key (GSI1's sort key left out)")
	got, err := tickets.Get(ctx, adjlist.IDs{"t1"}, adjlist.Consistent)
	require.NoError(t, err)
	assert.Equal(t, want, got, "the date read back from GSI2SK")
}

// TestKeyOnlyValueNeverDroppedByAnUpdate: an update that removes an
// attribute sharing an index key with a value kept only inside that key
// would remove the key, and the value with it; it is refused before any
// request, as an update naming the value is.
func TestKeyOnlyValueNeverDroppedByAnUpdate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	calls := &countingClient{Client: db}
	table, tickets := newTickets(calls, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	require.NoError(t, table.Check())
	want := ticket{ID: "t1", Status: "open", Date: "2026-01-02"}
	require.NoError(t, tickets.Put(ctx, nil, want))
	out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table.Name()), ConsistentRead: aws.Bool(true),
		Key: adjlist.Item{"PK": av("t#t1"), "SK": av("meta")}})
	require.NoError(t, err)
	assert.Equal(t, adjlist.Item{"PK": av("t#t1"), "SK": av("meta"), "id": av("t1"), "status": av("open"),
		"GSI1PK": av("TICKET"), "GSI1SK": av("open#2026-01-02")}, out.Item, "the date only in the key")

	before := calls.total()
	for name, u := range map[string]adjlist.Update{
		"remove status":       adjlist.Remove("status"),
		"empty status":        adjlist.Set("status", ""),
		"remove, and a note":  adjlist.Set("note", "n").Remove("status"),
		"the value itself":    adjlist.Set("date", "2027-01-01"),
		"the value, removed":  adjlist.Remove("date"),
		"status and the date": adjlist.Set("status", "closed").Set("date", "2027-01-01"),
	} {
		_, err := tickets.Update(ctx, adjlist.IDs{"t1"}, u)
		require.ErrorIs(t, err, adjlist.ErrKeyAttribute, name)
		tx := adjlist.NewTx(table)
		tickets.Update(ctx, adjlist.IDs{"t1"}, u, adjlist.InTx(tx))
		require.ErrorIs(t, tx.Commit(ctx), adjlist.ErrKeyAttribute, name)
	}
	assert.Equal(t, before, calls.total(), "refused before any request")

	got, err := tickets.Get(ctx, adjlist.IDs{"t1"}, adjlist.Consistent)
	require.NoError(t, err)
	assert.Equal(t, want, got, "the date is still there")
	got, err = tickets.Update(ctx, adjlist.IDs{"t1"}, adjlist.Set("note", "n"))
	require.NoError(t, err)
	want.Note = "n"
	assert.Equal(t, want, got, "an update the key does not feed is taken")
}

// TestKeyFieldsTypedAsTheEncoderWrites: a key field tagged ",string", or a
// json.Number, is the attribute the encoder writes (S, N): a write from
// the data alone stores the design's item byte for byte, and an item a
// plain SDK call wrote, read with Get and written back with Replace, is
// stored again as it was, and verifies clean.
func TestKeyFieldsTypedAsTheEncoderWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) { o.NoIndex = true })
	ddbtest.CreateTable(t, table)
	type round struct {
		Round int    `dynamodbav:"round,string"`
		Name  string `dynamodbav:"name"`
	}
	type score struct {
		Points json.Number `dynamodbav:"points"`
		Who    string      `dynamodbav:"who"`
	}
	type level struct {
		Level int    `dynamodbav:"level,string"` // only in the sort key
		Name  string `dynamodbav:"name"`
	}
	rounds := adjlist.NewEntity[round](table, "round", "r#{round}", "meta")
	scores := adjlist.NewEntity[score](table, "score", "s#{who}", "p#{points}")
	levels := adjlist.NewEntity[level](table, "level", "lv", "l#{level}",
		func(o *adjlist.EntityOptions) { o.KeyOnly = []string{"level"} })
	require.NoError(t, table.Check())

	raw := func(pk, sk string) adjlist.Item {
		out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table.Name()), ConsistentRead: aws.Bool(true),
			Key: adjlist.Item{"PK": av(pk), "SK": av(sk)}})
		require.NoError(t, err)
		return out.Item
	}
	for _, c := range []struct {
		name     string
		put      func() error
		design   adjlist.Item // as the encoder writes it
		other    adjlist.Item // as another program wrote it
		getPut   func() error
		pk, sk   string
		opk, osk string
	}{
		{
			name:   "int tagged string",
			put:    func() error { return rounds.Put(ctx, nil, round{Round: 7, Name: "a"}) },
			design: adjlist.Item{"PK": av("r#7"), "SK": av("meta"), "round": av("7"), "name": av("a")},
			other:  adjlist.Item{"PK": av("r#8"), "SK": av("meta"), "round": av("8"), "name": av("b")},
			getPut: func() error {
				v, err := rounds.Get(ctx, adjlist.IDs{"8"})
				require.NoError(t, err)
				assert.Equal(t, 8, v.Round)
				return rounds.Replace(ctx, nil, v)
			},
			pk: "r#7", sk: "meta", opk: "r#8", osk: "meta",
		},
		{
			name:   "json.Number",
			put:    func() error { return scores.Put(ctx, nil, score{Points: "12.5", Who: "w1"}) },
			design: adjlist.Item{"PK": av("s#w1"), "SK": av("p#12.5"), "points": &typesN{Value: "12.5"}, "who": av("w1")},
			other:  adjlist.Item{"PK": av("s#w2"), "SK": av("p#3"), "points": &typesN{Value: "3"}, "who": av("w2")},
			getPut: func() error {
				v, err := scores.Get(ctx, adjlist.IDs{"w2", "3"})
				require.NoError(t, err)
				assert.Equal(t, json.Number("3"), v.Points)
				return scores.Replace(ctx, nil, v)
			},
			pk: "s#w1", sk: "p#12.5", opk: "s#w2", osk: "p#3",
		},
		{
			name:   "key only, tagged string",
			put:    func() error { return levels.Put(ctx, nil, level{Level: 3, Name: "c"}) },
			design: adjlist.Item{"PK": av("lv"), "SK": av("l#3"), "name": av("c")},
			other:  adjlist.Item{"PK": av("lv"), "SK": av("l#4"), "name": av("d")},
			getPut: func() error {
				v, err := levels.Get(ctx, adjlist.IDs{"4"})
				require.NoError(t, err)
				assert.Equal(t, level{Level: 4, Name: "d"}, v)
				return levels.Replace(ctx, nil, v)
			},
			pk: "lv", sk: "l#3", opk: "lv", osk: "l#4",
		},
	} {
		require.NoError(t, c.put(), c.name)
		assert.Equal(t, c.design, raw(c.pk, c.sk), c.name)
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table.Name()), Item: c.other})
		require.NoError(t, err)
		require.NoError(t, c.getPut(), c.name)
		assert.Equal(t, c.other, raw(c.opk, c.osk), c.name)
	}
	res, err := adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
}

// TestVerifyReportsKeyOnlyKeyFieldHeld: a table key field the entity keeps
// only inside keys, held as an attribute too, is an undeclared attribute
// (a Replace of the value Get read leaves it out); held with another
// value than the key's, it is a key mismatch as well. Repair leaves both.
func TestVerifyReportsKeyOnlyKeyFieldHeld(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := ddbtest.Client(t)
	table, lines := newOrderLines(t, db)
	for _, id := range []string{"1", "2"} {
		require.NoError(t, lines.Put(ctx, nil, orderLine{OrderID: id, ProductID: "p", Date: "2026-01-02", CustomerID: "c", Quantity: 1}))
	}
	for id, v := range map[string]string{"1": "1", "2": "999"} {
		_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table.Name()), Key: adjlist.Item{"PK": av("o#" + id), "SK": av("p#p")},
			UpdateExpression: aws.String("SET orderId = :v"), ExpressionAttributeValues: adjlist.Item{":v": av(v)}})
		require.NoError(t, err)
	}
	res, err := adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{
		"undeclared attribute|o#1|p#p|orderId|S \"1\"|",
		"undeclared attribute|o#2|p#p|orderId|S \"999\"|",
		"key mismatch|o#2|p#p|orderId|999|2",
	}, findingKeys(res.Findings))
	rep, err := adjlist.Repair(ctx, db, table, res.Findings)
	require.NoError(t, err)
	assert.ElementsMatch(t, findingKeys(res.Findings), findingKeys(rep.Left))
}

// TestRepairKeepsTheKeyThatHoldsAKeyOnlyValue: when another program
// removes the value an index key is made of besides a value kept only
// inside it, the key is all that holds that value: Verify does not report
// it as a key to remove, Repair and Migrate keep it, and Get still reads
// the value.
func TestRepairKeepsTheKeyThatHoldsAKeyOnlyValue(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := ddbtest.Client(t)
	table, tickets := newTickets(db, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	require.NoError(t, tickets.Put(ctx, nil, ticket{ID: "t1", Status: "open", Date: "2026-01-02"}))
	key := adjlist.Item{"PK": av("t#t1"), "SK": av("meta")}
	_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table.Name()), Key: key,
		UpdateExpression: aws.String("REMOVE #s"), ExpressionAttributeNames: map[string]string{"#s": "status"}})
	require.NoError(t, err)
	before, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table.Name()), Key: key, ConsistentRead: aws.Bool(true)})
	require.NoError(t, err)
	require.Equal(t, av("open#2026-01-02"), before.Item["GSI1SK"])

	res, err := adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings, "no key to remove")
	_, err = adjlist.Repair(ctx, db, table, res.Findings)
	require.NoError(t, err)
	_, err = adjlist.Migrate(ctx, db, tickets)
	require.NoError(t, err)
	after, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table.Name()), Key: key, ConsistentRead: aws.Bool(true)})
	require.NoError(t, err)
	assert.Equal(t, before.Item, after.Item, "nothing removed")
	got, err := tickets.Get(ctx, adjlist.IDs{"t1"}, adjlist.Consistent)
	require.NoError(t, err)
	assert.Equal(t, ticket{ID: "t1", Date: "2026-01-02"}, got)

	// A status another program changed is a stale key, rewritten with the
	// date it held.
	_, err = db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table.Name()), Key: key,
		UpdateExpression: aws.String("SET #s = :s"), ExpressionAttributeNames: map[string]string{"#s": "status"},
		ExpressionAttributeValues: adjlist.Item{":s": av("closed")}})
	require.NoError(t, err)
	res, err = adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	require.Len(t, res.Findings, 1)
	assert.Equal(t, adjlist.FindingIndexKeyStale, res.Findings[0].Kind)
	_, err = adjlist.Repair(ctx, db, table, res.Findings)
	require.NoError(t, err)
	got, err = tickets.Get(ctx, adjlist.IDs{"t1"}, adjlist.Consistent)
	require.NoError(t, err)
	assert.Equal(t, ticket{ID: "t1", Status: "closed", Date: "2026-01-02"}, got)
}

// TestKeyOnlyReadFromKeysAnotherProgramWrote: a value kept only inside a
// sharded index partition key is read from a key another program wrote
// when the key parses unambiguously under the template (with the two
// digit shard suffix, or without one, as a key written before the index
// was sharded), and is refused with ErrInvalidKey otherwise, never read
// as another value. The old reader took any text after the last '#' as
// the shard, so it refused a key without a suffix and read "DAY##07" as
// an empty date.
func TestKeyOnlyReadFromKeysAnotherProgramWrote(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{{Name: "GSI1", PartitionKey: "GSI1PK", SortKey: "GSI1SK"}}
	})
	tickets := adjlist.NewEntity[ticket](table, "ticket", "t#{id}", "meta", func(o *adjlist.EntityOptions) {
		o.KeyOnly = []string{"date"}
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI1", PartitionKey: adjlist.Template("DAY#{date}"), SortKey: adjlist.Template("TICKET"), Shards: 4}}
	})
	ddbtest.CreateTable(t, table)
	require.NoError(t, tickets.Put(ctx, nil, ticket{ID: "mine", Date: "2026-01-02"}))
	for _, c := range []struct {
		id, key string
		want    string // "": refused
	}{
		{"mine", "", "2026-01-02"}, // as the Put wrote it
		{"suffixed", "DAY#2026-01-02#03", "2026-01-02"},
		{"unsharded", "DAY#2026-01-02", "2026-01-02"},
		{"empty", "DAY##07", ""},
		{"not a shard", "DAY#2026-01-02#x", ""},
	} {
		if c.key != "" {
			_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table.Name()), Item: adjlist.Item{
				"PK": av("t#" + c.id), "SK": av("meta"), "id": av(c.id), "GSI1PK": av(c.key), "GSI1SK": av("TICKET")}})
			require.NoError(t, err)
		}
		got, err := tickets.Get(ctx, adjlist.IDs{c.id}, adjlist.Consistent)
		if c.want == "" {
			require.ErrorIs(t, err, adjlist.ErrInvalidKey, c.id)
			continue
		}
		require.NoError(t, err, c.id)
		assert.Equal(t, ticket{ID: c.id, Date: c.want}, got, c.id)
	}
}
