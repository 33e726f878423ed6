package adjlist_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// Day is a date that marshals itself as "2006-01-02".
type Day time.Time

func (d Day) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberS{Value: time.Time(d).Format(time.DateOnly)}, nil
}

func (d *Day) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	s, ok := av.(*types.AttributeValueMemberS)
	if !ok {
		return nil
	}
	t, err := time.Parse(time.DateOnly, s.Value)
	*d = Day(t)
	return err
}

// Meeting is tagged for encoding/json, with a time the table's encoder
// stores as epoch seconds and a date that marshals itself.
type Meeting struct {
	Room string    `json:"room"`
	At   time.Time `json:"at"`
	On   Day       `json:"on"`
}

// TestIndexValuesSpelledByTheTableEncoder: the values a query is given for
// a key (ByIndex's values on a derived and on a native index, range
// values) are encoded with the table's EncoderOptions, as the write that
// made the key encoded the data, so the query finds the item: a time.Time
// under EncodeTime to epoch seconds, a type marshalling itself, data
// tagged for encoding/json. Put, Update, Verify and Migrate agree.
func TestIndexValuesSpelledByTheTableEncoder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	calls := &countingClient{Client: db}
	table := adjlist.NewTable(calls, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.EncoderOptions = func(eo *attributevalue.EncoderOptions) {
			eo.TagKey = "json"
			eo.EncodeTime = func(t time.Time) (types.AttributeValue, error) {
				return &types.AttributeValueMemberN{Value: strconv.FormatInt(t.Unix(), 10)}, nil
			}
		}
		o.DecoderOptions = func(do *attributevalue.DecoderOptions) { do.TagKey = "json" }
		o.Indexes = []adjlist.Index{
			{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"},
			{Name: "GSI3", PartitionKey: "GSI3PK", SortKey: "GSI3SK"},
			{Name: "ByRoom", PartitionAttributes: []adjlist.KeyAttribute{{Name: "room"}},
				SortAttributes: []adjlist.KeyAttribute{{Name: "at", Type: "N"}}},
		}
	})
	ddbtest.CreateTable(t, table)
	meetings := adjlist.NewNode[Meeting](table, "MEET", "", func(o *adjlist.NodeOptions) {
		o.Indexes = []adjlist.IndexKeys{
			{Index: "GSI2", PartitionKey: adjlist.Template("AT#{at}"), SortKey: adjlist.Template("{room}")},
			{Index: "GSI3", PartitionKey: adjlist.Template("ROOM#{room}"), SortKey: adjlist.Template("ON#{on}")},
		}
	})
	require.NoError(t, table.Check())

	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	day := func(d int) Day { return Day(time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC)) }
	for i, m := range []Meeting{
		{Room: "blue", At: at, On: day(2)},
		{Room: "blue", At: at.Add(time.Hour), On: day(3)},
		{Room: "blue", At: at.Add(48 * time.Hour), On: day(4)},
	} {
		require.NoError(t, meetings.Put(ctx, "m"+strconv.Itoa(i), m))
	}
	out, err := db.GetItem(ctx, getInput(table.Name(), "MEET#m0", "MEET#m0"))
	require.NoError(t, err)
	require.Equal(t, &types.AttributeValueMemberS{Value: "AT#1767323045"}, out.Item["GSI2PK"], "the write spells the time as its encoder stores it")
	require.Equal(t, &types.AttributeValueMemberS{Value: "ON#2026-01-02"}, out.Item["GSI3SK"])

	ids := func(q adjlist.Query[adjlist.NodeItem[Meeting]]) ([]string, error) {
		got, err := q.Collect(ctx)
		var out []string
		for _, it := range got {
			out = append(out, it.ID)
		}
		return out, err
	}
	// found polls until q returns want (a global index is eventually
	// consistent), then asserts it.
	found := func(t *testing.T, want []string, q adjlist.Query[adjlist.NodeItem[Meeting]]) {
		t.Helper()
		assert.Eventually(t, func() bool {
			got, err := ids(q)
			return err == nil && assert.ObjectsAreEqual(want, got)
		}, 5*time.Second, 20*time.Millisecond)
		got, err := ids(q)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	for _, tc := range []struct {
		name string
		q    adjlist.Query[adjlist.NodeItem[Meeting]]
		want []string
	}{
		{"derived partition of a time", meetings.ByIndex("GSI2", at), []string{"m0"}},
		{"derived partition, equal on its sort key", meetings.ByIndex("GSI2", at.Add(time.Hour)).Equal("blue"), []string{"m1"}},
		{"range of a type marshalling itself", meetings.ByIndex("GSI3", "blue").GreaterThanEqual(day(3)), []string{"m1", "m2"}},
		{"between of a type marshalling itself", meetings.ByIndex("GSI3", "blue").Between(day(2), day(3)), []string{"m0", "m1"}},
		{"native sort attribute fixed to a time", meetings.ByIndex("ByRoom", "blue", at.Add(time.Hour)), []string{"m1"}},
		{"native range on a time", meetings.ByIndex("ByRoom", "blue").GreaterThan(at), []string{"m1", "m2"}},
		{"native between times", meetings.ByIndex("ByRoom", "blue").Between(at, at.Add(time.Hour)), []string{"m0", "m1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			found(t, tc.want, tc.q)
		})
	}

	// An update moves the derived key as the encoder spells the new time.
	later := at.Add(24 * time.Hour)
	_, err = meetings.Update(ctx, "m0", adjlist.Set("at", later))
	require.NoError(t, err)
	found(t, []string{"m0"}, meetings.ByIndex("GSI2", later))
	found(t, nil, meetings.ByIndex("GSI2", at))

	// A time stored as a number is no text for a string sort key.
	before := calls.total()
	_, err = meetings.ByIndex("GSI3", "blue").GreaterThan(at).Collect(ctx)
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	assert.Equal(t, before, calls.total(), "refused before any request")

	res, err := adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings, "the keys are the ones the data spells")
	mig, err := adjlist.Migrate(ctx, db, meetings)
	require.NoError(t, err)
	assert.Equal(t, 3, mig.Matched)
	assert.Zero(t, mig.Rewritten, "Migrate spells the keys as the writes did")
}

// Call is tagged to store its time as epoch seconds itself (",unixtime"),
// an option of the field the table's encoder cannot apply to a bare value.
type Call struct {
	Line string    `dynamodbav:"line"`
	At   time.Time `dynamodbav:"at,unixtime"`
}

// TestIndexValueOfAFieldTagOption: as Options.EncoderOptions says, a
// field's own ",unixtime" shapes the key a write makes, and a query finds
// the item given the value as the tag makes it (t.Unix()), not the
// time.Time, which the table's encoder spells another way.
func TestIndexValueOfAFieldTagOption(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	table := adjlist.NewTable(ddbtest.Client(t), ddbtest.TableName(t), func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	ddbtest.CreateTable(t, table)
	calls := adjlist.NewNode[Call](table, "CALL", "", func(o *adjlist.NodeOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("AT#{at}"), SortKey: adjlist.Template("{line}")}}
	})
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	require.NoError(t, calls.Put(ctx, "c1", Call{Line: "l1", At: at}))

	got, err := calls.ByIndex("GSI2", at.Unix()).Collect(ctx)
	require.NoError(t, err)
	require.Len(t, got, 1, "the value as the tag makes it finds the item")
	assert.True(t, at.Equal(got[0].Data.At))

	got, err = calls.ByIndex("GSI2", at).Collect(ctx)
	require.NoError(t, err)
	assert.Empty(t, got, "the time.Time itself is spelled by the table's encoder, not the field's tag")
}
