package streams

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/adjlist/adjlist"
)

// Client is the subset of the DynamoDB Streams API that [Reader] uses; a
// *dynamodbstreams.Client satisfies it.
type Client interface {
	DescribeStream(ctx context.Context, params *dynamodbstreams.DescribeStreamInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.DescribeStreamOutput, error)
	GetShardIterator(ctx context.Context, params *dynamodbstreams.GetShardIteratorInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetShardIteratorOutput, error)
	GetRecords(ctx context.Context, params *dynamodbstreams.GetRecordsInput, optFns ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error)
}

// Checkpoint remembers, per shard, the sequence number of the last record
// a [Reader]'s handler accepted, so that a new Reader resumes after it.
// Implementations must be safe for concurrent use.
type Checkpoint interface {
	// Load returns shard's last sequence number, "" for none.
	Load(ctx context.Context, shard string) (string, error)
	// Save records sequence as shard's last.
	Save(ctx context.Context, shard, sequence string) error
}

// MemoryCheckpoint is a Checkpoint in memory, for tests and for readers
// that need not survive their process. The zero value is ready to use.
type MemoryCheckpoint struct {
	mu  sync.Mutex
	seq map[string]string
}

// Load implements Checkpoint.
func (m *MemoryCheckpoint) Load(_ context.Context, shard string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.seq[shard], nil
}

// Save implements Checkpoint.
func (m *MemoryCheckpoint) Save(_ context.Context, shard, sequence string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.seq == nil {
		m.seq = map[string]string{}
	}
	m.seq[shard] = sequence
	return nil
}

// ReaderOptions configures a [Reader]. The zero value of each field means
// its default.
type ReaderOptions struct {
	// Limit is the most records one GetRecords returns, and so the
	// largest batch the handler gets. Default 1000 (DynamoDB's maximum).
	Limit int32
	// PollInterval is how long [Reader.Run] waits between catch-ups.
	// Default 1 second.
	PollInterval time.Duration
}

// Reader reads a table's stream for local development and tests (in
// production, a Lambda event source mapping does this), calling the
// handler a Lambda function would get with each batch. A Reader is safe
// for one caller at a time.
type Reader struct {
	client Client
	arn    string
	cp     Checkpoint
	opts   ReaderOptions
	err    error // a nil option function: CatchUp and Run return it
}

// NewReader returns a Reader of the stream streamARN (see [LatestARN]) that
// resumes each shard after cp's sequence number for it. A nil option
// function, a Limit outside 0 to 1000 or a negative PollInterval makes
// every CatchUp and Run return an error wrapping adjlist.ErrInvalidOption,
// before any request.
func NewReader(client Client, streamARN string, cp Checkpoint, optFns ...func(*ReaderOptions)) *Reader {
	var opts ReaderOptions
	r := &Reader{client: client, arn: streamARN, cp: cp}
	for _, fn := range optFns {
		if fn == nil {
			r.err = fmt.Errorf("streams: NewReader: %w: nil option function", adjlist.ErrInvalidOption)
			break
		}
		fn(&opts)
	}
	if r.err == nil && (opts.Limit < 0 || opts.Limit > 1000 || opts.PollInterval < 0) {
		r.err = fmt.Errorf("streams: NewReader: %w: Limit %d, PollInterval %v", adjlist.ErrInvalidOption, opts.Limit, opts.PollInterval)
	}
	if opts.Limit == 0 {
		opts.Limit = 1000
	}
	if opts.PollInterval == 0 {
		opts.PollInterval = time.Second
	}
	r.opts = opts
	return r
}

// LatestARN returns the ARN of table's current stream (DescribeTable's
// LatestStreamArn), or an error if the table has no stream enabled (a
// stream turned off keeps its LatestStreamArn, but is not current).
func LatestARN(ctx context.Context, api dynamodb.DescribeTableAPIClient, table string) (string, error) {
	out, err := api.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		return "", fmt.Errorf("streams: LatestARN %s: %w", table, err)
	}
	if out.Table == nil || out.Table.LatestStreamArn == nil ||
		out.Table.StreamSpecification == nil || !aws.ToBool(out.Table.StreamSpecification.StreamEnabled) {
		return "", fmt.Errorf("streams: table %s has no stream", table)
	}
	return *out.Table.LatestStreamArn, nil
}

// CatchUp reads every record available now: each shard of the stream
// (DescribeStream, paged), parents before children so that each item's
// records come in order, from its checkpoint (GetShardIterator
// AFTER_SEQUENCE_NUMBER, or TRIM_HORIZON for a shard never read), one
// GetRecords batch at a time. handle gets each non-empty batch (the
// records of one GetRecords, in order), converted with [FromStreams]; when
// it returns nil the batch's last sequence number is saved to the
// checkpoint. A shard is done when it is closed and read to its end, or,
// while open, when a GetRecords returns no records. CatchUp returns the
// first error: the handler's (its batch is not checkpointed, so the next
// CatchUp delivers it again), the checkpoint's, the API's, or ctx's.
func (r *Reader) CatchUp(ctx context.Context, handle func(ctx context.Context, recs []Record) error) error {
	if r.err != nil {
		return r.err
	}
	shards, err := r.shards(ctx)
	if err != nil {
		return err
	}
	for _, sh := range lineage(shards) {
		closed := sh.SequenceNumberRange != nil && sh.SequenceNumberRange.EndingSequenceNumber != nil
		if err := r.readShard(ctx, aws.ToString(sh.ShardId), closed, handle); err != nil {
			return err
		}
	}
	return nil
}

// Run calls CatchUp every PollInterval until ctx ends (then it returns
// nil) or CatchUp fails.
func (r *Reader) Run(ctx context.Context, handle func(ctx context.Context, recs []Record) error) error {
	if r.err != nil {
		return r.err
	}
	for {
		if err := r.CatchUp(ctx, handle); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(r.opts.PollInterval):
		}
	}
}

// shards lists every shard of the stream.
func (r *Reader) shards(ctx context.Context) ([]streamtypes.Shard, error) {
	var shards []streamtypes.Shard
	in := &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(r.arn)}
	for {
		out, err := r.client.DescribeStream(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("streams: DescribeStream: %w", err)
		}
		if out.StreamDescription == nil {
			return shards, nil
		}
		shards = append(shards, out.StreamDescription.Shards...)
		if out.StreamDescription.LastEvaluatedShardId == nil {
			return shards, nil
		}
		in.ExclusiveStartShardId = out.StreamDescription.LastEvaluatedShardId
	}
}

// lineage orders shards so that every shard comes after its parent (when
// the parent is still listed), keeping the listed order otherwise.
func lineage(shards []streamtypes.Shard) []streamtypes.Shard {
	byID := map[string]streamtypes.Shard{}
	for _, sh := range shards {
		byID[aws.ToString(sh.ShardId)] = sh
	}
	var out []streamtypes.Shard
	done := map[string]bool{}
	var visit func(sh streamtypes.Shard)
	visit = func(sh streamtypes.Shard) {
		id := aws.ToString(sh.ShardId)
		if done[id] {
			return
		}
		done[id] = true
		if parent, ok := byID[aws.ToString(sh.ParentShardId)]; ok {
			visit(parent)
		}
		out = append(out, sh)
	}
	for _, sh := range shards {
		visit(sh)
	}
	return out
}

// errShardGone reports a shard whose iterator the stream no longer gives
// (trimmed after 24 hours).
var errShardGone = errors.New("streams: shard trimmed")

// readShard reads shard from its checkpoint. A closed shard is read until
// it gives no next iterator: GetRecords may return no records for a
// portion of it (one trimmed, say) with more records after.
func (r *Reader) readShard(ctx context.Context, shard string, closed bool, handle func(context.Context, []Record) error) error {
	last, err := r.cp.Load(ctx, shard)
	if err != nil {
		return fmt.Errorf("streams: checkpoint of %s: %w", shard, err)
	}
	in := &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(r.arn), ShardId: aws.String(shard),
		ShardIteratorType: streamtypes.ShardIteratorTypeTrimHorizon}
	if last != "" {
		in.ShardIteratorType, in.SequenceNumber = streamtypes.ShardIteratorTypeAfterSequenceNumber, aws.String(last)
	}
	it, err := r.client.GetShardIterator(ctx, in)
	if err != nil {
		var gone *streamtypes.ResourceNotFoundException
		if errors.As(err, &gone) {
			return fmt.Errorf("%w: %s: %w", errShardGone, shard, err)
		}
		return fmt.Errorf("streams: GetShardIterator %s: %w", shard, err)
	}
	iter := it.ShardIterator
	for iter != nil {
		out, err := r.client.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter, Limit: aws.Int32(r.opts.Limit)})
		if err != nil {
			return fmt.Errorf("streams: GetRecords %s: %w", shard, err)
		}
		if len(out.Records) == 0 {
			if !closed {
				return nil // caught up
			}
			iter = out.NextShardIterator
			continue
		}
		recs := make([]Record, len(out.Records))
		for i, sr := range out.Records {
			if recs[i], err = FromStreams(sr, shard); err != nil {
				return err
			}
		}
		if err := handle(ctx, recs); err != nil {
			return err
		}
		if err := r.cp.Save(ctx, shard, recs[len(recs)-1].SequenceNumber); err != nil {
			return fmt.Errorf("streams: checkpoint of %s: %w", shard, err)
		}
		iter = out.NextShardIterator
	}
	return nil
}
