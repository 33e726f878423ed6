package adjlist_test

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
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
	projects             *adjlist.Collection[docProject, docWorkspace]
	sharded              *adjlist.Collection[docProject, docWorkspace]
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
		{"Node.Key (escaped id)", pair(adjlist.NewNode[docWorkspace](m.table, "CRS", "METADATA").Key("x#1%")), []string{"CRS#x%231%25", "METADATA"}},
		{"Edge.Key", pair(adjlist.NewEdge[struct{}](m.students, "ENROLL", adjlist.NewNode[docWorkspace](m.table, "CRS", "METADATA")).Key("a91", "math204")), []string{"STU#a91", "ENROLL#CRS#math204"}},
		{"Node.Key", pair(m.students.Key("a91")), []string{"STU#a91", "PROFILE"}},
		{"NewNode (empty marker)", pair(m.bills.Key("42")), []string{"BILL#42", "BILL#42"}},
		{"Collection.Key", pair(m.projects.Key("acme", "2026-0007")), []string{"WS#acme", "PROJ#2026-0007"}},
		{"Collection.Ref", one(m.projects.Ref("acme", "2026-0042")), []string{"WS#acme#PROJ#2026-0042"}},
		{"Collection.Ref (sharded: the same)", one(m.sharded.Ref("acme", "2026-0042")), []string{"WS#acme#PROJ#2026-0042"}},
		{"Collection.ParseRef", pair(m.projects.ParseRef("WS#acme#PROJ#2026-0042")), []string{"acme", "2026-0042"}},
		{"Entity.Key", pair(m.followers.Key("12345", "34567")), []string{"u#12345#follower", "u#34567"}},
		{"Template (bare id)", pair(m.profiles.Key("player001")), []string{"player001", "#METADATA#player001"}},
		{"Template (several ids)", pair(m.posts.Key("34567", "56789")), []string{"POST", "p#34567#u#56789"}},
	}
	for _, tt := range tests {
		t.Run(tt.doc, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.got)
		})
	}

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

// recorder is a Client that records each request and answers it with an
// empty result (Query) or errRecorded, so that the requests a doc comment
// spells can be read without DynamoDB.
type recorder struct {
	adjlist.Client
	mu   sync.Mutex
	last any
}

var errRecorded = errors.New("recorded, not sent")

func (r *recorder) note(in any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.last = in
}

func (r *recorder) input() any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

func (r *recorder) Query(_ context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	r.note(in)
	return &dynamodb.QueryOutput{}, nil
}

func (r *recorder) GetItem(_ context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	r.note(in)
	return nil, errRecorded
}

func (r *recorder) UpdateItem(_ context.Context, in *dynamodb.UpdateItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	r.note(in)
	return nil, errRecorded
}

// spell writes expr with its names and string values substituted, in the
// doc comments' spelling: #0 = :0 with #0 = PK, :0 = "WS#acme" is
// PK = "WS#acme". Parentheses and spaces are dropped, as the comments
// drop the expression builder's.
func spell(expr string, names map[string]string, values map[string]types.AttributeValue) string {
	var pairs []string
	for k, v := range names {
		pairs = append(pairs, k, v)
	}
	for k, v := range values {
		s, ok := v.(*types.AttributeValueMemberS)
		if !ok {
			continue
		}
		pairs = append(pairs, k, `"`+s.Value+`"`)
	}
	// Longest first, so that #10 is not read as #1 then 0.
	var ks []string
	for i := 0; i < len(pairs); i += 2 {
		ks = append(ks, pairs[i])
	}
	sort.Slice(ks, func(i, j int) bool { return len(ks[i]) > len(ks[j]) })
	lookup := map[string]string{}
	for i := 0; i < len(pairs); i += 2 {
		lookup[pairs[i]] = pairs[i+1]
	}
	var args []string
	for _, k := range ks {
		args = append(args, k, lookup[k])
	}
	return strings.NewReplacer("(", "", ")", "", " ", "").Replace(strings.NewReplacer(args...).Replace(expr))
}

type docStudent struct {
	Major string `dynamodbav:"major"`
}

type docEnrollment struct {
	EnrolledOn string `dynamodbav:"enrolledOn"`
}

// TestDocExampleRequests: the requests the doc comments spell, key
// conditions, filters and update expressions, are the requests sent.
func TestDocExampleRequests(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rec := &recorder{}
	tb := adjlist.NewTable(rec, "docs", func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	students := adjlist.NewNode[docStudent](tb, "STU", "PROFILE", func(o *adjlist.NodeOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("MAJOR#{major}"), SortKey: adjlist.Template("{@self}")}}
	})
	courses := adjlist.NewNode[docWorkspace](tb, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[docEnrollment](students, "ENROLL", courses, func(o *adjlist.EdgeOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("{@target}"), SortKey: adjlist.Template("ENROLL#{enrolledOn}")}}
	})
	workspaces := adjlist.NewNode[docWorkspace](tb, "WS", "META")
	projects := adjlist.NewCollection[docProject](workspaces, "PROJ", func(o *adjlist.CollectionOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("STATUS#{status}"), SortKey: adjlist.Template("{createdAt}")}}
	})
	followers := adjlist.NewEntity[docWorkspace](tb, "follower", "u#{userID}#follower", "u#{followerID}")
	orders := adjlist.NewEntity[docWorkspace](tb, "order", "USER#{userID}", "ORDER#{orderDate}")
	items := adjlist.NewEntity[docWorkspace](tb, "item", "{playerID}", "ITEMS#{itemID}")
	require.NoError(t, tb.Check())

	query := func(t *testing.T, page func(context.Context, string) error) *dynamodb.QueryInput {
		t.Helper()
		require.NoError(t, page(ctx, ""))
		in, ok := rec.input().(*dynamodb.QueryInput)
		require.True(t, ok, "a Query was sent")
		return in
	}
	type want struct {
		index, key, filter string
		desc               bool
	}
	tests := []struct {
		doc  string
		page func(context.Context, string) error
		want want
	}{
		{"Collection.List", pageOf(projects.List("acme")),
			want{key: `PK = "WS#acme" AND begins_with(SK, "PROJ#")`}},
		{"Query.BeginsWith", pageOf(projects.List("acme").BeginsWith("2026-")),
			want{key: `PK = "WS#acme" AND begins_with(SK, "PROJ#2026-")`}},
		{"Query (range values)", pageOf(projects.List("acme").LessThan("a#b")),
			want{key: `PK = "WS#acme" AND SK BETWEEN "PROJ#" AND "PROJ#a%23b"`}},
		{"Query.GreaterThan", pageOf(projects.List("acme").GreaterThan("2026-0042")),
			want{key: `PK = "WS#acme" AND SK BETWEEN "PROJ#2026-0042 " AND "PROJ$"`}},
		{"Query.GreaterThanEqual", pageOf(projects.List("acme").GreaterThanEqual("2026-0042")),
			want{key: `PK = "WS#acme" AND SK BETWEEN "PROJ#2026-0042" AND "PROJ$"`}},
		{"Edge.From", pageOf(enrolled.From("a91")),
			want{key: `PK = "STU#a91" AND begins_with(SK, "ENROLL#CRS#")`}},
		{"Edge.To", pageOf(enrolled.To("math204")),
			want{index: "GSI1", key: `GSI1PK = "CRS#math204" AND begins_with(GSI1SK, "STU#")`, filter: `begins_with(SK, "ENROLL#CRS#")`}},
		{"Node.ByIndex", pageOf(students.ByIndex("GSI2", "physics")),
			want{index: "GSI2", key: `GSI2PK = "MAJOR#physics" AND begins_with(GSI2SK, "STU#")`}},
		{"Collection.ByIndex", pageOf(projects.ByIndex("GSI2", "ACTIVE").Desc()),
			want{index: "GSI2", key: `GSI2PK = "STATUS#ACTIVE"`, desc: true}},
		{"Edge.ByIndex", pageOf(enrolled.ByIndex("GSI2", "math204").GreaterThanEqual("2026-09-01")),
			want{index: "GSI2", key: `GSI2PK = "CRS#math204" AND GSI2SK BETWEEN "ENROLL#2026-09-01" AND "ENROLL$"`}},
		{"Entity.List", pageOf(followers.List("12345")),
			want{key: `PK = "u#12345#follower" AND begins_with(SK, "u#")`}},
		{"Entity.List (gaming profile)", pageOf(items.List("player001")),
			want{key: `PK = "player001" AND begins_with(SK, "ITEMS#")`}},
		{"Query.Equal", pageOf(items.List("player001").Equal("003")),
			want{key: `PK = "player001" AND SK = "ITEMS#003"`}},
		{"Query.Between", pageOf(orders.List("123").Between("2023-01-01", "2023-01-31\U0010FFFF")),
			want{key: `PK = "USER#123" AND SK BETWEEN "ORDER#2023-01-01" AND "ORDER#2023-01-31` + "\U0010FFFF" + `"`}},
	}
	for _, tt := range tests {
		t.Run(tt.doc, func(t *testing.T) {
			in := query(t, tt.page)
			assert.Equal(t, tt.want.index, aws.ToString(in.IndexName))
			assert.Equal(t, spell(tt.want.key, nil, nil), spell(aws.ToString(in.KeyConditionExpression), in.ExpressionAttributeNames, in.ExpressionAttributeValues))
			assert.Equal(t, spell(tt.want.filter, nil, nil), spell(aws.ToString(in.FilterExpression), in.ExpressionAttributeNames, in.ExpressionAttributeValues))
			assert.Equal(t, !tt.want.desc, aws.ToBool(in.ScanIndexForward))
		})
	}

	t.Run("Collection.Get", func(t *testing.T) {
		_, err := projects.Get(ctx, "acme", "2026-0042")
		require.ErrorIs(t, err, errRecorded)
		in, ok := rec.input().(*dynamodb.GetItemInput)
		require.True(t, ok, "a GetItem was sent")
		assert.Equal(t, adjlist.Item{
			"PK": &types.AttributeValueMemberS{Value: "WS#acme"},
			"SK": &types.AttributeValueMemberS{Value: "PROJ#2026-0042"},
		}, in.Key)
	})
	// Update: Node.Update sends adjlist.Set("status", "ACTIVE").Remove("draft")
	// as "REMOVE #1\nSET #2 = :0\n", #0 being the guard's partition key.
	t.Run("Update", func(t *testing.T) {
		_, err := workspaces.Update(ctx, "acme", adjlist.Set("status", "ACTIVE").Remove("draft"))
		require.ErrorIs(t, err, errRecorded)
		in, ok := rec.input().(*dynamodb.UpdateItemInput)
		require.True(t, ok, "an UpdateItem was sent")
		assert.Equal(t, "REMOVE #1\nSET #2 = :0\n", aws.ToString(in.UpdateExpression))
		assert.Equal(t, "attribute_exists (#0)", aws.ToString(in.ConditionExpression))
		assert.Equal(t, map[string]string{"#0": "PK", "#1": "draft", "#2": "status"}, in.ExpressionAttributeNames)
		assert.Equal(t, adjlist.Item{":0": &types.AttributeValueMemberS{Value: "ACTIVE"}}, in.ExpressionAttributeValues)
	})
}

// pageOf is the first page of q, its items dropped.
func pageOf[T any](q adjlist.Query[T]) func(context.Context, string) error {
	return func(ctx context.Context, cursor string) error {
		_, err := q.Page(ctx, cursor)
		return err
	}
}

// TestDocOpErrorOp: OpError.Op names the operation, "Edge.Put", and for
// a query the call that built it, "Edge.From" (there is no Op "Query").
func TestDocOpErrorOp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tb := adjlist.NewTable(&recorder{}, "docs")
	students := adjlist.NewNode[docStudent](tb, "STU", "PROFILE")
	courses := adjlist.NewNode[docWorkspace](tb, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[docEnrollment](students, "ENROLL", courses)
	tests := []struct {
		op  string
		err error
	}{
		{"Edge.Put", enrolled.Put(ctx, "", "math204", docEnrollment{})},
		{"Edge.From", pageOf(enrolled.From("a91"))(ctx, "not a cursor")},
		{"Edge.To", pageOf(enrolled.To("math204"))(ctx, "not a cursor")},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			var oe *adjlist.OpError
			require.ErrorAs(t, tt.err, &oe)
			assert.Equal(t, tt.op, oe.Op)
		})
	}
}
