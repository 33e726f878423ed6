package adjlist_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// missingSides lists the sides of every NodeNotFoundError joined in err.
func missingSides(err error) []string {
	var sides []string
	var walk func(error)
	walk = func(err error) {
		if nf, ok := err.(*adjlist.NodeNotFoundError); ok {
			sides = append(sides, nf.Side)
			return
		}
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				walk(e)
			}
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		}
	}
	walk(err)
	return sides
}

// checkEnds is WriteOptions.CheckEnds: Edge.Put checks both endpoint
// items exist.
func checkEnds(o *adjlist.WriteOptions) { o.CheckEnds = true }

func TestPutChecked(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ada"}))
	require.NoError(t, s.courses.Put(ctx, "math204", Course{Title: "LA"}))

	tests := []struct {
		name      string
		from, to  string
		wantSides []string
		wantErr   error
	}{
		{"both nodes exist", "a91", "math204", nil, nil},
		{"edge exists", "a91", "math204", nil, adjlist.ErrExists},
		{"target missing", "a91", "bio999", []string{"to"}, adjlist.ErrNodeNotFound},
		{"source missing", "zz", "math204", []string{"from"}, adjlist.ErrNodeNotFound},
		{"both missing", "zz", "bio999", []string{"from", "to"}, adjlist.ErrNodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.enrolled.Put(ctx, tt.from, tt.to, Enrollment{Grade: "A"}, checkEnds)
			if tt.wantErr == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tt.wantErr)
			var tce *types.TransactionCanceledException
			require.ErrorAs(t, err, &tce)
			assert.Equal(t, tt.wantSides, missingSides(err))
			if tt.wantErr == adjlist.ErrNodeNotFound {
				require.ErrorIs(t, err, adjlist.ErrNotFound)
				_, err := s.enrolled.Get(ctx, tt.from, tt.to)
				require.ErrorIs(t, err, adjlist.ErrNotFound, "nothing written")
			}
		})
	}
}

func TestPutCheckedIdempotentWithToken(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	require.NoError(t, s.students.Put(ctx, "a91", Student{}))
	require.NoError(t, s.courses.Put(ctx, "math204", Course{}))
	// Idempotency tokens live for the account (DynamoDB Local: the shared
	// server) for 10 minutes, whatever the table: a fixed token would make a
	// second run within 10 minutes a parameter mismatch.
	id := fmt.Sprintf("enrol-%x", time.Now().UnixNano()) // at most 36 characters
	token := func(o *adjlist.WriteOptions) { o.CheckEnds, o.Token = true, id }
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", math204, token))
	_, err := s.enrolled.Update(ctx, "a91", "math204", adjlist.Set("grade", "A"))
	require.NoError(t, err)

	// The caller retries (it never saw the answer): same token, no double
	// apply, no ErrExists.
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", math204, token))
	got, err := s.enrolled.Get(ctx, "a91", "math204")
	require.NoError(t, err)
	assert.Equal(t, "A", got.Grade, "the retry wrote nothing")

	// Without the token the same call is a duplicate.
	require.ErrorIs(t, s.enrolled.Put(ctx, "a91", "math204", math204, checkEnds), adjlist.ErrExists)
}

func TestMove(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", math204))
	require.NoError(t, s.enrolled.Put(ctx, "a91", "cs101", math204))

	require.NoError(t, s.enrolled.Move(ctx, "a91", "math204", "a91", "bio110", Enrollment{Grade: "B"}))
	_, err := s.enrolled.Get(ctx, "a91", "math204")
	require.ErrorIs(t, err, adjlist.ErrNotFound)
	moved, err := s.enrolled.Get(ctx, "a91", "bio110")
	require.NoError(t, err)
	assert.Equal(t, "B", moved.Grade)

	err = s.enrolled.Move(ctx, "a91", "math204", "a91", "art1", math204)
	require.ErrorIs(t, err, adjlist.ErrNotFound, "old edge missing")
	_, err = s.enrolled.Get(ctx, "a91", "art1")
	require.ErrorIs(t, err, adjlist.ErrNotFound, "nothing written")

	err = s.enrolled.Move(ctx, "a91", "bio110", "a91", "cs101", math204)
	require.ErrorIs(t, err, adjlist.ErrExists, "new edge exists")
	_, err = s.enrolled.Get(ctx, "a91", "bio110")
	require.NoError(t, err, "old edge kept")

	before := s.calls.total()
	err = s.enrolled.Move(ctx, "a91", "cs101", "a91", "cs101", math204)
	require.ErrorIs(t, err, adjlist.ErrTxLimit)
	assert.Equal(t, before, s.calls.total())
}

// txCounter counts TransactWriteItems requests and can fail them with
// conflicts, which DynamoDB Local never reports.
type txCounter struct {
	adjlist.Client
	conflicts int64 // first calls to cancel with TransactionConflict
	calls     atomic.Int64
}

func (c *txCounter) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	if n := c.calls.Add(1); n <= c.conflicts {
		reasons := make([]types.CancellationReason, len(in.TransactItems))
		for i := range reasons {
			reasons[i].Code = aws.String("None")
		}
		reasons[len(reasons)-1].Code = aws.String("TransactionConflict")
		return nil, &types.TransactionCanceledException{Message: aws.String("injected"), CancellationReasons: reasons}
	}
	return c.Client.TransactWriteItems(ctx, in, o...)
}

func txSchool(t *testing.T, conflicts int64) (*school, *txCounter) {
	t.Helper()
	base := newSchool(t)
	tc := &txCounter{Client: base.calls, conflicts: conflicts}
	s := *base
	s.table = adjlist.NewTable(tc, base.table.Name(), func(o *adjlist.Options) { o.BatchBackoff = &noWait{} })
	s.students = adjlist.NewNode[Student](s.table, "STU", "PROFILE")
	s.courses = adjlist.NewNode[Course](s.table, "CRS", "METADATA")
	s.enrolled = adjlist.NewEdge[Enrollment](s.students, "ENROLL", s.courses)
	return &s, tc
}

func TestTxConflicts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		conflicts int64
		retries   int
		wantCalls int64
		wantErr   error
	}{
		{"conflict surfaces by default", 1, 0, 1, adjlist.ErrTxConflict},
		{"opt-in retry succeeds", 2, 2, 3, nil},
		{"retries exhausted", 5, 2, 3, adjlist.ErrTxConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, tc := txSchool(t, tt.conflicts)
			ctx := context.Background()
			tx := adjlist.NewTx(s.table)
			s.enrolled.Put(ctx, "a91", "math204", math204, adjlist.InTx(tx))
			s.enrolled.Put(ctx, "b30", "math204", math204, adjlist.InTx(tx))
			err := tx.Commit(ctx, func(o *adjlist.TxOptions) { o.ConflictRetries = tt.retries })
			assert.Equal(t, tt.wantCalls, tc.calls.Load())
			if tt.wantErr == nil {
				require.NoError(t, err)
				n, err := s.enrolled.To("math204").Count(ctx)
				require.NoError(t, err)
				assert.Equal(t, 2, n)
				return
			}
			require.ErrorIs(t, err, tt.wantErr)
			assert.True(t, errors.Is(err, adjlist.ErrTxConflict) && !conditionFailed(err))
		})
	}

	t.Run("a failed condition is not retried", func(t *testing.T) {
		s, tc := txSchool(t, 0)
		ctx := context.Background()
		require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", math204))
		tx := adjlist.NewTx(s.table)
		s.enrolled.Put(ctx, "a91", "math204", math204, adjlist.InTx(tx))
		err := tx.Commit(ctx, func(o *adjlist.TxOptions) { o.ConflictRetries = 3 })
		require.ErrorIs(t, err, adjlist.ErrExists)
		assert.True(t, conditionFailed(err))
		assert.Equal(t, int64(1), tc.calls.Load())
	})
}

func TestTxLimits(t *testing.T) {
	t.Parallel()
	s, tc := txSchool(t, 0)
	ctx := context.Background()
	big := strings.Repeat("x", 390*1024)

	tests := []struct {
		name  string
		build func(tx *adjlist.Tx)
		want  error // nil: commits
	}{
		{"100 actions", func(tx *adjlist.Tx) {
			for i := range 100 {
				s.enrolled.Put(ctx, fmt.Sprintf("s%03d", i), "math204", math204, adjlist.InTx(tx))
			}
		}, nil},
		{"101 actions", func(tx *adjlist.Tx) {
			for i := range 101 {
				s.enrolled.Put(ctx, fmt.Sprintf("t%03d", i), "math204", math204, adjlist.InTx(tx))
			}
		}, adjlist.ErrTxLimit},
		{"two actions on one item", func(tx *adjlist.Tx) {
			s.enrolled.Put(ctx, "u1", "math204", math204, adjlist.InTx(tx))
			s.enrolled.Delete(ctx, "u1", "math204", adjlist.InTx(tx))
		}, adjlist.ErrTxLimit},
		{"over 4 MB", func(tx *adjlist.Tx) {
			notes := adjlist.NewEdge[note](s.students, "NOTE", s.courses)
			for i := range 11 { // 11 × 390 KB
				notes.Put(ctx, fmt.Sprintf("v%02d", i), "math204", note{Note: big}, adjlist.InTx(tx))
			}
		}, adjlist.ErrTxLimit},
		{"bad id", func(tx *adjlist.Tx) { s.students.TxCheck(tx, "") }, adjlist.ErrInvalidKey},
		{"another table", func(tx *adjlist.Tx) {
			other := adjlist.NewTable(tc, "other")
			adjlist.NewNode[Student](other, "STU", "PROFILE").TxCheck(tx, "a91")
		}, adjlist.ErrInvalidOption},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tx := adjlist.NewTx(s.table)
			tt.build(tx)
			before := tc.calls.Load()
			err := tx.Commit(ctx)
			if tt.want == nil {
				require.NoError(t, err)
				assert.Equal(t, before+1, tc.calls.Load())
				return
			}
			require.ErrorIs(t, err, tt.want)
			assert.Equal(t, before, tc.calls.Load(), "no request sent")
		})
	}
}

// A token DynamoDB would refuse (over 36 characters) is refused before
// any request; 36 characters commit.
func TestTxTokenLength(t *testing.T) {
	t.Parallel()
	s, tc := txSchool(t, 0)
	ctx := context.Background()
	for _, n := range []int{37, 36} {
		tx := adjlist.NewTx(s.table)
		s.enrolled.Put(ctx, fmt.Sprintf("k%d", n), "math204", math204, adjlist.InTx(tx))
		before := tc.calls.Load()
		token := fmt.Sprintf("%x", time.Now().UnixNano()) + strings.Repeat("t", n-16)
		err := tx.Commit(ctx, func(o *adjlist.TxOptions) { o.Token = token[:n] })
		if n > 36 {
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
			assert.Equal(t, before, tc.calls.Load(), "no request sent")
			continue
		}
		require.NoError(t, err)
	}
}

// reasonClient cancels the first `times` transactions with one reason code
// on the last action, as DynamoDB does for causes DynamoDB Local never
// produces.
type reasonClient struct {
	adjlist.Client
	code  string
	times int64
	calls atomic.Int64
}

func (c *reasonClient) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	if c.calls.Add(1) <= c.times {
		reasons := make([]types.CancellationReason, len(in.TransactItems))
		for i := range reasons {
			reasons[i].Code = aws.String("None")
		}
		reasons[len(reasons)-1].Code = aws.String(c.code)
		return nil, &types.TransactionCanceledException{Message: aws.String("injected"), CancellationReasons: reasons}
	}
	return c.Client.TransactWriteItems(ctx, in, o...)
}

// Each cancellation reason DynamoDB documents maps to what it means, and
// only conflicts and throttling are retried when asked.
func TestTxCancellationReasons(t *testing.T) {
	t.Parallel()
	base := newSchool(t)
	tests := []struct {
		code      string
		retried   bool  // with ConflictRetries: 1, the second attempt commits
		sentinel  error // matched by the error when not retried away
		condition bool
	}{
		{"ConditionalCheckFailed", false, adjlist.ErrExists, true},
		{"TransactionConflict", true, adjlist.ErrTxConflict, false},
		{"ThrottlingError", true, nil, false},
		{"ProvisionedThroughputExceeded", true, nil, false},
		{"RequestLimitExceeded", true, nil, false},
		{"ItemCollectionSizeLimitExceeded", false, nil, false},
		{"ValidationError", false, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			rc := &reasonClient{Client: base.calls, code: tt.code, times: 1}
			table := adjlist.NewTable(rc, base.table.Name(), func(o *adjlist.Options) { o.BatchBackoff = &noWait{} })
			students := adjlist.NewNode[Student](table, "STU", "PROFILE")
			enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", adjlist.NewNode[Course](table, "CRS", "METADATA"))
			from := "r-" + tt.code

			tx := adjlist.NewTx(table)
			enrolled.Put(context.Background(), from, "math204", math204, adjlist.InTx(tx))
			err := tx.Commit(context.Background())
			var tce *types.TransactionCanceledException
			require.ErrorAs(t, err, &tce, "the SDK's error is kept")
			if tt.sentinel != nil {
				require.ErrorIs(t, err, tt.sentinel)
			}
			assert.Equal(t, tt.condition, conditionFailed(err))

			rc.calls.Store(0)
			tx = adjlist.NewTx(table)
			enrolled.Put(context.Background(), from, "math204", math204, adjlist.InTx(tx))
			err = tx.Commit(context.Background(), func(o *adjlist.TxOptions) { o.ConflictRetries = 1 })
			if tt.retried {
				require.NoError(t, err)
				assert.Equal(t, int64(2), rc.calls.Load())
			} else {
				require.Error(t, err)
				assert.Equal(t, int64(1), rc.calls.Load(), "not retried")
			}
		})
	}
}

// A write given InTx sends nothing: it returns the Tx's error so far and
// joins the one TransactWriteItems that Commit sends, with its own guard.
func TestInTx(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newSchool(t)
	seedSchool(t, s)
	before := s.calls.total()

	tx := adjlist.NewTx(s.table)
	require.NoError(t, s.students.Put(ctx, "c07", Student{Name: "Cy"}, adjlist.InTx(tx)))
	require.NoError(t, s.enrolled.Put(ctx, "c07", "math204", Enrollment{Grade: "A"}, adjlist.InTx(tx)))
	got, err := s.students.Update(ctx, "a91", adjlist.Set("year", 3), adjlist.InTx(tx))
	require.NoError(t, err)
	assert.Zero(t, got, "an update in a Tx returns the zero value")
	require.NoError(t, s.enrolled.Delete(ctx, "b30", "math204", adjlist.InTx(tx)))
	require.NoError(t, s.courses.Replace(ctx, "cs101", Course{Title: "CS I", Credits: 3}, adjlist.InTx(tx)))
	e, err := s.enrolled.Update(ctx, "a91", "cs101", adjlist.Set("grade", "A"), adjlist.InTx(tx))
	require.NoError(t, err)
	assert.Zero(t, e, "an update in a Tx returns the zero value")
	assert.Equal(t, 6, tx.Len())
	assert.Equal(t, before, s.calls.total(), "no request before Commit")

	require.NoError(t, tx.Commit(ctx))
	assert.Equal(t, before+1, s.calls.total(), "one request")
	assert.Equal(t, int64(1), s.calls.txs.Load())
	cy, err := s.students.Get(ctx, "c07")
	require.NoError(t, err)
	assert.Equal(t, "Cy", cy.Name)
	ada, err := s.students.Get(ctx, "a91")
	require.NoError(t, err)
	assert.Equal(t, 3, ada.Year)
	_, err = s.enrolled.Get(ctx, "b30", "math204")
	require.ErrorIs(t, err, adjlist.ErrNotFound)
	graded, err := s.enrolled.Get(ctx, "a91", "cs101")
	require.NoError(t, err)
	assert.Equal(t, "A", graded.Grade)

	// The guard of each write is its action's: a second create fails the
	// whole transaction at Commit, writing nothing.
	tx = adjlist.NewTx(s.table)
	require.NoError(t, s.students.Put(ctx, "d01", Student{Name: "Di"}, adjlist.InTx(tx)))
	require.NoError(t, s.students.Put(ctx, "c07", Student{Name: "Again"}, adjlist.InTx(tx)))
	require.ErrorIs(t, tx.Commit(ctx), adjlist.ErrExists)
	_, err = s.students.Get(ctx, "d01")
	require.ErrorIs(t, err, adjlist.ErrNotFound)
}

// An invalid write given InTx returns its error at once, every later write
// returns it too, and Commit returns it without a request.
func TestInTxInvalid(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newSchool(t)
	other := adjlist.NewTable(s.calls, "other")
	elsewhere := adjlist.NewNode[Student](other, "STU", "PROFILE")
	for _, tc := range []struct {
		name  string
		write func(tx *adjlist.Tx) error
		want  error
		op    string // the operation the write's error names
	}{
		{"bad id", func(tx *adjlist.Tx) error {
			return s.students.Put(ctx, "", Student{}, adjlist.InTx(tx))
		}, adjlist.ErrInvalidKey, "Node.Put"},
		{"update with a key attribute", func(tx *adjlist.Tx) error {
			_, err := s.students.Update(ctx, "a1", adjlist.Set("PK", "x"), adjlist.InTx(tx))
			return err
		}, adjlist.ErrKeyAttribute, "Node.Update"},
		{"delete with a version on a handle without locking", func(tx *adjlist.Tx) error {
			return s.enrolled.Delete(ctx, "a1", "c1", adjlist.IfVersion(2), adjlist.InTx(tx))
		}, adjlist.ErrInvalidOption, "Edge.Delete"},
		{"handle of another table", func(tx *adjlist.Tx) error {
			return elsewhere.Put(ctx, "a1", Student{}, adjlist.InTx(tx))
		}, adjlist.ErrInvalidOption, "Node.Put"},
		{"second action on one item", func(tx *adjlist.Tx) error {
			require.NoError(t, s.students.Put(ctx, "a1", Student{}, adjlist.InTx(tx)))
			return s.students.Delete(ctx, "a1", adjlist.InTx(tx))
		}, adjlist.ErrTxLimit, "Node.Delete"},
		{"TxCheck given InTx", func(tx *adjlist.Tx) error {
			s.students.TxCheck(tx, "a1", adjlist.InTx(tx))
			return s.students.Put(ctx, "a2", Student{}, adjlist.InTx(tx))
		}, adjlist.ErrInvalidOption, "Node.Put"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := s.calls.total()
			tx := adjlist.NewTx(s.table)
			err := tc.write(tx)
			require.ErrorIs(t, err, tc.want)
			var oe *adjlist.OpError
			require.ErrorAs(t, err, &oe, "an *OpError naming the write")
			assert.Equal(t, tc.op, oe.Op)
			err = s.courses.Put(ctx, "later", Course{}, adjlist.InTx(tx))
			require.ErrorIs(t, err, tc.want, "a later write returns the Tx's error")
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, adjlist.OpError{Op: "Node.Put", Table: s.table.Name(), Err: oe.Err}, *oe, "named, with no keys: not its own error")
			require.ErrorIs(t, tx.Commit(ctx), tc.want)
			assert.Equal(t, before, s.calls.total(), "no request")
		})
	}
}

// InTx(nil) is refused, never taken as "send it at once".
func TestInTxNil(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newSchool(t)
	counter := newEdgeCounter(s.enrolled, "ENROLLED")
	before := s.calls.total()
	require.ErrorIs(t, s.students.Put(ctx, "a1", Student{}, adjlist.InTx(nil)), adjlist.ErrInvalidOption)
	_, err := s.students.Update(ctx, "a1", adjlist.Set("year", 1), adjlist.InTx(nil))
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	require.ErrorIs(t, s.enrolled.Delete(ctx, "a1", "c1", adjlist.InTx(nil)), adjlist.ErrInvalidOption)
	require.ErrorIs(t, counter.Put(ctx, "a1", "c1", Enrollment{}, adjlist.InTx(nil)), adjlist.ErrInvalidOption)
	// A nil option function before anything else: neither the edge nor
	// the count is written.
	require.ErrorIs(t, counter.Put(ctx, "a1", "c1", Enrollment{}, nil), adjlist.ErrInvalidOption)
	require.ErrorIs(t, counter.Delete(ctx, "a1", "c1", nil, adjlist.InTx(adjlist.NewTx(s.table))), adjlist.ErrInvalidOption)
	assert.Equal(t, before, s.calls.total(), "no request")
}

// WriteOptions.CheckEnds is Edge.Put's: any other write refuses it before
// any request. Given InTx, the checks and the put join the caller's Tx,
// and a missing end fails its Commit with nothing written.
func TestCheckEnds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newSchool(t)
	require.NoError(t, s.students.Put(ctx, "a91", Student{}))
	require.NoError(t, s.courses.Put(ctx, "math204", Course{}))
	before := s.calls.total()
	for name, write := range map[string]func() error{
		"Node.Put":     func() error { return s.students.Put(ctx, "b30", Student{}, checkEnds) },
		"Edge.Replace": func() error { return s.enrolled.Replace(ctx, "a91", "math204", math204, checkEnds) },
		"Edge.Delete":  func() error { return s.enrolled.Delete(ctx, "a91", "math204", checkEnds) },
	} {
		require.ErrorIs(t, write(), adjlist.ErrInvalidOption, name)
	}
	assert.Equal(t, before, s.calls.total(), "refused before any request")

	tx := adjlist.NewTx(s.table)
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", math204, checkEnds, adjlist.InTx(tx)))
	assert.Equal(t, 3, tx.Len(), "two checks and the put")
	require.NoError(t, tx.Commit(ctx))
	_, err := s.enrolled.Get(ctx, "a91", "math204")
	require.NoError(t, err)

	tx = adjlist.NewTx(s.table)
	require.NoError(t, s.enrolled.Put(ctx, "a91", "bio300", math204, checkEnds, adjlist.InTx(tx)))
	var nf *adjlist.NodeNotFoundError
	require.ErrorAs(t, tx.Commit(ctx), &nf)
	assert.Equal(t, "to", nf.Side)
	_, err = s.enrolled.Get(ctx, "a91", "bio300")
	require.ErrorIs(t, err, adjlist.ErrNotFound, "nothing written")
}
