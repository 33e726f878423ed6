package adjlist_test

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// trackerIssue is an issue of a project tracker, counted by status.
type trackerIssue struct {
	Title  string `dynamodbav:"title"`
	Status string `dynamodbav:"status,omitempty"`
}

// tracker is a project tracker whose projects keep their issues counted
// by status (ISSUES#open, ISSUES#closed) and in all (ALL), in the
// project's partition.
type tracker struct {
	db       *dynamodb.Client
	table    *adjlist.Table
	projects *adjlist.Node[struct{}]
	issues   *adjlist.Collection[trackerIssue, struct{}]
	byStatus *adjlist.ItemCounter
	all      *adjlist.ItemCounter
}

// declareTracker declares the tracker's model on table.
func declareTracker(t *testing.T, db *dynamodb.Client, table *adjlist.Table) *tracker {
	t.Helper()
	tr := &tracker{db: db, table: table}
	tr.projects = adjlist.NewNode[struct{}](table, "PROJ", "META")
	tr.issues = adjlist.NewCollection[trackerIssue](tr.projects, "ISSUE")
	tr.byStatus = adjlist.NewItemCounter(tr.issues, "ISSUES", func(o *adjlist.CounterOptions) { o.GroupBy = "status" })
	tr.all = adjlist.NewItemCounter(tr.issues, "ALL")
	require.NoError(t, table.Check())
	return tr
}

func newTracker(t *testing.T) *tracker {
	t.Helper()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	return declareTracker(t, db, table)
}

// counts is what project p's counters hold: every status's count and the
// total, each read with one GetItem.
func (tr *tracker) counts(t *testing.T, p string) map[string]int64 {
	t.Helper()
	ctx := context.Background()
	out := map[string]int64{}
	for _, status := range []string{"open", "closed"} {
		n, err := tr.byStatus.Get(ctx, adjlist.IDs{p}, status)
		require.NoError(t, err)
		out[status] = n
	}
	n, err := tr.all.Get(ctx, adjlist.IDs{p}, "")
	require.NoError(t, err)
	out["all"] = n
	return out
}

// verifyClean runs Verify over the whole table and requires no finding.
func (tr *tracker) verifyClean(t *testing.T) {
	t.Helper()
	res, err := adjlist.Verify(context.Background(), tr.db, tr.table)
	require.NoError(t, err)
	require.Empty(t, res.Findings)
}

// Open issues per project by status, kept true by every write path: Put,
// Replace (new item, same group, changed group), Update of the status and
// of another attribute, Delete, a Tx of several, DeleteChild and
// DeleteNode; Verify is clean after each.
func TestItemCounterByStatus(t *testing.T) {
	t.Parallel()
	tr := newTracker(t)
	ctx := context.Background()
	want := func(open, closed, all int64) map[string]int64 {
		return map[string]int64{"open": open, "closed": closed, "all": all}
	}
	steps := []struct {
		name  string
		write func() error
		p1    map[string]int64
	}{
		{"Put three", func() error {
			for id, st := range map[string]string{"i1": "open", "i2": "open", "i3": "closed"} {
				if err := tr.issues.Put(ctx, "p1", id, trackerIssue{Title: id, Status: st}); err != nil {
					return err
				}
			}
			return nil
		}, want(2, 1, 3)},
		{"Update status", func() error {
			_, err := tr.issues.Update(ctx, "p1", "i1", adjlist.Set("status", "closed"))
			return err
		}, want(1, 2, 3)},
		{"Update another attribute", func() error {
			_, err := tr.issues.Update(ctx, "p1", "i1", adjlist.Set("title", "renamed"))
			return err
		}, want(1, 2, 3)},
		{"Replace, same status", func() error {
			return tr.issues.Replace(ctx, "p1", "i2", trackerIssue{Title: "again", Status: "open"})
		}, want(1, 2, 3)},
		{"Replace, status changed", func() error {
			return tr.issues.Replace(ctx, "p1", "i2", trackerIssue{Title: "again", Status: "closed"})
		}, want(0, 3, 3)},
		{"Replace of a new item", func() error {
			return tr.issues.Replace(ctx, "p1", "i4", trackerIssue{Title: "new", Status: "open"})
		}, want(1, 3, 4)},
		{"Put without a status: counted in all only", func() error {
			return tr.issues.Put(ctx, "p1", "i5", trackerIssue{Title: "triage"})
		}, want(1, 3, 5)},
		{"Update removing the status", func() error {
			_, err := tr.issues.Update(ctx, "p1", "i4", adjlist.Remove("status"))
			return err
		}, want(0, 3, 5)},
		{"Delete", func() error { return tr.issues.Delete(ctx, "p1", "i3") }, want(0, 2, 4)},
		{"Tx of a Put, an Update and a Delete", func() error {
			tx := adjlist.NewTx(tr.table)
			require.NoError(t, tr.issues.Put(ctx, "p1", "i6", trackerIssue{Title: "six", Status: "open"}, adjlist.InTx(tx)))
			_, err := tr.issues.Update(ctx, "p1", "i5", adjlist.Set("status", "open"), adjlist.InTx(tx))
			require.NoError(t, err)
			require.NoError(t, tr.issues.Delete(ctx, "p1", "i1", adjlist.InTx(tx)))
			return tx.Commit(ctx)
		}, want(2, 1, 4)},
		{"DeleteChild", func() error {
			_, err := adjlist.DeleteChild(ctx, tr.issues, "p1", "i6")
			return err
		}, want(1, 1, 3)},
	}
	require.NoError(t, tr.projects.Put(ctx, "p1", struct{}{}))
	require.NoError(t, tr.projects.Put(ctx, "p2", struct{}{}))
	require.NoError(t, tr.issues.Put(ctx, "p2", "j1", trackerIssue{Title: "other", Status: "open"}))
	for _, st := range steps {
		require.NoError(t, st.write(), st.name)
		assert.Equal(t, st.p1, tr.counts(t, "p1"), st.name)
		tr.verifyClean(t)
	}
	assert.Equal(t, want(1, 0, 1), tr.counts(t, "p2"), "another project's counts untouched")

	// The project with its issues and counts: one Query of its partition.
	out, err := tr.db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(tr.table.Name()),
		KeyConditionExpression:    aws.String("PK = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "PROJ#p1"}}})
	require.NoError(t, err)
	var sks []string
	for _, item := range out.Items {
		sks = append(sks, item["SK"].(*types.AttributeValueMemberS).Value)
	}
	assert.Equal(t, []string{"ALL", "ISSUE#i2", "ISSUE#i4", "ISSUE#i5", "ISSUES#closed", "ISSUES#open", "META"}, sks)

	// Deleting the project deletes its counts with it.
	_, err = adjlist.DeleteNode(ctx, tr.projects, "p1")
	require.NoError(t, err)
	assert.Equal(t, want(0, 0, 0), tr.counts(t, "p1"))
	assert.Equal(t, want(1, 0, 1), tr.counts(t, "p2"))
	tr.verifyClean(t)
}

// A failed write changes no count: a Put of an existing issue, an Update
// or Delete of a missing one, a condition of the caller's.
func TestItemCounterFailedWritesCountNothing(t *testing.T) {
	t.Parallel()
	tr := newTracker(t)
	ctx := context.Background()
	require.NoError(t, tr.issues.Put(ctx, "p1", "i1", trackerIssue{Title: "one", Status: "open"}))
	require.ErrorIs(t, tr.issues.Put(ctx, "p1", "i1", trackerIssue{Title: "one", Status: "closed"}), adjlist.ErrExists)
	_, err := tr.issues.Update(ctx, "p1", "nope", adjlist.Set("status", "closed"))
	require.ErrorIs(t, err, adjlist.ErrNotFound)
	require.ErrorIs(t, tr.issues.Delete(ctx, "p1", "nope"), adjlist.ErrNotFound)
	_, err = tr.issues.Update(ctx, "p1", "i1", adjlist.Set("status", "closed"),
		adjlist.If(expression.Name("title").Equal(expression.Value("other"))))
	require.ErrorIs(t, err, adjlist.ErrConditionFailed)
	assert.Equal(t, map[string]int64{"open": 1, "closed": 0, "all": 1}, tr.counts(t, "p1"))
	tr.verifyClean(t)
}

// Concurrent status changes of one issue never make a count wrong: each
// write is conditioned on the status it read, and reads again when
// another changed it.
func TestItemCounterConcurrentUpdates(t *testing.T) {
	t.Parallel()
	tr := newTracker(t)
	ctx := context.Background()
	require.NoError(t, tr.issues.Put(ctx, "p1", "i1", trackerIssue{Title: "one", Status: "open"}))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status := []string{"open", "closed"}[i%2]
			// A loser after every retry fails with ErrConditionFailed or a
			// conflict; either way it counted nothing.
			_, _ = tr.issues.Update(ctx, "p1", "i1", adjlist.Set("status", status))
		}()
	}
	wg.Wait()
	got := tr.counts(t, "p1")
	assert.Equal(t, int64(1), got["open"]+got["closed"])
	assert.Equal(t, int64(1), got["all"])
	tr.verifyClean(t)
}

// Writes whose answer was lost after DynamoDB applied them, retried by the
// SDK, count once; so does calling again after ErrOutcomeUnknown.
func TestItemCounterRetriedWrites(t *testing.T) {
	t.Parallel()
	s, ft, sc := outcomeSchool(t)
	tr := declareTracker(t, s.db, s.table)
	ctx := context.Background()
	lose := func() { sc.arm("TransactWriteItems", appliedThen500) }
	before := ft.requests("TransactWriteItems")

	lose()
	require.NoError(t, tr.issues.Put(ctx, "p1", "i1", trackerIssue{Title: "one", Status: "open"}))
	lose()
	require.NoError(t, tr.issues.Put(ctx, "p1", "i2", trackerIssue{Title: "two", Status: "open"}, withToken("put-i2")))
	lose()
	require.NoError(t, tr.issues.Replace(ctx, "p1", "i2", trackerIssue{Title: "two", Status: "closed"}))
	lose()
	_, err := tr.issues.Update(ctx, "p1", "i1", adjlist.Set("status", "closed"))
	require.NoError(t, err)
	lose()
	require.NoError(t, tr.issues.Delete(ctx, "p1", "i2"))
	assert.Equal(t, 10, ft.requests("TransactWriteItems")-before, "each write retried once by the SDK")
	assert.Equal(t, map[string]int64{"open": 0, "closed": 1, "all": 1}, tr.counts(t, "p1"))
	tr.verifyClean(t)

	// Every attempt lost: ErrOutcomeUnknown; calling again counts nothing twice.
	sc.arm("TransactWriteItems", appliedThen500, appliedThen500, appliedThen500)
	_, err = tr.issues.Update(ctx, "p1", "i1", adjlist.Set("status", "open"))
	require.ErrorIs(t, err, adjlist.ErrOutcomeUnknown)
	_, err = tr.issues.Update(ctx, "p1", "i1", adjlist.Set("status", "open"))
	require.NoError(t, err)
	sc.arm("TransactWriteItems", appliedThen500, appliedThen500, appliedThen500)
	require.ErrorIs(t, tr.issues.Put(ctx, "p1", "i3", trackerIssue{Title: "three", Status: "open"}), adjlist.ErrOutcomeUnknown)
	require.ErrorIs(t, tr.issues.Put(ctx, "p1", "i3", trackerIssue{Title: "three", Status: "open"}), adjlist.ErrExists)
	sc.arm("TransactWriteItems", appliedThen500, appliedThen500, appliedThen500)
	require.ErrorIs(t, tr.issues.Delete(ctx, "p1", "i3"), adjlist.ErrOutcomeUnknown)
	require.ErrorIs(t, tr.issues.Delete(ctx, "p1", "i3"), adjlist.ErrNotFound)
	assert.Equal(t, map[string]int64{"open": 1, "closed": 0, "all": 1}, tr.counts(t, "p1"))
	tr.verifyClean(t)
}

// Verify finds a skewed count, of a group and of a total, and Repair sets
// it to the items counted.
func TestItemCounterVerifyRepair(t *testing.T) {
	t.Parallel()
	tr := newTracker(t)
	ctx := context.Background()
	for i, st := range []string{"open", "open", "closed"} {
		require.NoError(t, tr.issues.Put(ctx, "p1", fmt.Sprint("i", i), trackerIssue{Title: "t", Status: st}))
	}
	for _, sk := range []string{"ISSUES#open", "ALL"} {
		_, err := tr.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(tr.table.Name()),
			Key: map[string]types.AttributeValue{
				"PK": &types.AttributeValueMemberS{Value: "PROJ#p1"}, "SK": &types.AttributeValueMemberS{Value: sk}},
			UpdateExpression:          aws.String("ADD #c :n"),
			ExpressionAttributeNames:  map[string]string{"#c": "count"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":n": &types.AttributeValueMemberN{Value: "5"}}})
		require.NoError(t, err)
	}
	res, err := adjlist.Verify(ctx, tr.db, tr.table)
	require.NoError(t, err)
	require.Len(t, res.Findings, 2)
	got := map[adjlist.Key]adjlist.Finding{}
	for _, f := range res.Findings {
		assert.Equal(t, adjlist.FindingCounterMismatch, f.Kind)
		got[f.Key] = f
	}
	assert.Equal(t, "counter ISSUES", got[adjlist.Key{PK: "PROJ#p1", SK: "ISSUES#open"}].Type)
	assert.Equal(t, "7", got[adjlist.Key{PK: "PROJ#p1", SK: "ISSUES#open"}].Have)
	assert.Equal(t, "2", got[adjlist.Key{PK: "PROJ#p1", SK: "ISSUES#open"}].Want)
	assert.Equal(t, "counter ALL", got[adjlist.Key{PK: "PROJ#p1", SK: "ALL"}].Type)
	assert.Equal(t, "3", got[adjlist.Key{PK: "PROJ#p1", SK: "ALL"}].Want)

	rep, err := adjlist.Repair(ctx, tr.db, tr.table, res.Findings)
	require.NoError(t, err)
	assert.Len(t, rep.Repaired, 2)
	assert.Equal(t, map[string]int64{"open": 2, "closed": 1, "all": 3}, tr.counts(t, "p1"))
	tr.verifyClean(t)
}

// What a counter cannot keep is refused before any request: bulk writes,
// an update computing the status, a token on a write that reads first, a
// status that is neither string, number nor boolean; and declarations
// whose counts could have another type's keys, sharded children, stream
// counters, GroupBy on an edge Counter.
func TestItemCounterRefusals(t *testing.T) {
	t.Parallel()
	db := ddbtest.Client(t)
	calls := &countingClient{Client: db}
	table := adjlist.NewTable(calls, "never-created")
	tr := declareTracker(t, db, table)
	ctx := context.Background()
	odd := adjlist.NewCollection[map[string]any](tr.projects, "ODD")
	adjlist.NewItemCounter(odd, "ODDS", func(o *adjlist.CounterOptions) { o.GroupBy = "status" })
	for _, c := range []struct {
		name string
		call func() error
		want error
	}{
		{"PutMany", func() error {
			_, err := tr.issues.PutMany(ctx, []adjlist.Child[trackerIssue]{{Parent: "p1", ID: "i1"}})
			return err
		}, adjlist.ErrInvalidOption},
		{"DeleteMany", func() error {
			_, err := tr.issues.DeleteMany(ctx, []adjlist.Child[trackerIssue]{{Parent: "p1", ID: "i1"}})
			return err
		}, adjlist.ErrInvalidOption},
		{"Update computing the status", func() error {
			_, err := tr.issues.Update(ctx, "p1", "i1", adjlist.Update{}.SetTo("status", expression.Name("title")))
			return err
		}, adjlist.ErrInvalidOption},
		{"Update computing the status, in a Tx", func() error {
			_, err := tr.issues.Update(ctx, "p1", "i1", adjlist.Update{}.SetTo("status", expression.Name("title")), adjlist.InTx(adjlist.NewTx(table)))
			return err
		}, adjlist.ErrInvalidOption},
		{"token on Replace", func() error {
			return tr.issues.Replace(ctx, "p1", "i1", trackerIssue{Status: "open"}, withToken("t1"))
		}, adjlist.ErrInvalidOption},
		{"token on a grouped Delete", func() error { return tr.issues.Delete(ctx, "p1", "i1", withToken("t1")) }, adjlist.ErrInvalidOption},
		{"bad option on Replace", func() error { return tr.issues.Replace(ctx, "p1", "i1", trackerIssue{}, nil) }, adjlist.ErrInvalidOption},
		{"status a map", func() error {
			return odd.Put(ctx, "p1", "o1", map[string]any{"status": map[string]any{"a": 1}})
		}, adjlist.ErrInvalidOption},
		{"status not an id", func() error { return tr.issues.Put(ctx, "p1", "i1", trackerIssue{Status: "a\x00b"}) }, adjlist.ErrInvalidKey},
		{"Get without the group", func() error { _, err := tr.byStatus.Get(ctx, adjlist.IDs{"p1"}, ""); return err }, adjlist.ErrInvalidKey},
	} {
		require.ErrorIs(t, c.call(), c.want, c.name)
	}
	assert.Zero(t, calls.total(), "no request")

	for _, c := range []struct {
		name    string
		counter func(t *adjlist.Table) error
	}{
		{"count keys of the children's", func(t *adjlist.Table) error {
			p := adjlist.NewNode[struct{}](t, "PROJ", "META")
			_, err := adjlist.NewItemCounter(adjlist.NewCollection[trackerIssue](p, "ISSUE"), "ISSUE",
				func(o *adjlist.CounterOptions) { o.GroupBy = "status" }).Get(ctx, adjlist.IDs{"p"}, "open")
			return err
		}},
		{"count keys of the node item's", func(t *adjlist.Table) error {
			p := adjlist.NewNode[struct{}](t, "PROJ", "META")
			_, err := adjlist.NewItemCounter(adjlist.NewCollection[trackerIssue](p, "ISSUE"), "META").Get(ctx, adjlist.IDs{"p"}, "")
			return err
		}},
		{"sharded children", func(t *adjlist.Table) error {
			p := adjlist.NewNode[struct{}](t, "PROJ", "META")
			_, err := adjlist.NewItemCounter(adjlist.NewCollection[trackerIssue](p, "ISSUE", func(o *adjlist.CollectionOptions) { o.Shards = 4 }), "N").Get(ctx, adjlist.IDs{"p"}, "")
			return err
		}},
		{"stream", func(t *adjlist.Table) error {
			p := adjlist.NewNode[struct{}](t, "PROJ", "META")
			_, err := adjlist.NewItemCounter(p, "N", func(o *adjlist.CounterOptions) { o.Stream = true }).Get(ctx, adjlist.IDs{"p"}, "")
			return err
		}},
		{"a counter's items", func(t *adjlist.Table) error {
			p := adjlist.NewNode[struct{}](t, "PROJ", "META")
			_, err := adjlist.NewItemCounter(adjlist.NewItemCounter(p, "N"), "M").Get(ctx, adjlist.IDs{"p"}, "")
			return err
		}},
		{"GroupBy on an edge's counter per target", func(t *adjlist.Table) error {
			p := adjlist.NewNode[struct{}](t, "PROJ", "META")
			_, err := newEdgeCounter(adjlist.NewEdge[struct{}](p, "DEP", p), "DEPS",
				func(o *adjlist.CounterOptions) { o.GroupBy = "kind" }).Get(ctx, "a")
			return err
		}},
	} {
		fresh := adjlist.NewTable(calls, "never-created")
		require.ErrorIs(t, c.counter(fresh), adjlist.ErrInvalidOption, c.name)
		if c.name != "a counter's items" { // no table of its own to record it on
			require.ErrorIs(t, fresh.Check(), adjlist.ErrInvalidOption, c.name)
		}
	}
	assert.Zero(t, calls.total(), "no request")
}

// An entity's items counted per partition by a number attribute, and
// Describe drawing the count items.
func TestItemCounterEntity(t *testing.T) {
	t.Parallel()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	type review struct {
		Stars int `dynamodbav:"stars"`
	}
	reviews := adjlist.NewEntity[review](table, "review", "BOOK#{book}", "REVIEW#{user}")
	stars := adjlist.NewItemCounter(reviews, "STARS", func(o *adjlist.CounterOptions) { o.GroupBy = "stars" })
	require.NoError(t, table.Check())
	ctx := context.Background()
	for user, n := range map[string]int{"u1": 5, "u2": 5, "u3": 1} {
		require.NoError(t, reviews.Put(ctx, adjlist.IDs{"b1", user}, review{Stars: n}))
	}
	_, err := reviews.Update(ctx, adjlist.IDs{"b1", "u3"}, adjlist.Set("stars", 4))
	require.NoError(t, err)
	for group, want := range map[string]int64{"5": 2, "4": 1, "1": 0} {
		n, err := stars.Get(ctx, adjlist.IDs{"b1"}, group)
		require.NoError(t, err)
		assert.Equal(t, want, n, group)
	}
	res, err := adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	require.Empty(t, res.Findings)

	var b bytes.Buffer
	require.NoError(t, adjlist.Describe(&b, table))
	assert.Contains(t, b.String(), "counter STARS")
	assert.Contains(t, b.String(), "STARS#<stars>")
}
