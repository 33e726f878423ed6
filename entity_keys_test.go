package adjlist_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// Key template tests need no DynamoDB: keys are built and parsed without
// a request (the table has no client).

type anyData struct {
	Name string `dynamodbav:"name,omitempty"`
}

// keysItem is a raw item with only table keys.
func keysItem(pk, sk string) adjlist.Item {
	return adjlist.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}}
}

// TestEntityKeysAsDesignsSpellThem: the AWS guide's social network and
// gaming profile keys, spelled by templates, built and parsed back.
func TestEntityKeysAsDesignsSpellThem(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "designs", func(o *adjlist.Options) { o.NoIndex = true })
	for _, tt := range []struct {
		name, pkT, skT string
		ids            []string // in the order of the key fields
		pk, sk         string
	}{
		{"user", "u#{userID}", "info", []string{"12345"}, "u#12345", "info"},
		{"counts", "u#{userID}", "count", []string{"12345"}, "u#12345", "count"},
		{"follower", "u#{userID}#follower", "u#{followerID}", []string{"12345", "34567"}, "u#12345#follower", "u#34567"},
		{"timeline", "u#{userID}#timeline", "p#{postID}#u#{authorID}", []string{"12345", "34567", "56789"}, "u#12345#timeline", "p#34567#u#56789"},
		{"likecount", "p#{postID}#likecount", "count", []string{"12345"}, "p#12345#likecount", "count"},
		{"metadata", "{playerID}", "#METADATA#{playerID}", []string{"player001"}, "player001", "#METADATA#player001"},
		{"item", "{playerID}", "ITEMS#{itemID}", []string{"player001", "003"}, "player001", "ITEMS#003"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := adjlist.NewEntity[anyData](table, tt.name, tt.pkT, tt.skT)
			pk, sk, err := e.Key(tt.ids...)
			require.NoError(t, err)
			assert.Equal(t, tt.pk, pk)
			assert.Equal(t, tt.sk, sk)
			v, ok, err := e.Decode(keysItem(pk, sk))
			require.NoError(t, err)
			require.True(t, ok)
			assert.Equal(t, adjlist.IDs(tt.ids), v.IDs)
		})
	}
	require.NoError(t, table.Check())
}

// TestEntityHostileIDs: any id in any part round-trips; no id reaches
// into another part or another item type's keys; bad ids and keys over
// DynamoDB's limits are ErrInvalidKey.
func TestEntityHostileIDs(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "hostile", func(o *adjlist.Options) { o.NoIndex = true })
	timeline := adjlist.NewEntity[anyData](table, "timeline", "u#{userID}#timeline", "p#{postID}#u#{authorID}")
	posts := adjlist.NewEntity[anyData](table, "post", "u#{userID}#post", "p#{postID}")
	for _, ids := range [][]string{
		{"a#b", "c#d#e", "f"},
		{"%", "%23", "%25#"},
		{"100%#", "#", "##"},
		{"é日本", "🙂", "x y"},
		{"u", "p", "u#1"},
		{strings.Repeat("z", 1000), "1", "2"},
	} {
		pk, sk, err := timeline.Key(ids...)
		require.NoError(t, err, "%q", ids)
		assert.NotContains(t, strings.TrimPrefix(strings.TrimSuffix(pk, "#timeline"), "u#"), "#", "an id's '#' is escaped")
		v, ok, err := timeline.Decode(keysItem(pk, sk))
		require.NoError(t, err)
		require.True(t, ok, "%q", ids)
		assert.Equal(t, adjlist.IDs(ids), v.IDs)
		_, ok, _ = posts.Decode(keysItem(pk, sk))
		assert.False(t, ok, "a timeline item is not a post")
	}

	bad := []struct {
		name string
		ids  []string
	}{
		{"empty part", []string{"", "p", "a"}},
		{"control", []string{"u", "p\x00", "a"}},
		{"not UTF-8", []string{"u", "p", "\xff"}},
		{"too few", []string{"u", "p"}},
		{"too many", []string{"u", "p", "a", "b"}},
		{"partition key over 2,048 bytes", []string{strings.Repeat("x", 2048), "p", "a"}},
		{"sort key over 1,024 bytes", []string{"u", strings.Repeat("x", 1020), "a"}},
	}
	for _, b := range bad {
		_, _, err := timeline.Key(b.ids...)
		assert.ErrorIs(t, err, adjlist.ErrInvalidKey, b.name)
	}
	// At the limits exactly: 2,048 and 1,024 bytes.
	_, _, err := timeline.Key(strings.Repeat("x", 2048-len("u##timeline")), "p", "a")
	assert.NoError(t, err)
	_, _, err = timeline.Key("u", strings.Repeat("x", 1024-len("p##u#a")), "a")
	assert.NoError(t, err)
}

// TestEntityDecodeRefusesOtherShapes: prefix closure. A key of another
// shape, a field spelled twice with two ids, or an undecodable escape is
// not the entity's.
func TestEntityDecodeRefusesOtherShapes(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "shapes", func(o *adjlist.Options) { o.NoIndex = true })
	meta := adjlist.NewEntity[anyData](table, "metadata", "{playerID}", "#METADATA#{playerID}")
	items := adjlist.NewEntity[anyData](table, "item", "{playerID}", "ITEMS#{itemID}")
	for _, k := range [][2]string{
		{"player001", "#METADATA#player002"}, // the field's two spellings differ
		{"player001", "ITEMS#001"},
		{"player001", "#METADATA#"},
		{"player001", "#METADATA#a#b"},
		{"player001", "#METADATA#%zz"},
		{"", "#METADATA#player001"},
	} {
		_, ok, err := meta.Decode(keysItem(k[0], k[1]))
		assert.NoError(t, err)
		assert.False(t, ok, "%q", k)
	}
	for _, k := range [][2]string{
		{"player001", "ITEMS#001#x"},
		{"player001", "ITEMS"},
		{"player001", "ITEMSX001"},
		{"player001", "#METADATA#player001"},
		{"a#b", "ITEMS#001"},
	} {
		_, ok, err := items.Decode(keysItem(k[0], k[1]))
		assert.NoError(t, err)
		assert.False(t, ok, "%q", k)
	}
	_, ok, _ := items.Decode(adjlist.Item{"PK": &types.AttributeValueMemberN{Value: "1"}, "SK": &types.AttributeValueMemberS{Value: "ITEMS#1"}})
	assert.False(t, ok, "a number key is no id")
}

// TestTemplateRefused: malformed and undecodable templates, and entities
// whose keys could be another's, are refused when declared, before any
// request, and listed by Table.Check.
func TestTemplateRefused(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, pk, sk string }{
		{"empty sort key", "u#{id}", ""},
		{"unbalanced", "u#{id", "info"},
		{"stray brace", "u#id}", "info"},
		{"adjacent fields", "{a}{b}", "info"},
		{"bad field name", "u#{a b}", "info"},
		{"field then text", "u#{id}x", "info"},
		{"field then dash", "{date}-{id}", "info"},
		{"control character", "u#{id}", "in\x01fo"},
		{"not UTF-8", "u#{id}", "\xff"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			table := adjlist.NewTable(nil, "refused", func(o *adjlist.Options) { o.NoIndex = true })
			e := adjlist.NewEntity[anyData](table, "e", tt.pk, tt.sk)
			_, _, err := e.Key("x")
			assert.ErrorIs(t, err, adjlist.ErrInvalidOption)
			assert.ErrorIs(t, table.Check(), adjlist.ErrInvalidOption)
		})
	}

	table := adjlist.NewTable(nil, "ambiguous", func(o *adjlist.Options) { o.NoIndex = true })
	users := adjlist.NewEntity[anyData](table, "user", "u#{userID}", "info")
	follows := adjlist.NewEntity[anyData](table, "follower", "u#{userID}#follower", "u#{followerID}")
	_, _, err := users.Key("1")
	require.NoError(t, err)
	_, _, err = follows.Key("1", "2")
	require.NoError(t, err)
	// Any sort key at all in a user's partition: "info" would be one.
	wild := adjlist.NewEntity[anyData](table, "wild", "u#{userID}", "{anything}")
	_, _, err = wild.Key("1", "info")
	assert.ErrorIs(t, err, adjlist.ErrInvalidOption)
	// Prefixes that meet: "u#{x}" could be "u#1#follower"? No: ids hold no
	// '#'. But "u#1" sort keys of another partition shape are fine.
	other := adjlist.NewEntity[anyData](table, "other", "u#{userID}", "u#{x}")
	_, _, err = other.Key("1", "2")
	assert.NoError(t, err)
	assert.ErrorIs(t, table.Check(), adjlist.ErrInvalidOption, "Check lists the refused entity")
}

// TestTemplateStrings: a Template's index key as DescribeModel shows it,
// with {name} and {@self} placeholders.
func TestTemplateStrings(t *testing.T) {
	t.Parallel()
	spelled := func(k adjlist.KeyTemplate) string {
		table := adjlist.NewTable(nil, "t", func(o *adjlist.Options) {
			o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK"}}
		})
		node := adjlist.NewNode[anyData](table, "WS", "META", func(o *adjlist.NodeOptions) {
			o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: k}}
		})
		m, err := adjlist.DescribeModel(table, node)
		require.NoError(t, err)
		require.Len(t, m.Items, 1)
		require.Len(t, m.Items[0].Indexes, 1)
		return m.Items[0].Indexes[0].PartitionKey
	}
	assert.Equal(t, "STATUS#<name>", spelled(adjlist.Template("STATUS#{name}")))
	assert.Equal(t, "IN#WS#<id>#<name>", spelled(adjlist.Template("IN#{@self}#{name}")))
}

// TestEntityDeclaredTwice: declaring an entity again (a second handle, a
// new layout of the same type) replaces it in the table's record; it is
// not ambiguous with itself.
func TestEntityDeclaredTwice(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "twice", func(o *adjlist.Options) { o.NoIndex = true })
	adjlist.NewEntity[anyData](table, "user", "u#{userID}", "info")
	again := adjlist.NewEntity[anyData](table, "user", "u#{userID}", "info")
	_, _, err := again.Key("1")
	require.NoError(t, err)
	require.NoError(t, table.Check())
	m, err := adjlist.DescribeModel(table)
	require.NoError(t, err)
	assert.Len(t, m.Items, 1)
}

// TestIndexTemplateRefused: a malformed index key template is refused
// where it is declared, with its own error, not its missing parts'.
func TestIndexTemplateRefused(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "index-template", func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{{Name: "GSI1", PartitionKey: "GSI1PK", SortKey: "GSI1SK"}}
	})
	declare := func(name, partitionKey string) error {
		e := adjlist.NewEntity[anyData](table, name, "u#{userID}", "info", func(o *adjlist.EntityOptions) {
			o.Indexes = []adjlist.IndexKeys{{Index: "GSI1", PartitionKey: adjlist.Template(partitionKey), SortKey: adjlist.Template("{userID}")}}
		})
		_, _, err := e.Key("1")
		return err
	}
	assert.ErrorIs(t, declare("user", "NAME#{name"), adjlist.ErrInvalidOption)
	assert.NoError(t, declare("user", "NAME#{name}"), "the same declaration, well spelled")
}
