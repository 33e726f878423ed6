package adjlist_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// script injects faults into the next requests of one DynamoDB
// operation, in order; every other request is forwarded untouched.
type script struct {
	mu   sync.Mutex
	op   string
	next []fault
}

// arm makes the next len(faults) requests of op meet faults.
func (s *script) arm(op string, faults ...fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.op, s.next = op, faults
}

func (s *script) plan(op string, _ int, _ []byte) fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	if op == s.op && len(s.next) > 0 {
		f := s.next[0]
		s.next = s.next[1:]
		return f
	}
	return fault{forward: true}
}

// The faults of one attempt: applied by DynamoDB Local and its answer
// lost, or lost before DynamoDB saw it; either way the client cannot
// know. Throttled is a definite answer: not applied.
var (
	appliedThen500   = fault{forward: true, status: 500, body: ddbError("InternalServerError", "lost")}
	appliedThenReset = fault{forward: true, reset: true}
	lostBefore500    = fault{status: 500, body: ddbError("InternalServerError", "lost before DynamoDB")}
	lostBeforeReset  = fault{reset: true}
	throttled        = fault{status: 400, body: ddbError("ThrottlingException", "injected")}
)

// unknownFaults are the attempts whose outcome the client cannot know:
// applied or not.
var unknownFaults = []struct {
	name    string
	f       fault
	applied bool // DynamoDB applied the attempt
}{
	{"applied, then a 500", appliedThen500, true},
	{"applied, then the connection reset", appliedThenReset, true},
	{"a 500 before DynamoDB", lostBefore500, false},
	{"a reset before DynamoDB", lostBeforeReset, false},
}

func outcomeSchool(t *testing.T) (*school, *faultTransport, *script) {
	sc := new(script)
	s, ft := faultySchool(t, sc.plan, 0)
	return s, ft, sc
}

// A delete whose attempt was applied and its answer lost finds no item on
// the SDK's retry: its own delete, reported as success, not ErrNotFound;
// locked and unlocked, on every handle. A delete of an item that was
// never there, whose attempts all got answers, is still ErrNotFound.
func TestDeleteRecognisesItsOwnDelete(t *testing.T) {
	t.Parallel()
	type handleDelete struct {
		name string
		put  func(ctx context.Context, s *school) error
		del  func(ctx context.Context, s *school) error
		get  func(ctx context.Context, s *school) error
	}
	authors := func(s *school) *adjlist.Node[Author] {
		return adjlist.NewNode[Author](s.table, "AUTHOR", "PROFILE", func(o *adjlist.NodeOptions) { o.Version = "version" })
	}
	notes := func(s *school) *adjlist.Collection[note, Student] {
		return adjlist.NewCollection[note](s.students, "NOTE")
	}
	follows := func(s *school) *adjlist.Entity[anyData] {
		return adjlist.NewEntity[anyData](s.table, "follow", "u#{userID}#follow", "f#{followerID}")
	}
	handles := []handleDelete{
		{"node", func(ctx context.Context, s *school) error { return s.students.Put(ctx, "a91", Student{Name: "Ada"}) },
			func(ctx context.Context, s *school) error { return s.students.Delete(ctx, "a91") },
			func(ctx context.Context, s *school) error { _, err := s.students.Get(ctx, "a91"); return err }},
		{"locked node", func(ctx context.Context, s *school) error { return authors(s).Put(ctx, "ada", Author{Name: "Ada"}) },
			func(ctx context.Context, s *school) error { return authors(s).Delete(ctx, "ada", adjlist.IfVersion(1)) },
			func(ctx context.Context, s *school) error { _, err := authors(s).Get(ctx, "ada"); return err }},
		{"edge", func(ctx context.Context, s *school) error { return s.enrolled.Put(ctx, "a91", "math204", math204) },
			func(ctx context.Context, s *school) error { return s.enrolled.Delete(ctx, "a91", "math204") },
			func(ctx context.Context, s *school) error {
				_, err := s.enrolled.Get(ctx, "a91", "math204")
				return err
			}},
		{"child", func(ctx context.Context, s *school) error { return notes(s).Put(ctx, "a91", "n1", note{Note: "x"}) },
			func(ctx context.Context, s *school) error { return notes(s).Delete(ctx, "a91", "n1") },
			func(ctx context.Context, s *school) error { _, err := notes(s).Get(ctx, "a91", "n1"); return err }},
		{"entity", func(ctx context.Context, s *school) error {
			return follows(s).Put(ctx, adjlist.IDs{"u1", "u2"}, anyData{Name: "x"})
		},
			func(ctx context.Context, s *school) error { return follows(s).Delete(ctx, adjlist.IDs{"u1", "u2"}) },
			func(ctx context.Context, s *school) error {
				_, err := follows(s).Get(ctx, adjlist.IDs{"u1", "u2"})
				return err
			}},
	}
	for _, uf := range unknownFaults {
		t.Run(uf.name, func(t *testing.T) {
			t.Parallel()
			s, ft, sc := outcomeSchool(t)
			ctx := context.Background()
			for _, h := range handles {
				require.NoError(t, h.put(ctx, s), h.name)
				before := ft.requests("DeleteItem")
				sc.arm("DeleteItem", uf.f)
				require.NoError(t, h.del(ctx, s), "%s: the call's own delete", h.name)
				assert.Equal(t, 2, ft.requests("DeleteItem")-before, "%s: the attempt and the SDK's retry", h.name)
				require.ErrorIs(t, h.get(ctx, s), adjlist.ErrNotFound, "%s: deleted", h.name)
			}
		})
	}
	t.Run("never there, every attempt answered", func(t *testing.T) {
		t.Parallel()
		s, _, sc := outcomeSchool(t)
		ctx := context.Background()
		for _, h := range handles {
			sc.arm("DeleteItem", throttled)
			err := h.del(ctx, s)
			require.ErrorIs(t, err, adjlist.ErrNotFound, h.name)
			assert.NotErrorIs(t, err, adjlist.ErrOutcomeUnknown, "%s: a throttled attempt wrote nothing", h.name)
		}
	})
}

// A locked update whose attempt was applied and its answer lost fails its
// version check on the SDK's retry; the stored item holds the version it
// writes and every value it sets, so it is the call's own write: success,
// with the item as stored. Where the stored item cannot show it (another
// writer's version, an ADD) the error is ErrVersionConflict and
// ErrOutcomeUnknown.
func TestLockedUpdateRecognisesItsOwnWrite(t *testing.T) {
	t.Parallel()
	authorsOf := func(s *school) *adjlist.Node[Author] {
		return adjlist.NewNode[Author](s.table, "AUTHOR", "PROFILE", func(o *adjlist.NodeOptions) { o.Version = "version" })
	}
	for _, uf := range unknownFaults {
		t.Run(uf.name, func(t *testing.T) {
			t.Parallel()
			s, ft, sc := outcomeSchool(t)
			authors := authorsOf(s)
			ctx := context.Background()
			require.NoError(t, authors.Put(ctx, "ada", Author{Name: "Ada"}))
			sc.arm("UpdateItem", uf.f)
			got, err := authors.Update(ctx, "ada", adjlist.Set("posts", 1).Remove("status"), adjlist.IfVersion(1))
			require.NoError(t, err)
			assert.Equal(t, Author{Name: "Ada", Posts: 1, Version: 2}, got, "the item as stored")
			assert.Equal(t, 2, ft.requests("UpdateItem"))

			// An ADD leaves no value to compare: the outcome stays unknown
			// when the retry's version check fails.
			sc.arm("UpdateItem", uf.f)
			got, err = authors.Update(ctx, "ada", adjlist.Update{}.Add("posts", 1), adjlist.IfVersion(2))
			if uf.applied {
				require.ErrorIs(t, err, adjlist.ErrVersionConflict)
				require.ErrorIs(t, err, adjlist.ErrOutcomeUnknown)
			} else {
				require.NoError(t, err, "the retry applied it")
			}
			stored, gerr := authors.Get(ctx, "ada")
			require.NoError(t, gerr)
			assert.Equal(t, Author{Name: "Ada", Posts: 2, Version: 3}, stored, "applied once")
			_ = got
		})
	}
	t.Run("another writer's version", func(t *testing.T) {
		t.Parallel()
		var s *school
		sc := new(script)
		s, _ = faultySchool(t, func(op string, n int, body []byte) fault {
			f := sc.plan(op, n, body)
			if f == lostBefore500 {
				// Another writer moves the item to version 2 while the
				// call's attempt is lost.
				_, err := adjlist.NewNode[Author](adjlist.NewTable(s.db, s.table.Name()), "AUTHOR", "PROFILE", func(o *adjlist.NodeOptions) { o.Version = "version" }).
					Update(context.Background(), "ada", adjlist.Set("posts", 7), adjlist.IfVersion(1))
				require.NoError(t, err)
			}
			return f
		}, 0)
		authors := authorsOf(s)
		ctx := context.Background()
		require.NoError(t, authors.Put(ctx, "ada", Author{Name: "Ada"}))
		sc.arm("UpdateItem", lostBefore500)
		_, err := authors.Update(ctx, "ada", adjlist.Set("posts", 1), adjlist.IfVersion(1))
		require.ErrorIs(t, err, adjlist.ErrVersionConflict)
		require.ErrorIs(t, err, adjlist.ErrOutcomeUnknown)
		stored, err := authors.Get(ctx, "ada")
		require.NoError(t, err)
		assert.Equal(t, Author{Name: "Ada", Posts: 7, Version: 2}, stored)
	})
}

// An update that is not idempotent (ADD, a SET computed from the item) on
// a handle without a version is never re-sent after an attempt whose
// outcome is unknown: it fails with ErrOutcomeUnknown after one request,
// applied at most once. A throttled attempt (a 4xx) is retried: DynamoDB
// applied nothing. An idempotent update (SET of values) is re-sent.
func TestUpdateNotResentWhenNotIdempotent(t *testing.T) {
	t.Parallel()
	plusOne := adjlist.Update{}.SetTo("year", expression.Name("year").Plus(expression.Value(1)))
	for _, tc := range []struct {
		name   string
		update adjlist.Update
	}{
		{"ADD", adjlist.Update{}.Add("year", 1)},
		{"SET computed from the item", plusOne},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, ft, sc := outcomeSchool(t)
			ctx := context.Background()
			require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ada"}))
			want := 0
			for _, uf := range unknownFaults {
				before := ft.requests("UpdateItem")
				sc.arm("UpdateItem", uf.f)
				_, err := s.students.Update(ctx, "a91", tc.update)
				require.ErrorIs(t, err, adjlist.ErrOutcomeUnknown, uf.name)
				assert.Equal(t, 1, ft.requests("UpdateItem")-before, "%s: not re-sent", uf.name)
				if uf.applied {
					want++
				}
				got, err := s.students.Get(ctx, "a91")
				require.NoError(t, err)
				assert.Equal(t, want, got.Year, "%s: applied at most once", uf.name)
			}

			before := ft.requests("UpdateItem")
			sc.arm("UpdateItem", throttled)
			got, err := s.students.Update(ctx, "a91", tc.update)
			require.NoError(t, err, "a throttled attempt is retried")
			assert.Equal(t, 2, ft.requests("UpdateItem")-before)
			assert.Equal(t, want+1, got.Year)
		})
	}
	t.Run("SET of values is re-sent", func(t *testing.T) {
		t.Parallel()
		s, ft, sc := outcomeSchool(t)
		ctx := context.Background()
		require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ada"}))
		sc.arm("UpdateItem", appliedThen500)
		got, err := s.students.Update(ctx, "a91", adjlist.Set("year", 2))
		require.NoError(t, err)
		assert.Equal(t, 2, got.Year)
		assert.Equal(t, 2, ft.requests("UpdateItem"))
	})
}

// A write that was applied, lost its answer, and whose retries DynamoDB
// then throttled fails with both ErrOutcomeUnknown (the first attempt) and
// a *ThrottlingError (the last); one whose every attempt was throttled is
// not ErrOutcomeUnknown.
func TestThrottledAfterAppliedAttempt(t *testing.T) {
	t.Parallel()
	s, ft, sc := outcomeSchool(t)
	ctx := context.Background()
	require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ada"}))

	sc.arm("UpdateItem", appliedThen500, throttled, throttled)
	_, err := s.students.Update(ctx, "a91", adjlist.Set("major", "math"))
	require.ErrorIs(t, err, adjlist.ErrOutcomeUnknown)
	var te *adjlist.ThrottlingError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, "ThrottlingException", te.Reason)
	assert.Equal(t, 3, ft.requests("UpdateItem"))
	got, err := s.students.Get(ctx, "a91")
	require.NoError(t, err)
	assert.Equal(t, "math", got.Major, "the first attempt was applied")

	sc.arm("PutItem", throttled, throttled, throttled)
	err = s.students.Put(ctx, "b30", Student{Name: "Bo"})
	require.ErrorAs(t, err, &te)
	assert.NotErrorIs(t, err, adjlist.ErrOutcomeUnknown, "every attempt was refused")
	require.ErrorIs(t, s.students.Delete(ctx, "b30"), adjlist.ErrNotFound, "nothing written")
}

// A write given WriteOptions.Token is one TransactWriteItems with that
// ClientRequestToken: the SDK's retry after a lost answer, and the
// caller's own retry with the same token, apply it once and succeed; the
// token with another request is ErrInvalidOption with the SDK's
// IdempotentParameterMismatchException.
func TestTokenedWriteAppliedOnce(t *testing.T) {
	t.Parallel()
	// Tokens live for the account (DynamoDB Local: the shared server) for
	// 10 minutes: each run makes its own.
	token := func(name string) string { return fmt.Sprintf("%s-%x", name, time.Now().UnixNano()) }
	for _, uf := range unknownFaults {
		t.Run(uf.name, func(t *testing.T) {
			t.Parallel()
			s, ft, sc := outcomeSchool(t)
			ctx := context.Background()

			put := withToken(token("put"))
			sc.arm("TransactWriteItems", uf.f)
			require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ada"}, put))
			assert.Equal(t, 2, ft.requests("TransactWriteItems"))
			require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ada"}, put), "the caller's retry, same token")
			assert.Zero(t, s.calls.puts.Load()+s.calls.updates.Load()+s.calls.deletes.Load(), "no plain write")

			add := withToken(token("add"))
			sc.arm("TransactWriteItems", uf.f)
			got, err := s.students.Update(ctx, "a91", adjlist.Update{}.Add("year", 1), add)
			require.NoError(t, err)
			assert.Equal(t, Student{}, got, "a transaction returns no item")
			_, err = s.students.Update(ctx, "a91", adjlist.Update{}.Add("year", 1), add)
			require.NoError(t, err, "the caller's retry, same token")
			stored, err := s.students.Get(ctx, "a91")
			require.NoError(t, err)
			assert.Equal(t, Student{Name: "Ada", Year: 1}, stored, "added once")

			_, err = s.students.Update(ctx, "a91", adjlist.Set("major", "x"), add)
			require.ErrorIs(t, err, adjlist.ErrInvalidOption, "the token with another request")
			var ipm *types.IdempotentParameterMismatchException
			require.ErrorAs(t, err, &ipm)

			del := withToken(token("del"))
			sc.arm("TransactWriteItems", uf.f)
			require.NoError(t, s.students.Delete(ctx, "a91", del))
			require.NoError(t, s.students.Delete(ctx, "a91", del), "the caller's retry, same token")
			require.ErrorIs(t, s.students.Delete(ctx, "a91", withToken(token("del2"))), adjlist.ErrNotFound, "a new token: a new delete")
		})
	}
}

// A token is refused before any request where it cannot work.
func TestTokenRefused(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	tx := adjlist.NewTx(s.table)
	tok := withToken("t1")
	counter := newEdgeCounter(s.enrolled, "enrolled")
	for name, write := range map[string]func() error{
		"over 36 characters": func() error {
			return s.students.Put(ctx, "a91", Student{}, withToken("0123456789012345678901234567890123456"))
		},
		"in a Tx": func() error { return s.students.Put(ctx, "a91", Student{}, adjlist.InTx(tx), tok) },
		"on TxCheck": func() error {
			tx := adjlist.NewTx(s.table)
			s.students.TxCheck(tx, "a91", tok)
			return tx.Commit(ctx)
		},
	} {
		before := s.calls.total()
		require.ErrorIs(t, write(), adjlist.ErrInvalidOption, name)
		assert.Equal(t, before, s.calls.total(), "%s: refused before any request", name)
	}
	// A counted edge's Put is a create: the token is its
	// transaction's.
	require.NoError(t, counter.Put(ctx, "a91", "math204", math204, withToken(fmt.Sprintf("cp-%x", time.Now().UnixNano()))))
	n, err := counter.Get(ctx, "math204")
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)
}

// A transaction's attempts share one ClientRequestToken: the SDK's retry
// after a lost answer succeeds without applying twice. A Commit whose
// every attempt is lost is ErrOutcomeUnknown; one cancelled after a lost
// attempt is not (the cancellation answers for every attempt).
func TestTxCommitOutcome(t *testing.T) {
	t.Parallel()
	counterOf := func(s *school) *edgeCounter[Enrollment] { return newEdgeCounter(s.enrolled, "enrolled") }
	for _, uf := range unknownFaults {
		t.Run(uf.name, func(t *testing.T) {
			t.Parallel()
			s, ft, sc := outcomeSchool(t)
			counter := counterOf(s)
			ctx := context.Background()
			tx := adjlist.NewTx(s.table)
			require.NoError(t, counter.Put(ctx, "a91", "math204", math204, adjlist.InTx(tx)))
			sc.arm("TransactWriteItems", uf.f)
			require.NoError(t, tx.Commit(ctx, func(o *adjlist.TxOptions) { o.Token = fmt.Sprintf("tx-%x", time.Now().UnixNano()) }))
			assert.Equal(t, 2, ft.requests("TransactWriteItems"))
			n, err := counter.Get(ctx, "math204")
			require.NoError(t, err)
			assert.Equal(t, int64(1), n, "applied once")

			// Cancelled after a lost attempt: the edge exists.
			tx = adjlist.NewTx(s.table)
			require.NoError(t, counter.Put(ctx, "b30", "math204", math204, adjlist.InTx(tx)))
			require.NoError(t, s.enrolled.Put(ctx, "b30", "math204", math204))
			sc.arm("TransactWriteItems", lostBefore500)
			err = tx.Commit(ctx)
			require.ErrorIs(t, err, adjlist.ErrExists)
			assert.NotErrorIs(t, err, adjlist.ErrOutcomeUnknown, "a cancellation answers for every attempt")

			tx = adjlist.NewTx(s.table)
			require.NoError(t, counter.Put(ctx, "c12", "math204", math204, adjlist.InTx(tx)))
			sc.arm("TransactWriteItems", uf.f, uf.f, uf.f)
			require.ErrorIs(t, tx.Commit(ctx), adjlist.ErrOutcomeUnknown)
		})
	}
}

// issue is an issue tracker's issue, closed by a transaction that also
// deletes its edge into its project, counted by a Counter.
type issue struct {
	Status  string `dynamodbav:"status"`
	Version int64  `dynamodbav:"version"`
}

// Eight concurrent closes of one issue, each read at version 1: one wins;
// each loser's update fails its version check and its counter's delete
// finds the edge the winner deleted, so its error matches both
// ErrVersionConflict and ErrNotFound, and OpError.Failed tells which
// action failed for which reason, in the order added.
func TestConcurrentClosesTellTheVersionConflictApart(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	issues := adjlist.NewNode[issue](s.table, "ISSUE", "META", func(o *adjlist.NodeOptions) { o.Version = "version" })
	projects := adjlist.NewNode[anyData](s.table, "PROJ", "META")
	openIn := adjlist.NewEdge[anyData](issues, "OPENIN", projects)
	open := newEdgeCounter(openIn, "open")
	require.NoError(t, projects.Put(ctx, "p1", anyData{Name: "p1"}))
	require.NoError(t, issues.Put(ctx, "i1", issue{Status: "open"}))
	require.NoError(t, open.Put(ctx, "i1", "p1", anyData{}))

	const closers = 8
	errs := make([]error, closers)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range closers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for {
				tx := adjlist.NewTx(s.table)
				issues.Update(ctx, "i1", adjlist.Set("status", "closed"), adjlist.IfVersion(1), adjlist.InTx(tx))
				open.Delete(ctx, "i1", "p1", adjlist.InTx(tx))
				errs[i] = tx.Commit(ctx)
				if !errors.Is(errs[i], adjlist.ErrTxConflict) || errors.Is(errs[i], adjlist.ErrVersionConflict) {
					return // a conflict with another close in flight: that one decides
				}
			}
		}()
	}
	close(start)
	wg.Wait()

	issueKey, _, err := issues.Key("i1")
	require.NoError(t, err)
	won := 0
	for i, err := range errs {
		if err == nil {
			won++
			continue
		}
		require.ErrorIs(t, err, adjlist.ErrVersionConflict, "closer %d", i)
		require.ErrorIs(t, err, adjlist.ErrNotFound, "closer %d: the edge the winner deleted", i)
		assert.NotErrorIs(t, err, adjlist.ErrOutcomeUnknown, "closer %d", i)
		var oe *adjlist.OpError
		require.ErrorAs(t, err, &oe)
		require.Len(t, oe.Failed, 2, "closer %d: the update and the edge's delete", i)
		assert.Equal(t, "Node.Update", oe.Failed[0].Op)
		assert.Equal(t, issueKey, oe.Failed[0].PK)
		assert.ErrorIs(t, oe.Failed[0].Err, adjlist.ErrVersionConflict)
		assert.NotErrorIs(t, oe.Failed[0].Err, adjlist.ErrNotFound, "the update's own error")
		assert.Equal(t, "Edge.Delete", oe.Failed[1].Op)
		assert.ErrorIs(t, oe.Failed[1].Err, adjlist.ErrNotFound)
		assert.NotErrorIs(t, oe.Failed[1].Err, adjlist.ErrVersionConflict, "the delete's own error")
	}
	assert.Equal(t, 1, won, "one close wins")
	got, err := issues.Get(ctx, "i1")
	require.NoError(t, err)
	assert.Equal(t, issue{Status: "closed", Version: 2}, got)
	n, err := open.Get(ctx, "p1")
	require.NoError(t, err)
	assert.Equal(t, int64(0), n)
}

// withToken is the write option of WriteOptions.Token.
func withToken(token string) func(*adjlist.WriteOptions) {
	return func(o *adjlist.WriteOptions) { o.Token = token }
}
