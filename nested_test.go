package adjlist_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// The multi-tenant tracker: orgs → projects → issues → comments.
type (
	Org struct {
		Name string `dynamodbav:"name"`
	}
	Issue struct {
		Title string `dynamodbav:"title"`
	}
	Comment struct {
		Text string `dynamodbav:"text"`
	}
)

type nestedTracker struct {
	db       *dynamodb.Client
	calls    *countingClient
	table    *adjlist.Table
	orgs     *adjlist.Node[Org]
	projects *adjlist.Collection[Project, Org]
	issues   *adjlist.Collection[Issue, Project]
	comments *adjlist.Collection[Comment, Issue]
}

func newNestedTracker(t *testing.T, issueOpts ...func(*adjlist.CollectionOptions)) *nestedTracker {
	t.Helper()
	db := ddbtest.Client(t)
	s := &nestedTracker{db: db, calls: &countingClient{Client: db}}
	s.table = adjlist.NewTable(s.calls, ddbtest.TableName(t))
	require.NoError(t, adjlist.CreateTable(context.Background(), db, s.table))
	dropOnCleanup(t, db, s.table.Name())
	s.orgs = adjlist.NewNode[Org](s.table, "ORG", "META")
	s.projects = adjlist.NewCollection[Project](s.orgs, "PROJ")
	s.issues = adjlist.NewNestedCollection[Issue](s.projects, "ISSUE", issueOpts...)
	s.comments = adjlist.NewNestedCollection[Comment](s.issues, "NOTE")
	require.NoError(t, s.table.Check())
	return s
}

// ref is a project's ref.
func (s *nestedTracker) ref(t *testing.T, org, project string) string {
	t.Helper()
	ref, err := s.projects.Ref(org, project)
	require.NoError(t, err)
	return ref
}

// TestNestedCollectionKeys: a nested child lives in its parent child's own
// partition, keyed by the parent's ref with every id escaped.
func TestNestedCollectionKeys(t *testing.T) {
	s := newNestedTracker(t)
	for _, tc := range []struct {
		org, project, issue string
		pk, sk, ref         string
	}{
		{"acme", "p1", "i7", "ORG#acme#PROJ#p1", "ISSUE#i7", "ORG#acme#PROJ#p1#ISSUE#i7"},
		{"a#b", "x%23y", "é#1", "ORG#a%23b#PROJ#x%2523y", "ISSUE#é%231", "ORG#a%23b#PROJ#x%2523y#ISSUE#é%231"},
	} {
		pref := s.ref(t, tc.org, tc.project)
		pk, sk, err := s.issues.Key(pref, tc.issue)
		require.NoError(t, err)
		assert.Equal(t, tc.pk, pk)
		assert.Equal(t, tc.sk, sk)
		ref, err := s.issues.Ref(pref, tc.issue)
		require.NoError(t, err)
		assert.Equal(t, tc.ref, ref)
		gotParent, gotID, err := s.issues.ParseRef(ref)
		require.NoError(t, err)
		assert.Equal(t, pref, gotParent)
		assert.Equal(t, tc.issue, gotID)

		// A fourth level: a comment's ref holds the issue's, which holds the
		// project's.
		cpk, _, err := s.comments.Key(ref, "c1")
		require.NoError(t, err)
		assert.Equal(t, tc.ref, cpk)
		cref, err := s.comments.Ref(ref, "c1")
		require.NoError(t, err)
		p, id, err := s.comments.ParseRef(cref)
		require.NoError(t, err)
		assert.Equal(t, ref, p)
		assert.Equal(t, "c1", id)
	}
}

// TestNestedCollectionBadInput: a parent that is not a ref of the parent
// collection is refused before any request, and so is a bad declaration.
func TestNestedCollectionBadInput(t *testing.T) {
	s := newNestedTracker(t)
	ctx := context.Background()
	for _, parent := range []string{"", "acme", "ORG#acme", "ORG#acme#PROJ#", "ORG#a#b#PROJ#p", "ORG#acme#TASK#p1", "ORG#acme#PROJ#p1#ISSUE#i1"} {
		t.Run(parent, func(t *testing.T) {
			before := s.calls.total()
			require.ErrorIs(t, s.issues.Put(ctx, parent, "i1", Issue{}), adjlist.ErrInvalidKey)
			_, err := s.issues.List(parent).Collect(ctx)
			require.ErrorIs(t, err, adjlist.ErrInvalidKey)
			_, err = s.issues.Load(ctx, parent)
			require.ErrorIs(t, err, adjlist.ErrInvalidKey)
			_, err = s.issues.Ref(parent, "i1")
			require.ErrorIs(t, err, adjlist.ErrInvalidKey)
			assert.Equal(t, before, s.calls.total(), "requests sent for bad input")
		})
	}
	same := adjlist.NewNestedCollection[Issue](s.projects, "PROJ")
	require.ErrorIs(t, same.Put(ctx, s.ref(t, "acme", "p1"), "i1", Issue{}), adjlist.ErrInvalidOption)
	_, err := same.Load(ctx, s.ref(t, "acme", "p1")) // a handle's error, not a panic
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
}

// TestNestedCollectionHierarchy: org → project → issue with hostile ids at
// every level, each level one Query, no tenant reaching another's items.
func TestNestedCollectionHierarchy(t *testing.T) {
	s := newNestedTracker(t)
	ctx := context.Background()
	// Two tenants whose ids would spell the same partition were ids not
	// escaped: ORG#a#PROJ#b#PROJ#c.
	tenants := []struct{ org, project string }{{"a#PROJ#b", "c"}, {"a", "b#PROJ#c"}, {"x%23y", "é"}, {"\u00a0", "#"}}
	for i, tn := range tenants {
		require.NoError(t, s.orgs.Put(ctx, tn.org, Org{Name: tn.org}))
		require.NoError(t, s.projects.Put(ctx, tn.org, tn.project, Project{Title: tn.project}))
		require.NoError(t, s.issues.Put(ctx, s.ref(t, tn.org, tn.project), "i#1", Issue{Title: tn.org}))
		if i == 0 {
			require.NoError(t, s.issues.Put(ctx, s.ref(t, tn.org, tn.project), "i#2", Issue{Title: "second"}))
		}
	}
	for i, tn := range tenants {
		ref := s.ref(t, tn.org, tn.project)

		// An org with its projects: one Query.
		before := s.calls.queries.Load()
		fam, err := s.projects.Load(ctx, tn.org)
		require.NoError(t, err)
		assert.Equal(t, int64(1), s.calls.queries.Load()-before)
		require.Len(t, fam.Children, 1)
		assert.Equal(t, tn.project, fam.Children[0].ID)
		assert.Equal(t, tn.org, fam.Parent.Name)
		assert.Zero(t, fam.Other, "an org's partition holds no issue")

		// A project's issues: one Query.
		before = s.calls.total()
		got, err := s.issues.List(ref).Collect(ctx)
		require.NoError(t, err)
		assert.Equal(t, int64(1), s.calls.total()-before)
		want := 1
		if i == 0 {
			want = 2
		}
		require.Len(t, got, want)
		for _, is := range got {
			assert.Equal(t, ref, is.Parent)
		}
		assert.Equal(t, "i#1", got[0].ID)
		assert.Equal(t, tn.org, got[0].Data.Title)

		// A project with its issues: the project item (in its org's
		// partition) with one GetItem, its issues with one Query.
		before, beforeGets := s.calls.queries.Load(), s.calls.gets.Load()
		pf, err := s.issues.Load(ctx, ref)
		require.NoError(t, err)
		assert.Equal(t, int64(1), s.calls.queries.Load()-before)
		assert.Equal(t, int64(1), s.calls.gets.Load()-beforeGets)
		assert.Equal(t, tn.project, pf.Parent.Title)
		assert.Equal(t, ref, pf.ID)
		require.Len(t, pf.Children, want)

		is, err := s.issues.Get(ctx, ref, "i#1")
		require.NoError(t, err)
		assert.Equal(t, tn.org, is.Title)
	}
	// The second tenant cannot reach the first's second issue.
	_, err := s.issues.Get(ctx, s.ref(t, "a", "b#PROJ#c"), "i#2")
	require.ErrorIs(t, err, adjlist.ErrNotFound)
	require.ErrorIs(t, s.issues.Delete(ctx, s.ref(t, "a", "b#PROJ#c"), "i#2"), adjlist.ErrNotFound)

	// A missing project: Load is ErrNotFound.
	_, err = s.issues.Load(ctx, s.ref(t, "a", "nope"))
	require.ErrorIs(t, err, adjlist.ErrNotFound)

	// Every item decodes as its own type and Verify finds nothing.
	res, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
}

// TestNestedCollectionPages pages a project's issues with cursors, one
// Query a page, newest first, sharded or not.
func TestNestedCollectionPages(t *testing.T) {
	for _, shards := range []int{0, 4} {
		t.Run(map[int]string{0: "unsharded", 4: "sharded"}[shards], func(t *testing.T) {
			s := newNestedTracker(t, func(o *adjlist.CollectionOptions) { o.Shards = shards })
			ctx := context.Background()
			ref := s.ref(t, "a#b", "x%23y")
			require.NoError(t, s.projects.Put(ctx, "a#b", "x%23y", Project{Title: "p"}))
			var want []string
			for _, id := range []string{"0001", "0002", "0003", "0004", "0005"} {
				require.NoError(t, s.issues.Put(ctx, ref, id, Issue{Title: id}))
				want = append([]string{id}, want...)
			}
			var got []string
			cursor := ""
			for pages := 0; ; pages++ {
				require.Less(t, pages, 10)
				before := s.calls.queries.Load()
				page, err := s.issues.List(ref).Desc().Limit(2).Page(ctx, cursor)
				require.NoError(t, err)
				if shards == 0 {
					assert.Equal(t, int64(1), s.calls.queries.Load()-before)
				}
				for _, is := range page.Items {
					got = append(got, is.ID)
				}
				if cursor = page.Cursor; cursor == "" {
					break
				}
			}
			assert.Equal(t, want, got)
			// A cursor of another project's issues is refused.
			page, err := s.issues.List(ref).Limit(2).Page(ctx, "")
			require.NoError(t, err)
			_, err = s.issues.List(s.ref(t, "a#b", "other")).Limit(2).Page(ctx, page.Cursor)
			require.ErrorIs(t, err, adjlist.ErrInvalidCursor)

			if shards > 0 {
				pk, _, err := s.issues.Key(ref, "0001")
				require.NoError(t, err)
				assert.Regexp(t, `^ORG#a%23b#PROJ#x%2523y#\d\d$`, pk)
				out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.table.Name()),
					Key: adjlist.Item{"PK": av(pk), "SK": av("ISSUE#0001")}})
				require.NoError(t, err)
				require.NotNil(t, out.Item)
				v, ok, err := s.issues.Decode(out.Item)
				require.NoError(t, err)
				require.True(t, ok)
				assert.Equal(t, ref, v.Parent)
			}
		})
	}
}

// TestDescribeNestedCollection: Describe and the diagram name a nested
// collection by its path, its keys by level, and its Load as the GetItem
// and Query it sends.
func TestDescribeNestedCollection(t *testing.T) {
	tb := adjlist.NewTable(nil, "nestedTracker")
	orgs := adjlist.NewNode[Org](tb, "ORG", "META")
	projects := adjlist.NewCollection[Project](orgs, "PROJ")
	issues := adjlist.NewNestedCollection[Issue](projects, "ISSUE")
	_ = adjlist.NewNestedCollection[Comment](issues, "NOTE")
	var b strings.Builder
	require.NoError(t, adjlist.Describe(&b, tb))
	doc := b.String()
	for _, want := range []string{
		"| child ISSUE of ORG/PROJ | `ORG#<id>#PROJ#<PROJ id>` | `ISSUE#<child>` |",
		"| child NOTE of ORG/PROJ/ISSUE | `ORG#<id>#PROJ#<PROJ id>#ISSUE#<ISSUE id>` | `NOTE#<child>` |",
		"| ORG and all its PROJ children | `Collection.Load` | Query | `PK = \"ORG#<id>\"` | table |",
		"| ORG/PROJ and all its ISSUE children | `Collection.Load` | GetItem of the parent, then Query | `PK = \"ORG#<id>#PROJ#<PROJ id>\" AND begins_with(SK, \"ISSUE#\")` | table |",
		"| ORG/PROJ's ISSUE children, newest first | `Collection.List(id).Desc()` | Query | `PK = \"ORG#<id>#PROJ#<PROJ id>\" AND begins_with(SK, \"ISSUE#\"); ScanIndexForward=false` | table |",
	} {
		assert.Contains(t, doc, want)
	}
	m, err := adjlist.DescribeModel(tb)
	require.NoError(t, err)
	b.Reset()
	require.NoError(t, m.Mermaid(&b))
	assert.Contains(t, b.String(), "  c_ORG_PROJ ==>|\"ISSUE children (Collection.List, table)\"| c_ORG_PROJ_ISSUE\n")
	assert.Contains(t, b.String(), "  c_ORG_PROJ_ISSUE ==>|\"NOTE children (Collection.List, table)\"| c_ORG_PROJ_ISSUE_NOTE\n")
	assert.NotContains(t, b.String(), "n_ORG_PROJ")
}

// TestDeleteChildNested deletes a project with everything under it: its
// issues (in every shard), their notes, the edges out of and into them,
// counting their labels down, and leaves every other tenant's items.
func TestDeleteChildNested(t *testing.T) {
	type Label struct{}
	type User struct{}
	type Assigned struct{}
	for _, shards := range []int{0, 3} {
		t.Run(map[int]string{0: "unsharded", 3: "sharded"}[shards], func(t *testing.T) {
			s := newNestedTracker(t, func(o *adjlist.CollectionOptions) { o.Shards = shards })
			ctx := context.Background()
			labels := adjlist.NewNode[Label](s.table, "LABEL", "META")
			users := adjlist.NewNode[User](s.table, "USER", "META")
			labeled := adjlist.NewEdge[Label](s.issues, "LABELED", labels)
			perLabel := newEdgeCounter(labeled, "ISSUES")
			assigned := adjlist.NewEdge[Assigned](users, "ASSIGNED", s.issues)
			require.NoError(t, s.table.Check())
			require.NoError(t, labels.Put(ctx, "bug", Label{}))
			require.NoError(t, users.Put(ctx, "u#1", User{}))

			// Two projects of one org, and the same project id in another.
			type proj struct{ org, project string }
			doomed, sibling, other := proj{"a#b", "x%23y"}, proj{"a#b", "x"}, proj{"a", "b#PROJ#x%23y"}
			for _, p := range []proj{doomed, sibling, other} {
				require.NoError(t, s.orgs.Replace(ctx, p.org, Org{}))
				require.NoError(t, s.projects.Put(ctx, p.org, p.project, Project{}))
				ref := s.ref(t, p.org, p.project)
				for _, id := range []string{"i#1", "é", "3"} {
					require.NoError(t, s.issues.Put(ctx, ref, id, Issue{Title: id}))
					iref, err := s.issues.Ref(ref, id)
					require.NoError(t, err)
					require.NoError(t, s.comments.Put(ctx, iref, "c1", Comment{}))
					require.NoError(t, perLabel.Put(ctx, iref, "bug", Label{}))
					require.NoError(t, assigned.Put(ctx, "u#1", iref, Assigned{}))
				}
			}
			n, err := perLabel.Get(ctx, "bug")
			require.NoError(t, err)
			require.Equal(t, int64(9), n)

			res, err := adjlist.DeleteChild(ctx, s.projects, doomed.org, doomed.project)
			require.NoError(t, err)
			assert.True(t, res.Node)
			assert.Equal(t, 3, res.Incoming, "the ASSIGNED edges into the issues")
			// 3 issues, 3 notes, 3 LABELED edges.
			assert.Equal(t, 9, res.Partition)
			assert.Equal(t, 3, res.Counted)

			// Nothing is left under the project.
			ref := s.ref(t, doomed.org, doomed.project)
			left, err := s.issues.List(ref).Collect(ctx)
			require.NoError(t, err)
			assert.Empty(t, left)
			_, err = s.projects.Get(ctx, doomed.org, doomed.project)
			require.ErrorIs(t, err, adjlist.ErrNotFound)
			n, err = perLabel.Get(ctx, "bug")
			require.NoError(t, err)
			assert.Equal(t, int64(6), n)
			got, err := assigned.From("u#1").Collect(ctx)
			require.NoError(t, err)
			assert.Len(t, got, 6)
			for _, e := range got {
				p, _, err := s.issues.ParseRef(e.To)
				require.NoError(t, err)
				assert.NotEqual(t, ref, p)
			}
			for _, p := range []proj{sibling, other} {
				left, err := s.issues.List(s.ref(t, p.org, p.project)).Collect(ctx)
				require.NoError(t, err)
				assert.Len(t, left, 3)
			}
			vr, err := adjlist.Verify(ctx, s.db, s.table)
			require.NoError(t, err)
			assert.Empty(t, vr.Findings)

			// A second run finds nothing to do.
			res, err = adjlist.DeleteChild(ctx, s.projects, doomed.org, doomed.project)
			require.NoError(t, err)
			assert.False(t, res.Node)
			assert.Zero(t, res.Partition+res.Incoming)

			// Deleting the org takes its other project and everything under it.
			_, err = adjlist.DeleteNode(ctx, s.orgs, sibling.org)
			require.NoError(t, err)
			left, err = s.issues.List(s.ref(t, sibling.org, sibling.project)).Collect(ctx)
			require.NoError(t, err)
			assert.Empty(t, left)
			n, err = perLabel.Get(ctx, "bug")
			require.NoError(t, err)
			assert.Equal(t, int64(3), n)
			vr, err = adjlist.Verify(ctx, s.db, s.table)
			require.NoError(t, err)
			assert.Empty(t, vr.Findings)
			out, err := s.db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(s.table.Name())})
			require.NoError(t, err)
			for _, item := range out.Items {
				pk := item["PK"].(*types.AttributeValueMemberS).Value
				assert.NotContains(t, pk, "ORG#a%23b", "left under the deleted org")
			}
		})
	}
}

// TestDeleteChildNestedItemCounter: a project deleted with its nested
// issues and their comments leaves no count item behind in any partition
// it deleted (the comments' counts live in each issue's partition), the
// other project's counts stay true, and Verify finds nothing.
func TestDeleteChildNestedItemCounter(t *testing.T) {
	s := newNestedTracker(t)
	ctx := context.Background()
	perIssue := adjlist.NewItemCounter(s.comments, "COMMENTS")
	require.NoError(t, s.table.Check())
	require.NoError(t, s.orgs.Put(ctx, "acme", Org{}))
	for _, p := range []string{"doomed", "kept"} {
		require.NoError(t, s.projects.Put(ctx, "acme", p, Project{}))
		ref := s.ref(t, "acme", p)
		for _, id := range []string{"i#1", "i2"} {
			require.NoError(t, s.issues.Put(ctx, ref, id, Issue{Title: id}))
			iref, err := s.issues.Ref(ref, id)
			require.NoError(t, err)
			for _, c := range []string{"c1", "c2", "c3"} {
				require.NoError(t, s.comments.Put(ctx, iref, c, Comment{Text: c}))
			}
		}
	}
	kept, err := s.issues.Ref(s.ref(t, "acme", "kept"), "i2")
	require.NoError(t, err)
	n, err := perIssue.Get(ctx, adjlist.IDs{kept}, "")
	require.NoError(t, err)
	require.Equal(t, int64(3), n)

	_, err = adjlist.DeleteChild(ctx, s.projects, "acme", "doomed")
	require.NoError(t, err)
	out, err := s.db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(s.table.Name())})
	require.NoError(t, err)
	for _, item := range out.Items {
		pk := item["PK"].(*types.AttributeValueMemberS).Value
		assert.NotContains(t, pk, "doomed", "an item left in a deleted partition")
	}
	n, err = perIssue.Get(ctx, adjlist.IDs{kept}, "")
	require.NoError(t, err)
	assert.Equal(t, int64(3), n)
	res, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
}

// TestNestedCollectionByIndexParentKey: a nested collection's index key
// that holds {@parent} holds the parent's ref as the write stored it,
// so ByIndex given that ref finds the children (it once escaped the ref
// as a node id, and found nothing); a ref of another parent type is
// refused before any request.
func TestNestedCollectionByIndexParentKey(t *testing.T) {
	t.Parallel()
	type Ticket struct {
		Status string `dynamodbav:"status"`
	}
	ctx := context.Background()
	db := ddbtest.Client(t)
	calls := &countingClient{Client: db}
	table := adjlist.NewTable(calls, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	orgs := adjlist.NewNode[Org](table, "ORG", "META")
	projects := adjlist.NewCollection[Project](orgs, "PROJ")
	byStatus := adjlist.NewNestedCollection[Ticket](projects, "TICKET", func(o *adjlist.CollectionOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2",
			PartitionKey: adjlist.Template("{@parent}#{status}"),
			SortKey:      adjlist.Template("{@self}")}}
	})
	require.NoError(t, table.Check())
	ddbtest.CreateTable(t, table)
	for _, org := range []string{"acme", "a#b"} {
		ref, err := projects.Ref(org, "web#1")
		require.NoError(t, err)
		require.NoError(t, byStatus.Put(ctx, ref, "1", Ticket{Status: "open"}))
		require.NoError(t, byStatus.Put(ctx, ref, "2", Ticket{Status: "closed"}))
		got, err := byStatus.ByIndex("GSI2", ref, "open").Collect(ctx)
		require.NoError(t, err, org)
		require.Len(t, got, 1, org)
		assert.Equal(t, "1", got[0].ID)
		assert.Equal(t, ref, got[0].Parent)
	}
	before := calls.total()
	_, err := byStatus.ByIndex("GSI2", "ORG#acme", "open").Collect(ctx)
	require.ErrorIs(t, err, adjlist.ErrInvalidKey, "an org's key is not a project's ref")
	assert.Equal(t, before, calls.total(), "refused before any request")
}
