package adjlist_test

import (
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// The example keys the doc comments spell are promises: each row below is
// one, quoted from the comment named, checked against what the code
// spells. None needs DynamoDB: a table with a nil client builds keys.

type docWorkspace struct {
	Name string `dynamodbav:"name"`
}

type docProject struct {
	Status    string `dynamodbav:"status"`
	CreatedAt string `dynamodbav:"createdAt"`
}

// docModel declares the documents' students↔courses, workspaces and
// AWS social network item types on one table.
type docModel struct {
	table                *adjlist.Table
	students, workspaces *adjlist.Node[docWorkspace]
	bills                *adjlist.Node[docWorkspace]
	projects             *adjlist.Collection[docWorkspace, docProject]
	sharded              *adjlist.Collection[docWorkspace, docProject]
	followers            *adjlist.Entity[docWorkspace]
	profiles, posts      *adjlist.Entity[docWorkspace]
}

func newDocModel(t *testing.T) docModel {
	t.Helper()
	tb := adjlist.NewTable(nil, "docs")
	m := docModel{table: tb}
	m.students = adjlist.NewNode[docWorkspace](tb, "STU", "PROFILE")
	m.workspaces = adjlist.NewNode[docWorkspace](tb, "WS", "META")
	m.bills = adjlist.NewNode[docWorkspace](tb, "BILL", "")
	m.projects = adjlist.NewCollection[docProject](m.workspaces, "PROJ")
	m.followers = adjlist.NewEntity[docWorkspace](tb, "follower", "u#{userID}#follower", "u#{followerID}")
	m.profiles = adjlist.NewEntity[docWorkspace](tb, "profile", "{playerID}", "#METADATA#{playerID}")
	m.posts = adjlist.NewEntity[docWorkspace](tb, "post", "POST", "p#{postID}#u#{authorID}")
	require.NoError(t, tb.Check())
	// On a table of its own: a sharded collection's children would share
	// the keys of the unsharded one's under Table.Check.
	m.sharded = adjlist.NewCollection[docProject](adjlist.NewNode[docWorkspace](adjlist.NewTable(nil, "docs-sharded"), "WS", "META"),
		"PROJ", func(o *adjlist.CollectionOptions) { o.Shards = 8 })
	return m
}

// TestDocExampleKeys: the keys the doc comments give as examples are the
// keys the code builds.
func TestDocExampleKeys(t *testing.T) {
	t.Parallel()
	m := newDocModel(t)
	pair := func(a, b string, err error) []string {
		require.NoError(t, err)
		return []string{a, b}
	}
	one := func(a string, err error) []string {
		require.NoError(t, err)
		return []string{a}
	}
	tests := []struct {
		doc  string // where the example is promised
		got  []string
		want []string
	}{
		{"NodeKey", one(adjlist.NodeKey("STU", "a91")), []string{"STU#a91"}},
		{"NodeKey", one(adjlist.NodeKey("CRS", "x#1%")), []string{"CRS#x%231%25"}},
		{"EdgeKey", one(adjlist.EdgeKey("ENROLL", "CRS", "math204")), []string{"ENROLL#CRS#math204"}},
		{"ParseNodeKey", pair(adjlist.ParseNodeKey("STU#a91")), []string{"STU", "a91"}},
		{"PaddedID", one(adjlist.PaddedID("2026", 7, 4)), []string{"2026-0007"}},
		{"Node.Key", pair(m.students.Key("a91")), []string{"STU#a91", "PROFILE"}},
		{"NewNode (empty marker)", pair(m.bills.Key("42")), []string{"BILL#42", "BILL#42"}},
		{"Collection.Key", pair(m.projects.Key("acme", "2026-0007")), []string{"WS#acme", "PROJ#2026-0007"}},
		{"Collection.Ref", one(m.projects.Ref("acme", "2026-0042")), []string{"WS#acme#PROJ#2026-0042"}},
		{"Collection.Ref (sharded: the same)", one(m.sharded.Ref("acme", "2026-0042")), []string{"WS#acme#PROJ#2026-0042"}},
		{"Collection.ParseRef", pair(m.projects.ParseRef("WS#acme#PROJ#2026-0042")), []string{"acme", "2026-0042"}},
		{"Entity.Key", pair(m.followers.Key("12345", "34567")), []string{"u#12345#follower", "u#34567"}},
		{"Entity.Fields", m.followers.Fields(), []string{"userID", "followerID"}},
		{"Template (bare id)", pair(m.profiles.Key("player001")), []string{"player001", "#METADATA#player001"}},
		{"Template (several ids)", pair(m.posts.Key("34567", "56789")), []string{"POST", "p#34567#u#56789"}},
		{"KeyTemplate", []string{
			adjlist.Compose(adjlist.Const("STATUS"), adjlist.Attr("status")).String(),
			adjlist.Compose(adjlist.Const("ENROLL"), adjlist.TargetKey()).String(),
			adjlist.Template("u#{userID}#follower").String(),
		}, []string{"STATUS#<status>", "ENROLL#<target>", "u#<userID>#follower"}},
	}
	for _, tt := range tests {
		t.Run(tt.doc, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.got)
		})
	}

	t.Run("ParseEdgeKey", func(t *testing.T) {
		label, toType, toID, err := adjlist.ParseEdgeKey("ENROLL#CRS#math204")
		require.NoError(t, err)
		assert.Equal(t, []string{"ENROLL", "CRS", "math204"}, []string{label, toType, toID})
	})
	t.Run("Table.TypeOf", func(t *testing.T) {
		name, ok := m.table.TypeOf(adjlist.Item{
			"PK": &types.AttributeValueMemberS{Value: "u#12345#follower"},
			"SK": &types.AttributeValueMemberS{Value: "u#34567"},
		})
		require.True(t, ok)
		assert.Equal(t, "entity follower", name)
	})
}

// TestDocShardSuffix: Collection.Key promises that a sharded child's
// partition key is its parent's plus "FNV-1a of the child id modulo
// Shards, two digits" ("WS#acme#07").
func TestDocShardSuffix(t *testing.T) {
	t.Parallel()
	m := newDocModel(t)
	for i := range 200 {
		id := fmt.Sprintf("2026-%04d", i)
		h := fnv.New32a()
		h.Write([]byte(id))
		pk, sk, err := m.sharded.Key("acme", id)
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprintf("WS#acme#%02d", h.Sum32()%8), pk, id)
		assert.Equal(t, "PROJ#"+id, sk)
	}
}
