package adjlist

import (
	"cmp"
	"context"
	"fmt"

	"github.com/adjlist/adjlist/internal/send"
)

// Read is one item of a [ReadTx], filled in by [ReadTx.Run]: its data, and
// whether it exists. Found false leaves Data its zero value.
type Read[T any] struct {
	Data  T
	Found bool
}

// ReadTx collects reads of items by key to make atomically with one
// TransactGetItems: every item as it stood at one moment, strongly
// consistent, e.g. a course and its enrolment count:
//
//	rt := adjlist.NewReadTx(table)
//	course := courses.TxGet(rt, "math204")          // *adjlist.Read[Course]
//	count := counts.TxGet(rt, "math204")            // *adjlist.Read[adjlist.Count], a Node[Count]
//	err := rt.Run(ctx)                              // course.Found, count.Data.Count
//
// Add reads with the handles' TxGet ([Node.TxGet], [Edge.TxGet],
// [Collection.TxGet], [Entity.TxGet]), then call [ReadTx.Run] once. A bad id, a handle of
// another table, more than 100 items or the same item twice
// make Run fail before any request ([ErrInvalidKey], [ErrInvalidOption],
// [ErrTxLimit]). A ReadTx is not safe for concurrent use.
type ReadTx struct {
	t   *Table
	r   send.Read
	err error
}

// NewReadTx returns an empty transactional read on t.
func NewReadTx(t *Table) *ReadTx { return &ReadTx{t: t} }

// add records the read of the item k, filled by fill, unless the handle
// or the key has an error.
func (rt *ReadTx) add(t *Table, handleErr error, k Key, keyErr error, fill func(Item) error) {
	switch {
	case rt.err != nil:
	case t != rt.t:
		rt.err = fmt.Errorf("%w: a handle of table %s in a ReadTx of table %s", ErrInvalidOption, t.name, rt.t.name)
	case handleErr != nil || keyErr != nil:
		rt.err = cmp.Or(handleErr, keyErr)
	default:
		rt.err = rt.r.Add(t.tableName, k.PK, k.SK, t.keyItem(k.PK, k.SK), fill)
	}
}

// Run reads every item added with one TransactGetItems and fills each
// [Read]: Found and Data for an item that exists, Found false otherwise.
// Errors (wrapped in [*OpError] with Op "ReadTx.Run"): the first error of
// the reads added, before any request; the SDK's error,
// e.g. a TransactionCanceledException when a write to one of the items
// was in progress; a data error when an item does not fit its type. Run
// with no reads sends nothing.
func (rt *ReadTx) Run(ctx context.Context) (err error) {
	const op = "ReadTx.Run"
	ctx, sp := rt.t.startSpan(ctx, op)
	defer sp.End(&err)
	if rt.err != nil {
		return rt.t.opErr(op, "", "", rt.err)
	}
	if rt.r.Len() == 0 {
		return nil
	}
	if err := rt.r.Run(ctx, rt.t.client, callOpts(ctx)); err != nil {
		if throttled := rt.t.throttledActions(err, rt.r.Key); throttled != nil {
			err = send.Join(isThrottlingError, throttled, err)
		}
		return rt.t.opErr(op, "", "", err)
	}
	return nil
}
