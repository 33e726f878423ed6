package paging

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/internal/ddbitem"
)

// partitions is a fake Query API: each partition's items in sort key
// order, read a Limit at a time after ExclusiveStartKey.
type partitions struct {
	items map[string][]string // PK → SKs, sorted
	calls atomic.Int32        // Query is called from a goroutine per shard
}

func (p *partitions) Query(_ context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	p.calls.Add(1)
	pk := in.ExpressionAttributeValues[":pk"].(*types.AttributeValueMemberS).Value
	sks := p.items[pk]
	if in.ExclusiveStartKey != nil {
		after := in.ExclusiveStartKey["SK"].(*types.AttributeValueMemberS).Value
		sks = sks[slices.Index(sks, after)+1:]
	}
	out := &dynamodb.QueryOutput{}
	for _, sk := range sks {
		if in.Limit != nil && len(out.Items) == int(*in.Limit) {
			last := out.Items[len(out.Items)-1]
			out.LastEvaluatedKey = Item{"PK": last["PK"], "SK": last["SK"]}
			break
		}
		out.Items = append(out.Items, Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}})
	}
	return out, nil
}

// sharded is a run over three shards whose sort keys interleave.
// kept is what a run's decode keeps: the sort keys of the items it took.
type kept struct{ sks []string }

// decode keeps item's sort key unless it is "e", another access
// pattern's.
func (k *kept) decode(item Item) (bool, error) {
	sk, _ := ddbitem.String(item, "SK")
	if sk == "e" {
		return false, nil
	}
	k.sks = append(k.sks, sk)
	return true, nil
}

// take returns the sort keys kept since the last take.
func (k *kept) take() []string {
	sks := k.sks
	k.sks = nil
	return sks
}

func sharded(p *partitions, limit int32) *Run {
	p.items = map[string][]string{"T#00": {"a", "d", "g"}, "T#01": {"b", "e"}, "T#02": {"c", "f", "h", "i"}}
	r := &Run{Client: p, SKAttr: "SK", PK: "T",
		In:     dynamodb.QueryInput{ScanIndexForward: aws.Bool(true), Limit: aws.Int32(limit)},
		Cursor: Cursors{Names: []string{"PK", "SK"}, PKAttr: "PK", SKAttr: "SK"}}
	r.Cursor.ID.Sharded = true
	for _, pk := range []string{"T#00", "T#01", "T#02"} {
		r.Shards = append(r.Shards, QueryShard{PK: pk, Values: Item{":pk": &types.AttributeValueMemberS{Value: pk}}})
	}
	return r
}

// TestMergedReads: a sharded read yields its shards' items merged in
// sort key order, whole (All) and page by page, each page at most Limit
// items and its cursor resuming every shard where it stopped, so that no
// item is skipped or repeated; skipped items are not yielded.
func TestMergedReads(t *testing.T) {
	t.Parallel()
	want := []string{"a", "b", "c", "d", "f", "g", "h", "i"}
	ctx := context.Background()

	var k kept
	yields := 0
	require.NoError(t, sharded(&partitions{}, 0).All(ctx, k.decode, nil, func() bool {
		yields++
		return true
	}))
	assert.Equal(t, want, k.take())
	assert.Equal(t, len(want), yields)

	// Count: every shard in parallel, summed.
	n, err := sharded(&partitions{}, 2).Count(ctx, func(item Item) (bool, error) {
		sk, _ := ddbitem.String(item, "SK")
		return sk != "e", nil
	})
	require.NoError(t, err)
	assert.Equal(t, len(want), n)

	r := sharded(&partitions{}, 3)
	var paged []string
	for cursor, pages := "", 0; ; pages++ {
		require.Less(t, pages, 10)
		next, err := r.Page(ctx, cursor, k.decode, func(int) {})
		items := k.take()
		require.NoError(t, err)
		assert.LessOrEqual(t, len(items), 3)
		paged = append(paged, items...)
		if next == "" {
			break
		}
		cursor = next
	}
	assert.Equal(t, want, paged)
}

// TestBadCursorSendsNothing: a cursor that does not open, or whose key
// lies outside the query, is a BadCursor before any request.
func TestBadCursorSendsNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := &partitions{}
	r := sharded(p, 1)
	k := &kept{}
	next, err := r.Page(ctx, "", k.decode, func(int) {})
	require.NoError(t, err)
	calls := p.calls.Load()
	for name, cursor := range map[string]string{"garbage": "not a cursor", "edited": next + "A"} {
		_, err := r.Page(ctx, cursor, k.decode, func(int) {})
		var bad BadCursor
		assert.ErrorAs(t, err, &bad, name)
	}
	r.Shards = nil // one partition: the merged cursor is from another read
	_, err = r.Page(ctx, next, k.decode, func(int) {})
	var bad BadCursor
	assert.ErrorAs(t, err, &bad)
	assert.Equal(t, calls, p.calls.Load())
}

// fetchFunc is a [Fetcher] that calls itself.
type fetchFunc func(items []Item)

func (f fetchFunc) Fetched(items []Item) { f(items) }

// TestFetched: Fetched sees every page's items as the page arrives, before
// decode sees any of them, on every read that decodes: All, Collect, Page
// and Count, unsharded and sharded (each shard's page, the first pages
// once all are in).
func TestFetched(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// watch makes r log "fetched:<sks>" per page, and returns the log and
	// a decode that logs "decode:<sk>" per item.
	watch := func(r *Run) (*[]string, func(Item) (bool, error)) {
		var log []string
		r.Fetched = fetchFunc(func(items []Item) {
			var sks string
			for _, item := range items {
				sk, _ := ddbitem.String(item, "SK")
				sks += sk
			}
			log = append(log, "fetched:"+sks)
		})
		return &log, func(item Item) (bool, error) {
			sk, _ := ddbitem.String(item, "SK")
			log = append(log, "decode:"+sk)
			return true, nil
		}
	}
	unsharded := func(limit int32) *Run {
		p := &partitions{items: map[string][]string{"T": {"a", "b", "c"}}}
		return &Run{Client: p, SKAttr: "SK", PK: "T",
			In:     dynamodb.QueryInput{Limit: aws.Int32(limit), ExpressionAttributeValues: Item{":pk": &types.AttributeValueMemberS{Value: "T"}}},
			Cursor: Cursors{Names: []string{"PK", "SK"}, PKAttr: "PK", SKAttr: "SK"}}
	}
	type decoder = func(Item) (bool, error)
	twoPages := []string{"fetched:ab", "decode:a", "decode:b", "fetched:c", "decode:c"}
	for _, tc := range []struct {
		name string
		r    *Run
		run  func(r *Run, decode decoder) error
		want []string
	}{
		{"All", unsharded(2), func(r *Run, decode decoder) error {
			return r.All(ctx, decode, nil, func() bool { return true })
		}, twoPages},
		{"All growing", unsharded(2), func(r *Run, decode decoder) error {
			return r.All(ctx, decode, func(int) {}, func() bool { return true })
		}, twoPages},
		{"Page", unsharded(2), func(r *Run, decode decoder) error { _, err := r.Page(ctx, "", decode, func(int) {}); return err },
			[]string{"fetched:ab", "decode:a", "decode:b"}},
		{"Count", unsharded(2), func(r *Run, decode decoder) error {
			_, err := r.Count(ctx, decode)
			return err
		}, twoPages},
		{"sharded All", sharded(&partitions{}, 2), func(r *Run, decode decoder) error {
			return r.All(ctx, decode, nil, func() bool { return true })
		}, []string{"fetched:ad", "fetched:be", "fetched:cf", "decode:a", "decode:b", "decode:c", "decode:d", "fetched:g",
			"decode:e", "decode:f", "fetched:hi", "decode:g", "decode:h", "decode:i"}},
		{"sharded Page", sharded(&partitions{}, 2), func(r *Run, decode decoder) error {
			_, err := r.Page(ctx, "", decode, func(int) {})
			return err
		}, []string{"fetched:ad", "fetched:be", "fetched:cf", "decode:a", "decode:b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log, decode := watch(tc.r)
			require.NoError(t, tc.run(tc.r, decode))
			assert.Equal(t, tc.want, *log)
		})
	}
}
