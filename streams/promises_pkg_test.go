package streams_test

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/streams"
)

// TestLatestARNWithoutStream: LatestARN returns "an error if the table has
// no stream enabled" (never had one, or had it turned off), and
// DescribeTable's error for a table that does not exist.
func TestLatestARNWithoutStream(t *testing.T) {
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	arn, err := streams.LatestARN(ctx, db, table.Name())
	require.Error(t, err)
	assert.Empty(t, arn)
	assert.Contains(t, err.Error(), table.Name())

	_, err = streams.LatestARN(ctx, db, table.Name()+"-missing")
	var missing *types.ResourceNotFoundException
	require.ErrorAs(t, err, &missing)

	// A stream turned off is no current stream, though DescribeTable
	// still gives its LatestStreamArn.
	streamed := adjlist.NewTable(db, ddbtest.TableName(t))
	ddbtest.CreateTable(t, streamed, func(o *adjlist.CreateTableOptions) { o.Stream = true })
	arn, err = streams.LatestARN(ctx, db, streamed.Name())
	require.NoError(t, err)
	require.NotEmpty(t, arn)
	_, err = db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(streamed.Name()),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(false)}})
	require.NoError(t, err)
	arn, err = streams.LatestARN(ctx, db, streamed.Name())
	require.Error(t, err, "the stream is off")
	assert.Empty(t, arn)
}

// TestFromStreamsFields: FromStreams keeps the record's id, kind, sequence
// number and shard and converts its keys and images; ErrMalformedRecord
// reports "an unknown eventName or an attribute value of no DynamoDB
// type". A record delivered to Lambda has no shard.
func TestFromStreamsFields(t *testing.T) {
	sr := streamtypes.Record{EventID: aws.String("e1"), EventName: streamtypes.OperationTypeModify,
		Dynamodb: &streamtypes.StreamRecord{SequenceNumber: aws.String("000000000000000000001"),
			Keys:     map[string]streamtypes.AttributeValue{"PK": &streamtypes.AttributeValueMemberS{Value: "STU#a91"}},
			OldImage: map[string]streamtypes.AttributeValue{"n": &streamtypes.AttributeValueMemberN{Value: "1"}},
			NewImage: map[string]streamtypes.AttributeValue{"n": &streamtypes.AttributeValueMemberN{Value: "2"}},
		}}
	rec, err := streams.FromStreams(sr, "shard-1")
	require.NoError(t, err)
	assert.Equal(t, streams.Record{EventID: "e1", Kind: streams.Modify, SequenceNumber: "000000000000000000001", Shard: "shard-1",
		Keys:     adjlist.Item{"PK": &types.AttributeValueMemberS{Value: "STU#a91"}},
		OldImage: adjlist.Item{"n": &types.AttributeValueMemberN{Value: "1"}},
		NewImage: adjlist.Item{"n": &types.AttributeValueMemberN{Value: "2"}},
	}, rec)

	bad := sr
	bad.EventName = "TRUNCATE"
	_, err = streams.FromStreams(bad, "shard-1")
	require.ErrorIs(t, err, streams.ErrMalformedRecord)
	bad = sr
	bad.Dynamodb = &streamtypes.StreamRecord{SequenceNumber: aws.String("2"),
		NewImage: map[string]streamtypes.AttributeValue{"x": &streamtypes.UnknownUnionMember{Tag: "Q"}}}
	_, err = streams.FromStreams(bad, "shard-1")
	require.ErrorIs(t, err, streams.ErrMalformedRecord)

	lr, err := streams.FromLambda(events.DynamoDBEventRecord{EventID: "e2", EventName: "REMOVE",
		Change: events.DynamoDBStreamRecord{SequenceNumber: "300",
			Keys: map[string]events.DynamoDBAttributeValue{"PK": events.NewStringAttribute("STU#a91")}}})
	require.NoError(t, err)
	assert.Equal(t, streams.Record{EventID: "e2", Kind: streams.Remove, SequenceNumber: "300",
		Keys: adjlist.Item{"PK": &types.AttributeValueMemberS{Value: "STU#a91"}}}, lr, "no shard, no images")
	_, err = streams.FromLambda(events.DynamoDBEventRecord{EventName: "aws:dynamodb"})
	require.ErrorIs(t, err, streams.ErrMalformedRecord)
}

// TestRouterFirstHandlerWins: "the first handler added whose decoder
// accepts a record's keys gets it": a node's record goes to the node's
// handler when it was added before the table's, to the table's when
// after; "Images whose data does not fit T fail the record with the
// decoder's error, before fn is called".
func TestRouterFirstHandlerWins(t *testing.T) {
	ctx := context.Background()
	table := adjlist.NewTable(nil, "school")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	rec := streams.Record{EventID: "e1", Kind: streams.Insert, SequenceNumber: "1",
		Keys:     adjlist.Item{"PK": &types.AttributeValueMemberS{Value: "STU#a91"}, "SK": &types.AttributeValueMemberS{Value: "PROFILE"}},
		NewImage: adjlist.Item{"PK": &types.AttributeValueMemberS{Value: "STU#a91"}, "SK": &types.AttributeValueMemberS{Value: "PROFILE"}, "name": &types.AttributeValueMemberS{Value: "Ada"}}}

	for _, nodeFirst := range []bool{true, false} {
		var got []string
		onNode := func(r *streams.Router) {
			streams.On(r, students, func(_ context.Context, ev streams.Event[adjlist.NodeItem[Student]]) error {
				got = append(got, "node "+ev.Item().Data.Name)
				return nil
			})
		}
		onTable := func(r *streams.Router) {
			streams.On(r, table, func(_ context.Context, ev streams.Event[adjlist.TypedItem]) error {
				got = append(got, ev.Item().Type)
				return nil
			})
		}
		r := new(streams.Router)
		if nodeFirst {
			onNode(r)
			onTable(r)
		} else {
			onTable(r)
			onNode(r)
		}
		require.NoError(t, r.Handle(ctx, rec))
		if nodeFirst {
			assert.Equal(t, []string{"node Ada"}, got)
		} else {
			assert.Equal(t, []string{"node STU"}, got)
		}
	}

	type Strict struct {
		Name int `dynamodbav:"name"`
	}
	called := 0
	r := new(streams.Router)
	streams.On(r, adjlist.NewNode[Strict](adjlist.NewTable(nil, "school"), "STU", "PROFILE"),
		func(context.Context, streams.Event[adjlist.NodeItem[Strict]]) error { called++; return nil })
	r.OnUnknown(func(context.Context, streams.Record) error { called++; return nil })
	err := r.Handle(ctx, rec)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "e1")
	assert.Zero(t, called, "neither the handler nor OnUnknown called")
}

// failingCheckpoint is a MemoryCheckpoint whose Load or Save fails.
type failingCheckpoint struct {
	streams.MemoryCheckpoint
	load, save error
}

func (c *failingCheckpoint) Load(ctx context.Context, shard string) (string, error) {
	if c.load != nil {
		return "", c.load
	}
	return c.MemoryCheckpoint.Load(ctx, shard)
}

func (c *failingCheckpoint) Save(ctx context.Context, shard, seq string) error {
	if c.save != nil {
		return c.save
	}
	return c.MemoryCheckpoint.Save(ctx, shard, seq)
}

// TestCatchUpFirstError: "CatchUp returns the first error: the handler's
// (its batch is not checkpointed, so the next CatchUp delivers it again),
// the checkpoint's, the API's, or ctx's"; Run returns CatchUp's error.
// (ctx's error comes from the client, which this fake does not model.)
func TestCatchUpFirstError(t *testing.T) {
	ctx := context.Background()
	newStream := func() *fakeStream {
		return &fakeStream{shards: []streamtypes.Shard{shard("a", "")},
			records: map[string][]string{"a": {"1", "2", "3"}}, calls: map[string]int{}}
	}
	limit2 := func(o *streams.ReaderOptions) { o.Limit = 2 }
	boom := errors.New("boom")
	var got [][]string
	handle := func(fail bool) func(context.Context, []streams.Record) error {
		return func(_ context.Context, recs []streams.Record) error {
			var seqs []string
			for _, r := range recs {
				seqs = append(seqs, r.SequenceNumber)
			}
			got = append(got, seqs)
			if fail {
				return boom
			}
			return nil
		}
	}

	f, cp := newStream(), new(streams.MemoryCheckpoint)
	require.ErrorIs(t, streams.NewReader(f, "arn", cp, limit2).CatchUp(ctx, handle(true)), boom)
	assert.Equal(t, [][]string{{"1", "2"}}, got, "stops at the failed batch")
	last, err := cp.Load(ctx, "a")
	require.NoError(t, err)
	assert.Empty(t, last, "the failed batch not checkpointed")
	require.ErrorIs(t, streams.NewReader(f, "arn", cp, limit2).Run(ctx, handle(true)), boom, "Run returns CatchUp's error")
	got = nil
	require.NoError(t, streams.NewReader(f, "arn", cp, limit2).CatchUp(ctx, handle(false)))
	assert.Equal(t, [][]string{{"1", "2"}, {"3"}}, got, "delivered again")

	saveErr, loadErr := errors.New("save"), errors.New("load")
	f, got = newStream(), nil
	require.ErrorIs(t, streams.NewReader(f, "arn", &failingCheckpoint{save: saveErr}, limit2).CatchUp(ctx, handle(false)), saveErr)
	assert.Equal(t, [][]string{{"1", "2"}}, got, "stops at the batch it could not checkpoint")
	f, got = newStream(), nil
	require.ErrorIs(t, streams.NewReader(f, "arn", &failingCheckpoint{load: loadErr}).CatchUp(ctx, handle(false)), loadErr)
	assert.Empty(t, got)
	assert.Zero(t, f.calls["GetShardIterator"], "no iterator without the checkpoint")

}
