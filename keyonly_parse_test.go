package adjlist_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// TestKeyOnlyReadFromKeysAnotherProgramWrote: a value kept only inside a
// sharded index partition key is read from a key another program wrote
// when the key parses unambiguously under the template (with the two
// digit shard suffix, or without one, as a key written before the index
// was sharded), and is refused with ErrInvalidKey otherwise, never read
// as another value. The old reader took any text after the last '#' as
// the shard, so it refused a key without a suffix and read "DAY##07" as
// an empty date.
func TestKeyOnlyReadFromKeysAnotherProgramWrote(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{{Name: "GSI1", PartitionKey: "GSI1PK", SortKey: "GSI1SK"}}
	})
	tickets := adjlist.NewEntity[ticket](table, "ticket", "t#{id}", "meta", func(o *adjlist.EntityOptions) {
		o.KeyOnly = []string{"date"}
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI1", PartitionKey: adjlist.Template("DAY#{date}"), SortKey: adjlist.Template("TICKET"), Shards: 4}}
	})
	ddbtest.CreateTable(t, table)
	require.NoError(t, tickets.Put(ctx, nil, ticket{ID: "mine", Date: "2026-01-02"}))
	for _, c := range []struct {
		id, key string
		want    string // "": refused
	}{
		{"mine", "", "2026-01-02"}, // as the Put wrote it
		{"suffixed", "DAY#2026-01-02#03", "2026-01-02"},
		{"unsharded", "DAY#2026-01-02", "2026-01-02"},
		{"empty", "DAY##07", ""},
		{"not a shard", "DAY#2026-01-02#x", ""},
	} {
		if c.key != "" {
			_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table.Name()), Item: adjlist.Item{
				"PK": av("t#" + c.id), "SK": av("meta"), "id": av(c.id), "GSI1PK": av(c.key), "GSI1SK": av("TICKET")}})
			require.NoError(t, err)
		}
		got, err := tickets.Get(ctx, adjlist.IDs{c.id}, adjlist.Consistent)
		if c.want == "" {
			require.ErrorIs(t, err, adjlist.ErrInvalidKey, c.id)
			continue
		}
		require.NoError(t, err, c.id)
		assert.Equal(t, ticket{ID: c.id, Date: c.want}, got, c.id)
	}
}
