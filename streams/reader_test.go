package streams_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
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

// fakeStream is a stream of closed and open shards in memory: shard ids
// map to their records' sequence numbers; an iterator is "shard/index".
type fakeStream struct {
	mu      sync.Mutex
	shards  []streamtypes.Shard // listed two per DescribeStream page
	records map[string][]string
	open    map[string]bool
	calls   map[string]int
}

func (f *fakeStream) DescribeStream(_ context.Context, in *dynamodbstreams.DescribeStreamInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.DescribeStreamOutput, error) {
	f.count("DescribeStream")
	start := 0
	if in.ExclusiveStartShardId != nil {
		for i, sh := range f.shards {
			if *sh.ShardId == *in.ExclusiveStartShardId {
				start = i + 1
			}
		}
	}
	end := min(start+2, len(f.shards))
	d := &streamtypes.StreamDescription{Shards: f.shards[start:end]}
	if end < len(f.shards) {
		d.LastEvaluatedShardId = f.shards[end-1].ShardId
	}
	return &dynamodbstreams.DescribeStreamOutput{StreamDescription: d}, nil
}

func (f *fakeStream) GetShardIterator(_ context.Context, in *dynamodbstreams.GetShardIteratorInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetShardIteratorOutput, error) {
	f.count("GetShardIterator")
	shard, i := *in.ShardId, 0
	if in.ShardIteratorType == streamtypes.ShardIteratorTypeAfterSequenceNumber {
		for j, seq := range f.records[shard] {
			if seq == *in.SequenceNumber {
				i = j + 1
			}
		}
	}
	return &dynamodbstreams.GetShardIteratorOutput{ShardIterator: aws.String(fmt.Sprintf("%s/%d", shard, i))}, nil
}

func (f *fakeStream) GetRecords(_ context.Context, in *dynamodbstreams.GetRecordsInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error) {
	f.count("GetRecords")
	shard, from, _ := strings.Cut(*in.ShardIterator, "/")
	var i int
	fmt.Sscan(from, &i)
	recs := f.records[shard]
	end := min(i+int(*in.Limit), len(recs))
	out := &dynamodbstreams.GetRecordsOutput{}
	for _, seq := range recs[i:end] {
		out.Records = append(out.Records, streamtypes.Record{EventID: aws.String(seq), EventName: streamtypes.OperationTypeInsert,
			Dynamodb: &streamtypes.StreamRecord{SequenceNumber: aws.String(seq), Keys: map[string]streamtypes.AttributeValue{
				"PK": &streamtypes.AttributeValueMemberS{Value: "X#" + seq}, "SK": &streamtypes.AttributeValueMemberN{Value: seq}}}})
	}
	if end < len(recs) || f.open[shard] {
		out.NextShardIterator = aws.String(fmt.Sprintf("%s/%d", shard, end))
	}
	return out, nil
}

func (f *fakeStream) count(op string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[op]++
}

func shard(id, parent string) streamtypes.Shard {
	sh := streamtypes.Shard{ShardId: aws.String(id)}
	if parent != "" {
		sh.ParentShardId = aws.String(parent)
	}
	return sh
}

// Shards are read parents first, whatever order DescribeStream lists them
// in, across its pages; each resumes after its checkpoint.
// A nil option function is an error of CatchUp and Run, before any
// request, not a panic.
func TestReaderNilOption(t *testing.T) {
	f := &fakeStream{calls: map[string]int{}}
	r := streams.NewReader(f, "arn", new(streams.MemoryCheckpoint), nil)
	handle := func(context.Context, []streams.Record) error { return nil }
	require.ErrorIs(t, r.CatchUp(context.Background(), handle), adjlist.ErrInvalidOption)
	require.ErrorIs(t, r.Run(context.Background(), handle), adjlist.ErrInvalidOption)
	assert.Empty(t, f.calls, "no request sent")
}

func TestReaderLineageAndCheckpoint(t *testing.T) {
	ctx := context.Background()
	f := &fakeStream{
		// child listed before parent, grandchild first of all; "trimmed"'s
		// parent is no longer listed.
		shards: []streamtypes.Shard{shard("c", "b"), shard("b", "a"), shard("a", ""), shard("d", "gone")},
		records: map[string][]string{
			"a": {"1", "2", "3"}, "b": {"4", "5"}, "c": {"6", "7", "8", "9"}, "d": {"10"},
		},
		open:  map[string]bool{"c": true},
		calls: map[string]int{},
	}
	cp := new(streams.MemoryCheckpoint)
	var got []string
	var shards []string
	handle := func(_ context.Context, recs []streams.Record) error {
		for _, r := range recs {
			got = append(got, r.SequenceNumber)
		}
		shards = append(shards, recs[0].Shard)
		return nil
	}
	r := streams.NewReader(f, "arn", cp, func(o *streams.ReaderOptions) { o.Limit = 2 })
	require.NoError(t, r.CatchUp(ctx, handle))
	assert.Equal(t, []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}, got)
	assert.Equal(t, []string{"a", "a", "b", "c", "c", "d"}, shards, "batches of at most Limit, per shard")
	assert.Equal(t, 2, f.calls["DescribeStream"], "two pages of shards")
	last, err := cp.Load(ctx, "c")
	require.NoError(t, err)
	assert.Equal(t, "9", last)

	// New records in the open shard: the next catch-up delivers only them.
	f.records["c"] = append(f.records["c"], "11")
	got = nil
	require.NoError(t, streams.NewReader(f, "arn", cp).CatchUp(ctx, handle))
	assert.Equal(t, []string{"11"}, got)

	// Run polls until its context ends, then returns nil.
	rctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	require.NoError(t, streams.NewReader(f, "arn", cp, func(o *streams.ReaderOptions) { o.PollInterval = 10 * time.Millisecond }).Run(rctx, handle))
	assert.Greater(t, f.calls["DescribeStream"], 4)
}
