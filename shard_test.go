package adjlist_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

type Follow struct {
	Since string `dynamodbav:"since"`
}

// A celebrity's followers, sharded over 8 index partitions.
func TestShardedReverseReads(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	users := adjlist.NewNode[Student](s.table, "USER", "PROFILE")
	follows := adjlist.NewEdge[Follow](users, "FOLLOWS", users, func(o *adjlist.EdgeOptions) { o.Shards = 8 })
	plain := adjlist.NewEdge[Follow](users, "FOLLOWS", users)

	const n = 300
	var want []string
	for i := range n {
		want = append(want, fmt.Sprintf("u%03d", i))
	}
	shuffled := slices.Clone(want)
	slices.Reverse(shuffled)
	edges := make([]adjlist.EdgeItem[Follow], n)
	for i, id := range shuffled {
		edges[i] = adjlist.EdgeItem[Follow]{From: id, To: "celeb", Data: Follow{Since: id}}
	}
	_, err := follows.PutMany(ctx, edges)
	require.NoError(t, err)
	require.NoError(t, follows.Put(ctx, "u000", "someone-else", Follow{}))

	// Writes spread over the shards: GSI1PK = USER#celeb#00 … #07.
	out, err := s.db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(s.table.Name())})
	require.NoError(t, err)
	shards := map[string]int{}
	for _, item := range stringItems(t, out.Items) {
		if strings.HasPrefix(item["GSI1PK"], "USER#celeb") {
			require.Regexp(t, regexp.MustCompile(`^USER#celeb#0[0-7]$`), item["GSI1PK"])
			shards[item["GSI1PK"]]++
		}
	}
	assert.Len(t, shards, 8, "every shard used: %v", shards)

	require.NoError(t, follows.WaitIndexed(ctx, "u299", "celeb", 5*time.Second))
	desc := slices.Clone(want)
	slices.Reverse(desc)

	for _, tt := range []struct {
		name  string
		query adjlist.Query[adjlist.EdgeItem[Follow]]
		want  []string
	}{
		{"ascending", follows.To("celeb"), want},
		{"newest key first", follows.To("celeb").Desc(), desc},
	} {
		t.Run(tt.name+" all", func(t *testing.T) {
			var got []string
			for e, err := range tt.query.Limit(17).All(ctx) {
				require.NoError(t, err)
				assert.Equal(t, e.From, e.Data.Since)
				got = append(got, e.From)
			}
			assert.Equal(t, tt.want, got, "merged in order, each once")
		})
		t.Run(tt.name+" pages", func(t *testing.T) {
			var got []string
			cursor := ""
			for pages := 0; ; pages++ {
				require.Less(t, pages, n)
				before := s.calls.queries.Load()
				page, err := tt.query.Limit(25).Page(ctx, cursor)
				require.NoError(t, err)
				assert.LessOrEqual(t, s.calls.queries.Load()-before, int64(8), "one request per shard at most")
				assert.LessOrEqual(t, len(page.Items), 25)
				got = append(got, ids(page.Items, func(e adjlist.EdgeItem[Follow]) string { return e.From })...)
				if cursor = page.Cursor; cursor == "" {
					break
				}
			}
			assert.Equal(t, tt.want, got, "every follower exactly once across pages")
		})
	}

	count, err := follows.To("celeb").Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, n, count)

	// The forward direction is unchanged.
	fwd, err := follows.From("u000").Collect(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"celeb", "someone-else"}, ids(fwd, func(e adjlist.EdgeItem[Follow]) string { return e.To }))

	// Cursors do not cross between sharded and unsharded reads.
	sharded, err := follows.To("celeb").Limit(5).Page(ctx, "")
	require.NoError(t, err)
	_, err = plain.To("celeb").Page(ctx, sharded.Cursor)
	require.ErrorIs(t, err, adjlist.ErrInvalidCursor)
	_, err = follows.To("someone-else").Limit(5).Page(ctx, sharded.Cursor)
	require.ErrorIs(t, err, adjlist.ErrInvalidCursor, "another target's shards")
}

func TestShardOptions(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "t", func(o *adjlist.Options) { o.IndexPartitionKey, o.IndexSortKey = "SK", "PK" })
	users := adjlist.NewNode[Student](table, "USER", "PROFILE")
	for _, n := range []int{-1, 101} { // 0 to 100, as the doc says
		e := adjlist.NewEdge[Follow](users, "FOLLOWS", users, func(o *adjlist.EdgeOptions) { o.Shards = n })
		require.ErrorIs(t, e.Put(context.Background(), "a", "b", Follow{}), adjlist.ErrInvalidOption)
	}
	e := adjlist.NewEdge[Follow](users, "FOLLOWS", users, func(o *adjlist.EdgeOptions) { o.Shards = 4 })
	require.ErrorIs(t, e.Put(context.Background(), "a", "b", Follow{}), adjlist.ErrInvalidOption, "a sort-key index cannot shard")
}

func stringItems(t *testing.T, items []map[string]types.AttributeValue) []map[string]string {
	t.Helper()
	out := make([]map[string]string, 0, len(items))
	for _, item := range items {
		m := map[string]string{}
		for k, v := range item {
			if s, ok := v.(*types.AttributeValueMemberS); ok {
				m[k] = s.Value
			}
		}
		out = append(out, m)
	}
	return out
}
