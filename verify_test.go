package adjlist_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// verifySchool is a model with every kind of item Verify checks: version-tracked
// students, courses, enrolments counted at write time, and tickets in each
// student's collection, listed by status in a sparse index (GSI2).
type verifySchool struct {
	db       *dynamodb.Client
	calls    *countingClient
	table    *adjlist.Table
	students *adjlist.Node[Student]
	courses  *adjlist.Node[Course]
	enrolled *adjlist.Edge[Enrollment]
	counter  *edgeCounter[Enrollment]
	tickets  *adjlist.Collection[Ticket, Student]
}

const (
	vStudents = 200
	vCourses  = 20
	vPerStu   = 5 // enrolments per student
	vTickets  = 4 // tickets per student; the last has no status
)

func stuID(i int) string { return fmt.Sprintf("s%03d", i) }
func crsID(i int) string { return fmt.Sprintf("c%02d", i) }
func tckID(i int) string { return fmt.Sprintf("t%d", i) }

// newVerifySchool declares the model on a fresh table and fills it: 200
// students, 20 courses, 1,000 enrolments with their 20 counts, 800
// tickets (2,040 items).
func newVerifySchool(t *testing.T) *verifySchool {
	t.Helper()
	ctx := context.Background()
	db := ddbtest.Client(t)
	c := &verifySchool{db: db, calls: &countingClient{Client: db}}
	c.table = adjlist.NewTable(c.calls, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	ddbtest.CreateTable(t, c.table)
	c.students = adjlist.NewNode[Student](c.table, "STU", "PROFILE", func(o *adjlist.NodeOptions) {
		o.Tracking = adjlist.Tracking{Version: "version"}
	})
	c.courses = adjlist.NewNode[Course](c.table, "CRS", "METADATA")
	c.enrolled = adjlist.NewEdge[Enrollment](c.students, "ENROLL", c.courses)
	c.tickets = adjlist.NewCollection[Ticket](c.students, "TCK", func(o *adjlist.CollectionOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2",
			PartitionKey: adjlist.Template("STATUS#{status}"),
			SortKey:      adjlist.Template("{createdAt}")}}
	})
	require.NoError(t, c.table.Check())

	for i := range vStudents {
		require.NoError(t, c.students.Put(ctx, stuID(i), Student{Name: stuID(i), Year: 1}))
	}
	for i := range vCourses {
		require.NoError(t, c.courses.Put(ctx, crsID(i), Course{Title: crsID(i)}))
	}
	var edges []adjlist.EdgeItem[Enrollment]
	var children []adjlist.Child[Ticket]
	for i := range vStudents {
		for k := range vPerStu {
			edges = append(edges, adjlist.EdgeItem[Enrollment]{From: stuID(i), To: crsID((i + k) % vCourses), Data: Enrollment{Grade: "A"}})
		}
		for k := range vTickets {
			tk := Ticket{CreatedAt: fmt.Sprintf("2026-%03d-%d", i, k)}
			if k < vTickets-1 {
				tk.Status = ptr([]string{"OPEN", "DONE"}[k%2])
			}
			children = append(children, adjlist.Child[Ticket]{Parent: stuID(i), ID: tckID(k), Data: tk})
		}
	}
	_, err := c.enrolled.PutMany(ctx, edges)
	require.NoError(t, err)
	_, err = c.tickets.PutMany(ctx, children)
	require.NoError(t, err)
	// The counts, as the counter, declared after the bulk write (which
	// it refuses), would have kept them.
	c.counter = newEdgeCounter(c.enrolled, "ENROLLED")
	require.NoError(t, c.table.Check())
	for i := range vCourses {
		c.rawPut(t, map[string]any{"PK": "CRS#" + crsID(i), "SK": "ENROLLED", "counter": "ENROLLED", "count": vStudents * vPerStu / vCourses})
	}
	return c
}

func (c *verifySchool) rawPut(t *testing.T, item map[string]any) {
	t.Helper()
	av, err := attributevalue.MarshalMap(item)
	require.NoError(t, err)
	_, err = c.db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(c.table.Name()), Item: av})
	require.NoError(t, err)
}

// rawUpdate runs one UpdateExpression on an item, bypassing the library.
func (c *verifySchool) rawUpdate(t *testing.T, pk, sk, expr string, values map[string]any) {
	t.Helper()
	in := &dynamodb.UpdateItemInput{TableName: aws.String(c.table.Name()), UpdateExpression: aws.String(expr),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}}}
	if values != nil {
		av, err := attributevalue.MarshalMap(values)
		require.NoError(t, err)
		in.ExpressionAttributeValues = av
	}
	if strings.Contains(expr, "#c") {
		in.ExpressionAttributeNames = map[string]string{"#c": "count"} // a reserved word
	}
	_, err := c.db.UpdateItem(context.Background(), in)
	require.NoError(t, err)
}

func (c *verifySchool) rawDelete(t *testing.T, pk, sk string) {
	t.Helper()
	_, err := c.db.DeleteItem(context.Background(), &dynamodb.DeleteItemInput{TableName: aws.String(c.table.Name()),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}}})
	require.NoError(t, err)
}

// injectFaults writes one fault of each kind with plain SDK calls, on
// items of students below 100 (the writers own the rest), and returns the
// findings they must give, as findingKeys formats them.
func (c *verifySchool) injectFaults(t *testing.T) []string {
	t.Helper()
	// An item of no declared type.
	c.rawPut(t, map[string]any{"PK": "ZZZ#1", "SK": "junk", "x": 1})
	// A ticket whose stars are not a number.
	c.rawUpdate(t, "STU#s007", "TCK#t1", "SET stars = :v", map[string]any{":v": "many"})
	// Inverted index keys: one removed, one pointing at another student.
	c.rawUpdate(t, "STU#s002", "ENROLL#CRS#c02", "REMOVE GSI1PK", nil)
	c.rawUpdate(t, "STU#s003", "ENROLL#CRS#c03", "SET GSI1SK = :v", map[string]any{":v": "STU#s099"})
	// The sparse index: a partition key on a ticket without status (its
	// sort key, from createdAt, is right), a stale status.
	c.rawUpdate(t, "STU#s004", "TCK#t3", "SET GSI2PK = :p, GSI2SK = :s", map[string]any{":p": "STATUS#OPEN", ":s": "2026-004-3"})
	c.rawUpdate(t, "STU#s004", "TCK#t0", "SET GSI2PK = :p", map[string]any{":p": "STATUS#DONE"})
	// Two enrolments into a course whose item is then deleted (their
	// count kept right).
	ctx := context.Background()
	require.NoError(t, c.courses.Put(ctx, "c99", Course{Title: "gone"}))
	require.NoError(t, c.counter.Put(ctx, stuID(5), "c99", Enrollment{}))
	require.NoError(t, c.counter.Put(ctx, stuID(6), "c99", Enrollment{}))
	c.rawDelete(t, "CRS#c99", "METADATA")
	// A student deleted without its two tickets.
	require.NoError(t, c.students.Put(ctx, "s999", Student{Name: "gone"}))
	require.NoError(t, c.tickets.Put(ctx, "s999", "t0", Ticket{CreatedAt: "x"}))
	require.NoError(t, c.tickets.Put(ctx, "s999", "t1", Ticket{CreatedAt: "y"}))
	c.rawDelete(t, "STU#s999", "PROFILE")
	// A count that is wrong, and a version that is not a number.
	c.rawUpdate(t, "CRS#c05", "ENROLLED", "SET #c = :v", map[string]any{":v": 999})
	c.rawUpdate(t, "STU#s010", "PROFILE", "SET version = :v", map[string]any{":v": "x"})
	return []string{
		"counter mismatch|CRS#c05|ENROLLED|count|999|50",
		"unknown item|ZZZ#1|junk||",
		"index key missing|STU#s002|ENROLL#CRS#c02|GSI1PK||CRS#c02",
		"index key stale|STU#s003|ENROLL#CRS#c03|GSI1SK|STU#s099|STU#s003",
		"index key stale|STU#s004|TCK#t0|GSI2PK|STATUS#DONE|STATUS#OPEN",
		"index key extra|STU#s004|TCK#t3|GSI2PK|STATUS#OPEN|",
		"dangling edge|STU#s005|ENROLL#CRS#c99|CRS#c99 METADATA",
		"dangling edge|STU#s006|ENROLL#CRS#c99|CRS#c99 METADATA",
		"undecodable|STU#s007|TCK#t1||",
		"bad version|STU#s010|PROFILE|version|S \"x\"|",
		"orphan|STU#s999|TCK#t0|STU#s999 PROFILE",
		"orphan|STU#s999|TCK#t1|STU#s999 PROFILE",
	}
}

// findingKeys formats findings for comparison: kind, keys, then the
// attribute with both values, or the missing item's keys.
func findingKeys(fs []adjlist.Finding) []string {
	var out []string
	for _, f := range fs {
		s := fmt.Sprintf("%s|%s|%s|", f.Kind, f.Key.PK, f.Key.SK)
		switch {
		case f.Missing != (adjlist.Key{}):
			s += f.Missing.PK + " " + f.Missing.SK
		case f.Kind == adjlist.FindingUnknownItem || f.Kind == adjlist.FindingUndecodable:
			s += "|"
		default:
			s += fmt.Sprintf("%s|%s|%s", f.Attribute, f.Have, f.Want)
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// A table of 2,040 items with one fault of each kind, injected with plain
// SDK writes, while 4 writers keep updating other items through the
// library: Verify finds exactly the faults; Repair fixes the derivable
// ones and leaves the rest; a second Verify finds only those; Repair with
// deletes asked for removes them; every writer's last acknowledged write
// survives.
func TestVerifyAndRepairLive(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newVerifySchool(t)
	faults := c.injectFaults(t)
	// Writers own the tickets of students 100-199 (writer w the tickets
	// tw): status changes move them in the sparse index.
	writers := liveWriters(t, 11, func(w, n int, rng *rand.Rand, acked map[int]ackedState) (int, ackedState, error) {
		i := 100 + rng.IntN(100)
		s := acked[i]
		var upd adjlist.Update
		if n%2 == 0 {
			s.status = []string{"OPEN", "DONE", "WAIT"}[rng.IntN(3)]
			upd = adjlist.Set("status", s.status)
		} else {
			s.stars = n + 1
			upd = adjlist.Set("stars", s.stars)
		}
		_, err := c.tickets.Update(ctx, stuID(i), tckID(w), upd)
		return i, s, err
	})
	var pages atomic.Int64
	res, err := adjlist.Verify(ctx, c.db, c.table, func(o *adjlist.ScanOptions) {
		o.Limit = 100
		o.Progress = func(adjlist.ScanProgress) { pages.Add(1) }
	})
	require.NoError(t, err)
	assert.Empty(t, res.Position)
	assert.GreaterOrEqual(t, res.Scanned, 2040)
	assert.Greater(t, pages.Load(), int64(8), "progress reported per page")
	require.Equal(t, sortedCopy(faults), findingKeys(res.Findings))
	for _, f := range res.Findings {
		if f.Kind == adjlist.FindingUndecodable {
			assert.Error(t, f.Err)
		}
		assert.NotEmpty(t, f.String())
	}

	rep, err := adjlist.Repair(ctx, c.db, c.table, res.Findings)
	require.NoError(t, err)
	derivable := func(f adjlist.Finding) bool {
		switch f.Kind {
		case adjlist.FindingIndexKeyMissing, adjlist.FindingIndexKeyStale, adjlist.FindingIndexKeyExtra, adjlist.FindingCounterMismatch:
			return true
		}
		return false
	}
	var wantRepaired, wantLeft []adjlist.Finding
	for _, f := range res.Findings {
		if derivable(f) {
			wantRepaired = append(wantRepaired, f)
		} else {
			wantLeft = append(wantLeft, f)
		}
	}
	assert.Equal(t, findingKeys(wantRepaired), findingKeys(rep.Repaired))
	assert.Equal(t, findingKeys(wantLeft), findingKeys(rep.Left))
	assert.Empty(t, rep.Gone)

	again, err := adjlist.Verify(ctx, c.db, c.table)
	require.NoError(t, err)
	assert.Equal(t, findingKeys(wantLeft), findingKeys(again.Findings), "only what Repair cannot decide is left")

	deleted, err := adjlist.Repair(ctx, c.db, c.table, again.Findings, func(o *adjlist.RepairOptions) {
		o.DeleteDangling, o.DeleteUnknown, o.DeleteUndecodable = true, true, true
	})
	require.NoError(t, err)
	assert.Len(t, deleted.Repaired, len(wantLeft)-1)
	badVersion := `bad version|STU#s010|PROFILE|version|S "x"|`
	assert.Equal(t, []string{badVersion}, findingKeys(deleted.Left))
	// Deleting the counted edges into c99 left their count as it was.
	last, err := adjlist.Verify(ctx, c.db, c.table)
	require.NoError(t, err)
	assert.Equal(t, []string{badVersion, "counter mismatch|CRS#c99|ENROLLED|count|2|0"}, findingKeys(last.Findings))
	_, err = adjlist.Repair(ctx, c.db, c.table, last.Findings)
	require.NoError(t, err)
	last, err = adjlist.Verify(ctx, c.db, c.table)
	require.NoError(t, err)
	assert.Equal(t, []string{badVersion}, findingKeys(last.Findings))

	acked, writes := writers.stop()
	t.Logf("user writes during Verify and Repair: %d", writes)
	require.Greater(t, writes, int64(20), "writers ran during Verify and Repair")
	for w := range acked {
		for i, s := range acked[w] {
			got, err := c.tickets.Get(ctx, stuID(i), tckID(w))
			require.NoError(t, err)
			if s.status != "" {
				require.NotNil(t, got.Status)
				assert.Equal(t, s.status, *got.Status, "ticket %d/%d", i, w)
			}
			if s.stars != 0 {
				assert.Equal(t, s.stars, got.Stars, "ticket %d/%d", i, w)
			}
		}
	}
	// Counted right, and the derived keys rewritten.
	n, err := c.counter.Get(ctx, "c05")
	require.NoError(t, err)
	assert.Equal(t, int64(50), n)
	roster, err := c.enrolled.To("c02").Collect(ctx)
	require.NoError(t, err)
	assert.Len(t, roster, 50)
}

func sortedCopy(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// An item changed after the scan read it is judged by what it is when
// read again: a fault fixed meanwhile is not reported.
func TestVerifyRechecksBeforeReporting(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newVerifySchool(t)
	c.rawUpdate(t, "STU#s002", "ENROLL#CRS#c02", "REMOVE GSI1PK", nil)
	c.rawUpdate(t, "STU#s003", "ENROLL#CRS#c03", "REMOVE GSI1PK", nil)
	fixed := false
	client := &hookedScan{Client: c.db, after: func() {
		if !fixed { // after the first page: s002's edge is fixed behind the scan's back
			fixed = true
			c.rawUpdate(t, "STU#s002", "ENROLL#CRS#c02", "SET GSI1PK = :v", map[string]any{":v": "CRS#c02"})
		}
	}}
	res, err := adjlist.Verify(ctx, client, c.table, func(o *adjlist.ScanOptions) { o.Segments = 1 })
	require.NoError(t, err)
	assert.Equal(t, []string{"index key missing|STU#s003|ENROLL#CRS#c03|GSI1PK||CRS#c03"}, findingKeys(res.Findings))
}

// hookedScan calls after once each Scan page has been read.
type hookedScan struct {
	*dynamodb.Client
	after func()
}

func (h *hookedScan) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	out, err := h.Client.Scan(ctx, in, o...)
	if err == nil {
		h.after()
	}
	return out, err
}

// Verify is resumable: interrupted by its context, it returns a position,
// and the runs resumed from it find every fault once in all.
func TestVerifyResumes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newVerifySchool(t)
	c.rawUpdate(t, "STU#s002", "ENROLL#CRS#c02", "REMOVE GSI1PK", nil)
	c.rawUpdate(t, "STU#s150", "PROFILE", "SET version = :v", map[string]any{":v": "x"})
	c.rawPut(t, map[string]any{"PK": "ZZZ#1", "SK": "junk"})
	var all []adjlist.Finding
	pos := ""
	for run := 0; ; run++ {
		require.Less(t, run, 3, "Verify completed on its third run")
		rctx, cancel := context.WithCancel(ctx)
		pages := 0
		res, err := adjlist.Verify(rctx, c.db, c.table, func(o *adjlist.ScanOptions) {
			o.Segments, o.Limit, o.From = 2, 200, pos
			o.Progress = func(adjlist.ScanProgress) {
				// Runs 0 and 1 stop mid-scan (a run stopped after its
				// last page would fail in the checks after the scan,
				// with no position: those are not resumable).
				if pages++; run < 2 && pages == 3 {
					cancel()
				}
			}
		})
		cancel()
		all = append(all, res.Findings...)
		if err == nil {
			assert.Empty(t, res.Position)
			break
		}
		require.ErrorIs(t, err, context.Canceled)
		var oe *adjlist.OpError
		require.ErrorAs(t, err, &oe)
		assert.Equal(t, "Verify", oe.Op)
		require.NotEmpty(t, res.Position)
		pos = res.Position
	}
	// A page cut short is read again: a finding may come twice.
	assert.Equal(t, []string{
		"bad version|STU#s150|PROFILE|version|S \"x\"|",
		"index key missing|STU#s002|ENROLL#CRS#c02|GSI1PK||CRS#c02",
		"unknown item|ZZZ#1|junk||",
	}, slices.Compact(findingKeys(all)))
}

// RequestRate bounds the Scan requests per second: n pages at 5 per
// second (a bucket of 5) cannot take less than (n-5)/5 s.
func TestVerifyRequestRate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newVerifySchool(t)
	start := time.Now()
	res, err := adjlist.Verify(ctx, c.calls, c.table, func(o *adjlist.ScanOptions) {
		o.Segments, o.Limit, o.RequestRate = 2, 200, 5
	})
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
	scans := c.calls.scans.Load()
	require.GreaterOrEqual(t, scans, int64(10))
	assert.GreaterOrEqual(t, time.Since(start), time.Duration(float64(scans-5)/5*float64(time.Second))-50*time.Millisecond)
}

// ReadUnitRate asks each Scan for its consumed capacity and waits it off.
func TestVerifyReadUnitRate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newVerifySchool(t)
	var units, last float64 // written by the one segment's goroutine, read after Verify
	var asked atomic.Bool
	client := &capacityScan{Client: c.db, seen: func(in *dynamodb.ScanInput, out *dynamodb.ScanOutput) {
		asked.Store(in.ReturnConsumedCapacity == types.ReturnConsumedCapacityTotal)
		if out.ConsumedCapacity != nil {
			last = aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)
			units += last
		}
	}}
	start := time.Now()
	_, err := adjlist.Verify(ctx, client, c.table, func(o *adjlist.ScanOptions) {
		o.Segments, o.Limit, o.ReadUnitRate = 1, 400, 10
	})
	require.NoError(t, err)
	assert.True(t, asked.Load(), "ReturnConsumedCapacity TOTAL")
	require.Greater(t, units, 15.0, "DynamoDB Local reports the capacity consumed")
	// The units of the last page are waited off after it: all but a
	// bucket's worth (10) and that page's are paced.
	assert.GreaterOrEqual(t, time.Since(start), time.Duration((units-10-last)/10*float64(time.Second)))
}

type capacityScan struct {
	*dynamodb.Client
	seen func(*dynamodb.ScanInput, *dynamodb.ScanOutput)
}

func (c *capacityScan) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	out, err := c.Client.Scan(ctx, in, o...)
	if err == nil {
		c.seen(in, out)
	}
	return out, err
}

// Bad options and models are refused before any request.
func TestVerifyRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	calls := &countingClient{Client: noScanClient{}}
	table := adjlist.NewTable(calls, "t")
	adjlist.NewNode[Student](table, "STU", "PROFILE")
	for name, opt := range map[string]func(*adjlist.ScanOptions){
		"negative request rate": func(o *adjlist.ScanOptions) { o.RequestRate = -1 },
		"negative unit rate":    func(o *adjlist.ScanOptions) { o.ReadUnitRate = -1 },
		"index":                 func(o *adjlist.ScanOptions) { o.Index = "GSI1" },
		"segments":              func(o *adjlist.ScanOptions) { o.Segments = -1 },
		"too many segments":     func(o *adjlist.ScanOptions) { o.Segments = 1 << 40 },
		"position":              func(o *adjlist.ScanOptions) { o.From = "nope" },
	} {
		t.Run(name, func(t *testing.T) {
			_, err := adjlist.Verify(context.Background(), calls, table, opt)
			require.Error(t, err)
			assert.True(t, errors.Is(err, adjlist.ErrInvalidOption) || errors.Is(err, adjlist.ErrInvalidCursor), err)
		})
	}
	noClient := adjlist.NewTable(nil, "t")
	adjlist.NewNode[Student](noClient, "STU", "PROFILE")
	_, err := adjlist.Verify(context.Background(), calls, noClient)
	require.ErrorIs(t, err, adjlist.ErrInvalidOption, "the table's client confirms findings")
	bad := adjlist.NewTable(calls, "t")
	adjlist.NewNode[Student](bad, "bad type!", "")
	_, err = adjlist.Verify(context.Background(), calls, bad)
	require.ErrorIs(t, err, adjlist.ErrInvalidKey)
	_, err = adjlist.Repair(context.Background(), calls, bad, nil)
	require.ErrorIs(t, err, adjlist.ErrInvalidKey)
	assert.Zero(t, calls.total()+calls.batchGets.Load())
}

// noScanClient fails every request: none may be sent.
type noScanClient struct{ adjlist.Client }

func (noScanClient) Scan(context.Context, *dynamodb.ScanInput, ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	return nil, errors.New("no request may be sent")
}

// Entities are verified like the presets: a sparse index key of the
// design's own spelling, stale and extra, found and rewritten.
func TestVerifyEntity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newGaming(t)
	require.NoError(t, g.meta.Put(ctx, adjlist.IDs{"p1"}, playerMeta{Nickname: "John"}))
	require.NoError(t, g.items.Put(ctx, adjlist.IDs{"p1", "001"}, playerItem{ItemName: "Potion", Flagged: "yes"}))
	require.NoError(t, g.items.Put(ctx, adjlist.IDs{"p1", "002"}, playerItem{ItemName: "Sword"}))
	raw := &verifySchool{db: g.db, table: g.table}
	raw.rawUpdate(t, "p1", "ITEMS#001", "SET GSI1PK = :v", map[string]any{":v": "FLAGGED#no"})
	raw.rawUpdate(t, "p1", "ITEMS#002", "SET GSI1PK = :p", map[string]any{":p": "FLAGGED#yes"})

	res, err := adjlist.Verify(ctx, g.db, g.table)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"index key stale|p1|ITEMS#001|GSI1PK|FLAGGED#no|FLAGGED#yes",
		"index key extra|p1|ITEMS#002|GSI1PK|FLAGGED#yes|",
	}, findingKeysInOrder(res.Findings))
	assert.Equal(t, "entity item", res.Findings[0].Type)

	rep, err := adjlist.Repair(ctx, g.db, g.table, res.Findings)
	require.NoError(t, err)
	assert.Len(t, rep.Repaired, 2)
	flagged, err := g.items.ByIndex("GSI1", "yes").Collect(ctx)
	require.NoError(t, err)
	require.Len(t, flagged, 1)
	assert.Equal(t, adjlist.IDs{"p1", "001"}, flagged[0].IDs)
	again, err := adjlist.Verify(ctx, g.db, g.table)
	require.NoError(t, err)
	assert.Empty(t, again.Findings)
}

// findingKeysInOrder is findingKeys without sorting: Verify's own order
// (by key, then kind and attribute).
func findingKeysInOrder(fs []adjlist.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, findingKeys([]adjlist.Finding{f})...)
	}
	return out
}

// A design that keeps no items of a node type has no dangling edges into
// it, nor orphans under it: only types of which the walk met an item are
// checked.
func TestVerifyDesignWithoutNodeItems(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newSchool(t)
	ws := adjlist.NewNode[Space](s.table, "WS", "META")
	tickets := adjlist.NewCollection[Ticket](ws, "TCK")
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", Enrollment{}))
	require.NoError(t, tickets.Put(ctx, "acme", "t1", Ticket{CreatedAt: "x"}))
	res, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings, "no student, course or workspace items at all")

	// One student item: the design has them, so the edge of a91 dangles.
	require.NoError(t, s.students.Put(ctx, "b22", Student{Name: "Bo"}))
	res, err = adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	assert.Equal(t, []string{"dangling edge|STU#a91|ENROLL#CRS#math204|STU#a91 PROFILE"}, findingKeys(res.Findings))
}

// A counter kept from a stream: Apply's per-edge marker items are the
// counter's own, not unknown items, and the count it keeps verifies.
func TestVerifyCounterFromStream(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newSchool(t)
	counter := newEdgeCounter(s.enrolled, "ENROLLED", func(o *adjlist.CounterOptions) { o.Stream = true })
	require.NoError(t, s.courses.Put(ctx, "math204", Course{Title: "Algebra"}))
	for i, stu := range []string{"a91", "b22", "c33"} {
		require.NoError(t, s.students.Put(ctx, stu, Student{Name: stu}))
		require.NoError(t, s.enrolled.Put(ctx, stu, "math204", Enrollment{}))
		require.NoError(t, counter.Apply(ctx, fmt.Sprint(100+i), stu, "math204", true))
	}
	res, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)

	// The REMOVE of c33 not applied yet: the count is one too high.
	require.NoError(t, s.enrolled.Delete(ctx, "c33", "math204"))
	res, err = adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	assert.Equal(t, []string{"counter mismatch|CRS#math204|ENROLLED|count|3|2"}, findingKeys(res.Findings))
	assert.Equal(t, "counter ENROLLED", res.Findings[0].Type)

	// A resumed run has not counted every edge: counters are not checked.
	res, err = adjlist.Verify(ctx, s.db, s.table, func(o *adjlist.ScanOptions) { o.Segments = 1; o.From = startPosition(t, s) })
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
}

// startPosition is a position at the start of a one-segment walk of s.
func startPosition(t *testing.T, s *school) string {
	t.Helper()
	var pos string
	_, err := adjlist.Verify(context.Background(), s.db, s.table, func(o *adjlist.ScanOptions) {
		o.Segments, o.Limit = 1, 1
		o.Progress = func(p adjlist.ScanProgress) {
			if pos == "" {
				pos = p.Position
			}
		}
	})
	require.NoError(t, err)
	require.NotEmpty(t, pos)
	return pos
}

// Findings that no longer hold when Repair reads them again are Gone, and
// nothing is written for them: a stale key fixed meanwhile, an item
// deleted, a dangling edge whose endpoint was created.
func TestRepairGone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newSchool(t)
	for _, stu := range []string{"a91", "b22"} {
		require.NoError(t, s.students.Put(ctx, stu, Student{Name: stu}))
	}
	require.NoError(t, s.courses.Put(ctx, "math204", Course{}))
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", Enrollment{}))
	require.NoError(t, s.enrolled.Put(ctx, "b22", "math204", Enrollment{}))
	require.NoError(t, s.enrolled.Put(ctx, "b22", "cs101", Enrollment{}))
	raw := &verifySchool{db: s.db, table: s.table}
	raw.rawUpdate(t, "STU#a91", "ENROLL#CRS#math204", "REMOVE GSI1PK", nil)
	raw.rawUpdate(t, "STU#b22", "ENROLL#CRS#math204", "REMOVE GSI1SK", nil)
	res, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	require.Equal(t, []string{
		"dangling edge|STU#b22|ENROLL#CRS#cs101|CRS#cs101 METADATA",
		"index key missing|STU#a91|ENROLL#CRS#math204|GSI1PK||CRS#math204",
		"index key missing|STU#b22|ENROLL#CRS#math204|GSI1SK||STU#b22",
	}, findingKeys(res.Findings))

	raw.rawUpdate(t, "STU#a91", "ENROLL#CRS#math204", "SET GSI1PK = :v", map[string]any{":v": "CRS#math204"})
	require.NoError(t, s.enrolled.Delete(ctx, "b22", "math204"))
	require.NoError(t, s.courses.Put(ctx, "cs101", Course{}))
	before := s.calls.updates.Load() + s.calls.deletes.Load() + s.calls.txs.Load()
	rep, err := adjlist.Repair(ctx, s.calls, s.table, res.Findings, func(o *adjlist.RepairOptions) { o.DeleteDangling = true })
	require.NoError(t, err)
	assert.Empty(t, rep.Repaired)
	assert.Equal(t, findingKeys(res.Findings), findingKeys(rep.Gone))
	assert.Equal(t, before+1, s.calls.updates.Load()+s.calls.deletes.Load()+s.calls.txs.Load(),
		"one write only: the dangling edge's transaction, cancelled by its check")
	n, err := s.enrolled.From("b22").Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "the edge to cs101 kept")
}

// Scan, Migrate, Verify and Repair each open one span, named for the
// call, whose requests are the Scan pages and the confirming reads; the
// SDK's request spans nest under it.
func TestVerifySpans(t *testing.T) {
	t.Parallel()
	s := newTracedSchool(t)
	ctx := context.Background()
	require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ana"}))
	require.NoError(t, s.courses.Put(ctx, "math204", Course{}))
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", Enrollment{}))
	(&verifySchool{db: s.db, table: s.table}).rawUpdate(t, "STU#a91", "ENROLL#CRS#math204", "REMOVE GSI1PK", nil)
	one := func(o *adjlist.ScanOptions) { o.Segments = 1 }
	var found []adjlist.Finding
	for _, c := range []struct {
		name     string
		call     func(ctx context.Context) error
		requests int64 // Scan pages and confirming reads
	}{
		{"Scan", func(ctx context.Context) error {
			_, err := adjlist.Scan(ctx, s.db, s.students, func(context.Context, adjlist.NodeItem[Student]) error { return nil }, one)
			return err
		}, 1},
		{"Verify", func(ctx context.Context) error {
			res, err := adjlist.Verify(ctx, s.db, s.table, one)
			found = res.Findings
			return err
		}, 2}, // the Scan, the GetItem confirming the finding
		{"Repair", func(ctx context.Context) error {
			_, err := adjlist.Repair(ctx, s.db, s.table, found)
			return err
		}, 2}, // GetItem, UpdateItem
		{"Migrate", func(ctx context.Context) error {
			_, err := adjlist.Migrate(ctx, s.db, s.enrolled, one)
			return err
		}, 1},
	} {
		outer, spans, err := s.traced(t, c.call)
		require.NoError(t, err, c.name)
		mine := children(spans, outer)
		require.Len(t, mine, 1, "%s: one span", c.name)
		assert.Equal(t, c.name, mine[0].Name())
		assert.Equal(t, c.requests, attrs(mine[0])["adjlist.requests"].AsInt64(), c.name)
		assert.Len(t, children(spans, mine[0].SpanContext()), int(c.requests), "%s: the SDK's spans nest under it", c.name)
	}
	assert.Len(t, found, 1)
}

// A Scan throttled past the SDK's retries is a *ThrottlingError inside
// the walk's OpError, with the position to resume from.
func TestScanThrottled(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ana"}))
	throttled := &throttledScan{Client: s.db, err: &types.ProvisionedThroughputExceededException{Message: aws.String("slow down"),
		ThrottlingReasons: []types.ThrottlingReason{{Reason: aws.String("TableReadProvisionedThroughputExceeded"),
			Resource: aws.String("arn:aws:dynamodb:us-east-1:123456789012:table/" + s.table.Name())}}}}
	for name, call := range map[string]func() error{
		"Scan": func() error {
			_, err := adjlist.Scan(ctx, throttled, s.students, func(context.Context, adjlist.NodeItem[Student]) error { return nil })
			return err
		},
		"Verify": func() error { _, err := adjlist.Verify(ctx, throttled, s.table); return err },
	} {
		err := call()
		var te *adjlist.ThrottlingError
		require.ErrorAs(t, err, &te, name)
		assert.Equal(t, "TableReadProvisionedThroughputExceeded", te.Reason)
		assert.Equal(t, s.table.Name(), te.Table)
		assert.False(t, te.HotPartition)
		var oe *adjlist.OpError
		require.ErrorAs(t, err, &oe)
		assert.Equal(t, name, oe.Op)
	}
}

// throttledScan fails every Scan with err, as the SDK does once its
// retries are spent.
type throttledScan struct {
	*dynamodb.Client
	err error
}

func (c *throttledScan) Scan(context.Context, *dynamodb.ScanInput, ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	return nil, &smithy.OperationError{ServiceID: "DynamoDB", OperationName: "Scan", Err: c.err}
}

// The rate bounds are the walk's: Scan and Migrate take them too, refuse
// bad ones before any request, and Scan is paced by RequestRate.
func TestScanAndMigrateRates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newSchool(t)
	for i := range 12 {
		require.NoError(t, s.students.Put(ctx, fmt.Sprintf("s%02d", i), Student{Name: "x"}))
	}
	none := func(context.Context, adjlist.NodeItem[Student]) error { return nil }
	bad := func(o *adjlist.ScanOptions) { o.ReadUnitRate = -1 }
	before := s.calls.scans.Load()
	_, err := adjlist.Scan(ctx, s.calls, s.students, none, bad)
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	_, err = adjlist.Migrate(ctx, s.calls, s.students, bad)
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	assert.Equal(t, before, s.calls.scans.Load(), "no request")

	start := time.Now()
	_, err = adjlist.Scan(ctx, s.calls, s.students, none, func(o *adjlist.ScanOptions) {
		o.Segments, o.Limit, o.RequestRate = 1, 2, 4
	})
	require.NoError(t, err)
	n := s.calls.scans.Load() - before
	require.GreaterOrEqual(t, n, int64(6))
	assert.GreaterOrEqual(t, time.Since(start), time.Duration(float64(n-4)/4*float64(time.Second))-50*time.Millisecond)
}

// Index keys of an index the item's type does not declare are extra: a
// node carrying the inverted index's keys (which only edges carry), a node
// and an edge carrying the sparse index's keys (which only tickets carry),
// and an entity carrying the keys of an index only another entity
// declares. Migrate and Repair remove them; Verify then finds nothing.
func TestVerifyForeignIndexKeys(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newVerifySchool(t)
	c.rawUpdate(t, "STU#s001", "PROFILE", "SET GSI1PK = :p, GSI1SK = :s", map[string]any{":p": "CRS#c01", ":s": "STU#s001"})
	c.rawUpdate(t, "CRS#c03", "METADATA", "SET GSI2PK = :p", map[string]any{":p": "STATUS#OPEN"})
	c.rawUpdate(t, "STU#s002", "ENROLL#CRS#c02", "SET GSI2SK = :s", map[string]any{":s": "2026"})
	res, err := adjlist.Verify(ctx, c.db, c.table)
	require.NoError(t, err)
	require.Equal(t, []string{
		"index key extra|CRS#c03|METADATA|GSI2PK|STATUS#OPEN|",
		"index key extra|STU#s001|PROFILE|GSI1PK|CRS#c01|",
		"index key extra|STU#s001|PROFILE|GSI1SK|STU#s001|",
		"index key extra|STU#s002|ENROLL#CRS#c02|GSI2SK|2026|",
	}, findingKeysInOrder(res.Findings))
	assert.Equal(t, "node STU", res.Findings[1].Type)

	// Migrate of the courses removes the course's; Repair the rest.
	mig, err := adjlist.Migrate(ctx, c.db, c.courses)
	require.NoError(t, err)
	assert.Equal(t, 1, mig.Rewritten)
	rep, err := adjlist.Repair(ctx, c.db, c.table, res.Findings)
	require.NoError(t, err)
	assert.Equal(t, findingKeys(res.Findings[1:]), findingKeys(rep.Repaired))
	assert.Equal(t, findingKeys(res.Findings[:1]), findingKeys(rep.Gone))
	for _, k := range []adjlist.Key{{PK: "STU#s001", SK: "PROFILE"}, {PK: "CRS#c03", SK: "METADATA"}, {PK: "STU#s002", SK: "ENROLL#CRS#c02"}} {
		out, err := c.db.GetItem(ctx, getInput(c.table.Name(), k.PK, k.SK))
		require.NoError(t, err)
		assert.NotContains(t, out.Item, "GSI2PK", k)
		assert.NotContains(t, out.Item, "GSI2SK", k)
	}
	again, err := adjlist.Verify(ctx, c.db, c.table)
	require.NoError(t, err)
	assert.Empty(t, again.Findings)
	student, err := c.students.Get(ctx, "s001")
	require.NoError(t, err)
	assert.Equal(t, "s001", student.Name, "the data kept")

	g := newGaming(t)
	require.NoError(t, g.meta.Put(ctx, adjlist.IDs{"p1"}, playerMeta{Nickname: "John"}))
	raw := &verifySchool{db: g.db, table: g.table}
	raw.rawUpdate(t, "p1", "#METADATA#p1", "SET GSI1PK = :p", map[string]any{":p": "FLAGGED#yes"})
	res, err = adjlist.Verify(ctx, g.db, g.table)
	require.NoError(t, err)
	assert.Equal(t, []string{"index key extra|p1|#METADATA#p1|GSI1PK|FLAGGED#yes|"}, findingKeys(res.Findings))
	rep, err = adjlist.Repair(ctx, g.db, g.table, res.Findings)
	require.NoError(t, err)
	assert.Len(t, rep.Repaired, 1)
	again, err = adjlist.Verify(ctx, g.db, g.table)
	require.NoError(t, err)
	assert.Empty(t, again.Findings)
}

// author exposes its version field, as the README's optimistic locking
// shows.
type author struct {
	Name    string `dynamodbav:"name"`
	Posts   int    `dynamodbav:"posts"`
	Version int64  `dynamodbav:"version"`
}

// A version that is not a number, on a type whose data holds the version
// field, is a bad version and nothing else: Repair leaves it, even with
// DeleteUnknown. Data that does not decode besides is undecodable too, and
// only DeleteUndecodable deletes it; the children it leaves are then
// orphans.
func TestVerifyBadVersionOfExposedField(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newSchool(t)
	authors := adjlist.NewNode[author](s.table, "AUTH", "PROFILE", func(o *adjlist.NodeOptions) {
		o.Tracking = adjlist.Tracking{Version: "version"}
	})
	posts := adjlist.NewCollection[Ticket](authors, "POST")
	require.NoError(t, s.table.Check())
	require.NoError(t, authors.Put(ctx, "ada", author{Name: "Ada"}))
	require.NoError(t, authors.Put(ctx, "bob", author{Name: "Bob"}))
	require.NoError(t, posts.Put(ctx, "bob", "p1", Ticket{CreatedAt: "x"}))
	raw := &verifySchool{db: s.db, table: s.table}
	raw.rawUpdate(t, "AUTH#ada", "PROFILE", "SET version = :v", map[string]any{":v": "x"})
	raw.rawUpdate(t, "AUTH#bob", "PROFILE", "SET version = :v, posts = :n", map[string]any{":v": "y", ":n": "many"})

	res, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	require.Equal(t, []string{
		`bad version|AUTH#ada|PROFILE|version|S "x"|`,
		`bad version|AUTH#bob|PROFILE|version|S "y"|`,
		"undecodable|AUTH#bob|PROFILE||",
	}, findingKeysInOrder(res.Findings))

	rep, err := adjlist.Repair(ctx, s.db, s.table, res.Findings, func(o *adjlist.RepairOptions) {
		o.DeleteUnknown, o.DeleteDangling = true, true
	})
	require.NoError(t, err)
	assert.Empty(t, rep.Repaired)
	assert.Equal(t, findingKeys(res.Findings), findingKeys(rep.Left), "nothing deleted")
	again, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	assert.Equal(t, findingKeys(res.Findings), findingKeys(again.Findings))

	rep, err = adjlist.Repair(ctx, s.db, s.table, again.Findings, func(o *adjlist.RepairOptions) { o.DeleteUndecodable = true })
	require.NoError(t, err)
	assert.Equal(t, []string{"undecodable|AUTH#bob|PROFILE||"}, findingKeys(rep.Repaired))
	last, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	assert.Equal(t, []string{
		`bad version|AUTH#ada|PROFILE|version|S "x"|`,
		"orphan|AUTH#bob|POST#p1|AUTH#bob PROFILE",
	}, findingKeysInOrder(last.Findings), "bob's post is left, dangling")
}

// A count and an index key wrong on the same target take one Repair: the
// edge is indexed again before its edges are counted, and the next Verify
// finds nothing.
func TestRepairConvergesInOneRound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newVerifySchool(t)
	c.rawUpdate(t, "STU#s001", "ENROLL#CRS#c05", "REMOVE GSI1PK", nil)
	c.rawUpdate(t, "CRS#c05", "ENROLLED", "SET #c = :v", map[string]any{":v": 999})
	res, err := adjlist.Verify(ctx, c.db, c.table)
	require.NoError(t, err)
	require.Equal(t, []string{
		"counter mismatch|CRS#c05|ENROLLED|count|999|49", // as the index counts them
		"index key missing|STU#s001|ENROLL#CRS#c05|GSI1PK||CRS#c05",
	}, findingKeysInOrder(res.Findings))

	rep, err := adjlist.Repair(ctx, c.db, c.table, res.Findings)
	require.NoError(t, err)
	assert.Equal(t, findingKeys(res.Findings), findingKeys(rep.Repaired))
	n, err := c.counter.Get(ctx, "c05")
	require.NoError(t, err)
	assert.Equal(t, int64(50), n)
	again, err := adjlist.Verify(ctx, c.db, c.table)
	require.NoError(t, err)
	assert.Empty(t, again.Findings)
}

// When the index lags behind Repair's own rewrite of a counted edge,
// Repair waits until the index lists the edge before counting.
func TestRepairWaitsForTheIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var armed, rewritten atomic.Bool
	var lagging atomic.Int32 // GSI1 queries answered empty after the rewrite, as a lagging index would
	plan := func(op string, n int, body []byte) fault {
		switch {
		case !armed.Load():
		case op == "UpdateItem" && bytes.Contains(body, []byte(`"GSI1PK"`)):
			rewritten.Store(true)
		case op == "Query" && bytes.Contains(body, []byte(`"IndexName":"GSI1"`)) && rewritten.Load() && lagging.Load() < 2:
			lagging.Add(1)
			return fault{status: 200, body: `{"Count":0,"Items":[],"ScannedCount":0}`}
		}
		return fault{forward: true}
	}
	s, ft := faultySchool(t, plan, 0)
	counter := newEdgeCounter(s.enrolled, "ENROLLED")
	require.NoError(t, s.courses.Put(ctx, "math204", Course{Title: "Algebra"}))
	for _, stu := range []string{"a91", "b22", "c33"} {
		require.NoError(t, s.students.Put(ctx, stu, Student{Name: stu}))
		require.NoError(t, counter.Put(ctx, stu, "math204", Enrollment{}))
	}
	raw := &verifySchool{db: s.db, table: s.table}
	raw.rawUpdate(t, "STU#a91", "ENROLL#CRS#math204", "REMOVE GSI1PK", nil)
	raw.rawUpdate(t, "CRS#math204", "ENROLLED", "SET #c = :v", map[string]any{":v": 7})
	res, err := adjlist.Verify(ctx, s.calls, s.table)
	require.NoError(t, err)
	require.Equal(t, []string{
		"counter mismatch|CRS#math204|ENROLLED|count|7|2",
		"index key missing|STU#a91|ENROLL#CRS#math204|GSI1PK||CRS#math204",
	}, findingKeys(res.Findings))

	queries := ft.requests("Query")
	armed.Store(true)
	rep, err := adjlist.Repair(ctx, s.calls, s.table, res.Findings)
	require.NoError(t, err)
	assert.Len(t, rep.Repaired, 2)
	assert.Equal(t, int32(2), lagging.Load())
	assert.Equal(t, queries+2+1+1, ft.requests("Query"), "two lagging, one listing the edge, the count")
	n, err := counter.Get(ctx, "math204")
	require.NoError(t, err)
	assert.Equal(t, int64(3), n)
}

// Bad arguments are refused with ErrInvalidOption in an OpError, before
// any request: no panic, in the caller's goroutine or in Verify's own.
func TestVerifyAndRepairRefuseNilArguments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	calls := &countingClient{Client: noScanClient{}}
	table := adjlist.NewTable(calls, "t")
	adjlist.NewNode[Student](table, "STU", "PROFILE")
	var nilClient *dynamodb.Client
	findings := []adjlist.Finding{{Kind: adjlist.FindingCounterMismatch, Type: "counter X", Key: adjlist.Key{PK: "CRS#c", SK: "X"}}}
	noClient := adjlist.NewTable(nil, "t")
	adjlist.NewNode[Student](noClient, "STU", "PROFILE")
	for _, c := range []struct {
		name string
		op   string
		call func() error
	}{
		{"Verify nil client", "Verify", func() error { _, err := adjlist.Verify(ctx, nil, table); return err }},
		{"Verify typed nil client", "Verify", func() error { _, err := adjlist.Verify(ctx, nilClient, table); return err }},
		{"Verify nil table", "Verify", func() error { _, err := adjlist.Verify(ctx, calls, nil); return err }},
		{"Verify nil option", "Verify", func() error { _, err := adjlist.Verify(ctx, calls, table, nil); return err }},
		{"Repair nil client", "Repair", func() error { _, err := adjlist.Repair(ctx, nil, table, findings); return err }},
		{"Repair typed nil client", "Repair", func() error { _, err := adjlist.Repair(ctx, nilClient, table, findings); return err }},
		{"Repair nil table", "Repair", func() error { _, err := adjlist.Repair(ctx, calls, nil, findings); return err }},
		{"Repair nil option", "Repair", func() error { _, err := adjlist.Repair(ctx, calls, table, findings, nil); return err }},
		{"Repair counts without the table's client", "Repair", func() error { _, err := adjlist.Repair(ctx, calls, noClient, findings); return err }},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
			var oe *adjlist.OpError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, c.op, oe.Op)
		})
	}
	assert.Zero(t, calls.total()+calls.batchGets.Load())
}
