package adjlist_test

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

type followerData struct {
	Since string `dynamodbav:"since"`
	Score int    `dynamodbav:"score"`
}

// followersModel is the social network's followers (u#{userID}#follower /
// u#{followerID}) with keys in a local index, a global index whose sort
// key is the item's own key, and a local native index.
func followersModel(t *testing.T) (*adjlist.Table, *adjlist.Entity[followerData]) {
	t.Helper()
	table := adjlist.NewTable(nil, "social", func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{
			{Name: "LSI1", Local: true, SortKey: "LSI1SK"},
			{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"},
			{Name: "LSI2", Local: true, SortAttributes: []adjlist.KeyAttribute{{Name: "score", Type: types.ScalarAttributeTypeN}}},
		}
	})
	followers := adjlist.NewEntity[followerData](table, "follower", "u#{userID}#follower", "u#{followerID}", func(o *adjlist.EntityOptions) {
		o.Indexes = []adjlist.IndexKeys{
			{Index: "LSI1", SortKey: adjlist.Template("SINCE#{since}")},
			{Index: "GSI2", PartitionKey: adjlist.Template("F#{followerID}"), SortKey: adjlist.Template("{@self}")},
		}
	})
	return table, followers
}

// TestDescribeEntityIndexKeys: an entity's local index partition is its
// own table partition template, not "<id>"; its SelfKey is its sort key;
// a local native index's partition is the item's, not the attribute's
// name. The Markdown and the access pattern say the same.
func TestDescribeEntityIndexKeys(t *testing.T) {
	t.Parallel()
	table, followers := followersModel(t)
	m, err := adjlist.DescribeModel(table, followers)
	require.NoError(t, err)
	require.Len(t, m.Items, 1)
	assert.Equal(t, []adjlist.ItemKeys{
		{Index: "LSI1", PartitionKey: "u#<userID>#follower", SortKey: "SINCE#<since>"},
		{Index: "GSI2", PartitionKey: "F#<followerID>", SortKey: "u#<followerID>"},
		{Index: "LSI2", PartitionKey: "u#<userID>#follower", SortKey: "<score>"},
	}, m.Items[0].Indexes)

	var b strings.Builder
	require.NoError(t, adjlist.Describe(&b, table, followers))
	md := b.String()
	assert.Contains(t, md, "| entity follower | `u#<userID>#follower` | `SINCE#<since>` |\n")
	assert.Contains(t, md, "| entity follower in LSI1 by u#<userID>#follower, sorted by SINCE#<since> |")
	assert.NotContains(t, md, "<id>")
}

// TestModelTemplates: the model carries every key of every item type as
// parts (literal text, ids, data attributes, shards), one ItemTemplate
// per item type, whose strings are the ItemType's.
func TestModelTemplates(t *testing.T) {
	t.Parallel()
	table, followers := followersModel(t)
	m, err := adjlist.DescribeModel(table, followers)
	require.NoError(t, err)
	text := func(s string) adjlist.KeyFormatPart { return adjlist.KeyFormatPart{Kind: "text", Text: s} }
	id := func(n string) adjlist.KeyFormatPart { return adjlist.KeyFormatPart{Kind: "id", Name: n} }
	attr := func(n string) adjlist.KeyFormatPart {
		return adjlist.KeyFormatPart{Kind: "attribute", Name: n}
	}
	home := adjlist.KeyFormat{Attribute: "PK", Parts: []adjlist.KeyFormatPart{text("u#"), id("userID"), text("#follower")}}
	own := adjlist.KeyFormat{Attribute: "SK", Parts: []adjlist.KeyFormatPart{text("u#"), id("followerID")}}
	require.Len(t, m.Templates, 1)
	assert.Equal(t, adjlist.ItemTemplate{Item: "entity follower", PartitionKey: home, SortKey: own,
		Indexes: []adjlist.IndexTemplate{
			{Index: "LSI1", PartitionKey: []adjlist.KeyFormat{home},
				SortKey: []adjlist.KeyFormat{{Attribute: "LSI1SK", Parts: []adjlist.KeyFormatPart{text("SINCE#"), attr("since")}}}},
			{Index: "GSI2", PartitionKey: []adjlist.KeyFormat{{Attribute: "GSI2PK", Parts: []adjlist.KeyFormatPart{text("F#"), id("followerID")}}},
				SortKey: []adjlist.KeyFormat{{Attribute: "GSI2SK", Parts: own.Parts}}},
			{Index: "LSI2", PartitionKey: []adjlist.KeyFormat{home},
				SortKey: []adjlist.KeyFormat{{Attribute: "score", Parts: []adjlist.KeyFormatPart{attr("score")}}}},
		}}, m.Templates[0])
	assert.Equal(t, m.Items[0].PartitionKey, placeholders(home))
	assert.Equal(t, m.Items[0].SortKey, placeholders(own))

	// Every preset's templates write its strings: nodes, edges (sharded,
	// into a child), children (sharded), and the sort-key index layout.
	for _, tc := range []struct {
		name   string
		opts   func(*adjlist.Options)
		shards int // of the edge: a sort-key index takes none
	}{{"default", func(*adjlist.Options) {}, 8}, {"sort key index", func(o *adjlist.Options) { o.IndexPartitionKey, o.IndexSortKey = "SK", "PK" }, 0}} {
		table := adjlist.NewTable(nil, "tags", tc.opts, func(o *adjlist.Options) {
			o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
		})
		ws := adjlist.NewNode[Workspace](table, "WS", "META")
		projects := adjlist.NewCollection[Project](ws, "PROJ", func(o *adjlist.CollectionOptions) { o.Shards = 4 })
		tags := adjlist.NewNode[struct{}](table, "TAG", "")
		tagged := adjlist.NewEdge[Tagging](tags, "TAGGED", projects, func(o *adjlist.EdgeOptions) {
			o.Shards = tc.shards
			o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("{@target}"), SortKey: adjlist.Template("{@self}")}}
		})
		m, err := adjlist.DescribeModel(table, ws, projects, tags, tagged)
		require.NoError(t, err, tc.name)
		require.Len(t, m.Templates, len(m.Items))
		for i, it := range m.Items {
			tpl := m.Templates[i]
			assert.Equal(t, it.Name, tpl.Item)
			assert.Equal(t, [2]string{it.PartitionKey, it.SortKey}, [2]string{placeholders(tpl.PartitionKey), placeholders(tpl.SortKey)}, "%s: %s", tc.name, it.Name)
			require.Len(t, tpl.Indexes, len(it.Indexes))
			for j, x := range tpl.Indexes {
				assert.Equal(t, it.Indexes[j].Index, x.Index)
				assert.Equal(t, it.Indexes[j].PartitionKey, placeholders(x.PartitionKey[0]))
				assert.Equal(t, it.Indexes[j].SortKey, placeholders(x.SortKey[0]))
			}
		}
		assert.Equal(t, "WS#<id>#<shard of child, 4>", m.Items[1].PartitionKey)
		edge := m.Items[3]
		assert.Equal(t, "TAGGED#WS#<to parent>#PROJ#<to>", edge.SortKey)
		assert.Contains(t, edge.Indexes, adjlist.ItemKeys{Index: "GSI2", PartitionKey: "WS#<to parent>#PROJ#<to>", SortKey: "TAGGED#WS#<to parent>#PROJ#<to>"},
			"%s: TargetKey and SelfKey of an edge into a child are the child's ref, not WS#<to>", tc.name)
	}
}

// TestKeyFormatMatch: a key matches its item type's template, ids being
// escaped ids as the library writes them: runs without '#', every '%'
// starting "%23" or "%25", no control characters. The last two rows are
// the decision of issue 40 (one key reader): before it an id was any run
// without '#', and both matched.
func TestKeyFormatMatch(t *testing.T) {
	t.Parallel()
	text := func(s string) adjlist.KeyFormatPart { return adjlist.KeyFormatPart{Kind: "text", Text: s} }
	id := func(n string) adjlist.KeyFormatPart { return adjlist.KeyFormatPart{Kind: "id", Name: n} }
	shard := adjlist.KeyFormatPart{Kind: "shard", Name: "shard of child, 4"}
	for _, tc := range []struct {
		parts []adjlist.KeyFormatPart
		key   string
		want  bool
	}{
		{[]adjlist.KeyFormatPart{text("u#"), id("userID"), text("#follower")}, "u#12345#follower", true},
		{[]adjlist.KeyFormatPart{text("u#"), id("userID"), text("#follower")}, "u#12345", false},
		{[]adjlist.KeyFormatPart{text("u#"), id("userID"), text("#follower")}, "u##follower", false},
		{[]adjlist.KeyFormatPart{text("u#"), id("userID"), text("#follower")}, "u#1#2#follower", false},
		{[]adjlist.KeyFormatPart{text("u#"), id("userID")}, "u#a%23b", true},
		{[]adjlist.KeyFormatPart{text("u#"), id("userID")}, "u#12345#follower", false},
		{[]adjlist.KeyFormatPart{id("playerID")}, "player001", true},
		{[]adjlist.KeyFormatPart{text("info")}, "info", true},
		{[]adjlist.KeyFormatPart{text("info")}, "info2", false},
		{[]adjlist.KeyFormatPart{text("WS#"), id("id"), text("#"), shard}, "WS#acme#03", true},
		{[]adjlist.KeyFormatPart{text("WS#"), id("id"), text("#"), shard}, "WS#acme#3", false},
		{[]adjlist.KeyFormatPart{text("WS#"), id("id"), text("#"), shard}, "WS#acme", false},
		{[]adjlist.KeyFormatPart{text("p#"), id("postID"), text("#u#"), id("authorID")}, "p#34567#u#56789", true},
		{[]adjlist.KeyFormatPart{id("a"), text("x"), id("b")}, "1x2x3", true},
		{[]adjlist.KeyFormatPart{text("u#"), id("userID")}, "u#a%2", false},
		{[]adjlist.KeyFormatPart{text("u#"), id("userID"), text("#follower")}, "u#a\x01#follower", false},
	} {
		assert.Equal(t, tc.want, adjlist.KeyFormat{Parts: tc.parts}.Match(tc.key), "%v %q", tc.parts, tc.key)
	}
}

type session struct {
	Device    string `dynamodbav:"device"`
	ExpiresAt int64  `dynamodbav:"expiresAt"`
}

// TestModelTimeToLive: the model's TimeToLive is the attribute the item
// types' Tracking.Expiry names; two different ones are refused, since a
// table has one.
func TestModelTimeToLive(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "blog")
	authors := adjlist.NewNode[Student](table, "AUTHOR", "PROFILE")
	sessions := adjlist.NewCollection[session](authors, "SESSION", func(o *adjlist.CollectionOptions) {
		o.Expiry, o.Lifetime = "expiresAt", 24*time.Hour
	})
	m, err := adjlist.DescribeModel(table, authors, sessions)
	require.NoError(t, err)
	assert.Equal(t, "expiresAt", m.TimeToLive)
	assert.Equal(t, []string{"", "expiresAt"}, []string{m.Items[0].Expiry, m.Items[1].Expiry})
	var b strings.Builder
	require.NoError(t, adjlist.Describe(&b, table, authors, sessions))
	assert.Contains(t, b.String(), "\nTime to Live: `expiresAt` (epoch seconds), after which DynamoDB deletes the item, typically within a few days.\n")

	m, err = adjlist.DescribeModel(table, authors)
	require.NoError(t, err)
	assert.Empty(t, m.TimeToLive)

	timeline := adjlist.NewEntity[anyData](table, "timeline", "u#{userID}#timeline", "p#{postID}", func(o *adjlist.EntityOptions) { o.Expiry = "ttl" })
	_, err = adjlist.DescribeModel(table, sessions, timeline)
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	_, err = adjlist.DescribeModel(table)
	require.ErrorIs(t, err, adjlist.ErrInvalidOption, "the recorded model too")
}

// placeholders writes f as ItemType shows keys: text as it is, each
// variable part as <name>.
func placeholders(f adjlist.KeyFormat) string {
	var b strings.Builder
	for _, p := range f.Parts {
		if p.Kind == "text" {
			b.WriteString(p.Text)
		} else {
			b.WriteString("<" + p.Name + ">")
		}
	}
	return b.String()
}
