package streams_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/streams"
)

// gappedStream is a fakeStream whose shards' first GetRecords from their
// start returns no records but a next iterator, as DynamoDB Streams does
// for a portion of a shard without records ("it might take multiple
// calls to get to a portion of the shard that contains stream records").
type gappedStream struct {
	*fakeStream
	gapped map[string]bool
}

func (g *gappedStream) GetRecords(ctx context.Context, in *dynamodbstreams.GetRecordsInput, o ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error) {
	shard, from, _ := strings.Cut(*in.ShardIterator, "/")
	if from == "0" && !g.gapped[shard] {
		g.count("GetRecords")
		g.gapped[shard] = true
		return &dynamodbstreams.GetRecordsOutput{NextShardIterator: in.ShardIterator}, nil
	}
	return g.fakeStream.GetRecords(ctx, in, o...)
}

// TestCatchUpReadsClosedShardToItsEnd: "A shard is done when it is closed
// and read to its end, or, while open, when a GetRecords returns no
// records": an empty GetRecords of a closed shard (one with an ending
// sequence number) that gives a next iterator is not its end, so its
// records, and its child's after them, are delivered in one CatchUp; an
// open shard's empty GetRecords ends its catch-up.
func TestCatchUpReadsClosedShardToItsEnd(t *testing.T) {
	ctx := context.Background()
	parent := shard("a", "")
	parent.SequenceNumberRange = &streamtypes.SequenceNumberRange{StartingSequenceNumber: aws.String("1"), EndingSequenceNumber: aws.String("2")}
	f := &gappedStream{fakeStream: &fakeStream{
		shards:  []streamtypes.Shard{parent, shard("b", "a")},
		records: map[string][]string{"a": {"1", "2"}, "b": {"3"}},
		open:    map[string]bool{"b": true},
		calls:   map[string]int{},
	}, gapped: map[string]bool{}}
	var got []string
	handle := func(_ context.Context, recs []streams.Record) error {
		for _, r := range recs {
			got = append(got, r.Shard+":"+r.SequenceNumber)
		}
		return nil
	}
	cp := new(streams.MemoryCheckpoint)
	require.NoError(t, streams.NewReader(f, "arn", cp).CatchUp(ctx, handle))
	assert.Equal(t, []string{"a:1", "a:2"}, got, "the closed shard read past its empty batch; the open one stops at its own")
	require.NoError(t, streams.NewReader(f, "arn", cp).CatchUp(ctx, handle))
	assert.Equal(t, []string{"a:1", "a:2", "b:3"}, got, "the next catch-up goes on with the open shard alone")
}
