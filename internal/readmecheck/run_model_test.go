package readmecheck

// readme:begin
import "github.com/adjlist/adjlist"

// readme:end

import (
	"errors"
	"fmt"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of this file run the README's blocks from its start to
// "Modelling more access patterns", each with what its prose promises.

// ids are the ids of children read, in the order read.
func ids[C any](t *testing.T, q adjlist.Query[adjlist.Child[C]], optFns ...func(*adjlist.ReadOptions)) []string {
	t.Helper()
	items, err := q.Collect(t.Context(), optFns...)
	require.NoError(t, err)
	var out []string
	for _, c := range items {
		out = append(out, c.ID)
	}
	return out
}

// sAttr is item's string attribute name, "" if it has none.
func sAttr(item map[string]types.AttributeValue, name string) string {
	s, _ := item[name].(*types.AttributeValueMemberS)
	if s == nil {
		return ""
	}
	return s.Value
}

// The model: the first enrolment is one PutItem of the four key
// attributes and the data, guarded: a second Put of the same edge is
// ErrExists and overwrites nothing.
func TestReadmeModel(t *testing.T) {
	t.Parallel()
	l := newLocal(t, "school")
	client, ctx := l.client, t.Context()
	l.create(t, adjlist.NewTable(client, "school"))
	before := l.requests.Load()
	// readme:begin
	table := adjlist.NewTable(client, "school") // client: *dynamodb.Client
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)

	// One PutItem: four key attributes + enrolledOn, grade; attribute_not_exists(PK).
	err := enrolled.Put(ctx, "a91", "math204", Enrollment{EnrolledOn: "2026-09-01", Grade: "B"})
	if errors.Is(err, adjlist.ErrExists) { /* already enrolled; nothing overwritten */
	}
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, int64(1), l.requests.Load()-before, "one PutItem")
	item := l.rawItem(t, "school", "STU#a91", "ENROLL#CRS#math204")
	assert.Equal(t, []string{"GSI1PK", "GSI1SK", "PK", "SK", "enrolledOn", "grade"}, attrNames(item))
	assert.Equal(t, "CRS#math204", sAttr(item, "GSI1PK"))
	assert.Equal(t, "STU#a91", sAttr(item, "GSI1SK"))

	err = enrolled.Put(ctx, "a91", "math204", Enrollment{EnrolledOn: "2026-10-01", Grade: "A"})
	require.ErrorIs(t, err, adjlist.ErrExists)
	assert.Equal(t, "B", sAttr(l.rawItem(t, "school", "STU#a91", "ENROLL#CRS#math204"), "grade"), "nothing overwritten")
}

// Access patterns 1 and 2: a student's courses forward on the table, the
// profile with its enrolments in one Query, and a course's roster in
// reverse on GSI1.
func TestReadmeAccessPatterns(t *testing.T) { require.NoError(t, readmeAccessPatterns(t)) }

// readmeAccessPatterns is TestReadmeAccessPatterns's body: its README blocks return their errors.
func readmeAccessPatterns(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "school")
	table := adjlist.NewTable(l.client, "school")
	l.create(t, table)
	s := newSchool(table)
	s.seed(t)
	ctx, students, enrolled, cursor := t.Context(), s.students, s.enrolled, ""
	fmt := new(printer)
	before := l.requests.Load()
	require.NoError(t, func() error {
		// readme:begin
		// Query PK = "STU#a91" AND begins_with(SK, "ENROLL#CRS#")
		for e, err := range enrolled.From("a91").All(ctx) {
			if err != nil {
				return err
			}
			fmt.Println(e.To, e.Data.Grade) // "cs101 B", "math204 B"
		}

		// The profile and every enrolment in one Query on PK = "STU#a91".
		a91, err := adjlist.LoadNode(ctx, students, enrolled, "a91")
		// readme:end
		require.NoError(t, err)
		assert.Equal(t, []string{"cs101 B", "math204 B"}, fmt.Lines())
		assert.Equal(t, int64(2), l.requests.Load()-before, "one Query each")
		assert.Equal(t, "Ann", a91.Node.Name)
		assert.Equal(t, []adjlist.EdgeItem[Enrollment]{
			{From: "a91", To: "cs101", Data: Enrollment{EnrolledOn: "2026-09-02", Grade: "B"}},
			{From: "a91", To: "math204", Data: Enrollment{EnrolledOn: "2026-09-01", Grade: "B"}},
		}, a91.Edges)
		return nil
	}())

	// readme:begin
	// Query GSI1: GSI1PK = "CRS#math204" AND begins_with(GSI1SK, "STU#")
	page, err := enrolled.To("math204").Limit(50).Page(ctx, cursor)
	// page.Items: EdgeItem{From: "a91", To: "math204", Data: ...}, ...
	// page.Cursor: opaque; pass it back for the next page ("" = done)
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, []adjlist.EdgeItem[Enrollment]{
		{From: "a91", To: "math204", Data: Enrollment{EnrolledOn: "2026-09-01", Grade: "B"}},
		{From: "b30", To: "math204", Data: Enrollment{EnrolledOn: "2026-09-03", Grade: "B"}},
	}, page.Items)
	assert.Empty(t, page.Cursor, "done")
	return nil
}

// tenancy is the workspaces → projects design on its own key names,
// without an index ("One-to-many: item collections").
func tenancy(o *adjlist.Options) {
	o.PartitionKey, o.SortKey, o.NoIndex = "EntityRef", "Detail", true
}

// One-to-many: a guarded create, the newest projects first, a count and
// the parent with its children in one Query.
func TestReadmeCollection(t *testing.T) { require.NoError(t, readmeCollection(t)) }

// readmeCollection is TestReadmeCollection's body: its README blocks return their errors.
func readmeCollection(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "tenancy")
	given := adjlist.NewTable(l.client, "tenancy", tenancy)
	l.create(t, given)
	givenProjects := adjlist.NewCollection[Project](adjlist.NewNode[Workspace](given, "WS", "META"), "PROJ")
	require.NoError(t, adjlist.NewNode[Workspace](given, "WS", "META").Put(t.Context(), "acme", Workspace{Name: "Acme"}))
	for _, id := range []string{"2026-0042", "2026-0118"} {
		require.NoError(t, givenProjects.Put(t.Context(), "acme", id, Project{Title: "p" + id}))
	}
	client, ctx, cursor := l.client, t.Context(), ""
	// readme:begin
	table := adjlist.NewTable(client, "tenancy", func(o *adjlist.Options) {
		o.PartitionKey, o.SortKey, o.NoIndex = "EntityRef", "Detail", true
	})
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ")

	id := fmt.Sprintf("2026-%04d", 7)                              // "2026-0007": byte order = creation order
	err := projects.Put(ctx, "acme", id, Project{Title: "Launch"}) // guarded: ErrExists
	if err != nil {
		return err
	}
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, "2026-0007", id)
	require.ErrorIs(t, projects.Put(ctx, "acme", id, Project{Title: "Again"}), adjlist.ErrExists)
	// readme:continue

	// Newest first: EntityRef = "WS#acme" AND begins_with(Detail, "PROJ#"), ScanIndexForward=false
	page, err := projects.List("acme").Desc().Limit(20).Page(ctx, cursor)
	if err != nil {
		return err
	}
	n, err := projects.List("acme").Count(ctx) // keys-only Query
	if err != nil {
		return err
	}
	fam, err := projects.Load(ctx, "acme") // parent + children, one Query
	if err != nil {
		return err
	}
	// readme:end
	require.NoError(t, err)
	var got []string
	for _, c := range page.Items {
		got = append(got, c.ID)
	}
	assert.Equal(t, []string{"2026-0118", "2026-0042", "2026-0007"}, got)
	assert.Equal(t, "Launch", page.Items[2].Data.Title)
	assert.Equal(t, 3, n)
	assert.Equal(t, "Acme", fam.Parent.Name)
	assert.Len(t, fam.Children, 3)
	return nil
}

// Children as edge endpoints: a child's ref, an edge into it checked
// against both items, read from both sides, and deleted with the child.
func TestReadmeChildEndpoints(t *testing.T) { require.NoError(t, readmeChildEndpoints(t)) }

// readmeChildEndpoints is TestReadmeChildEndpoints's body: its README blocks return their errors.
func readmeChildEndpoints(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "tenancy")
	given := adjlist.NewTable(l.client, "tenancy") // PK, SK and GSI1, as the README's table of these items shows
	l.create(t, given)
	require.NoError(t, adjlist.NewNode[Tag](given, "TAG", "").Put(t.Context(), "go", Tag{Name: "Go"}))
	table := adjlist.NewTable(l.client, "tenancy")
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ")
	require.NoError(t, workspaces.Put(t.Context(), "acme", Workspace{Name: "Acme"}))
	require.NoError(t, projects.Put(t.Context(), "acme", "2026-0042", Project{Title: "Roadmap"}))
	ctx := t.Context()
	// readme:begin
	tags := adjlist.NewNode[Tag](table, "TAG", "")
	tagged := adjlist.NewEdge[Tagging](tags, "TAGGED", projects) // TAG → child PROJ of WS
	hasTag := adjlist.NewEdge[Tagging](projects, "HAS", tags)    // child PROJ of WS → TAG

	ref, err := projects.Ref("acme", "2026-0042") // "WS#acme#PROJ#2026-0042"
	if err != nil {
		return err
	}
	err = tagged.Put(ctx, "go", ref, Tagging{}, func(o *adjlist.WriteOptions) { o.CheckEnds = true }) // checks TAG#go and the item WS#acme / PROJ#2026-0042
	if err != nil {
		return err
	}
	edges, err := tagged.From("go").Collect(ctx) // edges[i].To is a ref
	if err != nil {
		return err
	}
	ws, proj, err := projects.ParseRef(edges[0].To) // "acme", "2026-0042"
	if err != nil {
		return err
	}
	onProject, err := tagged.To(ref).Collect(ctx) // GSI1PK = "WS#acme#PROJ#2026-0042"
	if err != nil {
		return err
	}
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, "WS#acme#PROJ#2026-0042", ref)
	item := l.rawItem(t, "tenancy", "TAG#go", "TAGGED#WS#acme#PROJ#2026-0042")
	assert.Equal(t, ref, sAttr(item, "GSI1PK"))
	assert.Equal(t, "TAG#go", sAttr(item, "GSI1SK"))
	require.Len(t, edges, 1)
	assert.Equal(t, ref, edges[0].To)
	assert.Equal(t, []string{"acme", "2026-0042"}, []string{ws, proj})
	require.Len(t, onProject, 1)
	assert.Equal(t, "go", onProject[0].From)
	var nf *adjlist.NodeNotFoundError
	require.ErrorAs(t, tagged.Put(ctx, "rust", ref, Tagging{}, func(o *adjlist.WriteOptions) { o.CheckEnds = true }), &nf, "TAG#rust does not exist")

	// The project → tag edge of the README's table, in the project's own
	// partition.
	require.NoError(t, hasTag.Put(ctx, ref, "go", Tagging{}))
	item = l.rawItem(t, "tenancy", "WS#acme#PROJ#2026-0042", "HAS#TAG#go")
	assert.Equal(t, "TAG#go", sAttr(item, "GSI1PK"))
	assert.Equal(t, ref, sAttr(item, "GSI1SK"))
	// "any ids work"
	odd, err := projects.Ref("a#b", "c%d")
	require.NoError(t, err)
	assert.Equal(t, "WS#a%23b#PROJ#c%25d", odd)
	// readme:continue
	res, err := adjlist.DeleteChild(ctx, projects, "acme", "2026-0042", tagged) // its edges, then the project
	if err != nil {
		return err
	}
	// readme:end
	require.NoError(t, err)
	assert.True(t, res.Node)
	for _, key := range [][2]string{{"TAG#go", "TAGGED#WS#acme#PROJ#2026-0042"}, {"WS#acme#PROJ#2026-0042", "HAS#TAG#go"}, {"WS#acme", "PROJ#2026-0042"}} {
		assert.Empty(t, l.rawItem(t, "tenancy", key[0], key[1]), "deleted: %v", key)
	}
	assert.NotEmpty(t, l.rawItem(t, "tenancy", "TAG#go", "TAG#go"), "the tag stays")
	return nil
}

// Ranges, filters and projections: each range reads its own item type
// only (not the parent's META item, not a child type whose name starts
// alike), a filter after the range, a projection of two attributes.
func TestReadmeRanges(t *testing.T) {
	t.Parallel()
	l := newLocal(t, "tenancy")
	table := adjlist.NewTable(l.client, "tenancy", tenancy)
	l.create(t, table)
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ")
	others := adjlist.NewCollection[Project](workspaces, "PROJX")
	ctx := t.Context()
	require.NoError(t, workspaces.Put(ctx, "acme", Workspace{Name: "Acme"}))
	for id, status := range map[string]string{"2025-0001": "ACTIVE", "2026-0007": "ACTIVE", "2026-0042": "ACTIVE", "2026-01-01": "DRAFT",
		"2026-01-31T10:00": "ACTIVE", "2026-0118": "", "2026-02-01": "ACTIVE"} {
		p := Project{Title: "p " + id, CreatedAt: "2026-01-07"}
		if status != "" {
			p.Status = aws.String(status)
		}
		require.NoError(t, projects.Put(ctx, "acme", id, p))
	}
	require.NoError(t, others.Put(ctx, "acme", "2026-0500", Project{Title: "another type"}))
	// readme:begin
	// EntityRef = "WS#acme" AND Detail BETWEEN "PROJ#2026-0042" AND "PROJ$"
	since := projects.List("acme").GreaterThanEqual("2026-0042")
	// ... AND Detail BETWEEN "PROJ#2026-01-01" AND "PROJ#2026-01-31􏿿"
	january := projects.List("acme").Between("2026-01-01", "2026-01-31\U0010FFFF")
	// ... AND begins_with(Detail, "PROJ#2026-")
	of2026 := projects.List("acme").BeginsWith("2026-")
	// readme:end
	assert.Equal(t, []string{"2026-0042", "2026-01-01", "2026-01-31T10:00", "2026-0118", "2026-02-01"}, ids(t, since))
	assert.Equal(t, []string{"2026-01-01", "2026-01-31T10:00"}, ids(t, january))
	assert.Equal(t, []string{"2026-0007", "2026-0042", "2026-01-01", "2026-01-31T10:00", "2026-0118", "2026-02-01"}, ids(t, of2026))
	assert.Equal(t, []string{"2026-01-01"}, ids(t, projects.List("acme").Between("2026-01-01", "2026-01-31")), "BETWEEN misses 2026-01-31T10:00")
	assert.Equal(t, []string{"2025-0001", "2026-0007", "2026-0042"}, ids(t, projects.List("acme").LessThan("2026-01-01")), "LessThan drops v itself")
	_, err := projects.List("acme").GreaterThanEqual("2026-0042").LessThan("2026-02-01").Collect(ctx)
	require.ErrorIs(t, err, adjlist.ErrInvalidOption, "a second condition")

	// readme:begin
	// filter #status = :ACTIVE, ANDed with any filter the query needs already
	active := since.Filter(expression.Name("status").Equal(expression.Value("ACTIVE")))
	// ProjectionExpression: the key attributes, title, status
	brief := active.Project("title", "status")
	// readme:end
	assert.Equal(t, []string{"2026-0042", "2026-01-31T10:00", "2026-02-01"}, ids(t, active))
	got, err := brief.Collect(ctx)
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, Project{Title: "p 2026-0042", Status: aws.String("ACTIVE")}, got[0].Data, "createdAt not projected: its zero value")

	_, err = projects.List("acme").Filter(expression.Name("Detail").BeginsWith("PROJ#")).Collect(ctx)
	require.ErrorIs(t, err, adjlist.ErrInvalidOption, "a filter on the queried key attributes")
}

// Several item types in one read: a node's whole partition, each item
// typed by the handle whose key shape it has, in one Query.
func TestReadmeLoadPartition(t *testing.T) {
	t.Parallel()
	l := newLocal(t, "school")
	table := adjlist.NewTable(l.client, "school")
	l.create(t, table)
	s := newSchool(table)
	s.seed(t)
	ctx, students, enrolled := t.Context(), s.students, s.enrolled
	studentNotes := adjlist.NewCollection[Note](students, "NOTE")
	require.NoError(t, studentNotes.Put(ctx, "a91", "n1", Note{Text: "prefers mornings"}))
	require.NoError(t, adjlist.NewEdge[Enrollment](students, "WAITLIST", s.courses).Put(ctx, "a91", "cs101", Enrollment{}))
	before := l.requests.Load()
	// readme:begin
	var courses []adjlist.EdgeItem[Enrollment]
	var notes []adjlist.Child[Note]
	// Query PK = "STU#a91": the profile, every enrolment and every note
	p, err := adjlist.LoadPartition(ctx, students, "a91", enrolled.Into(&courses), studentNotes.Into(&notes))
	// p.Node: the Student; p.Other: items no target matched
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, int64(1), l.requests.Load()-before, "one Query")
	assert.Equal(t, "Ann", p.Node.Name)
	assert.Equal(t, 1, p.Other, "the WAITLIST edge")
	require.Len(t, courses, 2)
	assert.Equal(t, []string{"cs101", "math204"}, []string{courses[0].To, courses[1].To})
	assert.Equal(t, []adjlist.Child[Note]{{Parent: "a91", ID: "n1", Data: Note{Text: "prefers mornings"}}}, notes)

	// Targets whose items are not in a student's partition (Target's doc):
	// sharded children are outside it, as are an entity's items, another
	// node type's children and another table's edges.
	var entries []adjlist.EntityItem[Note]
	other := newSchool(adjlist.NewTable(l.client, "school"))
	before = l.requests.Load()
	for name, tg := range map[string]adjlist.Target{
		"a sharded collection": adjlist.NewCollection[Note](students, "DIARY", func(o *adjlist.CollectionOptions) { o.Shards = 4 }).Into(&notes),
		"an entity":            adjlist.NewEntity[Note](table, "memo", "MEMO#{id}", "MEMO").Into(&entries),
		"another node type":    adjlist.NewCollection[Note](s.courses, "NOTE").Into(&notes),
		"another table":        other.enrolled.Into(&courses),
		"a zero Target":        {},
	} {
		_, err := adjlist.LoadPartition(ctx, students, "a91", tg)
		require.ErrorIs(t, err, adjlist.ErrInvalidOption, name)
	}
	_, err = adjlist.Load(ctx, enrolled.From("a91"), other.enrolled.Into(&courses))
	require.ErrorIs(t, err, adjlist.ErrInvalidOption, "Load: another table's target")
	assert.Equal(t, before, l.requests.Load(), "refused before any request")
}

// Modelling more access patterns: the indexes a table declares, the
// index keys each write derives (escaped), and each access pattern's
// ByIndex read.
func TestReadmeIndexes(t *testing.T) {
	t.Parallel()
	l := newLocal(t, "tenancy")
	client, ctx, cursor := l.client, t.Context(), ""
	// readme:begin
	table := adjlist.NewTable(client, "tenancy", func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{
			{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}, // global, derived keys
			{Name: "LSI1", Local: true, SortKey: "LSI1SK"},            // local: the table's partition
		}
	})
	byStatus := adjlist.IndexKeys{Index: "GSI2",
		PartitionKey: adjlist.Template("STATUS#{status}"), // STATUS#ACTIVE
		SortKey:      adjlist.Template("{createdAt}")}     // 2026-01-07
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META",
		func(o *adjlist.NodeOptions) { o.Indexes = []adjlist.IndexKeys{byStatus} })
	projects := adjlist.NewCollection[Project](workspaces, "PROJ", func(o *adjlist.CollectionOptions) {
		o.Indexes = []adjlist.IndexKeys{byStatus,
			{Index: "LSI1", SortKey: adjlist.Template("TITLE#{title}")}}
	})
	// readme:end

	// "adjlist.CreateTable creates the table with GSI1, GSI2 and LSI1."
	l.create(t, table)
	desc, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tenancy")})
	require.NoError(t, err)
	var indexes []string
	for _, g := range desc.Table.GlobalSecondaryIndexes {
		indexes = append(indexes, aws.ToString(g.IndexName))
	}
	for _, ls := range desc.Table.LocalSecondaryIndexes {
		indexes = append(indexes, aws.ToString(ls.IndexName))
	}
	assert.ElementsMatch(t, []string{"GSI1", "GSI2", "LSI1"}, indexes)

	// The two items of the README's table, one PutItem each.
	before := l.requests.Load()
	require.NoError(t, workspaces.Put(ctx, "acme", Workspace{Name: "Acme", Status: "ACTIVE", CreatedAt: "2025-12-01"}))
	require.NoError(t, projects.Put(ctx, "acme", "2026-0007", Project{Title: "Roadmap #1", Status: aws.String("ACTIVE"), CreatedAt: "2026-01-07"}))
	assert.Equal(t, int64(2), l.requests.Load()-before)
	ws := l.rawItem(t, "tenancy", "WS#acme", "META")
	assert.Equal(t, []string{"STATUS#ACTIVE", "2025-12-01", ""}, []string{sAttr(ws, "GSI2PK"), sAttr(ws, "GSI2SK"), sAttr(ws, "LSI1SK")})
	proj := l.rawItem(t, "tenancy", "WS#acme", "PROJ#2026-0007")
	assert.Equal(t, []string{"STATUS#ACTIVE", "2026-01-07", "TITLE#Roadmap %231"}, []string{sAttr(proj, "GSI2PK"), sAttr(proj, "GSI2SK"), sAttr(proj, "LSI1SK")})

	// More projects: an older ACTIVE one, one DONE, one without a status
	// (sparse: in LSI1 by its title, in no GSI2 partition).
	require.NoError(t, projects.Put(ctx, "acme", "2026-0003", Project{Title: "Budget", Status: aws.String("ACTIVE"), CreatedAt: "2025-11-30"}))
	require.NoError(t, projects.Put(ctx, "acme", "2026-0009", Project{Title: "Archive", Status: aws.String("DONE"), CreatedAt: "2026-01-09"}))
	require.NoError(t, projects.Put(ctx, "acme", "2026-0010", Project{Title: "Zeta", CreatedAt: "2026-01-10"}))
	func() {
		// readme:begin
		// 2: Query GSI2: GSI2PK = "STATUS#ACTIVE", ScanIndexForward=false
		active := projects.ByIndex("GSI2", "ACTIVE").Desc()
		// ... AND GSI2SK > "2026-01-01": a template that starts with data compares whole values
		recent := projects.ByIndex("GSI2", "ACTIVE").GreaterThan("2026-01-01")
		// 3: Query LSI1: PK = "WS#acme" AND begins_with(LSI1SK, "TITLE#"); local indexes allow adjlist.Consistent
		byTitle := projects.ByIndex("LSI1", "acme") // byTitle.Collect(ctx, adjlist.Consistent)
		// 4: one Query, each item decoded by the handle it belongs to
		var ws []adjlist.NodeItem[Workspace]
		var ps []adjlist.Child[Project]
		page, err := adjlist.PageIndex(ctx, projects.ByIndex("GSI2", "ACTIVE"), cursor, workspaces.Into(&ws), projects.Into(&ps))
		// readme:end
		require.NoError(t, err)
		assert.Equal(t, []string{"2026-0007", "2026-0003"}, ids(t, active), "ACTIVE projects, newest first; the workspace is another type")
		assert.Equal(t, []string{"2026-0007"}, ids(t, recent))
		assert.Equal(t, []string{"2026-0009", "2026-0003", "2026-0007", "2026-0010"}, ids(t, byTitle, adjlist.Consistent), "Archive, Budget, Roadmap #1, Zeta")
		assert.Equal(t, []adjlist.NodeItem[Workspace]{{ID: "acme", Data: Workspace{Name: "Acme", Status: "ACTIVE", CreatedAt: "2025-12-01"}}}, ws)
		require.Len(t, ps, 2)
		assert.Equal(t, []string{"2026-0003", "2026-0007"}, []string{ps[0].ID, ps[1].ID}, "in GSI2SK order")
		assert.Zero(t, page.Other)
		assert.Empty(t, page.Cursor)
	}()
	_, err = projects.ByIndex("GSI2", "ACTIVE").Collect(ctx, adjlist.Consistent)
	require.ErrorIs(t, err, adjlist.ErrIndexConsistentRead, "global indexes refuse ConsistentRead")
}

// A native index: typed sort attributes, so a range on a number compares
// numbers; a range applies to the sort attribute after the values given.
func TestReadmeNativeIndex(t *testing.T) {
	t.Parallel()
	l := newLocal(t, "scores")
	ctx := t.Context()
	o := new(adjlist.Options)
	// readme:begin
	o.Indexes = []adjlist.Index{{Name: "ByScore",
		PartitionAttributes: []adjlist.KeyAttribute{{Name: "tour"}, {Name: "region"}},
		SortAttributes:      []adjlist.KeyAttribute{{Name: "round", Type: "N"}, {Name: "score", Type: "N"}}}}
	// readme:end
	table := adjlist.NewTable(l.client, "scores", func(opts *adjlist.Options) { *opts = *o })
	l.create(t, table)
	entries := adjlist.NewNode[Entry](table, "ENTRY", "META")
	for i, e := range []Entry{{"W", "EU", 1, 8}, {"W", "EU", 1, 9}, {"W", "EU", 1, 10}, {"W", "EU", 1, 100}, {"W", "EU", 2, 50}, {"W", "US", 1, 70}} {
		require.NoError(t, entries.Put(ctx, strconv.Itoa(i), e))
	}
	// readme:continue

	// tour = "W" AND region = "EU" AND round = 1 AND score > 9
	top := entries.ByIndex("ByScore", "W", "EU", 1).GreaterThan(9)
	// readme:end
	scores := func(q adjlist.Query[adjlist.NodeItem[Entry]]) []int {
		t.Helper()
		items, err := q.Collect(ctx)
		require.NoError(t, err)
		var out []int
		for _, e := range items {
			out = append(out, e.Data.Score)
		}
		return out
	}
	assert.Equal(t, []int{10, 100}, scores(top), "numbers compare as numbers: text would put 10 and 100 before 9")
	assert.Equal(t, []int{50}, scores(entries.ByIndex("ByScore", "W", "EU").GreaterThan(1)), "after the partition values alone, a range is on round")

	before := l.requests.Load()
	for name, q := range map[string]adjlist.Query[adjlist.NodeItem[Entry]]{
		"a string on a number":    entries.ByIndex("ByScore", "W", "EU", 1).GreaterThan("9"),
		"a partition value short": entries.ByIndex("ByScore", "W"),
		"a number on a string":    entries.ByIndex("ByScore", "W", 1),
	} {
		_, err := q.Collect(ctx)
		require.ErrorIs(t, err, adjlist.ErrInvalidOption, name)
	}
	assert.Equal(t, before, l.requests.Load(), "refused before any request")
}
