package paging

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"golang.org/x/sync/errgroup"

	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/telemetry"
)

// QueryShard is one partition of a sharded read and its expression values.
type QueryShard struct {
	PK     string
	Values map[string]types.AttributeValue
}

func (r *Run) shardInput(i int) dynamodb.QueryInput {
	in := r.In
	in.ExpressionAttributeValues = r.Shards[i].Values
	return in
}

func (r *Run) less(a, b Item) bool {
	sa, _ := ddbitem.String(a, r.SKAttr)
	sb, _ := ddbitem.String(b, r.SKAttr)
	if aws.ToBool(r.In.ScanIndexForward) {
		return sa < sb
	}
	return sa > sb
}

// stream is one shard's pages as a merge input.
type stream struct {
	pages *dynamodb.QueryPaginator
	buf   []Item
}

// fill fetches pages until the stream has an item or none are left.
func (s *stream) fill(ctx context.Context, fetched func([]Item)) error {
	for len(s.buf) == 0 && s.pages.HasMorePages() {
		out, err := s.pages.NextPage(ctx, telemetry.CallOpts(ctx)...)
		if err != nil {
			return err
		}
		s.buf = out.Items
		fetched(out.Items)
	}
	return nil
}

// allMerged yields every shard's items in sort key order: first pages in
// parallel, then each shard's next when its items run out.
func (r *Run) allMerged(ctx context.Context, decode func(Item) (bool, error), yield func() bool) error {
	streams := make([]*stream, len(r.Shards))
	var g errgroup.Group
	for i := range r.Shards {
		in := r.shardInput(i)
		streams[i] = &stream{pages: dynamodb.NewQueryPaginator(r.Client, &in)}
		// In parallel: the first pages are handed to Fetched after.
		g.Go(func() error { return streams[i].fill(ctx, func([]Item) {}) })
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for _, s := range streams {
		r.fetched(s.buf)
	}
	for {
		next := -1
		for i, s := range streams {
			if len(s.buf) > 0 && (next < 0 || r.less(s.buf[0], streams[next].buf[0])) {
				next = i
			}
		}
		if next < 0 {
			return nil
		}
		s := streams[next]
		item := s.buf[0]
		s.buf = s.buf[1:]
		ok, err := r.take(decode, item)
		if err == nil && len(s.buf) == 0 {
			err = s.fill(ctx, r.fetched)
		}
		if err != nil {
			return err
		}
		if ok && !yield() {
			return nil
		}
	}
}

// pageMerged makes one Query per unfinished shard in parallel, merges
// their items in sort key order and keeps the first Limit. The cursor
// records per shard the last item taken (its LastEvaluatedKey when all
// were), so no item is skipped or repeated.
func (r *Run) pageMerged(ctx context.Context, from string, decode func(Item) (bool, error)) (string, error) {
	states := make([]CursorShard, len(r.Shards))
	if from != "" {
		c, err := Open(from, r.Cursor.ID, r.Cursor.Key)
		if err == nil && len(c.Shards) != len(r.Shards) {
			err = BadCursor("from a read with another number of shards")
		}
		if err != nil {
			return "", err
		}
		states = c.Shards
	}
	starts := make([]Item, len(r.Shards))
	for i, st := range states {
		if st.Key != nil {
			start, err := r.Cursor.startKey(st.Key, st.Num, r.Shards[i].PK)
			if err != nil {
				return "", err
			}
			starts[i] = start
		}
	}

	outs := make([]*dynamodb.QueryOutput, len(r.Shards))
	var g errgroup.Group
	for i := range r.Shards {
		if states[i].Done {
			continue
		}
		g.Go(func() (err error) {
			in := r.shardInput(i)
			in.ExclusiveStartKey = starts[i]
			outs[i], err = r.Client.Query(ctx, &in, telemetry.CallOpts(ctx)...)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return "", err
	}
	for _, out := range outs {
		if out != nil {
			r.fetched(out.Items)
		}
	}

	limit := int(aws.ToInt32(r.In.Limit))
	taken := make([]int, len(r.Shards))
	kept := 0
	for limit == 0 || kept < limit {
		next := -1
		for i, out := range outs {
			if out != nil && taken[i] < len(out.Items) && (next < 0 || r.less(out.Items[taken[i]], outs[next].Items[taken[next]])) {
				next = i
			}
		}
		if next < 0 {
			break
		}
		item := outs[next].Items[taken[next]]
		taken[next]++
		// Remember the keys before decode drops them.
		if err := r.Cursor.advance(&states[next], item); err != nil {
			return "", err
		}
		ok, err := r.take(decode, item)
		if err != nil {
			return "", err
		}
		if ok {
			kept++
		}
	}
	more := false
	for i, out := range outs {
		if out != nil && taken[i] == len(out.Items) {
			st, err := After(out.LastEvaluatedKey)
			if err != nil {
				return "", err
			}
			states[i] = st
		}
		more = more || !states[i].Done
	}
	if !more {
		return "", nil
	}
	return Seal(Cursor{Shards: states}, r.Cursor.ID, r.Cursor.Key)
}
