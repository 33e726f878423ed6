package adjlist_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// RELIABILITY.md, Errors: "Every error of a call that reads or writes the
// table is an *OpError naming the operation, table, index and keys, and
// unwraps to the cause". Every verb of README.md's "Item types and verbs"
// table, and the functions beside it, is called on a table that does not
// exist, and again with a cancelled context: each fails with DynamoDB's
// ResourceNotFoundException, or context.Canceled, inside an *OpError
// naming the call and the table, and a call about one item or
// partition names its keys too (a batch names none: BulkResult.Unwritten
// lists what a bulk write left).
func TestEveryCallsErrorIsAnOpError(t *testing.T) {
	t.Parallel()
	db := ddbtest.Client(t)
	name := "missing-" + ddbtest.TableName(t)
	table := adjlist.NewTable(db, name)
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	notes := adjlist.NewCollection[note](students, "NOTE")
	follows := adjlist.NewEntity[anyData](table, "follow", "u#{userID}#follow", "f#{followerID}")
	counter := adjlist.NewItemCounter(notes, "NOTES") // notes' writes are counted: TransactWriteItems
	memos := adjlist.NewCollection[note](students, "MEMO")
	ctx := context.Background()

	type call struct {
		op     string // the *OpError's Op
		pk, sk string // its keys, where the call is about one item ("?" : any non-empty)
		index  string
		run    func() error
	}
	first := func(_ any, err error) error { return err }
	calls := []call{
		{"Node.Put", "STU#a91", "PROFILE", "", func() error { return students.Put(ctx, "a91", Student{}) }},
		{"Node.Replace", "STU#a91", "PROFILE", "", func() error { return students.Replace(ctx, "a91", Student{}) }},
		{"Node.Update", "STU#a91", "PROFILE", "", func() error { return first(students.Update(ctx, "a91", adjlist.Set("year", 2))) }},
		{"Node.Delete", "STU#a91", "PROFILE", "", func() error { return students.Delete(ctx, "a91") }},
		{"Node.Get", "STU#a91", "PROFILE", "", func() error { return first(students.Get(ctx, "a91")) }},
		{"Node.GetMany", "", "", "", func() error { return first(students.GetMany(ctx, []string{"a91"})) }},
		{"Node.PutMany", "", "", "", func() error {
			return first(students.PutMany(ctx, []adjlist.NodeItem[Student]{{ID: "a91"}}))
		}},
		{"Node.DeleteMany", "", "", "", func() error { return first(students.DeleteMany(ctx, []string{"a91"})) }},

		{"Edge.Put", "STU#a91", "ENROLL#CRS#math204", "", func() error { return enrolled.Put(ctx, "a91", "math204", math204) }},
		// Put with CheckEnds and Move commit a Tx of their own: the error
		// names the call, not "Tx.Commit".
		{"Edge.Put", "STU#a91", "ENROLL#CRS#math204", "", func() error {
			return enrolled.Put(ctx, "a91", "math204", math204, func(o *adjlist.WriteOptions) { o.CheckEnds = true })
		}},
		{"Edge.Replace", "STU#a91", "ENROLL#CRS#math204", "", func() error { return enrolled.Replace(ctx, "a91", "math204", math204) }},
		{"Edge.Update", "STU#a91", "ENROLL#CRS#math204", "", func() error {
			return first(enrolled.Update(ctx, "a91", "math204", adjlist.Set("grade", "A")))
		}},
		{"Edge.Delete", "STU#a91", "ENROLL#CRS#math204", "", func() error { return enrolled.Delete(ctx, "a91", "math204") }},
		{"Edge.Move", "", "", "", func() error { return enrolled.Move(ctx, "a91", "math204", "a91", "cs101", math204) }},
		{"Edge.Get", "STU#a91", "ENROLL#CRS#math204", "", func() error { return first(enrolled.Get(ctx, "a91", "math204")) }},
		{"Edge.Hydrate", "", "", "", func() error {
			return first(enrolled.Hydrate(ctx, []adjlist.EdgeItem[Enrollment]{{From: "a91", To: "math204"}}))
		}},
		{"Edge.PutMany", "", "", "", func() error {
			return first(enrolled.PutMany(ctx, []adjlist.EdgeItem[Enrollment]{{From: "a91", To: "math204"}}))
		}},
		{"Edge.DeleteMany", "", "", "", func() error {
			return first(enrolled.DeleteMany(ctx, []adjlist.EdgeItem[Enrollment]{{From: "a91", To: "math204"}}))
		}},
		{"Edge.From", "STU#a91", "", "", func() error { return first(enrolled.From("a91").Collect(ctx)) }},
		{"Edge.From", "STU#a91", "", "", func() error { return first(enrolled.From("a91").Count(ctx)) }},
		{"Edge.From", "STU#a91", "", "", func() error { return first(enrolled.From("a91").Page(ctx, "")) }},
		{"Edge.From", "STU#a91", "", "", func() error {
			for _, err := range enrolled.From("a91").All(ctx) {
				return err
			}
			return nil
		}},
		{"Edge.To", "CRS#math204", "", "GSI1", func() error { return first(enrolled.To("math204").Collect(ctx)) }},
		{"Edge.WaitIndexed", "?", "", "GSI1", func() error { return enrolled.WaitIndexed(ctx, "a91", "math204", time.Second) }},

		{"Collection.Put", "STU#a91", "NOTE#n1", "", func() error { return notes.Put(ctx, "a91", "n1", note{}) }},
		{"Collection.Get", "STU#a91", "NOTE#n1", "", func() error { return first(notes.Get(ctx, "a91", "n1")) }},
		{"Collection.List", "STU#a91", "", "", func() error { return first(notes.List("a91").Collect(ctx)) }},
		{"Collection.Load", "STU#a91", "", "", func() error { return first(notes.Load(ctx, "a91")) }},
		{"Collection.GetMany", "", "", "", func() error {
			return first(notes.GetMany(ctx, []adjlist.Child[note]{{Parent: "a91", ID: "n1"}}))
		}},

		{"Entity.Put", "u#ada#follow", "f#bo", "", func() error { return follows.Put(ctx, adjlist.IDs{"ada", "bo"}, anyData{}) }},
		{"Entity.Get", "u#ada#follow", "f#bo", "", func() error { return first(follows.Get(ctx, adjlist.IDs{"ada", "bo"})) }},
		{"Entity.List", "u#ada#follow", "", "", func() error { return first(follows.List("ada").Collect(ctx)) }},
		{"Entity.Replace", "u#ada#follow", "f#bo", "", func() error { return follows.Replace(ctx, adjlist.IDs{"ada", "bo"}, anyData{}) }},
		{"Entity.Update", "u#ada#follow", "f#bo", "", func() error {
			return first(follows.Update(ctx, adjlist.IDs{"ada", "bo"}, adjlist.Set("name", "x")))
		}},
		{"Entity.Delete", "u#ada#follow", "f#bo", "", func() error { return follows.Delete(ctx, adjlist.IDs{"ada", "bo"}) }},
		{"Entity.GetMany", "", "", "", func() error { return first(follows.GetMany(ctx, []adjlist.IDs{{"ada", "bo"}})) }},
		{"Entity.PutMany", "", "", "", func() error {
			return first(follows.PutMany(ctx, []adjlist.EntityItem[anyData]{{IDs: adjlist.IDs{"ada", "bo"}}}))
		}},
		{"Entity.DeleteMany", "", "", "", func() error { return first(follows.DeleteMany(ctx, []adjlist.IDs{{"ada", "bo"}})) }},
		{"Collection.Replace", "STU#a91", "NOTE#n1", "", func() error { return notes.Replace(ctx, "a91", "n1", note{}) }},
		{"Collection.Update", "STU#a91", "NOTE#n1", "", func() error {
			return first(notes.Update(ctx, "a91", "n1", adjlist.Set("note", "x")))
		}},
		{"Collection.Delete", "STU#a91", "NOTE#n1", "", func() error { return notes.Delete(ctx, "a91", "n1") }},
		{"Collection.PutMany", "", "", "", func() error {
			return first(memos.PutMany(ctx, []adjlist.Child[note]{{Parent: "a91", ID: "n1"}}))
		}},
		{"Collection.DeleteMany", "", "", "", func() error {
			return first(memos.DeleteMany(ctx, []adjlist.Child[note]{{Parent: "a91", ID: "n1"}}))
		}},
		{"Load", "STU#a91", "", "", func() error {
			var out []adjlist.EdgeItem[Enrollment]
			return first(adjlist.Load(ctx, adjlist.AllTypes(enrolled.From("a91")), enrolled.Into(&out)))
		}},
		{"PageIndex", "STU#a91", "", "", func() error {
			var out []adjlist.EdgeItem[Enrollment]
			return first(adjlist.PageIndex(ctx, enrolled.From("a91"), "", enrolled.Into(&out)))
		}},
		{"PagePartition", "STU#a91", "", "", func() error {
			var out []adjlist.EdgeItem[Enrollment]
			return first(adjlist.PagePartition(ctx, students, "a91", "", 10, enrolled.Into(&out)))
		}},

		{"ItemCounter.Get", "STU#a91", "?", "", func() error { return first(counter.Get(ctx, adjlist.IDs{"a91"}, "")) }},
		{"ItemCounter.Apply", "", "", "", func() error {
			streamed := adjlist.NewItemCounter(enrolled, "ENROLLED", func(o *adjlist.CounterOptions) { o.Per, o.Stream = "to", true })
			return streamed.Apply(ctx, "100", "a91", "math204", true)
		}},
		{"Tx.Commit", "", "", "", func() error {
			tx := adjlist.NewTx(table)
			students.Put(ctx, "a91", Student{}, adjlist.InTx(tx))
			return tx.Commit(ctx)
		}},
		{"ReadTx.Run", "", "", "", func() error {
			rt := adjlist.NewReadTx(table)
			students.TxGet(rt, "a91")
			return rt.Run(ctx)
		}},
		{"LoadNode", "STU#a91", "", "", func() error { return first(adjlist.LoadNode(ctx, students, enrolled, "a91")) }},
		{"LoadPartition", "STU#a91", "", "", func() error {
			var out []adjlist.EdgeItem[Enrollment]
			return first(adjlist.LoadPartition(ctx, students, "a91", enrolled.Into(&out)))
		}},
		{"DeleteNode", "CRS#math204", "", "GSI1", func() error { return first(adjlist.DeleteNode(ctx, courses, "math204", enrolled)) }},
		{"DeleteChild", "STU#a91#NOTE#n1", "", "", func() error { return first(adjlist.DeleteChild(ctx, notes, "a91", "n1")) }},
		{"TwoHop", "", "", "", func() error {
			return first(adjlist.TwoHop(ctx, enrolled, adjlist.NewEdge[struct{}](students, "WANTS", courses), "a91", 5))
		}},
		{"Scan", "", "", "", func() error {
			return first(adjlist.Scan(ctx, db, students, func(context.Context, adjlist.NodeItem[Student]) error { return nil }))
		}},
		{"Verify", "", "", "", func() error { return first(adjlist.Verify(ctx, db, table)) }},
		{"Migrate", "", "", "", func() error { return first(adjlist.Migrate(ctx, db, students)) }},
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, cause := range []struct {
		name string
		ctx  context.Context
		is   func(t *testing.T, err error)
	}{
		{"missing table", context.Background(), func(t *testing.T, err error) {
			var rnf *types.ResourceNotFoundException
			assert.ErrorAs(t, err, &rnf, "unwraps to the cause: %v", err)
		}},
		{"cancelled context", cancelled, func(t *testing.T, err error) {
			assert.ErrorIs(t, err, context.Canceled, "unwraps to the cause: %v", err)
		}},
	} {
		ctx = cause.ctx // the calls' context
		for i, c := range calls {
			t.Run(fmt.Sprintf("%s %02d %s", cause.name, i, c.op), func(t *testing.T) {
				err := c.run()
				require.Error(t, err)
				var oe *adjlist.OpError
				require.ErrorAs(t, err, &oe, "%v", err)
				assert.Equal(t, c.op, oe.Op)
				assert.Equal(t, name, oe.Table)
				assert.Equal(t, c.index, oe.Index)
				for _, k := range []struct{ want, got, name string }{{c.pk, oe.PK, "PK"}, {c.sk, oe.SK, "SK"}} {
					switch k.want {
					case "?":
						assert.NotEmpty(t, k.got, k.name)
					case "":
					default:
						assert.Equal(t, k.want, k.got, k.name)
					}
				}
				cause.is(t, err)
				assert.True(t, errors.Unwrap(oe) != nil)
			})
		}
	}
}

// The calls that commit a transaction of their own name themselves in
// their errors, whatever the error: a cancellation (Move of a missing edge,
// Put with CheckEnds of a missing end) and a refusal before any request
// (Move onto itself, ErrTxLimit), as a counted write does.
func TestOwnTransactionErrorsNameTheCall(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ada"}))
	require.NoError(t, s.enrolled.Put(ctx, "a91", "cs101", math204))
	checkEnds := func(o *adjlist.WriteOptions) { o.CheckEnds = true }
	for _, c := range []struct {
		name   string
		op     string
		pk, sk string
		want   error
		run    func() error
	}{
		{"Move of a missing edge", "Edge.Move", "", "", adjlist.ErrNotFound, func() error {
			return s.enrolled.Move(ctx, "a91", "math204", "a91", "art1", math204)
		}},
		{"Move onto itself", "Edge.Move", "", "", adjlist.ErrTxLimit, func() error {
			return s.enrolled.Move(ctx, "a91", "cs101", "a91", "cs101", math204)
		}},
		{"Put with CheckEnds of a missing end", "Edge.Put", "STU#a91", "ENROLL#CRS#math204", adjlist.ErrNotFound, func() error {
			return s.enrolled.Put(ctx, "a91", "math204", math204, checkEnds)
		}},
	} {
		err := c.run()
		require.ErrorIs(t, err, c.want, c.name)
		var oe *adjlist.OpError
		require.ErrorAs(t, err, &oe, c.name)
		assert.Equal(t, c.op, oe.Op, c.name)
		assert.Equal(t, s.table.Name(), oe.Table, c.name)
		assert.Equal(t, c.pk, oe.PK, c.name)
		assert.Equal(t, c.sk, oe.SK, c.name)
	}
	var nnf *adjlist.NodeNotFoundError
	require.ErrorAs(t, s.enrolled.Put(ctx, "a91", "math204", math204, checkEnds), &nnf)
	assert.Equal(t, "to", nnf.Side, "the missing end")
}

// RELIABILITY.md, Faults: "Context cancelled during backoff → returns
// promptly, no further attempt (SDK retryer, batch resends)", and what a
// bulk write could not write "is returned (ErrUnprocessed,
// BulkResult.Unwritten), never dropped". A bulk write whose unprocessed
// items wait out Options.BatchBackoff, and a Commit retrying a conflict
// after it, return the context's error as soon as it is cancelled, with no
// further request; the bulk write lists every item it did not write, the
// chunk never sent included.
func TestCancelDuringBatchAndConflictBackoff(t *testing.T) {
	t.Parallel()
	// cancelInBackoff is a backoff of an hour whose start cancels the
	// call's context: the wait it begins is the one cancelled.
	cancelInBackoff := func() (context.Context, retry.BackoffDelayer, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		return ctx, retry.BackoffDelayerFunc(func(int, error) (time.Duration, error) {
			cancel()
			return time.Hour, nil
		}), cancel
	}

	t.Run("PutMany", func(t *testing.T) {
		t.Parallel()
		base, ft := faultySchool(t, nil, 0) // ft counts the requests sent
		w := &stingyWriter{Client: base.calls, stingy: -1, keep: 1}
		ctx, backoff, cancel := cancelInBackoff()
		defer cancel()
		table := adjlist.NewTable(w, base.table.Name(), func(o *adjlist.Options) { o.BatchBackoff = backoff })
		enrolled := adjlist.NewEdge[Enrollment](adjlist.NewNode[Student](table, "STU", "PROFILE"), "ENROLL", adjlist.NewNode[Course](table, "CRS", "METADATA"))
		start := time.Now()
		edges := roster(30, "A") // two chunks: 25 and 5
		res, err := enrolled.PutMany(ctx, edges, func(o *adjlist.BulkOptions) { o.Workers = 1 })
		require.ErrorIs(t, err, context.Canceled)
		assert.Less(t, time.Since(start), time.Minute, "returned without waiting out the backoff")
		assert.Equal(t, 1, ft.requests("BatchWriteItem"), "no request after the cancel")
		assert.Equal(t, 1, res.Written)
		require.Len(t, res.Unwritten, 29, "every item not written is listed")
		listed := map[adjlist.Key]bool{}
		for _, k := range res.Unwritten {
			listed[k] = true
		}
		for i, e := range edges {
			pk, sk, err := enrolled.Key(e.From, e.To)
			require.NoError(t, err)
			_, gerr := base.enrolled.Get(context.Background(), e.From, e.To, adjlist.Consistent)
			if i == 0 {
				require.NoError(t, gerr, "the one item written")
				assert.False(t, listed[adjlist.Key{PK: pk, SK: sk}])
				continue
			}
			require.ErrorIs(t, gerr, adjlist.ErrNotFound, "%s: listed as unwritten and not written", e.From)
			assert.True(t, listed[adjlist.Key{PK: pk, SK: sk}], "%s listed", e.From)
		}
	})

	t.Run("Tx.Commit ConflictRetries", func(t *testing.T) {
		t.Parallel()
		base := newSchool(t)
		tc := &txCounter{Client: base.calls, conflicts: 1 << 30}
		ctx, backoff, cancel := cancelInBackoff()
		defer cancel()
		table := adjlist.NewTable(tc, base.table.Name(), func(o *adjlist.Options) { o.BatchBackoff = backoff })
		students := adjlist.NewNode[Student](table, "STU", "PROFILE")
		tx := adjlist.NewTx(table)
		students.Put(ctx, "a91", Student{Name: "Ada"}, adjlist.InTx(tx))
		start := time.Now()
		err := tx.Commit(ctx, func(o *adjlist.TxOptions) { o.ConflictRetries = 3 })
		require.ErrorIs(t, err, context.Canceled)
		assert.Less(t, time.Since(start), time.Minute, "returned without waiting out the backoff")
		assert.Equal(t, int64(1), tc.calls.Load(), "no attempt after the cancel")
		_, err = base.students.Get(context.Background(), "a91")
		require.ErrorIs(t, err, adjlist.ErrNotFound, "nothing written")
	})
}

// ErrOutcomeUnknown: "When it does not hold, nothing was written"; and
// BulkResult.Unwritten lists what a bulk write left. A bulk write whose
// BatchWriteItem was applied and its answer lost, then throttled on every
// retry, has written its items: its error matches ErrOutcomeUnknown beside
// the throttling, and Unwritten lists the items, which writing again
// (puts overwrite, deletes of missing items succeed) makes certain. A
// bulk write throttled on every attempt wrote nothing and is not
// ErrOutcomeUnknown.
func TestBulkWriteOutcomeUnknown(t *testing.T) {
	t.Parallel()
	s, ft, sc := outcomeSchool(t)
	ctx := context.Background()
	edges := roster(2, "A")

	sc.arm("BatchWriteItem", appliedThen500, throttled, throttled)
	res, err := s.enrolled.PutMany(ctx, edges)
	require.ErrorIs(t, err, adjlist.ErrOutcomeUnknown, "the first attempt may have been applied")
	var te *adjlist.ThrottlingError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, 3, ft.requests("BatchWriteItem"))
	assert.Len(t, res.Unwritten, 2, "not known to be written: write them again")
	for _, e := range edges {
		_, gerr := s.enrolled.Get(ctx, e.From, e.To, adjlist.Consistent)
		require.NoError(t, gerr, "the first attempt was applied")
	}

	sc.arm("BatchWriteItem", throttled, throttled, throttled)
	res, err = s.enrolled.DeleteMany(ctx, edges)
	require.ErrorAs(t, err, &te)
	assert.NotErrorIs(t, err, adjlist.ErrOutcomeUnknown, "every attempt was refused")
	assert.Len(t, res.Unwritten, 2)
	for _, e := range edges {
		_, gerr := s.enrolled.Get(ctx, e.From, e.To, adjlist.Consistent)
		require.NoError(t, gerr, "nothing deleted")
	}

	sc.arm("BatchWriteItem", appliedThenReset, throttled, throttled)
	_, err = s.enrolled.DeleteMany(ctx, edges)
	require.ErrorIs(t, err, adjlist.ErrOutcomeUnknown)
	for _, e := range edges {
		_, gerr := s.enrolled.Get(ctx, e.From, e.To, adjlist.Consistent)
		require.ErrorIs(t, gerr, adjlist.ErrNotFound, "the first attempt was applied")
	}
}

// README.md, "Item types and verbs": "Replace, Update and Delete take
// IfVersion (with Tracking.Version; a create refuses it), and puts and
// updates take Expires (with Tracking.Expiry)". On every handle kind: a
// create given IfVersion (alone and in a Tx), IfVersion on a handle
// without Tracking.Version, Expires on a handle without Tracking.Expiry,
// and Expires on a delete are ErrInvalidOption before any request; with
// both declared, a put and an update take Expires and Replace, Update and
// Delete take IfVersion.
func TestVerbsTakeIfVersionAndExpiresAsDocumented(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	tracked := adjlist.Tracking{Version: "version", Expiry: "ttl"}
	at := adjlist.Expires(time.Now().Add(time.Hour))

	// verbs are one handle kind's single-item writes of the item "a".
	type verbs struct {
		put, repl, del func(...func(*adjlist.WriteOptions)) error
		update         func(...func(*adjlist.WriteOptions)) error
	}
	set := adjlist.Set("name", "B")
	nodes := func(tr adjlist.Tracking) verbs {
		h := adjlist.NewNode[anyData](s.table, "N"+tr.Version, "META", func(o *adjlist.NodeOptions) { o.Tracking = tr })
		return verbs{
			func(o ...func(*adjlist.WriteOptions)) error { return h.Put(ctx, "a", anyData{Name: "A"}, o...) },
			func(o ...func(*adjlist.WriteOptions)) error { return h.Replace(ctx, "a", anyData{Name: "A"}, o...) },
			func(o ...func(*adjlist.WriteOptions)) error { return h.Delete(ctx, "a", o...) },
			func(o ...func(*adjlist.WriteOptions)) error { _, err := h.Update(ctx, "a", set, o...); return err },
		}
	}
	edges := func(tr adjlist.Tracking) verbs {
		h := adjlist.NewEdge[anyData](s.students, "E"+tr.Version, s.courses, func(o *adjlist.EdgeOptions) { o.Tracking = tr })
		return verbs{
			func(o ...func(*adjlist.WriteOptions)) error { return h.Put(ctx, "a", "b", anyData{Name: "A"}, o...) },
			func(o ...func(*adjlist.WriteOptions)) error {
				return h.Replace(ctx, "a", "b", anyData{Name: "A"}, o...)
			},
			func(o ...func(*adjlist.WriteOptions)) error { return h.Delete(ctx, "a", "b", o...) },
			func(o ...func(*adjlist.WriteOptions)) error { _, err := h.Update(ctx, "a", "b", set, o...); return err },
		}
	}
	children := func(tr adjlist.Tracking) verbs {
		h := adjlist.NewCollection[anyData](s.students, "C"+tr.Version, func(o *adjlist.CollectionOptions) { o.Tracking = tr })
		return verbs{
			func(o ...func(*adjlist.WriteOptions)) error { return h.Put(ctx, "p", "a", anyData{Name: "A"}, o...) },
			func(o ...func(*adjlist.WriteOptions)) error {
				return h.Replace(ctx, "p", "a", anyData{Name: "A"}, o...)
			},
			func(o ...func(*adjlist.WriteOptions)) error { return h.Delete(ctx, "p", "a", o...) },
			func(o ...func(*adjlist.WriteOptions)) error { _, err := h.Update(ctx, "p", "a", set, o...); return err },
		}
	}
	entities := func(tr adjlist.Tracking) verbs {
		h := adjlist.NewEntity[anyData](s.table, "ent"+tr.Version, "T"+tr.Version+"#{id}", "T", func(o *adjlist.EntityOptions) { o.Tracking = tr })
		return verbs{
			func(o ...func(*adjlist.WriteOptions)) error {
				return h.Put(ctx, adjlist.IDs{"a"}, anyData{Name: "A"}, o...)
			},
			func(o ...func(*adjlist.WriteOptions)) error {
				return h.Replace(ctx, adjlist.IDs{"a"}, anyData{Name: "A"}, o...)
			},
			func(o ...func(*adjlist.WriteOptions)) error { return h.Delete(ctx, adjlist.IDs{"a"}, o...) },
			func(o ...func(*adjlist.WriteOptions)) error {
				_, err := h.Update(ctx, adjlist.IDs{"a"}, set, o...)
				return err
			},
		}
	}
	for _, kind := range []struct {
		name string
		of   func(adjlist.Tracking) verbs
	}{{"Node", nodes}, {"Edge", edges}, {"Collection", children}, {"Entity", entities}} {
		plain, locked := kind.of(adjlist.Tracking{}), kind.of(tracked)
		refused := []struct {
			name string
			run  func() error
		}{
			{"a create given IfVersion", func() error { return locked.put(adjlist.IfVersion(1)) }},
			{"a create given IfVersion in a Tx", func() error {
				tx := adjlist.NewTx(s.table)
				locked.put(adjlist.IfVersion(1), adjlist.InTx(tx))
				return tx.Commit(ctx)
			}},
			{"Replace given IfVersion without Tracking.Version", func() error { return plain.repl(adjlist.IfVersion(1)) }},
			{"Update given IfVersion without Tracking.Version", func() error { return plain.update(adjlist.IfVersion(1)) }},
			{"Delete given IfVersion without Tracking.Version", func() error { return plain.del(adjlist.IfVersion(1)) }},
			{"Put given Expires without Tracking.Expiry", func() error { return plain.put(at) }},
			{"Update given Expires without Tracking.Expiry", func() error { return plain.update(at) }},
			{"Delete given Expires", func() error { return locked.del(at, adjlist.IfVersion(1)) }},
		}
		for _, r := range refused {
			before := s.calls.total()
			require.ErrorIs(t, r.run(), adjlist.ErrInvalidOption, "%s: %s", kind.name, r.name)
			assert.Equal(t, before, s.calls.total(), "%s: %s: before any request", kind.name, r.name)
		}
		require.NoError(t, locked.put(at), kind.name)
		require.NoError(t, locked.update(adjlist.IfVersion(1), at), kind.name)
		require.NoError(t, locked.repl(adjlist.IfVersion(2), at), kind.name)
		require.NoError(t, locked.del(adjlist.IfVersion(3)), kind.name)
	}
}

// RELIABILITY.md, Faults: "Unprocessed keys and items are resent with the
// SDK's exponential jitter backoff until none remain or BatchMaxAttempts
// is reached"; Options: BatchBackoff defaults to the SDK's
// retry.NewExponentialJitterBackoff(20 * time.Second), BatchMaxAttempts
// to 10.
func TestBatchResendDefaults(t *testing.T) {
	t.Parallel()
	o := adjlist.NewTable(ddbtest.Client(t), "t").Options()
	assert.Equal(t, 10, o.BatchMaxAttempts)
	b, ok := o.BatchBackoff.(*retry.ExponentialJitterBackoff)
	require.True(t, ok, "the SDK's exponential jitter backoff, not %T", o.BatchBackoff)
	var longest time.Duration
	for range 200 {
		d, err := b.BackoffDelay(10, nil)
		require.NoError(t, err)
		require.LessOrEqual(t, d, 20*time.Second, "at most 20 s")
		longest = max(longest, d)
	}
	assert.Greater(t, longest, 15*time.Second, "up to 20 s, jittered")
	d, err := b.BackoffDelay(1, nil)
	require.NoError(t, err)
	assert.LessOrEqual(t, d, 2*time.Second, "exponential: the first wait is short")
}

// RELIABILITY.md, Global tables, ReplicatedWriteConflictException: adjlist
// maps it to no sentinel: it comes inside an *OpError, errors.As reaches
// *types.ReplicatedWriteConflictException, it is not a failed condition,
// and the SDK's standard retryer does not retry it. With the code added to
// the retryer (retry.AddWithErrorCodes) the call is retried: it succeeds,
// and a guarded create whose retry finds an identical item another writer
// stored meanwhile reports ErrExists (a 4xx is a request DynamoDB did not
// apply).
func TestReplicatedWriteConflictIsNoSentinel(t *testing.T) {
	t.Parallel()
	conflict := fault{status: 400, body: ddbError("ReplicatedWriteConflictException", "injected")}
	s, ft, sc := outcomeSchool(t)
	ctx := context.Background()

	sc.arm("PutItem", conflict)
	err := s.enrolled.Put(ctx, "a91", "math204", math204)
	var oe *adjlist.OpError
	require.ErrorAs(t, err, &oe)
	assert.Equal(t, "Edge.Put", oe.Op)
	var rwc *types.ReplicatedWriteConflictException
	require.ErrorAs(t, err, &rwc)
	for _, sentinel := range []error{adjlist.ErrExists, adjlist.ErrConditionFailed, adjlist.ErrOutcomeUnknown, adjlist.ErrTxConflict} {
		assert.NotErrorIs(t, err, sentinel)
	}
	assert.False(t, conditionFailed(err), "not a failed condition")
	assert.Equal(t, 1, ft.requests("PutItem"), "the standard retryer does not retry it")
	_, err = s.enrolled.Get(ctx, "a91", "math204")
	require.ErrorIs(t, err, adjlist.ErrNotFound, "nothing written")

	// The code added to the caller's retryer.
	db := dynamodb.New(ddbtest.Client(t).Options(), func(o *dynamodb.Options) {
		o.HTTPClient = &http.Client{Transport: ft}
		o.Retryer = retry.AddWithErrorCodes(retry.NewStandard(func(so *retry.StandardOptions) {
			so.MaxAttempts = 3
			so.RateLimiter = ratelimit.None
			so.Backoff = retry.BackoffDelayerFunc(func(int, error) (time.Duration, error) { return 0, nil })
		}), "ReplicatedWriteConflictException")
	})
	table := adjlist.NewTable(db, s.table.Name())
	enrolled := adjlist.NewEdge[Enrollment](adjlist.NewNode[Student](table, "STU", "PROFILE"), "ENROLL", adjlist.NewNode[Course](table, "CRS", "METADATA"))
	before := ft.requests("PutItem")
	sc.arm("PutItem", conflict)
	require.NoError(t, enrolled.Put(ctx, "a91", "math204", math204), "retried, then applied")
	assert.Equal(t, 2, ft.requests("PutItem")-before)

	// Another writer stores the identical item while the call's attempt
	// is refused: the retry's guard fails, and a refused attempt wrote
	// nothing, so it is not the call's own item.
	ft.plan = func(op string, n int, body []byte) fault {
		f := sc.plan(op, n, body)
		if f == conflict {
			require.NoError(t, s.enrolled.Put(ctx, "b30", "math204", math204))
		}
		return f
	}
	sc.arm("PutItem", conflict)
	require.ErrorIs(t, enrolled.Put(ctx, "b30", "math204", math204), adjlist.ErrExists)
}

// RELIABILITY.md, Faults: a WriteOptions.Token on "a write that reads the
// item first to keep an ItemCounter" (Replace, and with GroupBy a Delete
// or an Update of the attribute) is ErrInvalidOption before any request.
func TestTokenRefusedOnWritesThatReadFirst(t *testing.T) {
	t.Parallel()
	db := ddbtest.Client(t)
	calls := &countingClient{Client: db}
	tr := declareTracker(t, db, adjlist.NewTable(calls, "never-created"))
	ctx := context.Background()
	tok := withToken("t1")
	for name, write := range map[string]func() error{
		"Replace": func() error { return tr.issues.Replace(ctx, "p1", "i1", trackerIssue{Status: "open"}, tok) },
		"Delete":  func() error { return tr.issues.Delete(ctx, "p1", "i1", tok) },
		"Update of the GroupBy attribute": func() error {
			_, err := tr.issues.Update(ctx, "p1", "i1", adjlist.Set("status", "closed"), tok)
			return err
		},
		"Update removing the GroupBy attribute": func() error {
			_, err := tr.issues.Update(ctx, "p1", "i1", adjlist.Remove("status"), tok)
			return err
		},
	} {
		require.ErrorIs(t, write(), adjlist.ErrInvalidOption, name)
	}
	assert.Zero(t, calls.total(), "before any request")
}
