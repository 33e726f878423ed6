package adjlist

import (
	"context"
	"fmt"
	"iter"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/adjlist/adjlist/internal/ddbexpr"
	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/paging"
	"github.com/adjlist/adjlist/internal/telemetry"
)

// Query is one access pattern over a partition of the table or of a
// secondary index: a key condition (the partition key, and the sort key
// within the item type's prefix, such as "PROJ#") and a decoder from items
// to T; a sharded read ([EdgeOptions].Shards, [IndexKeys].Shards) merges
// its partitions in sort key order. Handles build them ([Edge.From],
// [Edge.To], [Collection.List], [Entity.List], ByIndex); adjust one with
// [Query.Limit], [Query.Desc], a sort key condition ([Query.Between],
// [Query.GreaterThan], [Query.GreaterThanEqual], [Query.LessThan],
// [Query.LessThanEqual], [Query.BeginsWith], [Query.Equal]), [Query.Filter]
// or [Query.Project], then run it with [Query.All], [Query.Collect],
// [Query.Page] or [Query.Count].
//
// Sort key conditions take range values: the sort key after the prefix,
// with ids as they are, which the library escapes as keys store them ('#'
// → "%23", '%' → "%25"), the template's own '#'s kept as separators:
// LessThan("a#b") on "PROJ#" children is SK BETWEEN "PROJ#" AND
// "PROJ#a%23b". With a prefix every condition stays inside it; without one
// ([AllTypes], a native index) conditions compare whole values. On a
// native index ([Index].SortAttributes) values are the attribute's own,
// typed as the table's encoder stores them, and one of the other kind is
// [ErrInvalidOption] before any request. docs/reads.md ("Range values,
// rule by rule") gives the rule for keys of several parts and [AllTypes].
//
// A Query is an immutable value: the adjusting methods return a modified
// copy, and one Query may run any number of times, concurrently. An
// invalid query (a bad id, say) carries its error to the call that runs
// it, which then makes no request.
type Query[T any] struct {
	querySpec
	decode func(Item) (T, bool, error)
}

// querySpec is a Query without its decoder: it builds, checks and runs
// the query, a typed Query handing it a closure that decodes and keeps
// each item.
type querySpec struct {
	t *Table
	// run is the query's request, partition and shards; each run copies
	// it, as a Run's fields leak to the heap.
	run        paging.Run
	op         string
	pkAttr     string    // partition key attribute of the table or index read
	skPrefix   string    // the item type's sort key prefix on run.SKAttr, "" for none
	cursorKeys []string  // attributes of LastEvaluatedKey
	keys       queryKeys // the partition and item type read
	sk         skCond    // a sort key condition within skPrefix, if any
	filter     *expression.ConditionBuilder
	proj       []string // data attributes to project, nil for all
	calls      string   // the adjusting calls made, for Describe: ".Between(lo, hi)"
	wraps      string   // for AllTypes, the op of the query it widened: "Entity.List"
	err        error
}

// queryKeys names the partition a query reads, its item type's sort key
// prefix and the filters a reverse read needs.
type queryKeys struct {
	index        string
	pk, skPrefix string
	skExact      bool   // sort key equals skPrefix instead of beginning with it
	filterPrefix string // on the table's sort key: the index key cannot tell labels apart
	// sourceFilter, on an index without a sort key (IndexPartitionOnly),
	// narrows a reverse read to its sources with a filter on the table's
	// partition key: begins_with it, or equal to it if sourceExact.
	sourceFilter string
	sourceExact  bool
	shardPKs     []string // the partitions of a sharded read, if any
	keysOnly     bool     // project only the key attributes
	// freeSK allows sort key conditions on whole values (a sort key
	// whose template starts with a data attribute or a field).
	freeSK bool
	// skRest is the sort key's spelling after skPrefix, which tells
	// range values' separators from their ids ([keycodec.RangeKey]);
	// nil for one id. everySep makes every '#' of a range value a
	// separator (AllTypes: the keys of several templates).
	skRest   keycodec.Spelling
	everySep bool
	// pkNum and skNum: on the table, its partition or sort key is a
	// number (N): pk, skPrefix and range values are number text; pkNum
	// also on a local index, whose partition key is the table's.
	pkNum, skNum bool
	local        bool        // the index is a local secondary index
	native       *nativeKeys // the key condition on a native index
	// kind names the item type read, for errors ([ThrottlingError]);
	// empty for a read of several.
	kind string
}

// newQuerySpec builds the request once, so running the query repeats no
// expression building.
func newQuerySpec(t *Table, op string, k queryKeys) querySpec {
	o := t.opts
	q := querySpec{t: t, op: op, run: paging.Run{Client: t.client, PK: k.pk, SKAttr: o.SortKey}, skPrefix: k.skPrefix, keys: k}
	q.pkAttr, q.cursorKeys = o.PartitionKey, t.tableCursorKeys
	if k.index != "" {
		q.run.In.IndexName = aws.String(k.index)
		m := t.meta[k.index]
		if m == nil { // a table whose options failed: the error says why
			q.err = t.err
			return q
		}
		q.pkAttr, q.cursorKeys = m.pk[0], m.cursor
		q.run.SKAttr = ""
		switch {
		case k.native != nil && k.native.next != nil:
			q.run.SKAttr = k.native.next.Name
		case k.native == nil && len(m.sk) > 0:
			q.run.SKAttr = m.sk[0]
		}
	}
	if t.err != nil {
		q.err = t.err
		return q
	}
	q.run.In.TableName = t.tableName
	q.run.In.ScanIndexForward = forward
	return qsCompile(q)
}

// forward is the shared ScanIndexForward=true: requests only read it.
var forward = aws.Bool(true)

// qsCompile sets the request's expressions and each shard's values.
func qsCompile(q querySpec) querySpec {
	if q.err != nil {
		return q
	}
	e, err := qsExpressions(&q, q.keys.keysOnly)
	if err != nil {
		q.err = err
		return q
	}
	if q.filter != nil {
		// The label filter names the table's sort key, which is no key of
		// the index it filters; any queried key attribute is the caller's.
		// DynamoDB refuses every key attribute of an index in a filter,
		// each of a native index's several.
		names := []string{q.pkAttr, q.run.SKAttr}
		if m := q.t.meta[q.keys.index]; m != nil {
			names = append(slices.Clip(m.pk), m.sk...)
		}
		for _, name := range names {
			if name != "" && ddbexpr.UsesName(aws.ToString(e.Filter), e.Names, name) {
				q.err = fmt.Errorf("%w: filter on key attribute %s; use a sort key condition", ErrInvalidOption, name)
				return q
			}
		}
	}
	q.run.In.KeyConditionExpression, q.run.In.FilterExpression, q.run.In.ProjectionExpression = e.KeyCond, e.Filter, e.Proj
	q.run.In.ExpressionAttributeNames = e.Names
	if q.run.In.ExpressionAttributeValues, err = e.Values(q.keys.pk); err != nil {
		q.err = err
		return q
	}
	q.run.Shards = nil
	for _, pk := range q.keys.shardPKs {
		vals, err := e.Values(pk)
		if err != nil {
			q.err = err
			return q
		}
		q.run.Shards = append(q.run.Shards, paging.QueryShard{PK: pk, Values: vals})
	}
	return q
}

// errSpec is a query that fails with err when run.
func errSpec(t *Table, op string, err error) querySpec {
	return querySpec{t: t, op: op, err: err}
}

// Limit sets how many items DynamoDB evaluates per request (QueryInput.Limit):
// the most items one [Query.Page] returns, and the page size [Query.All]
// fetches. Zero (the default) leaves the page to DynamoDB's 1 MB cap. Items
// dropped by a filter (reverse reads of tables shared by several edge labels)
// count toward it. A negative n is an [ErrInvalidOption] when run.
func (q Query[T]) Limit(n int32) Query[T] {
	qsLimit(&q.querySpec, n)
	return q
}

// qsLimit is [Query.Limit].
func qsLimit(q *querySpec, n int32) {
	switch {
	case n < 0:
		q.err = fmt.Errorf("%w: negative limit %d", ErrInvalidOption, n)
	case n == 0:
		q.run.In.Limit = nil
	default:
		q.run.In.Limit = aws.Int32(n)
	}
}

// Desc returns items in descending sort key order (ScanIndexForward=false).
// The default is ascending. On an index with no sort key
// ([Options].IndexPartitionOnly) items come in no defined order, and Desc
// changes nothing.
func (q Query[T]) Desc() Query[T] {
	qsDesc(&q.querySpec)
	return q
}

// qsDesc is [Query.Desc].
func qsDesc(q *querySpec) {
	q.run.In.ScanIndexForward = aws.Bool(false)
	q.calls += ".Desc()"
}

// qsRead applies a run's read options to q; their errors fail the run.
func qsRead(q *querySpec, optFns []func(*ReadOptions)) {
	if len(optFns) == 0 {
		return
	}
	o := readOptions(optFns)
	if o.err != nil && q.err == nil {
		q.err = o.err
	}
	if o.ConsistentRead {
		qsConsistentRead(q)
	}
}

// qsConsistentRead makes q strongly consistent, refused on a global index.
func qsConsistentRead(q *querySpec) {
	if q.run.In.IndexName != nil && !q.keys.local && q.err == nil {
		q.err = ErrIndexConsistentRead
	}
	q.run.In.ConsistentRead = aws.Bool(true)
}

// qsStartSpan opens the span of the call op that runs q, naming its index.
func qsStartSpan(q *querySpec, ctx context.Context, op string) (context.Context, *telemetry.Span) {
	if q.t == nil || q.t.tracer == nil {
		return ctx, nil
	}
	return q.t.beginSpan(ctx, op, aws.ToString(q.run.In.IndexName))
}

// qsWrap is err as q's [OpError], a cursor paging refused as
// [ErrInvalidCursor].
func qsWrap(q *querySpec, err error) error {
	if why, ok := err.(paging.BadCursor); ok {
		err = badCursor(string(why))
	}
	index := aws.ToString(q.run.In.IndexName)
	return &OpError{Op: q.op, Table: q.t.name, Index: index, PK: q.run.PK, SK: q.skPrefix, Err: q.t.throttled(err, q.run.PK, "", index, q.keys.kind)}
}

// All returns an iterator over every item of the query, fetching pages
// lazily with the SDK's Query paginator: one Query request per page, and no
// further request once the loop breaks. On failure it yields the error once,
// with a zero T, and stops. Items that belong to other access patterns
// sharing the partition are skipped, never mis-decoded. optFns are read
// options: [Consistent] for a strongly consistent read (table and local
// secondary indexes; on a global secondary index it fails with
// [ErrIndexConsistentRead] before any request), e.g.
// q.All(ctx, adjlist.Consistent).
func (q Query[T]) All(ctx context.Context, optFns ...func(*ReadOptions)) iter.Seq2[T, error] {
	qsRead(&q.querySpec, optFns)
	return func(yield func(T, error) bool) {
		var v T
		err := qsAll(&q.querySpec, ctx, func(item Item) (ok bool, err error) {
			v, ok, err = q.decode(item)
			return ok, err
		}, nil, func() bool { return yield(v, nil) })
		if err != nil {
			var zero T
			yield(zero, err)
		}
	}
}

// qsAll runs q, handing on each item decode keeps to yield until it
// returns false; it returns the error to yield, wrapped.
func qsAll(q *querySpec, ctx context.Context, decode func(Item) (bool, error), grow func(n int), yield func() bool) error {
	ctx, sp := qsStartSpan(q, ctx, q.op)
	defer sp.End(nil) // with the error yielded, if any (sp.failed)
	if q.err != nil {
		return sp.Failed(qsWrap(q, q.err))
	}
	r := q.run
	if err := r.All(ctx, decode, grow, yield); err != nil {
		return sp.Failed(qsWrap(q, err))
	}
	return nil
}

// Collect runs the query to the end and returns all its items; see
// [Query.All] (optFns as there).
func (q Query[T]) Collect(ctx context.Context, optFns ...func(*ReadOptions)) ([]T, error) {
	qsRead(&q.querySpec, optFns)
	var items []T
	err := qsAll(&q.querySpec, ctx, func(item Item) (bool, error) {
		v, ok, err := q.decode(item)
		if ok && err == nil {
			items = append(items, v)
		}
		return ok, err
	}, func(n int) { items = slices.Grow(items, n) }, func() bool { return true })
	if err != nil {
		return nil, err
	}
	return items, nil
}

// Count returns how many items the query matches without decoding their
// data: Query requests that project only the key attributes, one per 1 MB
// of items evaluated (or per [Query.Limit] items), the same read capacity
// as [Query.All]. It counts exactly the items [Query.All] would yield,
// judged by their keys: items of other access patterns sharing the
// partition, and foreign items whose keys this package cannot have built
// (written by another program), are not counted, as All skips them. (A
// Select=COUNT query would count those too, since DynamoDB cannot tell
// them apart.) An item whose keys are sound but whose data does not fit T
// is counted; All fails on it. optFns are read options, as All's.
func (q Query[T]) Count(ctx context.Context, optFns ...func(*ReadOptions)) (int, error) {
	qsRead(&q.querySpec, optFns)
	return qsCount(&q.querySpec, ctx, func(item Item) (bool, error) {
		_, ok, err := q.decode(item)
		return ok, err
	})
}

// qsCount is [Query.Count], decode judging each item.
func qsCount(q *querySpec, ctx context.Context, decode func(Item) (bool, error)) (_ int, err error) {
	ctx, sp := qsStartSpan(q, ctx, q.op)
	defer sp.End(&err)
	if q.err != nil {
		return 0, qsWrap(q, q.err)
	}
	keys := *q // the same query, projecting only the key attributes
	keys.keys.keysOnly = true
	if keys = qsCompile(keys); keys.err != nil {
		return 0, qsWrap(q, keys.err)
	}
	r := keys.run
	n, err := r.Count(ctx, decode)
	if err != nil {
		return 0, qsWrap(q, err)
	}
	return n, nil
}

// Page is one page of a query's results.
type Page[T any] struct {
	// Items holds the page's items in the query's order. It may be shorter
	// than the limit, or empty, even when Cursor is set.
	Items []T
	// Cursor resumes the query right after the page's last evaluated item;
	// pass it to the next [Query.Page] call. It is empty when DynamoDB
	// reports no more items. It is opaque, URL-safe, and valid only for the
	// query that issued it, whatever its page size: the same operation
	// (item type), index, partition, sort key prefix or range, label filter
	// and direction. It carries the last item's keys and a fingerprint of
	// the query in readable base64url JSON; with [Options.CursorKey] set it
	// is signed, so a client cannot forge or edit one, and only the exact
	// string issued is accepted.
	Cursor string
}

// Page makes exactly one Query request and returns its items and a cursor
// for the next page. cursor is "" for the first page, or a [Page.Cursor]
// from the same query; a cursor that is malformed or from another query is
// refused with [ErrInvalidCursor] before any request is sent. Use
// [Query.Limit] to set the page size. Page is meant for request/response
// handlers that hand the cursor to a client. optFns are read options, as
// [Query.All]'s.
func (q Query[T]) Page(ctx context.Context, cursor string, optFns ...func(*ReadOptions)) (Page[T], error) {
	qsRead(&q.querySpec, optFns)
	var page Page[T]
	next, err := qsPage(&q.querySpec, ctx, cursor, func(item Item) (bool, error) {
		v, ok, err := q.decode(item)
		if ok && err == nil {
			page.Items = append(page.Items, v)
		}
		return ok, err
	}, func(n int) {
		if page.Items == nil {
			page.Items = []T{} // an unsharded page's Items are never nil
		}
		page.Items = slices.Grow(page.Items, n)
	})
	if err != nil {
		return Page[T]{}, err
	}
	page.Cursor = next
	return page, nil
}

// qsPage is [Query.Page]: decode keeps each item of the page; it returns
// the next cursor.
func qsPage(q *querySpec, ctx context.Context, cursor string, decode func(Item) (bool, error), grow func(n int)) (_ string, err error) {
	ctx, sp := qsStartSpan(q, ctx, q.op)
	defer sp.End(&err)
	if q.err != nil {
		return "", qsWrap(q, q.err)
	}
	r := q.run
	r.Cursor = qsCursors(q)
	next, err := r.Page(ctx, cursor, decode, grow)
	if err != nil {
		return "", qsWrap(q, err)
	}
	return next, nil
}

// badCursor is the error of a cursor this query refuses.
func badCursor(why string) error { return fmt.Errorf("%w: %s", ErrInvalidCursor, why) }

// qsCursors is what q's page cursors carry and are checked against:
// everything that shapes its results but the page size.
func qsCursors(q *querySpec) paging.Cursors {
	cs := paging.Cursors{Key: q.t.opts.CursorKey, Names: q.cursorKeys, PKAttr: q.pkAttr, SKAttr: q.run.SKAttr,
		Prefix: q.skPrefix, Op: q.sk.op, Lo: q.sk.lo, Hi: q.sk.hi, PKNum: q.keys.pkNum, SKNum: q.keys.skNum}
	cs.ID = paging.Identity{Index: aws.ToString(q.run.In.IndexName), Desc: !aws.ToBool(q.run.In.ScanIndexForward), Sharded: q.run.Shards != nil,
		Query: paging.Fingerprint(q.op, &q.run.In, q.run.Shards)}
	if nk := q.keys.native; nk != nil {
		cs.Native, cs.Eq = true, nk.eq
	}
	return cs
}
