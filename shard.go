package adjlist

import (
	"context"
	"fmt"
	"hash/fnv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"golang.org/x/sync/errgroup"

	"github.com/adjlist/adjlist/internal/pagecursor"
)

// MaxShards bounds EdgeOptions.Shards: a sharded reverse read makes one
// request per shard per page, and shard suffixes have two digits.
const MaxShards = 100

// shard is one partition of a sharded read: its partition key value and
// the expression values that select it.
type shard struct {
	pk     string
	values map[string]types.AttributeValue
}

// shardSuffix picks the shard of an edge from its source id: FNV-1a of the
// id modulo n, as two digits ("07"), so shard keys read and sort alike for
// any n up to MaxShards.
func shardSuffix(id string, n int) string {
	h := fnv.New32a()
	h.Write([]byte(id))
	return fmt.Sprintf("%02d", h.Sum32()%uint32(n))
}

// shardKeys lists the n index partitions of target key ipk: ipk#00 …
func shardKeys(ipk string, n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("%s#%02d", ipk, i)
	}
	return keys
}

// shardInput is the query's request for shard i.
func (q Query[T]) shardInput(i int) dynamodb.QueryInput {
	in := q.in
	in.ExpressionAttributeValues = q.shards[i].values
	return in
}

// less orders raw items by the query's sort key, in its direction.
func (q Query[T]) less(a, b Item) bool {
	sa, _ := stringAttr(a, q.skAttr)
	sb, _ := stringAttr(b, q.skAttr)
	if aws.ToBool(q.in.ScanIndexForward) {
		return sa < sb
	}
	return sa > sb
}

// countMerged counts every shard, in parallel, and sums.
func (q Query[T]) countMerged(ctx context.Context, e exprSet) (int, error) {
	counts := make([]int, len(q.shards))
	var g errgroup.Group
	for i := range q.shards {
		g.Go(func() (err error) {
			counts[i], err = q.count(ctx, q.in, e, q.shards[i].pk)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return 0, q.wrap(err)
	}
	total := 0
	for _, n := range counts {
		total += n
	}
	return total, nil
}

// stream is one shard's pages as a merge input.
type stream struct {
	pages *dynamodb.QueryPaginator
	buf   []Item
}

// fill fetches pages until the stream has an item or none are left.
func (s *stream) fill(ctx context.Context) error {
	for len(s.buf) == 0 && s.pages.HasMorePages() {
		out, err := s.pages.NextPage(ctx, callOpts(ctx)...)
		if err != nil {
			return err
		}
		s.buf = out.Items
	}
	return nil
}

// allMerged yields every shard's items merged in sort key order: the first
// page of every shard is fetched in parallel, then each shard's next page
// when its items run out. It returns the error that stopped it, for All
// to yield.
func (q Query[T]) allMerged(ctx context.Context, yield func(T, error) bool) error {
	streams := make([]*stream, len(q.shards))
	var g errgroup.Group
	for i := range q.shards {
		in := q.shardInput(i)
		streams[i] = &stream{pages: dynamodb.NewQueryPaginator(q.t.client, &in)}
		g.Go(func() error { return streams[i].fill(ctx) })
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for {
		next := -1
		for i, s := range streams {
			if len(s.buf) > 0 && (next < 0 || q.less(s.buf[0], streams[next].buf[0])) {
				next = i
			}
		}
		if next < 0 {
			return nil
		}
		s := streams[next]
		item := s.buf[0]
		s.buf = s.buf[1:]
		v, ok, err := q.decode(item)
		if err == nil && len(s.buf) == 0 {
			err = s.fill(ctx)
		}
		if err != nil {
			return err
		}
		if ok && !yield(v, nil) {
			return nil
		}
	}
}

// pageMerged makes one Query per unfinished shard, in parallel, each
// resuming where the cursor left it, merges their items in sort key order
// and keeps the first Limit. The new cursor records, per shard, the key of
// the last item taken from it (or its LastEvaluatedKey when all were
// taken), so no item is skipped or repeated.
func (q Query[T]) pageMerged(ctx context.Context, from string) (Page[T], error) {
	states := make([]pagecursor.Shard, len(q.shards))
	if from != "" {
		c, err := q.openCursor(from)
		if err == nil && len(c.Shards) != len(q.shards) {
			err = badCursor("from a read with another number of shards")
		}
		if err != nil {
			return Page[T]{}, q.wrap(err)
		}
		states = c.Shards
	}
	starts := make([]Item, len(q.shards))
	for i, st := range states {
		if st.Key != nil {
			start, err := q.startKey(st.Key, nil, q.shards[i].pk)
			if err != nil {
				return Page[T]{}, q.wrap(err)
			}
			starts[i] = start
		}
	}

	outs := make([]*dynamodb.QueryOutput, len(q.shards))
	var g errgroup.Group
	for i := range q.shards {
		if states[i].Done {
			continue
		}
		g.Go(func() (err error) {
			in := q.shardInput(i)
			in.ExclusiveStartKey = starts[i]
			outs[i], err = q.t.client.Query(ctx, &in, callOpts(ctx)...)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return Page[T]{}, q.wrap(err)
	}

	limit := int(aws.ToInt32(q.in.Limit))
	taken := make([]int, len(q.shards))
	var page Page[T]
	for limit == 0 || len(page.Items) < limit {
		next := -1
		for i, out := range outs {
			if out != nil && taken[i] < len(out.Items) && (next < 0 || q.less(out.Items[taken[i]], outs[next].Items[taken[next]])) {
				next = i
			}
		}
		if next < 0 {
			break
		}
		item := outs[next].Items[taken[next]]
		taken[next]++
		// Remember the keys before decode drops them.
		if err := q.advance(&states[next], item); err != nil {
			return Page[T]{}, q.wrap(err)
		}
		v, ok, err := q.decode(item)
		if err != nil {
			return Page[T]{}, q.wrap(err)
		}
		if ok {
			page.Items = append(page.Items, v)
		}
	}
	more := false
	for i, out := range outs {
		if out != nil && taken[i] == len(out.Items) {
			// Every item of this response was taken: resume after it.
			st, err := pagecursor.After(out.LastEvaluatedKey)
			if err != nil {
				return Page[T]{}, q.wrap(err)
			}
			states[i] = st
		}
		more = more || !states[i].Done
	}
	if more {
		var err error
		if page.Cursor, err = q.sealCursor(cursor{Shards: states}); err != nil {
			return Page[T]{}, q.wrap(err)
		}
	}
	return page, nil
}

// advance records item as the last one taken from a shard.
func (q Query[T]) advance(st *pagecursor.Shard, item Item) error {
	key := make(map[string]string, len(q.cursorKeys))
	for _, name := range q.cursorKeys {
		v, ok := stringAttr(item, name)
		if !ok {
			return badCursor("item lacks key attribute " + name)
		}
		key[name] = v
	}
	*st = pagecursor.Shard{Key: key}
	return nil
}
