package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
	"github.com/adjlist/adjlist/examples/internal/exampleutil/exampletest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

var keyAttrs = []string{"PK", "SK", "GSI1PK", "GSI1SK"}

// item is one row of the run's table: its key attributes (GSI1's on
// edges) and the names of its other attributes.
func item(pk, sk string, attrs ...string) exampleutil.Shape {
	return exampletest.Item(map[string]string{"PK": pk, "SK": sk}, attrs...)
}

// edge is an edge item, reversed on GSI1.
func edge(pk, sk, gsi1pk string, attrs ...string) exampleutil.Shape {
	return exampletest.Item(map[string]string{"PK": pk, "SK": sk, "GSI1PK": gsi1pk, "GSI1SK": pk}, attrs...)
}

// seedTable is the table a run leaves: project legacy, created and
// deleted by the run, leaves nothing.
var seedTable = exampletest.Seed{
	KeyAttrs: keyAttrs,
	Items: []exampleutil.Shape{
		item("ORG#acme", "META", "name"),
		item("ORG#globex", "META", "name"),
		item("USER#ada", "PROFILE", "name"),
		item("USER#bob", "PROFILE", "name"),
		exampletest.Item(map[string]string{"PK": "USER#ada", "SK": "MEMBER#ORG#acme", "GSI1PK": "ORG#acme", "GSI1SK": "USER#ada"}, "role"),
		exampletest.Item(map[string]string{"PK": "USER#bob", "SK": "MEMBER#ORG#acme", "GSI1PK": "ORG#acme", "GSI1SK": "USER#bob"}, "role"),
		exampletest.Item(map[string]string{"PK": "USER#ada", "SK": "MEMBER#ORG#globex", "GSI1PK": "ORG#globex", "GSI1SK": "USER#ada"}, "role"),
		item("ORG#acme", "PROJ#web", "title"),
		item("ORG#acme", "PROJ#api", "title"),
		item("ORG#acme", "LABEL#bug", "color"),
		item("ORG#acme", "LABEL#ui", "color"),
		item("ORG#acme#PROJ#web", "ISSUE#0001", "title", "status", "version"),
		item("ORG#acme#PROJ#web", "ISSUE#0002", "title", "status", "version"),
		item("ORG#acme#PROJ#web", "ISSUE#0003", "title", "status", "version"),
		item("ORG#acme#PROJ#web", "ISSUE#0004", "title", "status", "version"),
		item("ORG#acme#PROJ#web", "ISSUE#0005", "title", "status", "version"),
		item("ORG#acme#PROJ#web", "ISSUES#open", "counter", "count"),
		item("ORG#acme#PROJ#web", "ISSUES#closed", "counter", "count"),
		edge("ORG#acme#PROJ#web#ISSUE#0001", "LABELLED#ORG#acme#LABEL#bug", "ORG#acme#LABEL#bug"),
		edge("ORG#acme#PROJ#web#ISSUE#0001", "ASSIGNED#USER#ada", "USER#ada"),
		edge("ORG#acme#PROJ#web#ISSUE#0002", "LABELLED#ORG#acme#LABEL#ui", "ORG#acme#LABEL#ui"),
		edge("ORG#acme#PROJ#web#ISSUE#0002", "ASSIGNED#USER#bob", "USER#bob"),
		edge("ORG#acme#PROJ#web#ISSUE#0003", "LABELLED#ORG#acme#LABEL#bug", "ORG#acme#LABEL#bug"),
		edge("ORG#acme#PROJ#web#ISSUE#0003", "LABELLED#ORG#acme#LABEL#ui", "ORG#acme#LABEL#ui"),
		edge("ORG#acme#PROJ#web#ISSUE#0003", "ASSIGNED#USER#ada", "USER#ada"),
		edge("ORG#acme#PROJ#web#ISSUE#0005", "LABELLED#ORG#acme#LABEL#bug", "ORG#acme#LABEL#bug"),
		edge("ORG#acme#PROJ#web#ISSUE#0005", "ASSIGNED#USER#ada", "USER#ada"),
	},
}

func TestRunWritesSeedTable(t *testing.T) {
	db, table := exampletest.RunTwice(t, example, seedTable, func(run int, out string) {
		exampletest.ContainsAll(t, out,
			"org acme (Acme), projects: api (Public API) web (Website)\n",
			"acme's members: ada (admin) bob (member)\n",
			"ada's orgs: acme (admin) globex (member)\n",
			"web's issues, newest first, 2 a page:\n"+
				"  page 1: 0005 Slow search (open); 0004 Typo on home page (closed);\n"+
				"  page 2: 0003 Crash on save (open); 0002 Dark mode (open);\n"+
				"  page 3: 0001 Login fails (closed);\n"+
				"web: 3 open, newest first: 0005 0003 0002\n",
			"issue 0003: Crash on save (open), labels: bug ui, assignees: ada\n",
			"issues labelled bug: web/0001 web/0003 web/0005\n",
			"issues assigned to ada: web/0001 web/0003 web/0005\n",
			"closed 0005\na stale close of 0005 is refused: version conflict\n"+
				"web: 2 open, newest first: 0003 0002\nreopened 0005\n",
			"legacy: 2 open, newest first: 0002 0001\n"+
				"deleted project legacy: 7 items under it, then the project (4 queries)\n"+
				"legacy: 0 open, newest first: \n",
			"ORG#acme#PROJ#web            |ISSUES#open                 |",
		)
	})
	// The inverted index GSI1, and ByStatus on the items' own PK and
	// status, sorted by SK.
	desc := exampletest.DescribeTable(t, db, table)
	require.Len(t, desc.GlobalSecondaryIndexes, 2)
	byName := map[string][]types.KeySchemaElement{}
	for _, g := range desc.GlobalSecondaryIndexes {
		byName[aws.ToString(g.IndexName)] = g.KeySchema
	}
	assert.Equal(t, exampletest.KeySchema("GSI1PK", "GSI1SK"), byName["GSI1"])
	assert.Equal(t, []types.KeySchemaElement{
		{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String("status"), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange},
	}, byName["ByStatus"])
}

func TestRunCleanup(t *testing.T) { exampletest.CleanupDeletesTable(t, example) }

// TestVerify: the items the run leaves all fit the model it declares
// (go run ./examples/tracker -verify).
func TestVerify(t *testing.T) { exampletest.VerifyClean(t, example) }

func TestDescribe(t *testing.T) {
	exampletest.ContainsAll(t, exampletest.Describe(t, example),
		"### Table `adjlist-tracker`",
		"| child ISSUE of ORG/PROJ | `ORG#<id>#PROJ#<PROJ id>` | `ISSUE#<child>` |",
		"| edge MEMBER (USER → ORG) | `USER#<from>` | `MEMBER#ORG#<to>` | `ORG#<to>` | `USER#<from>` | role |",
		"| counter ISSUES | `ORG#<id>#PROJ#<PROJ id>` | `ISSUES#<status>` |",
		"Index `ByStatus` (global, native keys, projection ALL): PK, status (partition), SK (sort).",
		"| a project's issues of one status, newest first | `Collection.ByIndex(\"ByStatus\", …).Desc()` | Query | `(PK = \"ORG#<org>#PROJ#<project>\") AND (status = \"<status>\"); ScanIndexForward=false` | ByStatus (eventually consistent) |",
	)
}

// recorded returns the model on a fresh table whose requests rec records,
// after a run of the example on it.
func recorded(t *testing.T) (tracker, *exampletest.Recorder, *dynamodb.Client) {
	t.Helper()
	db := ddbtest.Client(t)
	table := ddbtest.TableName(t)
	t.Cleanup(func() { require.NoError(t, exampleutil.DeleteTable(context.Background(), db, table)) })
	rec := exampletest.NewRecorder(db)
	require.NoError(t, example.Run(context.Background(), rec, table, false, new(strings.Builder)))
	rec.Take()
	return newTracker(rec, table), rec, db
}

// ref is project org/project's ref.
func ref(t *testing.T, m tracker, org, project string) string {
	t.Helper()
	r, err := m.projects.Ref(org, project)
	require.NoError(t, err)
	return r
}

// issueRef is an issue's ref.
func issueRef(t *testing.T, m tracker, org, project, issue string) string {
	t.Helper()
	r, err := m.issues.Ref(ref(t, m, org, project), issue)
	require.NoError(t, err)
	return r
}

// ids are the ids of children.
func ids[C any](children []adjlist.Child[C]) []string {
	out := []string{}
	for _, c := range children {
		out = append(out, c.ID)
	}
	return out
}

// TestAccessPatterns: every read of the tracker is one call and one
// request, with the key condition given here, and returns exactly the
// run's items; paging goes through the cursor.
func TestAccessPatterns(t *testing.T) {
	ctx := context.Background()
	m, rec, _ := recorded(t)
	web := ref(t, m, "acme", "web")

	t.Run("an org with its projects", func(t *testing.T) {
		fam, err := m.projects.Load(ctx, "acme")
		require.NoError(t, err)
		assert.Equal(t, Org{Name: "Acme"}, fam.Parent)
		assert.Equal(t, []string{"api", "web"}, ids(fam.Children))
		assert.Equal(t, 2, fam.Other, "the labels, not decoded")
		assert.Equal(t, []string{`Query PK = "ORG#acme"`}, rec.Take())
	})
	t.Run("an org's members, with roles", func(t *testing.T) {
		got, err := m.members.To("acme").Collect(ctx)
		require.NoError(t, err)
		assert.Equal(t, []adjlist.EdgeItem[Member]{{From: "ada", To: "acme", Data: Member{Role: "admin"}}, {From: "bob", To: "acme", Data: Member{Role: "member"}}}, got)
		assert.Equal(t, []string{`Query ON GSI1 (GSI1PK = "ORG#acme") AND (begins_with (GSI1SK, "USER#")) FILTER begins_with (SK, "MEMBER#ORG#")`}, rec.Take())
	})
	t.Run("a user's orgs, with roles", func(t *testing.T) {
		got, err := m.members.From("ada").Collect(ctx)
		require.NoError(t, err)
		assert.Equal(t, []adjlist.EdgeItem[Member]{{From: "ada", To: "acme", Data: Member{Role: "admin"}}, {From: "ada", To: "globex", Data: Member{Role: "member"}}}, got)
		assert.Equal(t, []string{`Query (PK = "USER#ada") AND (begins_with (SK, "MEMBER#ORG#"))`}, rec.Take())
	})
	t.Run("a project's issues, newest first, paged", func(t *testing.T) {
		q := m.issues.List(web).Desc().Limit(2)
		const query = `Query (PK = "ORG#acme#PROJ#web") AND (begins_with (SK, "ISSUE#")) DESC LIMIT 2`
		var got [][]string
		cursor := ""
		for range 4 {
			page, err := q.Page(ctx, cursor)
			require.NoError(t, err)
			got = append(got, ids(page.Items))
			want := query
			if cursor != "" {
				want += ` AFTER PK="ORG#acme#PROJ#web" SK="ISSUE#` + got[len(got)-2][1] + `"`
			}
			assert.Equal(t, []string{want}, rec.Take(), "page %d: one Query", len(got))
			if cursor = page.Cursor; cursor == "" {
				break
			}
		}
		assert.Equal(t, [][]string{{"0005", "0004"}, {"0003", "0002"}, {"0001"}}, got)
	})
	t.Run("a project's open issues, newest first, paged", func(t *testing.T) {
		page, err := m.issuesByStatus(web, "open").Limit(2).Page(ctx, "")
		require.NoError(t, err)
		assert.Equal(t, []string{"0005", "0003"}, ids(page.Items))
		require.NotEmpty(t, page.Cursor)
		assert.Equal(t, []string{`Query ON ByStatus (PK = "ORG#acme#PROJ#web") AND (status = "open") DESC LIMIT 2`}, rec.Take())
		page, err = m.issuesByStatus(web, "open").Limit(2).Page(ctx, page.Cursor)
		require.NoError(t, err)
		assert.Equal(t, []string{"0002"}, ids(page.Items))
		assert.Len(t, rec.Take(), 1)
		closed, err := m.issuesByStatus(web, "closed").Collect(ctx)
		require.NoError(t, err)
		assert.Equal(t, []string{"0004", "0001"}, ids(closed))
		assert.Len(t, rec.Take(), 1)
	})
	t.Run("one issue", func(t *testing.T) {
		got, err := m.issues.Get(ctx, web, "0003")
		require.NoError(t, err)
		assert.Equal(t, Issue{Title: "Crash on save", Status: "open", Version: 1}, got)
		assert.Equal(t, []string{`GetItem PK="ORG#acme#PROJ#web" SK="ISSUE#0003"`}, rec.Take())
	})
	i3 := issueRef(t, m, "acme", "web", "0003")
	t.Run("an issue's labels", func(t *testing.T) {
		got, err := m.labelled.From(i3).Collect(ctx)
		require.NoError(t, err)
		bug, ui := "ORG#acme#LABEL#bug", "ORG#acme#LABEL#ui"
		assert.Equal(t, []adjlist.EdgeItem[struct{}]{{From: i3, To: bug}, {From: i3, To: ui}}, got)
		assert.Equal(t, []string{`Query (PK = "ORG#acme#PROJ#web#ISSUE#0003") AND (begins_with (SK, "LABELLED#ORG#"))`}, rec.Take())
	})
	t.Run("a label's issues", func(t *testing.T) {
		bug, err := m.labels.Ref("acme", "bug")
		require.NoError(t, err)
		got, err := m.labelled.To(bug).Collect(ctx)
		require.NoError(t, err)
		var from []string
		for _, e := range got {
			from = append(from, e.From)
		}
		assert.Equal(t, []string{issueRef(t, m, "acme", "web", "0001"), i3, issueRef(t, m, "acme", "web", "0005")}, from)
		assert.Equal(t, []string{`Query ON GSI1 (GSI1PK = "ORG#acme#LABEL#bug") AND (begins_with (GSI1SK, "ORG#")) FILTER begins_with (SK, "LABELLED#ORG#")`}, rec.Take())
	})
	t.Run("assignees, both sides", func(t *testing.T) {
		got, err := m.assigned.From(i3).Collect(ctx)
		require.NoError(t, err)
		assert.Equal(t, []adjlist.EdgeItem[struct{}]{{From: i3, To: "ada"}}, got)
		assert.Equal(t, []string{`Query (PK = "ORG#acme#PROJ#web#ISSUE#0003") AND (begins_with (SK, "ASSIGNED#USER#"))`}, rec.Take())

		got, err = m.assigned.To("bob").Collect(ctx)
		require.NoError(t, err)
		assert.Equal(t, []adjlist.EdgeItem[struct{}]{{From: issueRef(t, m, "acme", "web", "0002"), To: "bob"}}, got)
		assert.Equal(t, []string{`Query ON GSI1 (GSI1PK = "USER#bob") AND (begins_with (GSI1SK, "ORG#")) FILTER begins_with (SK, "ASSIGNED#USER#")`}, rec.Take())
	})
	t.Run("open count", func(t *testing.T) {
		n, err := m.counts.Get(ctx, adjlist.IDs{web}, "open")
		require.NoError(t, err)
		assert.Equal(t, int64(3), n)
		assert.Equal(t, []string{`GetItem PK="ORG#acme#PROJ#web" SK="ISSUES#open"`}, rec.Take())
	})
	t.Run("create an issue", func(t *testing.T) {
		api := ref(t, m, "acme", "api")
		require.NoError(t, m.issues.Put(ctx, api, "0001", Issue{Title: "Rate limits", Status: "open"}))
		assert.Equal(t, []string{`TransactWriteItems [Put PK="ORG#acme#PROJ#api" SK="ISSUE#0001" IF attribute_not_exists (PK)] ` +
			`[Update PK="ORG#acme#PROJ#api" SK="ISSUES#open" ADD count 1` + "\n" + `SET counter = "ISSUES"]`}, rec.Take(),
			"the issue and its count, one request")
	})
	t.Run("close an issue", func(t *testing.T) {
		i, err := m.issues.Get(ctx, web, "0002")
		require.NoError(t, err)
		rec.Take()
		_, err = m.closeIssue(ctx, web, "0002", i.Version)
		require.NoError(t, err)
		// Not one request: the counts need the stored status, read first,
		// and Update returns the item read again.
		lines := rec.Take()
		require.Len(t, lines, 3)
		assert.Equal(t, `GetItem PK="ORG#acme#PROJ#web" SK="ISSUE#0002" CONSISTENT`, lines[0])
		assert.True(t, strings.HasPrefix(lines[1], "TransactWriteItems "), lines[1])
		assert.Equal(t, `GetItem PK="ORG#acme#PROJ#web" SK="ISSUE#0002" CONSISTENT`, lines[2])
	})
}

// counts are a project's open and closed counts.
type counts struct{ open, closed int64 }

// projectCounts reads project's counts with ItemCounter.Get and, from its
// issues, what they should be.
func projectCounts(t *testing.T, m tracker, project string) (kept, actual counts) {
	t.Helper()
	ctx := context.Background()
	var err error
	kept.open, err = m.counts.Get(ctx, adjlist.IDs{project}, "open")
	require.NoError(t, err)
	kept.closed, err = m.counts.Get(ctx, adjlist.IDs{project}, "closed")
	require.NoError(t, err)
	issues, err := m.issues.List(project).Collect(ctx, adjlist.Consistent)
	require.NoError(t, err)
	for _, i := range issues {
		switch i.Data.Status {
		case "open":
			actual.open++
		case "closed":
			actual.closed++
		}
	}
	return kept, actual
}

// TestOpenCounts: the open and closed counts of a project stay true
// through every kind of write of an issue, a transaction, and the
// cascade that deletes another project with its issues; Verify finds
// nothing after.
func TestOpenCounts(t *testing.T) {
	ctx := context.Background()
	m, _, db := recorded(t)
	web := ref(t, m, "acme", "web")
	version := func(id string) int64 {
		i, err := m.issues.Get(ctx, web, id, adjlist.Consistent)
		require.NoError(t, err)
		return i.Version
	}
	for _, step := range []struct {
		name  string
		write func() error
		want  counts
	}{
		{"as the run leaves it", func() error { return nil }, counts{3, 2}},
		{"a new open issue", func() error {
			return m.issues.Put(ctx, web, "0006", Issue{Title: "New", Status: "open"})
		}, counts{4, 2}},
		{"closed", func() error {
			_, err := m.closeIssue(ctx, web, "0006", version("0006"))
			return err
		}, counts{3, 3}},
		{"reopened by Replace", func() error {
			return m.issues.Replace(ctx, web, "0006", Issue{Title: "New", Status: "open"}, adjlist.IfVersion(version("0006")))
		}, counts{4, 2}},
		{"an open issue deleted", func() error {
			return m.issues.Delete(ctx, web, "0006", adjlist.IfVersion(version("0006")))
		}, counts{3, 2}},
		{"two issues in one transaction", func() error {
			tx := adjlist.NewTx(m.table)
			_ = m.issues.Put(ctx, web, "0007", Issue{Title: "A", Status: "open"}, adjlist.InTx(tx))
			_ = m.issues.Put(ctx, web, "0008", Issue{Title: "B", Status: "closed"}, adjlist.InTx(tx))
			return tx.Commit(ctx)
		}, counts{4, 3}},
		{"a closed issue deleted", func() error {
			return m.issues.Delete(ctx, web, "0008", adjlist.IfVersion(version("0008")))
		}, counts{4, 2}},
	} {
		require.NoError(t, step.write(), step.name)
		kept, actual := projectCounts(t, m, web)
		assert.Equal(t, step.want, actual, "%s: the issues", step.name)
		assert.Equal(t, actual, kept, "%s: the counts", step.name)
	}

	// A project deleted with everything under it: its counts go with its
	// partition, web's stay.
	api := ref(t, m, "acme", "api")
	require.NoError(t, m.issues.Put(ctx, api, "0001", Issue{Title: "Rate limits", Status: "open"}))
	kept, _ := projectCounts(t, m, api)
	require.Equal(t, counts{1, 0}, kept)
	res, err := adjlist.DeleteChild(ctx, m.projects, "acme", "api")
	require.NoError(t, err)
	assert.True(t, res.Node)
	kept, actual := projectCounts(t, m, api)
	assert.Equal(t, counts{}, kept)
	assert.Equal(t, counts{}, actual)
	kept, actual = projectCounts(t, m, web)
	assert.Equal(t, counts{4, 2}, kept)
	assert.Equal(t, actual, kept)
	out, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(m.table.Name())})
	require.NoError(t, err)
	for _, it := range out.Items {
		assert.NotContains(t, it["PK"].(*types.AttributeValueMemberS).Value, "PROJ#api", "an item left under the deleted project")
	}

	vr, err := adjlist.Verify(ctx, db, m.table)
	require.NoError(t, err)
	assert.Empty(t, vr.Findings)
}

// TestStaleClose: a close with a version someone else has moved on from
// is refused with ErrVersionConflict and changes nothing: not the issue,
// not the counts.
func TestStaleClose(t *testing.T) {
	ctx := context.Background()
	m, _, db := recorded(t)
	web := ref(t, m, "acme", "web")
	read, err := m.issues.Get(ctx, web, "0003")
	require.NoError(t, err)
	// Someone else renames it meanwhile.
	_, err = m.issues.Update(ctx, web, "0003", adjlist.Set("title", "Crash on save (macOS)"), adjlist.IfVersion(read.Version))
	require.NoError(t, err)
	before, _ := projectCounts(t, m, web)

	_, err = m.closeIssue(ctx, web, "0003", read.Version)
	require.ErrorIs(t, err, adjlist.ErrVersionConflict)

	now, err := m.issues.Get(ctx, web, "0003", adjlist.Consistent)
	require.NoError(t, err)
	assert.Equal(t, Issue{Title: "Crash on save (macOS)", Status: "open", Version: read.Version + 1}, now)
	after, actual := projectCounts(t, m, web)
	assert.Equal(t, before, after)
	assert.Equal(t, actual, after)

	// With the version read now, it closes.
	_, err = m.closeIssue(ctx, web, "0003", now.Version)
	require.NoError(t, err)
	after, actual = projectCounts(t, m, web)
	assert.Equal(t, counts{before.open - 1, before.closed + 1}, after)
	assert.Equal(t, actual, after)
	vr, err := adjlist.Verify(ctx, db, m.table)
	require.NoError(t, err)
	assert.Empty(t, vr.Findings)
}

// scanKeys is every item's PK and SK, "PK | SK".
func scanKeys(t *testing.T, db *dynamodb.Client, table string) []string {
	t.Helper()
	out, err := db.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(table)})
	require.NoError(t, err)
	var keys []string
	for _, it := range out.Items {
		keys = append(keys, it["PK"].(*types.AttributeValueMemberS).Value+" | "+it["SK"].(*types.AttributeValueMemberS).Value)
	}
	slices.Sort(keys)
	return keys
}

// TestHostileIDs: ids holding '#' (or '%', or text spelling another
// tenant's keys) in the org, project, issue or label id write only under
// their own escaped keys and read only their own items: nothing of org
// acme's is read, overwritten or counted, and the table still verifies.
func TestHostileIDs(t *testing.T) {
	ctx := context.Background()
	m, _, db := recorded(t)
	web := ref(t, m, "acme", "web")
	acmeIssues, err := m.issues.List(web).Collect(ctx)
	require.NoError(t, err)
	acmeCounts, _ := projectCounts(t, m, web)

	for _, tc := range []struct{ name, org, project, issue, label string }{
		{"org spelling acme's project", "acme#PROJ#web", "x", "0003", "bug"},
		{"org spelling acme's issue", "acme#PROJ#web#ISSUE#0003", "p", "i", "l"},
		{"org pre-escaped", "acme%23PROJ%23web", "web", "0003", "bug"},
		{"project spelling an issue of web", "acme", "web#ISSUE#0003", "0001", "bug#x"},
		{"issue spelling an edge", "acme", "api#", "0003#LABELLED#ORG#acme#LABEL#bug", "ui%"},
		{"label spelling another tenant's", "evil", "p", "1", "x#ORG#acme#LABEL#bug"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			acmeProjects, err := m.projects.List("acme").Collect(ctx)
			require.NoError(t, err)
			// Guarded creates: a write landing on an item already there
			// would be ErrExists.
			before := scanKeys(t, db, m.table.Name())
			wantAdded := 6 // project, label, issue, its count, two edges
			if tc.org != "acme" {
				require.NoError(t, m.orgs.Put(ctx, tc.org, Org{Name: "hostile"}))
				wantAdded++
			}
			require.NoError(t, m.projects.Put(ctx, tc.org, tc.project, Project{Title: "hostile"}))
			require.NoError(t, m.labels.Put(ctx, tc.org, tc.label, Label{Color: "black"}))
			project := ref(t, m, tc.org, tc.project)
			require.NoError(t, m.issues.Put(ctx, project, tc.issue, Issue{Title: "hostile", Status: "open"}))
			issue := issueRef(t, m, tc.org, tc.project, tc.issue)
			label, err := m.labels.Ref(tc.org, tc.label)
			require.NoError(t, err)
			require.NoError(t, m.labelled.Put(ctx, issue, label, struct{}{}))
			require.NoError(t, m.assigned.Put(ctx, issue, "ada", struct{}{}))

			// Every new item is keyed under the hostile org's own escaped
			// key: its org partition or a partition that starts with it
			// and a '#' (a prefix an IAM LeadingKeys pattern can scope),
			// never a partition of acme's projects or issues.
			orgKey, _, err := m.orgs.Key(tc.org)
			require.NoError(t, err)
			assert.Equal(t, 1, strings.Count(orgKey, "#"), "the org id is escaped: %s", orgKey)
			after := scanKeys(t, db, m.table.Name())
			assert.Subset(t, after, before, "nothing was overwritten or deleted")
			var added []string
			for _, k := range after {
				if !slices.Contains(before, k) {
					added = append(added, k)
				}
			}
			assert.Len(t, added, wantAdded, "%v", added)
			for _, k := range added {
				pk, _, _ := strings.Cut(k, " | ")
				switch pk {
				case orgKey, project, issue:
				case "ORG#acme":
					assert.Equal(t, "acme", tc.org, "only acme's own writes land in acme's partition: %s", k)
				default:
					t.Errorf("%s: outside the hostile org's partitions %s, %s, %s", k, orgKey, project, issue)
				}
				assert.True(t, pk == orgKey || strings.HasPrefix(pk, orgKey+"#"), "%s not under %s", k, orgKey)
				assert.NotEqual(t, web, pk, "in web's partition: %s", k)
			}

			// The hostile reads see only their own items.
			got, err := m.issues.List(project).Collect(ctx)
			require.NoError(t, err)
			assert.Equal(t, []string{tc.issue}, ids(got))
			open, err := m.issuesByStatus(project, "open").Collect(ctx)
			require.NoError(t, err)
			assert.Equal(t, []string{tc.issue}, ids(open))
			n, err := m.counts.Get(ctx, adjlist.IDs{project}, "open")
			require.NoError(t, err)
			assert.Equal(t, int64(1), n)
			labels, err := m.labelled.From(issue).Collect(ctx)
			require.NoError(t, err)
			assert.Equal(t, []adjlist.EdgeItem[struct{}]{{From: issue, To: label}}, labels)
			onLabel, err := m.labelled.To(label).Collect(ctx)
			require.NoError(t, err)
			assert.Equal(t, []adjlist.EdgeItem[struct{}]{{From: issue, To: label}}, onLabel)
			p, id, err := m.issues.ParseRef(issue)
			require.NoError(t, err)
			assert.Equal(t, []string{project, tc.issue}, []string{p, id})
			org, pid, err := m.projects.ParseRef(p)
			require.NoError(t, err)
			assert.Equal(t, []string{tc.org, tc.project}, []string{org, pid})

			// acme's are as they were.
			now, err := m.issues.List(web).Collect(ctx)
			require.NoError(t, err)
			assert.Equal(t, acmeIssues, now)
			kept, _ := projectCounts(t, m, web)
			assert.Equal(t, acmeCounts, kept)
			projects, err := m.projects.List("acme").Collect(ctx)
			require.NoError(t, err)
			if tc.org == "acme" {
				assert.Len(t, projects, len(acmeProjects)+1, "acme's own new project")
			} else {
				assert.Equal(t, acmeProjects, projects)
			}
		})
	}
	vr, err := adjlist.Verify(ctx, db, m.table)
	require.NoError(t, err)
	assert.Empty(t, vr.Findings)
}

// TestBadInput: an empty or invalid id is a typed error before any
// request.
func TestBadInput(t *testing.T) {
	ctx := context.Background()
	m, rec, _ := recorded(t)
	web := ref(t, m, "acme", "web")
	for name, call := range map[string]func() error{
		"empty org":         func() error { _, err := m.projects.Ref("", "web"); return err },
		"empty issue":       func() error { return m.issues.Put(ctx, web, "", Issue{Status: "open"}) },
		"not a project ref": func() error { return m.issues.Put(ctx, "acme", "1", Issue{Status: "open"}) },
		"invalid UTF-8":     func() error { _, err := m.issues.Get(ctx, web, "\xff"); return err },
		"close without a version": func() error {
			_, err := m.closeIssue(ctx, web, "0002", 0)
			return err
		},
	} {
		err := call()
		if name == "close without a version" {
			require.ErrorIs(t, err, adjlist.ErrInvalidOption, name)
		} else {
			require.ErrorIs(t, err, adjlist.ErrInvalidKey, name)
		}
		assert.Empty(t, rec.Take(), "%s: no request", name)
	}
}
