package adjlist_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// TestRepairLeavesIndexKeysOfAnItemItCannotMove: a misplaced child whose
// index keys are wrong too, and whose own key another item holds, is
// neither moved nor rewritten: Repair puts the index key finding in Left
// with the misplaced one (not in Gone, since it still holds), writes
// nothing, and the next Verify finds both again.
func TestRepairLeavesIndexKeysOfAnItemItCannotMove(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := newSchool(t)
	sharded := adjlist.NewCollection[Ticket](s.students, "TCK", func(o *adjlist.CollectionOptions) { o.Shards = 4 })
	require.NoError(t, s.table.Check())
	require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ada"}))
	require.NoError(t, sharded.Put(ctx, "a91", "t3", Ticket{CreatedAt: "t3"}))
	name := s.table.Name()
	pk3, _, err := sharded.Key("a91", "t3")
	require.NoError(t, err)
	out, err := s.db.GetItem(ctx, getInput(name, pk3, "TCK#t3"))
	require.NoError(t, err)
	home := out.Item
	copy3 := otherShard(pk3)
	stale := clone(home)
	stale["PK"] = &types.AttributeValueMemberS{Value: copy3}
	stale["GSI1PK"] = &types.AttributeValueMemberS{Value: "TCK#t3"} // an index key the child type never writes
	stale["GSI1SK"] = &types.AttributeValueMemberS{Value: copy3}
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &name, Item: stale})
	require.NoError(t, err)

	res, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	var kinds []string
	for _, f := range res.Findings {
		assert.Equal(t, adjlist.Key{PK: copy3, SK: "TCK#t3"}, f.Key)
		kinds = append(kinds, f.Kind)
	}
	require.Contains(t, kinds, adjlist.FindingMisplaced)
	require.Contains(t, kinds, adjlist.FindingIndexKeyExtra)

	rep, err := adjlist.Repair(ctx, s.db, s.table, res.Findings)
	require.NoError(t, err)
	assert.Empty(t, rep.Repaired)
	assert.Empty(t, rep.Gone, "the findings still hold")
	assert.ElementsMatch(t, findingKeys(res.Findings), findingKeys(rep.Left))
	got, err := s.db.GetItem(ctx, getInput(name, copy3, "TCK#t3"))
	require.NoError(t, err)
	assert.Equal(t, stale, got.Item, "nothing written to the copy")
	got, err = s.db.GetItem(ctx, getInput(name, pk3, "TCK#t3"))
	require.NoError(t, err)
	assert.Equal(t, home, got.Item, "nor to the item at its key")
	again, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	assert.ElementsMatch(t, findingKeys(res.Findings), findingKeys(again.Findings))
}
