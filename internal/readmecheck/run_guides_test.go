package readmecheck

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// The tests of this file run the blocks the guides under docs/ added
// when the README was split into them.

// Pages and cursors (docs/reads.md): one page, newest first, its cursor
// resuming the same query; All reads every page; a cursor of another
// query is ErrInvalidCursor before any request.
func TestGuidePagesAndCursors(t *testing.T) { require.NoError(t, guidePagesAndCursors(t)) }

func guidePagesAndCursors(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "tenancy")
	table := adjlist.NewTable(l.client, "tenancy")
	l.create(t, table)
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ")
	ctx := t.Context()
	var ids []string
	for i := uint64(1); i <= 25; i++ {
		id := fmt.Sprintf("2026-%04d", i)
		ids = append(ids, id)
		require.NoError(t, projects.Put(ctx, "acme", id, Project{Title: fmt.Sprint("p", i)}))
	}
	cursor := ""
	fmt := new(printer)
	// readme:begin
	// One Query: PK = "WS#acme" AND begins_with(SK, "PROJ#"), newest first, Limit 20.
	page, err := projects.List("acme").Desc().Limit(20).Page(ctx, cursor)
	if err != nil {
		return err // a cursor of another query: ErrInvalidCursor, before any request
	}
	for _, p := range page.Items {
		fmt.Println(p.Parent, p.ID, p.Data.Title)
	}
	next := page.Cursor // "" after the last page

	// Every page, one Query each as the loop asks for it.
	for p, err := range projects.List("acme").All(ctx) {
		if err != nil {
			return err
		}
		fmt.Println(p.ID)
	}
	// readme:end
	lines := fmt.Lines()
	require.Len(t, lines, 45)
	desc := slices.Clone(ids)
	slices.Reverse(desc)
	assert.Equal(t, "acme 2026-0025 p25", lines[0])
	assert.Equal(t, "acme 2026-0006 p6", lines[19])
	assert.Equal(t, ids, lines[20:], "All: every project, in id order")
	require.NotEmpty(t, next)

	rest, err := projects.List("acme").Desc().Limit(20).Page(ctx, next)
	require.NoError(t, err)
	assert.Len(t, rest.Items, 5)
	assert.Equal(t, desc[20], rest.Items[0].ID, "the cursor resumes after the page's last item")
	last, err := projects.List("acme").Desc().Limit(20).Page(ctx, rest.Cursor)
	if rest.Cursor != "" { // DynamoDB may report more items after an exact last page
		require.NoError(t, err)
		assert.Empty(t, last.Items)
		assert.Empty(t, last.Cursor)
	}

	before := l.requests.Load()
	_, err = projects.List("other").Desc().Limit(20).Page(ctx, next)
	require.ErrorIs(t, err, adjlist.ErrInvalidCursor, "a cursor of another partition")
	_, err = projects.List("acme").Limit(20).Page(ctx, next)
	require.ErrorIs(t, err, adjlist.ErrInvalidCursor, "a cursor of the other direction")
	assert.Equal(t, before, l.requests.Load(), "refused before any request")
	return nil
}

// Counting items by group (docs/modelling.md): a ticket created open and
// closed by an Update leaves TICKETS#open at 0 and TICKETS#closed at 1, in
// the queue's partition beside the ticket, and Verify finds nothing.
// TestGuideItemCounterPer: an edge counted per source and per target.
func TestGuideItemCounterPer(t *testing.T) { require.NoError(t, guideItemCounterPer(t)) }

func guideItemCounterPer(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "social")
	table := adjlist.NewTable(l.client, "social")
	l.create(t, table)
	ctx := t.Context()
	fmt := new(printer)
	users := adjlist.NewNode[struct{}](table, "USER", "META")
	// readme:begin
	follows := adjlist.NewEdge[struct{}](users, "FOLLOWS", users)
	following := adjlist.NewItemCounter(follows, "FOLLOWING") // per source: PK = "USER#u1", SK = "FOLLOWING"
	followers := adjlist.NewItemCounter(follows, "FOLLOWERS", func(o *adjlist.CounterOptions) { o.Per = "to" })

	if err := follows.Put(ctx, "u1", "u2", struct{}{}); err != nil { // FOLLOWING of u1 +1, FOLLOWERS of u2 +1
		return err
	}
	n, err := followers.Get(ctx, adjlist.IDs{"u2"}, "") // 1: one GetItem of PK = "USER#u2", SK = "FOLLOWERS"
	if err != nil {
		return err
	}
	fmt.Println(n)
	// readme:end
	assert.Equal(t, []string{"1"}, fmt.Lines())
	out, err := following.Get(ctx, adjlist.IDs{"u1"}, "")
	require.NoError(t, err)
	assert.Equal(t, int64(1), out)
	assert.NotEmpty(t, l.rawItem(t, "social", "USER#u1", "FOLLOWING"), "in the source's partition")
	assert.NotEmpty(t, l.rawItem(t, "social", "USER#u2", "FOLLOWERS"), "in the target's partition")
	return nil
}

func TestGuideItemCounter(t *testing.T) { require.NoError(t, guideItemCounter(t)) }

func guideItemCounter(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "queues")
	table := adjlist.NewTable(l.client, "queues")
	l.create(t, table)
	ctx := t.Context()
	fmt := new(printer)
	// readme:begin
	type (
		Queue  struct{ Name string }
		Ticket struct {
			Title  string `dynamodbav:"title"`
			Status string `dynamodbav:"status"`
		}
	)
	queues := adjlist.NewNode[Queue](table, "QUEUE", "META")
	tickets := adjlist.NewCollection[Ticket](queues, "TICKET")
	byStatus := adjlist.NewItemCounter(tickets, "TICKETS", func(o *adjlist.CounterOptions) { o.GroupBy = "status" })

	if err := tickets.Put(ctx, "q1", "t1", Ticket{Title: "crash", Status: "open"}); err != nil { // TICKETS#open +1
		return err
	}
	if _, err := tickets.Update(ctx, "q1", "t1", adjlist.Set("status", "closed")); err != nil { // open -1, closed +1
		return err
	}
	closed, err := byStatus.Get(ctx, adjlist.IDs{"q1"}, "closed") // 1: one GetItem
	if err != nil {
		return err
	}
	fmt.Println(closed)
	// readme:end
	assert.Equal(t, []string{"1"}, fmt.Lines())
	open, err := byStatus.Get(ctx, adjlist.IDs{"q1"}, "open")
	require.NoError(t, err)
	assert.Zero(t, open)

	assert.NotEmpty(t, l.rawItem(t, "queues", "QUEUE#q1", "TICKETS#closed"), "the count item sits in the queue's partition")
	assert.NotEmpty(t, l.rawItem(t, "queues", "QUEUE#q1", "TICKET#t1"))

	res, err := adjlist.Verify(ctx, l.client, table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
	return nil
}
