package adjlist_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// Shout is a type with its own marshalling: stored upper case, read back
// lower case.
type Shout string

func (s Shout) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberS{Value: strings.ToUpper(string(s))}, nil
}

func (s *Shout) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	*s = Shout(strings.ToLower(av.(*types.AttributeValueMemberS).Value))
	return nil
}

// Tagged is a service's type, tagged for encoding/json only.
type Tagged struct {
	Name string `json:"name"`
	Nick string `json:"nick,omitempty"`
	//lint:ignore SA5008 stringset is attributevalue's option, read from the json key (TagKey "json"); encoding/json ignores it
	Tags  []string `json:"tags,stringset"`
	Motto Shout    `json:"motto"`
}

// TestMarshalOptions: the SDK's encoder and decoder options on the table
// apply to every write and read of nodes, edges and children: a type
// tagged with json keeps its attribute names, omitempty and NullEmptySets
// hold, a type's own marshalling is used, Update values follow the same
// encoder, and a key attribute is still refused whatever the tag key.
func TestMarshalOptions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	jsonTags := func(o *adjlist.Options) {
		o.EncoderOptions = func(eo *attributevalue.EncoderOptions) { eo.TagKey, eo.NullEmptySets = "json", true }
		o.DecoderOptions = func(do *attributevalue.DecoderOptions) { do.TagKey = "json" }
	}
	table := ddbtest.NewTable(t, jsonTags)
	people := adjlist.NewNode[Tagged](table, "P", "PROFILE")
	knows := adjlist.NewEdge[Tagged](people, "KNOWS", people)
	notes := adjlist.NewCollection[Tagged](people, "NOTE")
	ada := Tagged{Name: "Ada", Motto: "analytical", Tags: nil}

	require.NoError(t, people.Put(ctx, "ada", ada))
	require.NoError(t, knows.Put(ctx, "ada", "bob", ada))
	require.NoError(t, notes.Put(ctx, "ada", "n1", ada))

	db := ddbtest.Client(t)
	for _, key := range [][2]string{{"P#ada", "PROFILE"}, {"P#ada", "KNOWS#P#bob"}, {"P#ada", "NOTE#n1"}} {
		out, err := db.GetItem(ctx, getInput(table.Name(), key[0], key[1]))
		require.NoError(t, err)
		item := out.Item
		assert.Equal(t, &types.AttributeValueMemberS{Value: "Ada"}, item["name"], "%v: json names", key)
		assert.NotContains(t, item, "nick", "%v: omitempty", key)
		assert.NotContains(t, item, "Name", "%v", key)
		assert.Equal(t, &types.AttributeValueMemberNULL{Value: true}, item["tags"], "%v: NullEmptySets", key)
		assert.Equal(t, &types.AttributeValueMemberS{Value: "ANALYTICAL"}, item["motto"], "%v: the type's own marshaller", key)
	}

	got, err := people.Get(ctx, "ada")
	require.NoError(t, err)
	assert.Equal(t, Tagged{Name: "Ada", Motto: "analytical"}, got, "decoded by json names")
	e, err := knows.Get(ctx, "ada", "bob")
	require.NoError(t, err)
	assert.Equal(t, "Ada", e.Name)
	c, err := notes.Get(ctx, "ada", "n1")
	require.NoError(t, err)
	assert.Equal(t, "Ada", c.Name)

	// Update values go through the same encoder.
	upd, err := people.Update(ctx, "ada", adjlist.Set("motto", Shout("poetical")).Set("tags", []string{}))
	require.NoError(t, err)
	assert.Equal(t, Shout("poetical"), upd.Motto)
	out, err := db.GetItem(ctx, getInput(table.Name(), "P#ada", "PROFILE"))
	require.NoError(t, err)
	assert.Equal(t, &types.AttributeValueMemberS{Value: "POETICAL"}, out.Item["motto"])

	// A key attribute in data is refused under the json tag key too.
	type sneakyJSON struct {
		PK string `json:"PK"`
	}
	sneaky := adjlist.NewNode[sneakyJSON](table, "S", "")
	require.ErrorIs(t, sneaky.Put(ctx, "x", sneakyJSON{PK: "P#ada"}), adjlist.ErrKeyAttribute)
}
