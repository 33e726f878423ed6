package streams_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
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

// TestReaderOptionsZeroMeansDefault: "The zero value of each field means
// its default": a Limit or PollInterval set to 0 reads as 1000 records
// and 1 second do (a Limit of 0 went to GetRecords, which refuses it,
// and a PollInterval of 0 polled without pause); values that cannot work
// are ErrInvalidOption before any request.
func TestReaderOptionsZeroMeansDefault(t *testing.T) {
	ctx := context.Background()
	f := &limitedStream{fakeStream: &fakeStream{
		shards:  []streamtypes.Shard{shard("a", "")},
		records: map[string][]string{"a": {"1", "2", "3"}},
		calls:   map[string]int{},
	}}
	var got []string
	handle := func(_ context.Context, recs []streams.Record) error {
		for _, r := range recs {
			got = append(got, r.SequenceNumber)
		}
		return nil
	}
	zero := func(o *streams.ReaderOptions) { o.Limit, o.PollInterval = 0, 0 }
	require.NoError(t, streams.NewReader(f, "arn", new(streams.MemoryCheckpoint), zero).CatchUp(ctx, handle))
	assert.Equal(t, []string{"1", "2", "3"}, got)
	assert.Equal(t, []int32{1000}, f.limits, "the default Limit sent")

	for _, bad := range []func(*streams.ReaderOptions){
		func(o *streams.ReaderOptions) { o.Limit = -1 },
		func(o *streams.ReaderOptions) { o.Limit = 1001 },
		func(o *streams.ReaderOptions) { o.PollInterval = -time.Second },
	} {
		f.calls = map[string]int{}
		r := streams.NewReader(f, "arn", new(streams.MemoryCheckpoint), bad)
		require.ErrorIs(t, r.CatchUp(ctx, handle), adjlist.ErrInvalidOption)
		require.ErrorIs(t, r.Run(ctx, handle), adjlist.ErrInvalidOption)
		assert.Empty(t, f.calls, "no request sent")
	}
}

// limitedStream is a fakeStream that refuses a Limit below 1, as DynamoDB
// Streams does, and keeps the Limits sent.
type limitedStream struct {
	*fakeStream
	limits []int32
}

func (l *limitedStream) GetRecords(ctx context.Context, in *dynamodbstreams.GetRecordsInput, o ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error) {
	l.limits = append(l.limits, aws.ToInt32(in.Limit))
	if aws.ToInt32(in.Limit) < 1 {
		return nil, errors.New("ValidationException: Limit must be at least 1")
	}
	return l.fakeStream.GetRecords(ctx, in, o...)
}
