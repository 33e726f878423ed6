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
	Membership struct {
		Role string `dynamodbav:"role"`
	} // data on the user → org edge
	Project struct {
		Title      string `dynamodbav:"title"`
		OpenIssues int    `dynamodbav:"openIssues"`
	}
	Issue struct {
		Title  string `dynamodbav:"title"`
		Status string `dynamodbav:"status"`
	}
	Label struct {
		Color string `dynamodbav:"color"`
	}
	Labelled struct{}
)

// Tracker is the model: every item type of one table.
type Tracker struct {
	Table    *adjlist.Table
	Orgs     *adjlist.Node[Org]                // ORG#acme / META
	Users    *adjlist.Node[User]               // USER#ada / PROFILE
	Members  *adjlist.Edge[Membership]         // USER#ada / MEMBER#ORG#acme, reversed on GSI1
	Seats    *adjlist.Counter[Membership]      // ORG#acme / SEATS: the org's member count
	Projects *adjlist.Collection[Org, Project] // ORG#acme / PROJ#web
	Labels   *adjlist.Collection[Org, Label]   // ORG#acme / LABEL#bug
	Tagged   *adjlist.Edge[Labelled]           // project → label, both children, read both ways
	Issues   *adjlist.Entity[Issue]            // ORG#acme#PROJ#web / ISSUE#0001: the project's own partition
}

func NewTracker(db adjlist.Client, tableName string) *Tracker {
	t := adjlist.NewTable(db, tableName)
	orgs := adjlist.NewNode[Org](t, "ORG", "META")
	users := adjlist.NewNode[User](t, "USER", "PROFILE")
	members := adjlist.NewEdge[Membership](users, "MEMBER", orgs)
	projects := adjlist.NewCollection[Project](orgs, "PROJ")
	labels := adjlist.NewCollection[Label](orgs, "LABEL")
	return &Tracker{Table: t, Orgs: orgs, Users: users, Members: members,
		Seats:    adjlist.NewCounter(members, "SEATS"),
		Projects: projects, Labels: labels,
		Tagged: adjlist.NewEdge[Labelled](projects, "TAGGED", labels),
		Issues: adjlist.NewEntity[Issue](t, "issue", "ORG#{org}#PROJ#{project}", "ISSUE#{number}")}
}

// readme:end

// TestQuickStart runs the README's quick start as written, on a table of
// its own, and checks what the README's table of items and comments say:
// the keys each write stores, each read's result, the count, and the
// transaction's all-or-nothing.
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
	} // the table and GSI1: for development and tests

	if err := m.Orgs.Put(ctx, "acme", Org{Name: "Acme"}); err != nil {
		return err
	} // a guarded create: ErrExists if it is there
	if err := m.Users.Put(ctx, "ada", User{Name: "Ada"}); err != nil {
		return err
	}
	// The membership edge and the org's member count, in one transaction.
	if err := m.Seats.Put(ctx, "ada", "acme", Membership{Role: "admin"}); err != nil {
		return err
	}
	if err := m.Projects.Put(ctx, "acme", "web", Project{Title: "Website"}); err != nil {
		return err
	}
	if err := m.Labels.Put(ctx, "acme", "bug", Label{Color: "red"}); err != nil {
		return err
	}
	web, err := m.Projects.Ref("acme", "web") // "ORG#acme#PROJ#web": a child, named as an edge's end
	if err != nil {
		return err
	}
	bug, err := m.Labels.Ref("acme", "bug")
	if err != nil {
		return err
	}
	if err := m.Tagged.Put(ctx, web, bug, Labelled{}); err != nil {
		return err
	}

	// An issue and its project's open count: both or neither, one TransactWriteItems.
	tx := adjlist.NewTx(m.Table)
	m.Issues.Put(ctx, adjlist.IDs{"acme", "web", "0001"}, Issue{Title: "Login fails", Status: "open"}, adjlist.InTx(tx))
	m.Projects.Update(ctx, "acme", "web", adjlist.Update{}.Add("openIssues", 1), adjlist.InTx(tx))
	if err := tx.Commit(ctx); err != nil {
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
	seats, err := m.Seats.Get(ctx, "acme") // 1: one GetItem
	if err != nil {
		return err
	}
	onBug, err := m.Tagged.To(bug).Collect(ctx) // the projects labelled bug
	if err != nil {
		return err
	}
	issues, err := m.Issues.List("acme", "web").Desc().Collect(ctx) // web's issues, newest first
	if err != nil {
		return err
	}
	// readme:end
	require.NoError(t, m.Table.Check(), "the model declares nothing adjlist refuses")

	// The README's table of items, key for key.
	keys := map[[2]string]map[string]string{}
	out, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(tableName), ConsistentRead: aws.Bool(true)})
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
	assert.Equal(t, map[[2]string]map[string]string{
		{"ORG#acme", "META"}:                               {"GSI1PK": "", "GSI1SK": ""},
		{"USER#ada", "PROFILE"}:                            {"GSI1PK": "", "GSI1SK": ""},
		{"USER#ada", "MEMBER#ORG#acme"}:                    {"GSI1PK": "ORG#acme", "GSI1SK": "USER#ada"},
		{"ORG#acme", "SEATS"}:                              {"GSI1PK": "", "GSI1SK": ""},
		{"ORG#acme", "PROJ#web"}:                           {"GSI1PK": "", "GSI1SK": ""},
		{"ORG#acme", "LABEL#bug"}:                          {"GSI1PK": "", "GSI1SK": ""},
		{"ORG#acme#PROJ#web", "TAGGED#ORG#acme#LABEL#bug"}: {"GSI1PK": "ORG#acme#LABEL#bug", "GSI1SK": "ORG#acme#PROJ#web"},
		{"ORG#acme#PROJ#web", "ISSUE#0001"}:                {"GSI1PK": "", "GSI1SK": ""},
	}, keys)

	assert.Equal(t, "ORG#acme#PROJ#web", web)
	assert.Equal(t, []adjlist.EdgeItem[Membership]{{From: "ada", To: "acme", Data: Membership{Role: "admin"}}}, orgs)
	assert.Equal(t, orgs, people, "the same edge, read from the org's side")
	assert.EqualValues(t, 1, seats)
	assert.Equal(t, []adjlist.EdgeItem[Labelled]{{From: web, To: bug}}, onBug)
	assert.Equal(t, []adjlist.EntityItem[Issue]{{IDs: adjlist.IDs{"acme", "web", "0001"}, Data: Issue{Title: "Login fails", Status: "open"}}}, issues)
	p, err := m.Projects.Get(ctx, "acme", "web")
	require.NoError(t, err)
	assert.Equal(t, 1, p.Data.OpenIssues, "the transaction's update")

	// Guarded creates, and the transaction's all or nothing: a second
	// issue 0001 fails the whole transaction, and the count stays.
	require.ErrorIs(t, m.Orgs.Put(ctx, "acme", Org{Name: "Acme"}), adjlist.ErrExists)
	tx = adjlist.NewTx(m.Table)
	m.Issues.Put(ctx, adjlist.IDs{"acme", "web", "0001"}, Issue{Title: "again"}, adjlist.InTx(tx))
	m.Projects.Update(ctx, "acme", "web", adjlist.Update{}.Add("openIssues", 1), adjlist.InTx(tx))
	require.ErrorIs(t, tx.Commit(ctx), adjlist.ErrExists)
	p, err = m.Projects.Get(ctx, "acme", "web")
	require.NoError(t, err)
	assert.Equal(t, 1, p.Data.OpenIssues, "nothing of the failed transaction was written")

	// The model verifies clean: every item is of a declared type.
	res, err := adjlist.Verify(ctx, db, m.Table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
	return nil
}
