package adjlist_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/oklog/ulid/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// Seed 004's workspaces → projects.
type (
	Workspace struct {
		DisplayName string `dynamodbav:"displayName"`
		Region      string `dynamodbav:"region"`
		SeatLimit   int    `dynamodbav:"seatLimit"`
	}
	Project struct {
		Title     string `dynamodbav:"title"`
		Status    string `dynamodbav:"status"`
		CreatedBy string `dynamodbav:"createdBy"`
	}
	Member struct {
		Role string `dynamodbav:"role"`
	}
)

type tenancy struct {
	db         *dynamodb.Client
	calls      *countingClient
	table      *adjlist.Table
	workspaces *adjlist.Node[Workspace]
	projects   *adjlist.Collection[Project, Workspace]
}

func newTenancy(t *testing.T) *tenancy {
	t.Helper()
	db := ddbtest.Client(t)
	s := &tenancy{db: db, calls: &countingClient{Client: db}}
	s.table = adjlist.NewTable(s.calls, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.PartitionKey, o.SortKey = "EntityRef", "Detail"
	})
	require.NoError(t, adjlist.CreateTable(context.Background(), db, s.table))
	dropOnCleanup(t, db, s.table.Name())
	s.workspaces = adjlist.NewNode[Workspace](s.table, "WS", "META")
	s.projects = adjlist.NewCollection[Project](s.workspaces, "PROJ")
	return s
}

func TestCollectionLifecycle(t *testing.T) {
	t.Parallel()
	s := newTenancy(t)
	ctx := context.Background()
	acme := Workspace{DisplayName: "Acme", Region: "eu-west-1", SeatLimit: 50}
	p7 := Project{Title: "Launch", Status: "ACTIVE", CreatedBy: "ada"}

	require.NoError(t, s.workspaces.Put(ctx, "acme", acme))
	require.NoError(t, s.projects.Put(ctx, "acme", "2026-0007", p7))

	err := s.projects.Put(ctx, "acme", "2026-0007", Project{Title: "Other"})
	require.ErrorIs(t, err, adjlist.ErrExists)
	assert.NotContains(t, err.Error(), "edge", "a child's create guard, not an edge's")
	var ccf *types.ConditionalCheckFailedException
	require.ErrorAs(t, err, &ccf)

	got, err := s.projects.Get(ctx, "acme", "2026-0007")
	require.NoError(t, err)
	assert.Equal(t, p7, got, "the duplicate changed nothing")

	raw := rawTenancyItem(t, s, "WS#acme", "PROJ#2026-0007")
	assert.Equal(t, map[string]string{"EntityRef": "WS#acme", "Detail": "PROJ#2026-0007", "title": "Launch", "status": "ACTIVE", "createdBy": "ada"}, raw)

	upd, err := s.projects.Update(ctx, "acme", "2026-0007", adjlist.Set("status", "DONE"))
	require.NoError(t, err)
	assert.Equal(t, "DONE", upd.Status)
	_, err = s.projects.Update(ctx, "acme", "2026-9999", adjlist.Set("status", "DONE"))
	require.ErrorIs(t, err, adjlist.ErrNotFound)
	_, err = s.projects.Update(ctx, "acme", "2026-0007", adjlist.Set("Detail", "x"))
	require.ErrorIs(t, err, adjlist.ErrKeyAttribute)

	require.NoError(t, s.projects.Delete(ctx, "acme", "2026-0007"))
	_, err = s.projects.Get(ctx, "acme", "2026-0007")
	require.ErrorIs(t, err, adjlist.ErrNotFound)
	require.ErrorIs(t, s.projects.Delete(ctx, "acme", "2026-0007"), adjlist.ErrNotFound)

	ws, err := s.workspaces.Get(ctx, "acme")
	require.NoError(t, err)
	assert.Equal(t, acme, ws)
}

func TestCollectionLoad(t *testing.T) {
	t.Parallel()
	s := newTenancy(t)
	ctx := context.Background()
	require.NoError(t, s.workspaces.Put(ctx, "acme", Workspace{DisplayName: "Acme"}))
	for _, id := range []string{"2026-0118", "2026-0007", "2026-0042"} {
		require.NoError(t, s.projects.Put(ctx, "acme", id, Project{Title: "p" + id}))
	}
	// Decoys in the same partition: another child type whose name starts
	// like PROJ, and an edge. None may be decoded as a project.
	other := adjlist.NewCollection[Member](s.workspaces, "PROJX")
	require.NoError(t, other.Put(ctx, "acme", "1", Member{Role: "x"}))
	users := adjlist.NewNode[Student](s.table, "USER", "PROFILE")
	members := adjlist.NewEdge[Member](s.workspaces, "MEMBER", users)
	require.NoError(t, members.Put(ctx, "acme", "ada", Member{Role: "owner"}))
	// Another workspace's project.
	require.NoError(t, s.projects.Put(ctx, "acme2", "2026-0001", Project{}))

	before := s.calls.queries.Load()
	fam, err := s.projects.Load(ctx, "acme")
	require.NoError(t, err)
	assert.Equal(t, int64(1), s.calls.queries.Load()-before, "parent and children in one Query")
	assert.Equal(t, "Acme", fam.Parent.DisplayName)
	assert.Equal(t, []string{"2026-0007", "2026-0042", "2026-0118"}, ids(fam.Children, childID))
	assert.Equal(t, "p2026-0042", fam.Children[1].Data.Title)
	assert.Equal(t, 2, fam.Other, "the PROJX child and the MEMBER edge")

	n, err := s.projects.List("acme").Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 3, n)

	_, err = s.projects.Load(ctx, "globex")
	require.ErrorIs(t, err, adjlist.ErrNotFound)
}

func childID(c adjlist.Child[Project]) string { return c.ID }

func TestCollectionNewestFirstAcrossPages(t *testing.T) {
	t.Parallel()
	s := newTenancy(t)
	ctx := context.Background()
	const n = 45
	var want []string
	for i := 1; i <= n; i++ {
		want = append(want, fmt.Sprintf("2026-%04d", i))
	}
	// Insertion order must not matter: the sort key orders them.
	shuffled := slices.Clone(want)
	rand.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, id := range shuffled {
		require.NoError(t, s.projects.Put(ctx, "acme", id, Project{Title: id}))
	}
	newest := slices.Clone(want)
	slices.Reverse(newest)

	tests := []struct {
		name  string
		query adjlist.Query[adjlist.Child[Project]]
		want  []string
	}{
		{"newest first", s.projects.List("acme").Desc(), newest},
		{"oldest first", s.projects.List("acme"), want},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			cursor := ""
			for pages := 0; ; pages++ {
				require.Less(t, pages, n)
				page, err := tt.query.Limit(10).Page(ctx, cursor)
				require.NoError(t, err)
				got = append(got, ids(page.Items, childID)...)
				if cursor = page.Cursor; cursor == "" {
					break
				}
			}
			assert.Equal(t, tt.want, got)

			got = got[:0]
			for c, err := range tt.query.Limit(8).All(ctx) {
				require.NoError(t, err)
				got = append(got, c.ID)
			}
			assert.Equal(t, tt.want, got)
		})
	}
	count, err := s.projects.List("acme").Limit(10).Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, n, count)
}

func TestCollectionULIDOrder(t *testing.T) {
	t.Parallel()
	s := newTenancy(t)
	ctx := context.Background()
	var created []string
	for range 20 {
		id := ulid.Make().String() // monotonic within this process
		created = append(created, id)
		require.NoError(t, s.projects.Put(ctx, "acme", id, Project{}))
	}
	latest, err := s.projects.List("acme").Desc().Limit(5).Page(ctx, "")
	require.NoError(t, err)
	want := slices.Clone(created[15:])
	slices.Reverse(want)
	assert.Equal(t, want, ids(latest.Items, childID), "the five newest, newest first")
}

func TestCollectionRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	s := newTenancy(t)
	ctx := context.Background()
	sameAsMarker := adjlist.NewCollection[Project](s.workspaces, "META")
	tests := []struct {
		name string
		call func() error
		want error
	}{
		{"empty child id", func() error { return s.projects.Put(ctx, "acme", "", Project{}) }, adjlist.ErrInvalidKey},
		{"empty parent id", func() error { _, err := s.projects.Get(ctx, "", "1"); return err }, adjlist.ErrInvalidKey},
		{"invalid UTF-8", func() error { return s.projects.Delete(ctx, "acme", "\xff") }, adjlist.ErrInvalidKey},
		{"list empty parent", func() error { _, err := s.projects.List("").Count(ctx); return err }, adjlist.ErrInvalidKey},
		{"load empty parent", func() error { _, err := s.projects.Load(ctx, ""); return err }, adjlist.ErrInvalidKey},
		{"child type equals marker", func() error { return sameAsMarker.Put(ctx, "acme", "1", Project{}) }, adjlist.ErrInvalidOption},
		{"data maps to a key", func() error {
			return adjlist.NewCollection[map[string]string](s.workspaces, "PROJ").Put(ctx, "acme", "1", map[string]string{"EntityRef": "WS#globex"})
		}, adjlist.ErrKeyAttribute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := s.calls.total()
			require.ErrorIs(t, tt.call(), tt.want)
			assert.Equal(t, before, s.calls.total())
		})
	}
}

func rawTenancyItem(t *testing.T, s *tenancy, pk, sk string) map[string]string {
	t.Helper()
	out, err := s.db.GetItem(context.Background(), &dynamodb.GetItemInput{
		TableName: aws.String(s.table.Name()),
		Key: map[string]types.AttributeValue{
			"EntityRef": &types.AttributeValueMemberS{Value: pk},
			"Detail":    &types.AttributeValueMemberS{Value: sk},
		},
	})
	require.NoError(t, err)
	return stringsOf(t, out.Item)
}
