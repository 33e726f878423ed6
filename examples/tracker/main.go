// Command tracker is a multi-tenant project tracker on one table:
// organisations with members (users, each with a role on the membership
// edge), projects, labels and issues, three levels deep (org → project →
// issue), each level one Query.
//
//	PK                              SK                            GSI1PK / GSI1SK
//	ORG#acme                        META
//	USER#ada                        PROFILE
//	USER#ada                        MEMBER#ORG#acme               ORG#acme / USER#ada (role on the edge)
//	ORG#acme                        PROJ#web
//	ORG#acme                        LABEL#bug
//	ORG#acme#PROJ#web               ISSUE#0005                    (title, status, version)
//	ORG#acme#PROJ#web               ISSUES#open                   (the count of open issues)
//	ORG#acme#PROJ#web#ISSUE#0005    LABELLED#ORG#acme#LABEL#bug   ORG#acme#LABEL#bug / ORG#acme#PROJ#web#ISSUE#0005
//	ORG#acme#PROJ#web#ISSUE#0005    ASSIGNED#USER#ada             USER#ada / ORG#acme#PROJ#web#ISSUE#0005
//
// Issues live in their project's own partition (a nested collection), keyed
// by the project's ref with every id escaped, so no id holding '#' reaches
// another tenant's keys. GSI1 is the inverted index every edge is read back
// on; ByStatus, a native index on the items' own PK and status, sorted by
// SK, lists a project's issues of one status, newest first. The open
// count of each project (ISSUES#open) is kept by every write of an issue,
// in the write's own transaction, and by the cascade that deletes a project.
//
// Each access pattern is one request (per page), named where the run uses
// it; writes that change an issue's status read it first to keep the
// counts, and deleting a project is a cascade of a few requests.
//
// By default it talks to DynamoDB Local: the endpoint in
// AWS_ENDPOINT_URL_DYNAMODB if set, else a private in-memory server it starts
// (installed by `make deps`). Only -aws makes it use your AWS configuration.
//
//	go run ./examples/tracker [-table NAME] [-cleanup] [-aws] [-describe] [-verify] [-workbench FILE] [-cloudformation FILE]
//
// -describe prints the model (adjlist.Describe) and its Mermaid diagram
// without touching DynamoDB; -workbench and -cloudformation write it as a
// NoSQL Workbench data model and a CloudFormation template.
//
// -verify, after the run, checks every item of the table against the model
// (adjlist.Verify), prints the items scanned and each finding, and exits
// with status 1 if there is any; with -cleanup, the table is deleted after
// the check. -cleanup, -aws and -verify beside -describe are usage errors
// (status 2; `go run` then exits 1).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
)

var example = exampleutil.Example{Name: "tracker", Model: described, Run: run}

func main() { exampleutil.Main(example) }

// model:begin

// Org, User, Project and Label are the data of the tracker's items; Member
// is the role on a user → org membership edge.
type (
	Org struct {
		Name string `dynamodbav:"name"`
	}
	User struct {
		Name string `dynamodbav:"name"`
	}
	Member struct {
		Role string `dynamodbav:"role"`
	}
	Project struct {
		Title string `dynamodbav:"title"`
	}
	Label struct {
		Color string `dynamodbav:"color"`
	}
	// Issue is an issue's data; Version is kept by every write
	// (optimistic locking).
	Issue struct {
		Title   string `dynamodbav:"title"`
		Status  string `dynamodbav:"status"` // "open" or "closed"
		Version int64  `dynamodbav:"version"`
	}
)

// tracker is the model: every item type of one table. Declaring it makes
// no request.
type tracker struct {
	table    *adjlist.Table
	orgs     *adjlist.Node[Org]                  // ORG#acme / META
	users    *adjlist.Node[User]                 // USER#ada / PROFILE
	members  *adjlist.Edge[Member]               // USER#ada / MEMBER#ORG#acme, reversed on GSI1
	projects *adjlist.Collection[Project, Org]   // ORG#acme / PROJ#web
	labels   *adjlist.Collection[Label, Org]     // ORG#acme / LABEL#bug
	issues   *adjlist.Collection[Issue, Project] // ORG#acme#PROJ#web / ISSUE#0005
	labelled *adjlist.Edge[struct{}]             // issue → label, M:N, reversed on GSI1
	assigned *adjlist.Edge[struct{}]             // issue → user, reversed on GSI1
	counts   *adjlist.ItemCounter                // ORG#acme#PROJ#web / ISSUES#open
}

func newTracker(db adjlist.Client, tableName string) tracker {
	t := adjlist.NewTable(db, tableName, func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "ByStatus", // a project's issues by status: keyed on the items' own PK and status
			PartitionAttributes: []adjlist.KeyAttribute{{Name: "PK"}, {Name: "status"}},
			SortAttributes:      []adjlist.KeyAttribute{{Name: "SK"}}}}
	})
	orgs := adjlist.NewNode[Org](t, "ORG", "META")
	users := adjlist.NewNode[User](t, "USER", "PROFILE")
	projects := adjlist.NewCollection[Project](orgs, "PROJ")
	labels := adjlist.NewCollection[Label](orgs, "LABEL")
	issues := adjlist.NewNestedCollection[Issue](projects, "ISSUE", func(o *adjlist.CollectionOptions) { o.Version = "version" })
	return tracker{table: t, orgs: orgs, users: users, projects: projects, labels: labels, issues: issues,
		members:  adjlist.NewEdge[Member](users, "MEMBER", orgs),
		labelled: adjlist.NewEdge[struct{}](issues, "LABELLED", labels),
		assigned: adjlist.NewEdge[struct{}](issues, "ASSIGNED", users),
		counts:   adjlist.NewItemCounter(issues, "ISSUES", func(o *adjlist.CounterOptions) { o.GroupBy = "status" })}
}

// issuesByStatus is a project's issues of one status, newest first: one
// Query per page on ByStatus, PK = "ORG#acme#PROJ#web" AND status = "open",
// ScanIndexForward=false. project is the project's ref
// (projects.Ref(org, project)).
func (m tracker) issuesByStatus(project, status string) adjlist.Query[adjlist.Child[Issue]] {
	return m.issues.ByIndex("ByStatus", project, status).Desc()
}

// closeIssue sets an issue's status to closed if it still has version
// (the one read): ErrVersionConflict when someone wrote it since. It
// moves the issue from the project's open count to its closed one.
func (m tracker) closeIssue(ctx context.Context, project, issue string, version int64) (Issue, error) {
	return m.issues.Update(ctx, project, issue, adjlist.Set("status", "closed"), adjlist.IfVersion(version))
}

// model:end

// described is the model -describe and the exports render (see
// exampleutil.Example.Model).
func described(db adjlist.Client, tableName string) (*adjlist.Table, []adjlist.Describer) {
	m := newTracker(db, tableName)
	const project = "ORG#<org>#PROJ#<project>"
	return m.table, []adjlist.Describer{m.orgs, m.users, m.members, m.projects, m.labels, m.issues,
		m.labelled, m.assigned, m.counts,
		adjlist.AccessPattern("a project's issues, newest first, a page at a time", m.issues.List(project).Desc().Limit(20)),
		adjlist.AccessPattern("a project's issues of one status, newest first", m.issuesByStatus(project, "<status>"))}
}

// seedIssue is one issue the run writes.
type seedIssue struct {
	id       string
	issue    Issue
	labels   []string
	assignee string
}

// webIssues are project acme/web's issues, oldest first.
var webIssues = []seedIssue{
	{"0001", Issue{Title: "Login fails", Status: "closed"}, []string{"bug"}, "ada"},
	{"0002", Issue{Title: "Dark mode", Status: "open"}, []string{"ui"}, "bob"},
	{"0003", Issue{Title: "Crash on save", Status: "open"}, []string{"bug", "ui"}, "ada"},
	{"0004", Issue{Title: "Typo on home page", Status: "closed"}, nil, ""},
	{"0005", Issue{Title: "Slow search", Status: "open"}, []string{"bug"}, "ada"},
}

// run writes two organisations, their members, projects, labels and
// issues, and shows each access pattern. It can run again on the same
// table: items are written with Replace, or created with Put and left as
// they are when already there; what it changes it changes back, and the
// project it deletes it first creates.
func run(ctx context.Context, db exampleutil.API, tableName string, cleanup bool, w io.Writer) error {
	m := newTracker(db, tableName)
	if err := adjlist.CreateTable(ctx, db, m.table, func(o *adjlist.CreateTableOptions) { o.IfNotExists = true }); err != nil {
		return err
	}
	if err := seed(ctx, m); err != nil {
		return err
	}
	web, err := m.projects.Ref("acme", "web") // "ORG#acme#PROJ#web": the issues' parent
	if err != nil {
		return err
	}

	// Level 1, the org and its projects: one Query, PK = "ORG#acme" (the
	// org item, its projects, its labels).
	acme, err := m.projects.Load(ctx, "acme")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "org acme (%s), projects:", acme.Parent.Name)
	for _, p := range acme.Children {
		fmt.Fprintf(w, " %s (%s)", p.ID, p.Data.Title)
	}
	fmt.Fprintln(w)

	// The org's members with their roles: one Query on GSI1,
	// GSI1PK = "ORG#acme" AND begins_with(GSI1SK, "USER#").
	members, err := m.members.To("acme").Collect(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "acme's members:%s\n", roles(members, func(e adjlist.EdgeItem[Member]) string { return e.From }))
	// A user's orgs with her role in each: one Query on the table,
	// PK = "USER#ada" AND begins_with(SK, "MEMBER#ORG#").
	orgs, err := m.members.From("ada").Collect(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "ada's orgs:%s\n", roles(orgs, func(e adjlist.EdgeItem[Member]) string { return e.To }))

	// Level 2, a project's issues, newest first, two a page: one Query per
	// page, PK = "ORG#acme#PROJ#web" AND begins_with(SK, "ISSUE#"),
	// ScanIndexForward=false, Limit 2; each page's cursor resumes it.
	fmt.Fprintln(w, "\nweb's issues, newest first, 2 a page:")
	cursor := ""
	for n := 1; ; n++ {
		page, err := m.issues.List(web).Desc().Limit(2).Page(ctx, cursor)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  page %d:", n)
		for _, i := range page.Items {
			fmt.Fprintf(w, " %s %s (%s);", i.ID, i.Data.Title, i.Data.Status)
		}
		fmt.Fprintln(w)
		if cursor = page.Cursor; cursor == "" {
			break
		}
	}
	if err := printOpen(ctx, w, m, web); err != nil {
		return err
	}

	// Level 3, one issue: GetItem PK = "ORG#acme#PROJ#web", SK = "ISSUE#0003".
	issue, err := m.issues.Get(ctx, web, "0003")
	if err != nil {
		return err
	}
	ref, err := m.issues.Ref(web, "0003") // "ORG#acme#PROJ#web#ISSUE#0003": the issue as an edge's end
	if err != nil {
		return err
	}
	// Its labels and its assignees: one Query each on the issue's own
	// partition, PK = "ORG#acme#PROJ#web#ISSUE#0003" AND
	// begins_with(SK, "LABELLED#ORG#") (then "ASSIGNED#USER#").
	labels, err := m.labelled.From(ref).Collect(ctx)
	if err != nil {
		return err
	}
	assignees, err := m.assigned.From(ref).Collect(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nissue 0003: %s (%s), labels:%s, assignees:%s\n", issue.Title, issue.Status,
		ends(labels, func(e adjlist.EdgeItem[struct{}]) string { return labelID(m, e.To) }),
		ends(assignees, func(e adjlist.EdgeItem[struct{}]) string { return e.To }))

	// The other side of both edges: one Query each on GSI1, the issues
	// labelled bug (GSI1PK = "ORG#acme#LABEL#bug") and ada's issues
	// (GSI1PK = "USER#ada"), every project's, each issue named by its ref.
	bug, err := m.labels.Ref("acme", "bug")
	if err != nil {
		return err
	}
	onBug, err := m.labelled.To(bug).Collect(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "issues labelled bug:%s\n", ends(onBug, func(e adjlist.EdgeItem[struct{}]) string { return issueID(m, e.From) }))
	forAda, err := m.assigned.To("ada").Collect(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "issues assigned to ada:%s\n", ends(forAda, func(e adjlist.EdgeItem[struct{}]) string { return issueID(m, e.From) }))

	// Close issue 0005 with the version read: one UpdateItem would do, but
	// the counts need the old status, so it is GetItem (strongly
	// consistent), then TransactWriteItems of the update (conditioned on
	// the version and on the status read) and the two counts, then GetItem
	// of the result.
	i5, err := m.issues.Get(ctx, web, "0005")
	if err != nil {
		return err
	}
	if _, err := m.closeIssue(ctx, web, "0005", i5.Version); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nclosed 0005")
	// A second close with the same, now stale, version is refused.
	_, err = m.closeIssue(ctx, web, "0005", i5.Version)
	if !errors.Is(err, adjlist.ErrVersionConflict) {
		return fmt.Errorf("a stale close: %v, want ErrVersionConflict", err)
	}
	fmt.Fprintln(w, "a stale close of 0005 is refused: version conflict")
	if err := printOpen(ctx, w, m, web); err != nil {
		return err
	}
	// Reopened, so that a second run starts as the first.
	i5, err = m.issues.Get(ctx, web, "0005")
	if err != nil {
		return err
	}
	if _, err := m.issues.Update(ctx, web, "0005", adjlist.Set("status", "open"), adjlist.IfVersion(i5.Version)); err != nil {
		return err
	}
	fmt.Fprintln(w, "reopened 0005")

	// A project and everything under it: its issues, their labels and
	// assignments, its counts, then the project item (parents last, so a
	// second call finishes an interrupted one).
	if err := seedLegacy(ctx, m); err != nil {
		return err
	}
	legacy, err := m.projects.Ref("acme", "legacy")
	if err != nil {
		return err
	}
	fmt.Fprintln(w)
	if err := printOpen(ctx, w, m, legacy); err != nil {
		return err
	}
	res, err := adjlist.DeleteChild(ctx, m.projects, "acme", "legacy")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "deleted project legacy: %d items under it, then the project (%d queries)\n", res.Partition, res.Queries)
	if err := printOpen(ctx, w, m, legacy); err != nil {
		return err
	}

	fmt.Fprintf(w, "\ntable %s:\n", tableName)
	if err := exampleutil.PrintTable(ctx, db, tableName, w, []string{"PK", "SK", "GSI1PK", "GSI1SK"}, nil); err != nil {
		return err
	}
	if cleanup {
		return exampleutil.DeleteTable(ctx, db, tableName)
	}
	return nil
}

// printOpen prints a project's open issues, newest first, and their
// count: one Query on ByStatus and one GetItem of the count item
// (PK = "ORG#acme#PROJ#web", SK = "ISSUES#open").
func printOpen(ctx context.Context, w io.Writer, m tracker, project string) error {
	open, err := m.issuesByStatus(project, "open").Collect(ctx)
	if err != nil {
		return err
	}
	n, err := m.counts.Get(ctx, adjlist.IDs{project}, "open")
	if err != nil {
		return err
	}
	_, id, err := m.projects.ParseRef(project)
	if err != nil {
		return err
	}
	var ids []string
	for _, i := range open {
		ids = append(ids, i.ID)
	}
	fmt.Fprintf(w, "%s: %d open, newest first: %s\n", id, n, strings.Join(ids, " "))
	return nil
}

// seed writes acme and globex, their users, members, projects and labels,
// and project web's issues with their labels and assignees.
func seed(ctx context.Context, m tracker) error {
	for id, name := range map[string]string{"acme": "Acme", "globex": "Globex"} {
		if err := m.orgs.Replace(ctx, id, Org{Name: name}); err != nil {
			return err
		}
	}
	for id, name := range map[string]string{"ada": "Ada", "bob": "Bob"} {
		if err := m.users.Replace(ctx, id, User{Name: name}); err != nil {
			return err
		}
	}
	for _, mb := range []struct{ user, org, role string }{
		{"ada", "acme", "admin"}, {"bob", "acme", "member"}, {"ada", "globex", "member"},
	} {
		if err := m.members.Replace(ctx, mb.user, mb.org, Member{Role: mb.role}); err != nil {
			return err
		}
	}
	for id, title := range map[string]string{"web": "Website", "api": "Public API"} {
		if err := m.projects.Replace(ctx, "acme", id, Project{Title: title}); err != nil {
			return err
		}
	}
	for id, color := range map[string]string{"bug": "red", "ui": "blue"} {
		if err := m.labels.Replace(ctx, "acme", id, Label{Color: color}); err != nil {
			return err
		}
	}
	return seedIssues(ctx, m, "acme", "web", webIssues)
}

// seedLegacy writes project acme/legacy with two issues, for the run to
// delete.
func seedLegacy(ctx context.Context, m tracker) error {
	if err := m.projects.Replace(ctx, "acme", "legacy", Project{Title: "Old site"}); err != nil {
		return err
	}
	return seedIssues(ctx, m, "acme", "legacy", []seedIssue{
		{"0001", Issue{Title: "Flash intro", Status: "open"}, []string{"bug"}, "bob"},
		{"0002", Issue{Title: "Guest book", Status: "open"}, []string{"ui"}, "ada"},
	})
}

// seedIssues creates a project's issues, each with its labels and
// assignee; an issue already there (Put is a guarded create, counted in
// the same transaction) is left as it is.
func seedIssues(ctx context.Context, m tracker, org, project string, issues []seedIssue) error {
	ref, err := m.projects.Ref(org, project)
	if err != nil {
		return err
	}
	for _, s := range issues {
		if err := m.issues.Put(ctx, ref, s.id, s.issue); err != nil && !errors.Is(err, adjlist.ErrExists) {
			return err
		}
		iref, err := m.issues.Ref(ref, s.id)
		if err != nil {
			return err
		}
		for _, l := range s.labels {
			label, err := m.labels.Ref(org, l)
			if err != nil {
				return err
			}
			if err := m.labelled.Replace(ctx, iref, label, struct{}{}); err != nil {
				return err
			}
		}
		if s.assignee != "" {
			if err := m.assigned.Replace(ctx, iref, s.assignee, struct{}{}); err != nil {
				return err
			}
		}
	}
	return nil
}

// roles lists edges as " id (role)", the id chosen by end.
func roles(edges []adjlist.EdgeItem[Member], end func(adjlist.EdgeItem[Member]) string) string {
	var b strings.Builder
	for _, e := range edges {
		fmt.Fprintf(&b, " %s (%s)", end(e), e.Data.Role)
	}
	return b.String()
}

// ends lists edges as " id", the id chosen by end.
func ends(edges []adjlist.EdgeItem[struct{}], end func(adjlist.EdgeItem[struct{}]) string) string {
	var b strings.Builder
	for _, e := range edges {
		b.WriteString(" " + end(e))
	}
	return b.String()
}

// labelID is a label's id from its ref ("ORG#acme#LABEL#bug" → "bug").
func labelID(m tracker, ref string) string {
	if _, id, err := m.labels.ParseRef(ref); err == nil {
		return id
	}
	return ref
}

// issueID is "project/issue" from an issue's ref
// ("ORG#acme#PROJ#web#ISSUE#0003" → "web/0003").
func issueID(m tracker, ref string) string {
	project, id, err := m.issues.ParseRef(ref)
	if err != nil {
		return ref
	}
	if _, p, err := m.projects.ParseRef(project); err == nil {
		return p + "/" + id
	}
	return ref
}
