package schema

import (
	"context"
	"errors"
	"testing"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaultsFillOnlyEmptyNames(t *testing.T) {
	pk, sk, ix, ipk, isk := "", "sk", "", "", "x"
	Defaults(&pk, &sk, &ix, &ipk, &isk)
	assert.Equal(t, []string{"PK", "sk", "GSI1", "GSI1PK", "x"}, []string{pk, sk, ix, ipk, isk})
}

func TestConfigCheck(t *testing.T) {
	ok := Config{Name: "t", BatchMaxAttempts: 10, PartitionKey: "PK", SortKey: "SK", IndexPartitionKey: "GSI1PK", IndexSortKey: "GSI1SK"}
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"defaults", func(*Config) {}, ""},
		{"index on the sort key", func(c *Config) { c.IndexPartitionKey, c.IndexSortKey = "SK", "PK" }, ""},
		{"partition-only index on the sort key", func(c *Config) { c.IndexPartitionKey, c.IndexSortKey, c.IndexPartitionOnly = "SK", "", true }, ""},
		{"partition-only index off the sort key", func(c *Config) { c.IndexSortKey, c.IndexPartitionOnly = "", true }, `adjlist: invalid option: Options.IndexPartitionOnly needs Options.IndexPartitionKey to be the table's sort key "SK", not "GSI1PK"`},
		{"partition-only index on the partition key", func(c *Config) { c.IndexPartitionKey, c.IndexSortKey, c.IndexPartitionOnly = "PK", "", true }, `adjlist: invalid option: Options.IndexPartitionOnly needs Options.IndexPartitionKey to be the table's sort key "SK", not "PK"`},
		{"partition-only index with a sort key", func(c *Config) { c.IndexPartitionKey, c.IndexSortKey, c.IndexPartitionOnly = "SK", "PK", true }, `adjlist: invalid option: Options.IndexSortKey "PK" with Options.IndexPartitionOnly: a partition-only index has no sort key; leave IndexSortKey empty`},
		{"partition-only without an index", func(c *Config) {
			c.IndexPartitionKey, c.IndexSortKey, c.IndexPartitionOnly, c.NoIndex = "SK", "", true, true
		}, `adjlist: invalid option: Options.IndexPartitionOnly with Options.NoIndex: a table without the inverted index has no index keys to declare`},
		{"empty name", func(c *Config) { c.Name = "" }, "adjlist: invalid option: empty table name"},
		{"tag keys", func(c *Config) { c.EncoderTagKey = "json" }, `adjlist: invalid option: EncoderOptions tag key "json" and DecoderOptions tag key "" differ: reads would not fill what writes store`},
		{"attempts", func(c *Config) { c.BatchMaxAttempts = 0 }, "adjlist: invalid option: BatchMaxAttempts 0"},
		{"same keys", func(c *Config) { c.SortKey = "PK" }, `adjlist: invalid option: partition and sort key are both "PK"`},
		{"shared index key", func(c *Config) { c.IndexSortKey = "SK" }, `adjlist: invalid option: Options.IndexSortKey "SK" is the table's sort key; the inverted index's keys must be distinct from the table's, exactly its sort and partition key, or its sort key alone with Options.IndexPartitionOnly`},
		{"index on the sort key alone", func(c *Config) { c.IndexPartitionKey = "SK" }, `adjlist: invalid option: Options.IndexPartitionKey "SK" is the table's sort key; the inverted index's keys must be distinct from the table's, exactly its sort and partition key, or its sort key alone with Options.IndexPartitionOnly`},
		{"both on the partition key", func(c *Config) { c.IndexPartitionKey, c.IndexSortKey = "PK", "SK" }, `adjlist: invalid option: Options.IndexPartitionKey "PK" is the table's partition key, Options.IndexSortKey "SK" is the table's sort key; the inverted index's keys must be distinct from the table's, exactly its sort and partition key, or its sort key alone with Options.IndexPartitionOnly`},
		{"index keys equal", func(c *Config) { c.IndexPartitionKey, c.IndexSortKey = "X", "X" }, `adjlist: invalid option: Options.IndexPartitionKey and Options.IndexSortKey are both "X"; the inverted index's keys must be distinct from the table's, exactly its sort and partition key, or its sort key alone with Options.IndexPartitionOnly`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			err := c.Check()
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, errs.ErrInvalidOption)
			assert.EqualError(t, err, tc.want)
		})
	}
}

func TestCheckIndexes(t *testing.T) {
	all := types.ProjectionTypeAll
	for _, tc := range []struct {
		name   string
		decls  []Index
		passed int
		want   string
	}{
		{"derived", []Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK", Projection: all}}, 1, ""},
		{"native shares", []Index{
			{Name: "ByStatus", PartitionAttributes: []KeyAttribute{{Name: "status"}}, Projection: all},
			{Name: "BySK", PartitionAttributes: []KeyAttribute{{Name: "SK"}, {Name: "status"}}, Projection: all},
		}, 2, ""},
		{"twice", []Index{{Name: "GSI2", PartitionKey: "A", Projection: all}, {Name: "GSI2", PartitionKey: "B", Projection: all}}, 1, `adjlist: invalid option: index "GSI2": declared twice`},
		{"inverted's name", []Index{{Name: "GSI1", PartitionKey: "A", Projection: all}}, 0, `adjlist: invalid option: index "GSI1": declared twice`},
		{"taken", []Index{{Name: "GSI2", PartitionKey: "GSI1PK", Projection: all}}, 0, `adjlist: invalid option: index "GSI2": key attribute "GSI1PK" is empty or used by the table or another index`},
		{"type", []Index{{Name: "GSI2", PartitionAttributes: []KeyAttribute{{Name: "n", Type: "B"}}, Projection: all}}, 0, `adjlist: invalid option: index "GSI2": key attribute "n" has type "B", want S or N`},
		{"local", []Index{{Name: "LSI1", Local: true, Projection: all}}, 0, `adjlist: invalid option: index "LSI1": a local index needs a SortKey or one sort attribute`},
		{"locals", []Index{
			{Name: "LSI1", Local: true, SortKey: "a", Projection: all}, {Name: "LSI2", Local: true, SortKey: "b", Projection: all},
			{Name: "LSI3", Local: true, SortKey: "c", Projection: all}, {Name: "LSI4", Local: true, SortKey: "d", Projection: all},
			{Name: "LSI5", Local: true, SortKey: "e", Projection: all}, {Name: "LSI6", Local: true, SortKey: "f", Projection: all},
		}, 6, "adjlist: invalid option: 6 local secondary indexes, DynamoDB allows 5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			written, passed, err := CheckIndexes("PK", "SK", "GSI1", true, "GSI1PK", "GSI1SK", tc.decls)
			assert.Equal(t, tc.passed, passed)
			assert.True(t, written["GSI1PK"] && written["GSI1SK"])
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, errs.ErrInvalidOption)
			assert.EqualError(t, err, tc.want)
		})
	}
}

func TestDedupeKeepsFirst(t *testing.T) {
	assert.Equal(t, []string{"GSI2PK", "PK", "SK"}, Dedupe([]string{"GSI2PK", "PK", "PK", "SK"}))
}

func TestNoClientSendsNothing(t *testing.T) {
	want := errors.New("no client")
	_, err := NoClient{Err: want}.Query(context.Background(), nil)
	require.ErrorIs(t, err, want)
}
