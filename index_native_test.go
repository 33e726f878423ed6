package adjlist_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// Entry is a tournament entry: a node whose own attributes key a native
// multi-attribute index (partition tour+region, sort round+score).
type Entry struct {
	Tour   string `dynamodbav:"tour,omitempty"`
	Region string `dynamodbav:"region,omitempty"`
	Round  int    `dynamodbav:"round"`
	Score  int    `dynamodbav:"score"`
}

func TestIndexNative(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	calls := &countingClient{Client: db}
	table := adjlist.NewTable(calls, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{
			{Name: "ByScore", PartitionAttributes: []adjlist.KeyAttribute{{Name: "tour"}, {Name: "region"}},
				SortAttributes: []adjlist.KeyAttribute{{Name: "round", Type: "N"}, {Name: "score", Type: "N"}}},
			{Name: "LSI2", Local: true, SortAttributes: []adjlist.KeyAttribute{{Name: "score", Type: "N"}}},
		}
	})
	ddbtest.CreateTable(t, table)
	entries := adjlist.NewNode[Entry](table, "ENTRY", "")
	// Scores chosen so that byte order and numeric order differ (9 < 10).
	for i, e := range []Entry{
		{"W", "EU", 1, 9}, {"W", "EU", 1, 10}, {"W", "EU", 1, 100}, {"W", "EU", 2, 5}, {"W", "EU", 2, 50},
		{"W", "US", 1, 70}, {Round: 1, Score: 80}, // no tour, region: not in ByScore (sparse)
	} {
		require.NoError(t, entries.Put(ctx, fmt.Sprintf("e%d", i), e))
	}
	ids := func(items []adjlist.NodeItem[Entry]) []string {
		var out []string
		for _, it := range items {
			out = append(out, fmt.Sprintf("%s:%d/%d", it.ID, it.Data.Round, it.Data.Score))
		}
		return out
	}
	var all []adjlist.NodeItem[Entry]
	require.Eventually(t, func() bool {
		var err error
		all, err = entries.ByIndex("ByScore", "W", "EU").Collect(ctx)
		require.NoError(t, err)
		return len(all) == 5
	}, 5*time.Second, 20*time.Millisecond)
	assert.Equal(t, []string{"e0:1/9", "e1:1/10", "e2:1/100", "e3:2/5", "e4:2/50"}, ids(all), "numbers sort as numbers")

	for name, c := range map[string]struct {
		q    adjlist.Query[adjlist.NodeItem[Entry]]
		want []string
	}{
		"round fixed":             {entries.ByIndex("ByScore", "W", "EU", 1), []string{"e0:1/9", "e1:1/10", "e2:1/100"}},
		"round fixed, as text":    {entries.ByIndex("ByScore", "W", "EU", "2"), []string{"e3:2/5", "e4:2/50"}},
		"range on the next":       {entries.ByIndex("ByScore", "W", "EU", 1).GreaterThan(9), []string{"e1:1/10", "e2:1/100"}},
		"between on the next":     {entries.ByIndex("ByScore", "W", "EU", 1).Between(10, 99), []string{"e1:1/10"}},
		"range on the first sort": {entries.ByIndex("ByScore", "W", "EU").GreaterThanEqual(2).Desc(), []string{"e4:2/50", "e3:2/5"}},
		"below":                   {entries.ByIndex("ByScore", "W", "EU").LessThan(2.0), []string{"e0:1/9", "e1:1/10", "e2:1/100"}},
		"every key fixed":         {entries.ByIndex("ByScore", "W", "EU", 2, 50), []string{"e4:2/50"}},
		"other partition":         {entries.ByIndex("ByScore", "W", "US"), []string{"e5:1/70"}},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := c.q.Collect(ctx)
			require.NoError(t, err)
			assert.Equal(t, c.want, ids(got))
		})
	}

	// Pages: the cursor carries the number attributes typed.
	var paged []string
	cursor := ""
	for {
		p, err := entries.ByIndex("ByScore", "W", "EU").Limit(2).Page(ctx, cursor)
		require.NoError(t, err)
		paged = append(paged, ids(p.Items)...)
		if cursor = p.Cursor; cursor == "" {
			break
		}
	}
	assert.Equal(t, ids(all), paged)
	n, err := entries.ByIndex("ByScore", "W", "EU", 1).Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 3, n)

	// A local index with a native sort key allows a consistent read.
	local, err := entries.ByIndex("LSI2", "e2").GreaterThan(int64(99)).Collect(ctx, adjlist.Consistent)
	require.NoError(t, err)
	assert.Equal(t, []string{"e2:1/100"}, ids(local))

	before := calls.total()
	for name, q := range map[string]adjlist.Query[adjlist.NodeItem[Entry]]{
		"partition incomplete":   entries.ByIndex("ByScore", "W"),
		"too many values":        entries.ByIndex("ByScore", "W", "EU", 1, 2, 3),
		"number for a string":    entries.ByIndex("ByScore", 1, "EU"),
		"text that is no number": entries.ByIndex("ByScore", "W", "EU", "one"),
		"NaN as number text":     entries.ByIndex("ByScore", "W", "EU", "NaN"),
		"hex as number text":     entries.ByIndex("ByScore", "W", "EU", "0x1p4"),
		"range not a number":     entries.ByIndex("ByScore", "W", "EU", 1).GreaterThan("x"),
		"range as text":          entries.ByIndex("ByScore", "W", "EU", 1).GreaterThan("9"),
		"begins_with on number":  entries.ByIndex("ByScore", "W", "EU", 1).BeginsWith("1"),
		"between lo > hi":        entries.ByIndex("ByScore", "W", "EU", 1).Between(100, 20),
		"range with all fixed":   entries.ByIndex("ByScore", "W", "EU", 1, 2).GreaterThan("1"),
		"local without an id":    entries.ByIndex("LSI2"),
		"empty string":           entries.ByIndex("ByScore", "", "EU"),
		"cursor of another part": entries.ByIndex("ByScore", "W", "US"),
	} {
		t.Run(name, func(t *testing.T) {
			if name == "cursor of another part" {
				p, err := entries.ByIndex("ByScore", "W", "EU").Limit(1).Page(ctx, "")
				require.NoError(t, err)
				before = calls.total()
				_, err = q.Page(ctx, p.Cursor)
				require.ErrorIs(t, err, adjlist.ErrInvalidCursor)
				return
			}
			_, err := q.Collect(ctx)
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
		})
	}
	_, err = entries.ByIndex("ByScore", "W", "EU").Collect(ctx, adjlist.Consistent)
	require.ErrorIs(t, err, adjlist.ErrIndexConsistentRead, "consistent on a GSI")
	assert.Equal(t, before, calls.total(), "refused before any request")
}

// TestIndexKeySchema: every kind of index names its key attributes, typed,
// in order, a local index's partition being the table's.
func TestIndexKeySchema(t *testing.T) {
	t.Parallel()
	s, n := types.ScalarAttributeTypeS, types.ScalarAttributeTypeN
	for _, tt := range []struct {
		name   string
		ix     adjlist.Index
		pk, sk []adjlist.KeyAttribute
	}{
		{"derived", adjlist.Index{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"},
			[]adjlist.KeyAttribute{{Name: "GSI2PK", Type: s}}, []adjlist.KeyAttribute{{Name: "GSI2SK", Type: s}}},
		{"derived, no sort key", adjlist.Index{Name: "GSI2", PartitionKey: "GSI2PK"},
			[]adjlist.KeyAttribute{{Name: "GSI2PK", Type: s}}, nil},
		{"native", adjlist.Index{Name: "ByYear", PartitionAttributes: []adjlist.KeyAttribute{{Name: "status"}},
			SortAttributes: []adjlist.KeyAttribute{{Name: "year", Type: n}, {Name: "title"}}},
			[]adjlist.KeyAttribute{{Name: "status", Type: s}}, []adjlist.KeyAttribute{{Name: "year", Type: n}, {Name: "title", Type: s}}},
		{"local derived", adjlist.Index{Name: "LSI1", Local: true, SortKey: "LSI1SK"},
			[]adjlist.KeyAttribute{{Name: "PK", Type: s}}, []adjlist.KeyAttribute{{Name: "LSI1SK", Type: s}}},
		{"local native", adjlist.Index{Name: "LSI2", Local: true, SortAttributes: []adjlist.KeyAttribute{{Name: "score", Type: n}}},
			[]adjlist.KeyAttribute{{Name: "PK", Type: s}}, []adjlist.KeyAttribute{{Name: "score", Type: n}}},
	} {
		pk, sk := tt.ix.KeySchema("PK")
		assert.Equal(t, tt.pk, pk, tt.name)
		assert.Equal(t, tt.sk, sk, tt.name)
	}
}
