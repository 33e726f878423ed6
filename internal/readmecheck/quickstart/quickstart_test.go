// Package quickstart runs the README's quick start, the issue tracker:
// its declarations are this file's, as a reader's package would hold
// them (with its own Project, User and Issue, which the readmecheck
// package declares otherwise), and its statements run against DynamoDB
// Local with assertions of what the README promises.
package quickstart

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// One DynamoDB Local for the package's tests.
func TestMain(m *testing.M) { ddbtest.Main(m) }

// readme:begin
type (
	Org struct {
		Name string `dynamodbav:"name"`
	}
	User struct {
		Name string `dynamodbav:"name"`
	}
	Member struct {
		Role string `dynamodbav:"role"`
	} // data on the user → org edge
	Project struct {
		Title string `dynamodbav:"title"`
	}
	Label struct {
		Color string `dynamodbav:"color"`
	}
	Issue struct {
		Title   string `dynamodbav:"title"`
		Status  string `dynamodbav:"status"`
		Version int64  `dynamodbav:"version"` // kept by every write: optimistic locking
	}
)

// Tracker is the model: every item type of one table.
type Tracker struct {
	Table    *adjlist.Table
	Orgs     *adjlist.Node[Org]                  // ORG#acme / META
	Users    *adjlist.Node[User]                 // USER#ada / PROFILE
	Members  *adjlist.Edge[Member]               // USER#ada / MEMBER#ORG#acme, reversed on GSI1
	Projects *adjlist.Collection[Project, Org]   // ORG#acme / PROJ#web
	Labels   *adjlist.Collection[Label, Org]     // ORG#acme / LABEL#bug
	Issues   *adjlist.Collection[Issue, Project] // ORG#acme#PROJ#web / ISSUE#0001
	Labelled *adjlist.Edge[struct{}]             // issue → label, reversed on GSI1
	Assigned *adjlist.Edge[struct{}]             // issue → user, reversed on GSI1
	Counts   *adjlist.ItemCounter                // ORG#acme#PROJ#web / ISSUES#open
}

func NewTracker(db adjlist.Client, tableName string) *Tracker {
	t := adjlist.NewTable(db, tableName, func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "ByStatus", // a project's issues by status, on their own PK and status
			PartitionAttributes: []adjlist.KeyAttribute{{Name: "PK"}, {Name: "status"}},
			SortAttributes:      []adjlist.KeyAttribute{{Name: "SK"}}}}
	})
	orgs := adjlist.NewNode[Org](t, "ORG", "META")
	users := adjlist.NewNode[User](t, "USER", "PROFILE")
	projects := adjlist.NewCollection[Project](orgs, "PROJ")
	labels := adjlist.NewCollection[Label](orgs, "LABEL")
	issues := adjlist.NewNestedCollection[Issue](projects, "ISSUE", func(o *adjlist.CollectionOptions) { o.Version = "version" })
	return &Tracker{Table: t, Orgs: orgs, Users: users, Projects: projects, Labels: labels, Issues: issues,
		Members:  adjlist.NewEdge[Member](users, "MEMBER", orgs),
		Labelled: adjlist.NewEdge[struct{}](issues, "LABELLED", labels),
		Assigned: adjlist.NewEdge[struct{}](issues, "ASSIGNED", users),
		Counts:   adjlist.NewItemCounter(issues, "ISSUES", func(o *adjlist.CounterOptions) { o.GroupBy = "status" })}
}

// readme:end

// TestQuickStart runs the README's quick start as written, on a table of
// its own, and checks what the README's table of items and comments say:
// the keys each write stores, each read's result and request, the counts,
// the close's version check and the project's cascade.
func TestQuickStart(t *testing.T) { require.NoError(t, quickStart(t)) }

func quickStart(t *testing.T) error {
	ctx, db, tableName := t.Context(), ddbtest.Client(t), ddbtest.TableName(t)
	t.Cleanup(func() {
		_, err := db.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(tableName)})
		if err != nil && !errors.As(err, new(*types.ResourceNotFoundException)) {
			t.Errorf("deleting the quick start's table: %v", err)
		}
	})
	// readme:begin
	m := NewTracker(db, tableName) // db: a *dynamodb.Client; tableName: yours, or ddbtest.TableName(t) in a test
	if err := adjlist.CreateTable(ctx, db, m.Table); err != nil {
		return err
	} // the table, GSI1 and ByStatus: for development and tests

	if err := m.Orgs.Put(ctx, "acme", Org{Name: "Acme"}); err != nil {
		return err
	} // a guarded create: ErrExists if it is there
	if err := m.Users.Put(ctx, "ada", User{Name: "Ada"}); err != nil {
		return err
	}
	if err := m.Members.Put(ctx, "ada", "acme", Member{Role: "admin"}); err != nil {
		return err
	}
	if err := m.Projects.Put(ctx, "acme", "web", Project{Title: "Website"}); err != nil {
		return err
	}
	if err := m.Labels.Put(ctx, "acme", "bug", Label{Color: "red"}); err != nil {
		return err
	}
	web, err := m.Projects.Ref("acme", "web") // "ORG#acme#PROJ#web": the issues' parent
	if err != nil {
		return err
	}
	// The issue and its project's open count, in one TransactWriteItems.
	if err := m.Issues.Put(ctx, web, "0001", Issue{Title: "Login fails", Status: "open"}); err != nil {
		return err
	}
	issue, err := m.Issues.Ref(web, "0001") // "ORG#acme#PROJ#web#ISSUE#0001": the issue as an edge's end
	if err != nil {
		return err
	}
	bug, err := m.Labels.Ref("acme", "bug")
	if err != nil {
		return err
	}
	if err := m.Labelled.Put(ctx, issue, bug, struct{}{}); err != nil {
		return err
	}
	if err := m.Assigned.Put(ctx, issue, "ada", struct{}{}); err != nil {
		return err
	}

	orgs, err := m.Members.From("ada").Collect(ctx) // ada's orgs, with her role: a Query on the table
	if err != nil {
		return err
	}
	people, err := m.Members.To("acme").Collect(ctx) // acme's members: a Query on GSI1
	if err != nil {
		return err
	}
	page, err := m.Issues.List(web).Desc().Limit(20).Page(ctx, "") // web's issues, newest first; page.Cursor resumes
	if err != nil {
		return err
	}
	open, err := m.Issues.ByIndex("ByStatus", web, "open").Desc().Collect(ctx) // web's open issues, newest first
	if err != nil {
		return err
	}
	n, err := m.Counts.Get(ctx, adjlist.IDs{web}, "open") // 1: one GetItem
	if err != nil {
		return err
	}
	onBug, err := m.Labelled.To(bug).Collect(ctx) // the issues labelled bug: a Query on GSI1
	if err != nil {
		return err
	}
	mine, err := m.Assigned.To("ada").Collect(ctx) // ada's issues, every project's
	if err != nil {
		return err
	}
	// readme:end
	require.NoError(t, m.Table.Check(), "the model declares nothing adjlist refuses")

	// The README's table of items, key for key.
	assert.Equal(t, map[[2]string]map[string]string{
		{"ORG#acme", "META"}:                                            {"GSI1PK": "", "GSI1SK": ""},
		{"USER#ada", "PROFILE"}:                                         {"GSI1PK": "", "GSI1SK": ""},
		{"USER#ada", "MEMBER#ORG#acme"}:                                 {"GSI1PK": "ORG#acme", "GSI1SK": "USER#ada"},
		{"ORG#acme", "PROJ#web"}:                                        {"GSI1PK": "", "GSI1SK": ""},
		{"ORG#acme", "LABEL#bug"}:                                       {"GSI1PK": "", "GSI1SK": ""},
		{"ORG#acme#PROJ#web", "ISSUE#0001"}:                             {"GSI1PK": "", "GSI1SK": ""},
		{"ORG#acme#PROJ#web", "ISSUES#open"}:                            {"GSI1PK": "", "GSI1SK": ""},
		{"ORG#acme#PROJ#web#ISSUE#0001", "LABELLED#ORG#acme#LABEL#bug"}: {"GSI1PK": "ORG#acme#LABEL#bug", "GSI1SK": "ORG#acme#PROJ#web#ISSUE#0001"},
		{"ORG#acme#PROJ#web#ISSUE#0001", "ASSIGNED#USER#ada"}:           {"GSI1PK": "USER#ada", "GSI1SK": "ORG#acme#PROJ#web#ISSUE#0001"},
	}, scanKeys(t, db, tableName))

	assert.Equal(t, "ORG#acme#PROJ#web", web)
	assert.Equal(t, "ORG#acme#PROJ#web#ISSUE#0001", issue)
	assert.Equal(t, []adjlist.EdgeItem[Member]{{From: "ada", To: "acme", Data: Member{Role: "admin"}}}, orgs)
	assert.Equal(t, orgs, people, "the same edge, read from the org's side")
	want := []adjlist.Child[Issue]{{Parent: web, ID: "0001", Data: Issue{Title: "Login fails", Status: "open", Version: 1}}}
	assert.Equal(t, want, page.Items)
	assert.Empty(t, page.Cursor)
	assert.Equal(t, want, open)
	assert.EqualValues(t, 1, n)
	assert.Equal(t, []adjlist.EdgeItem[struct{}]{{From: issue, To: bug}}, onBug)
	assert.Equal(t, []adjlist.EdgeItem[struct{}]{{From: issue, To: "ada"}}, mine)
	require.ErrorIs(t, m.Orgs.Put(ctx, "acme", Org{Name: "Acme"}), adjlist.ErrExists)

	// readme:continue
	// Close it unless someone wrote it since it was read (ErrVersionConflict);
	// it reads the status first, and moves the issue from the open count to the closed.
	if _, err := m.Issues.Update(ctx, web, "0001", adjlist.Set("status", "closed"), adjlist.IfVersion(page.Items[0].Data.Version)); err != nil {
		return err
	}
	// readme:end
	// The close moved the counts; the same version again is refused and
	// changes nothing.
	for status, want := range map[string]int64{"open": 0, "closed": 1} {
		got, err := m.Counts.Get(ctx, adjlist.IDs{web}, status)
		require.NoError(t, err)
		assert.Equal(t, want, got, status)
	}
	_, err = m.Issues.Update(ctx, web, "0001", adjlist.Set("status", "open"), adjlist.IfVersion(page.Items[0].Data.Version))
	require.ErrorIs(t, err, adjlist.ErrVersionConflict)
	got, err := m.Issues.Get(ctx, web, "0001", adjlist.Consistent)
	require.NoError(t, err)
	assert.Equal(t, Issue{Title: "Login fails", Status: "closed", Version: 2}, got)
	// readme:continue
	// The project and everything under it: its issues, their edges, its counts.
	if _, err := adjlist.DeleteChild(ctx, m.Projects, "acme", "web"); err != nil {
		return err
	}
	// readme:end
	// Only the org, its label, the user and her membership are left, and
	// the model verifies clean.
	assert.Equal(t, map[[2]string]map[string]string{
		{"ORG#acme", "META"}:            {"GSI1PK": "", "GSI1SK": ""},
		{"USER#ada", "PROFILE"}:         {"GSI1PK": "", "GSI1SK": ""},
		{"USER#ada", "MEMBER#ORG#acme"}: {"GSI1PK": "ORG#acme", "GSI1SK": "USER#ada"},
		{"ORG#acme", "LABEL#bug"}:       {"GSI1PK": "", "GSI1SK": ""},
	}, scanKeys(t, db, tableName))
	res, err := adjlist.Verify(ctx, db, m.Table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
	return nil
}

// scanKeys is every item's PK and SK, with its GSI1 keys ("" where it has
// none).
func scanKeys(t *testing.T, db *dynamodb.Client, tableName string) map[[2]string]map[string]string {
	t.Helper()
	keys := map[[2]string]map[string]string{}
	out, err := db.Scan(t.Context(), &dynamodb.ScanInput{TableName: aws.String(tableName), ConsistentRead: aws.Bool(true)})
	require.NoError(t, err)
	for _, it := range out.Items {
		s := func(name string) string {
			if v, ok := it[name].(*types.AttributeValueMemberS); ok {
				return v.Value
			}
			return ""
		}
		keys[[2]string{s("PK"), s("SK")}] = map[string]string{"GSI1PK": s("GSI1PK"), "GSI1SK": s("GSI1SK")}
	}
	return keys
}
