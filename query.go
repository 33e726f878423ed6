package adjlist

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Item is a raw DynamoDB item, as the SDK returns it.
type Item = map[string]types.AttributeValue

// Query is one access pattern over a partition of the table or of one of
// its secondary indexes: a key condition (partition key equals a node's
// key, sort key begins with the item type's prefix ending in '#', or a
// range within it; on an index, the partition its templates build) and a
// decoder from items to T. A sharded read ([EdgeOptions].Shards,
// [IndexKeys].Shards) spans several index partitions and merges them in
// sort key order. Handles build them ([Edge.From], [Edge.To],
// [Collection.List], and ByIndex: [Node.ByIndex], [Edge.ByIndex],
// [Collection.ByIndex]); adjust one with [Query.Limit], [Query.Desc],
// [Query.ConsistentRead], a sort key condition ([Query.Between],
// [Query.GreaterThan], [Query.GreaterThanEqual], [Query.LessThan],
// [Query.LessThanEqual], [Query.BeginsWith]), [Query.Filter] or
// [Query.Project], then run it with [Query.All], [Query.Collect],
// [Query.Page] or [Query.Count].
//
// A Query is an immutable value: the adjusting methods return a modified
// copy, and one Query may run any number of times, concurrently. An invalid
// query (a bad id, say) carries its error to the call that runs it, which
// then makes no request.
type Query[T any] struct {
	querySpec
	decode func(Item) (T, bool, error)
}

// querySpec is everything a Query is but its decoder: what a query of
// another item type over the same keys ([PageIndex]) copies whole.
type querySpec struct {
	t          *Table
	op         string
	in         dynamodb.QueryInput // template; copied per run
	pkAttr     string              // partition key attribute of the table or index read
	skAttr     string              // its sort key attribute
	pk         string              // partition key value
	skPrefix   string              // the item type's sort key prefix on skAttr, "" for none
	cursorKeys []string            // attributes of LastEvaluatedKey
	keys       queryKeys           // the partition and item type read
	sk         skCond              // a sort key condition within skPrefix, if any
	filter     *expression.ConditionBuilder
	proj       []string // data attributes to project, nil for all
	calls      string   // the adjusting calls made, for Describe: ".Between(lo, hi)"
	wraps      string   // for AllTypes, the op of the query it widened: "Entity.List"
	excl       string   // LessThan's bound, which decode skips
	fp         string   // the fingerprint, once Page has computed it
	err        error
	// shards, when set, are the partitions of a sharded read, merged in
	// sort key order; pk is then their common logical key.
	shards []shard
}

// queryKeys names the partition a query reads and the optional filter on the
// table's sort key (for reverse reads, where the index sort key alone cannot
// tell edge labels apart).
type queryKeys struct {
	index        string
	pk, skPrefix string
	skExact      bool // sort key equals skPrefix instead of beginning with it
	filterPrefix string
	shardPKs     []string // the partitions of a sharded read, if any
	keysOnly     bool     // project only the key attributes
	// freeSK allows sort key conditions on whole values (an index sort
	// key whose template starts with a data attribute); rawSK takes
	// their values as given, not escaped (AllTypes' whole sort keys).
	freeSK, rawSK bool
	local         bool        // the index is a local secondary index
	native        *nativeKeys // the key condition on a native index
}

// newQuery builds the request once, so running the query repeats no
// expression building.
func newQuery[T any](t *Table, op string, k queryKeys, decode func(Item) (T, bool, error)) Query[T] {
	o := t.opts
	q := Query[T]{querySpec: querySpec{t: t, op: op, pk: k.pk, skPrefix: k.skPrefix, keys: k}, decode: decode}
	q.pkAttr, q.skAttr, q.cursorKeys = o.PartitionKey, o.SortKey, t.tableCursorKeys
	if k.index != "" {
		q.in.IndexName = aws.String(k.index)
		m := t.meta[k.index]
		if m == nil { // a table whose options failed: the error says why
			q.err = t.err
			return q
		}
		q.pkAttr, q.cursorKeys = m.pk[0], m.cursor
		q.skAttr = ""
		switch {
		case k.native != nil && k.native.next != nil:
			q.skAttr = k.native.next.Name
		case k.native == nil && len(m.sk) > 0:
			q.skAttr = m.sk[0]
		}
	}
	if t.err != nil {
		q.err = t.err
		return q
	}
	q.in.TableName = t.tableName
	q.in.ScanIndexForward = aws.Bool(true)
	return q.compile()
}

// compile sets the request's expressions, and each shard's values, from
// the query's keys and conditions.
func (q Query[T]) compile() Query[T] {
	if q.err != nil {
		return q
	}
	e, err := q.expressions(q.keys.keysOnly)
	if err != nil {
		q.err = err
		return q
	}
	if q.filter != nil {
		// The label filter names the table's sort key, which is no key of
		// the index it filters; any queried key attribute is the caller's.
		for _, ph := range placeholderRE.FindAllString(aws.ToString(e.filter), -1) {
			if name := e.names[ph]; name != "" && (name == q.pkAttr || name == q.skAttr) {
				q.err = fmt.Errorf("%w: filter on key attribute %s; use a sort key condition", ErrInvalidOption, name)
				return q
			}
		}
	}
	q.in.KeyConditionExpression, q.in.FilterExpression, q.in.ProjectionExpression = e.keyCond, e.filter, e.proj
	q.in.ExpressionAttributeNames = e.names
	if q.in.ExpressionAttributeValues, err = e.values(q.keys.pk); err != nil {
		q.err = err
		return q
	}
	q.shards = nil
	for _, pk := range q.keys.shardPKs {
		vals, err := e.values(pk)
		if err != nil {
			q.err = err
			return q
		}
		q.shards = append(q.shards, shard{pk: pk, values: vals})
	}
	return q
}

// exprSet is a query's expressions; values gives the values map for one
// partition key value (a shard's, or the query's own).
type exprSet struct {
	keyCond, filter, proj *string
	names                 map[string]string
	values                func(pk string) (map[string]types.AttributeValue, error)
}

// expressions returns the query's expressions, projecting only the key
// attributes if keysOnly. Queries without a filter or projection of the
// caller's share a template per shape, built once; the others are built
// with the SDK's expression builder when the query is made (and per shard).
func (q Query[T]) expressions(keysOnly bool) (exprSet, error) {
	k := q.keys
	k.keysOnly = keysOnly
	if q.filter == nil && q.proj == nil && k.native == nil {
		tpl, err := q.t.template(q.pkAttr, q.skAttr, k, q.sk.op)
		if err != nil {
			return exprSet{}, err
		}
		lo, hi := q.sk.lo, q.sk.hi
		if q.sk.op == skNone {
			lo = k.skPrefix
		}
		return exprSet{keyCond: tpl.keyCond, filter: tpl.filter, proj: tpl.proj, names: tpl.names,
			values: func(pk string) (map[string]types.AttributeValue, error) {
				return tpl.values(pk, lo, hi, k.filterPrefix), nil
			}}, nil
	}
	sk := q.sk
	if sk.op == skNone {
		sk.lo = k.skPrefix
	}
	build := func(pk string) (expression.Expression, error) {
		return q.t.buildExpr(q.pkAttr, q.skAttr, k, sk, pk, q.filter, q.proj)
	}
	first, err := build(k.pk)
	if err != nil {
		// Only the caller's filter or projection can make the builder fail.
		return exprSet{}, fmt.Errorf("%w: %w", ErrInvalidOption, err)
	}
	return exprSet{keyCond: first.KeyCondition(), filter: first.Filter(), proj: first.Projection(), names: first.Names(),
		values: func(pk string) (map[string]types.AttributeValue, error) {
			if pk == k.pk {
				return first.Values(), nil
			}
			// The builder numbers placeholders in the order it meets
			// them, so another partition's build differs in values only.
			e, err := build(pk)
			return e.Values(), err
		}}, nil
}

// exprShape is what a query's expressions depend on besides its values.
type exprShape struct {
	index                     string
	hasSK, skExact, hasFilter bool
	skOp                      skOp
	keysOnly                  bool
	pkAttr, skAttr            string
}

// exprTemplate is a query's expressions, built once per shape with the
// SDK's expression builder: the strings and names are shared by every
// query of that shape (read-only), and only the values map is made per
// query.
type exprTemplate struct {
	keyCond, filter, proj *string
	names                 map[string]string
	// roles maps each value placeholder to what it holds.
	roles map[string]valueRole
}

type valueRole int

const (
	rolePK valueRole = iota
	roleSK
	roleSKHi
	roleFilter
)

// Stand-ins for the values while building a template; ids cannot contain
// NUL, so no real value equals them.
var roleMarks = map[string]valueRole{"\x00pk": rolePK, "\x00sk": roleSK, "\x00skhi": roleSKHi, "\x00filter": roleFilter}

// template returns the expressions for queries shaped like k (with sort
// key condition op) on the table or index keyed by pkAttr and skAttr,
// building them on first use.
func (t *Table) template(pkAttr, skAttr string, k queryKeys, op skOp) (*exprTemplate, error) {
	shape := exprShape{index: k.index, hasSK: k.skPrefix != "" || k.skExact, skExact: k.skExact, skOp: op,
		hasFilter: k.filterPrefix != "", keysOnly: k.keysOnly, pkAttr: pkAttr, skAttr: skAttr}
	if tpl, ok := t.templates.Load(shape); ok {
		return tpl.(*exprTemplate), nil
	}
	if k.filterPrefix != "" {
		k.filterPrefix = "\x00filter"
	}
	expr, err := t.buildExpr(pkAttr, skAttr, k, skCond{op: op, lo: "\x00sk", hi: "\x00skhi"}, "\x00pk", nil, nil)
	if err != nil {
		return nil, err
	}
	tpl := &exprTemplate{keyCond: expr.KeyCondition(), filter: expr.Filter(), proj: expr.Projection(),
		names: expr.Names(), roles: map[string]valueRole{}}
	for placeholder, v := range expr.Values() {
		s, ok := v.(*types.AttributeValueMemberS)
		if ok {
			tpl.roles[placeholder], ok = roleMarks[s.Value]
		}
		if !ok {
			return nil, fmt.Errorf("adjlist: unexpected expression value %s", placeholder)
		}
	}
	actual, _ := t.templates.LoadOrStore(shape, tpl)
	return actual.(*exprTemplate), nil
}

// buildExpr builds a query's expressions with the SDK's builder: the key
// condition on pk and the sort key (the item type's prefix, or sk's
// condition within it), the label filter ANDed with filter, and the
// projection (every key attribute, plus proj's names unless nil; only the
// keys if k.keysOnly).
func (t *Table) buildExpr(pkAttr, skAttr string, k queryKeys, sk skCond, pk string, filter *expression.ConditionBuilder, proj []string) (expression.Expression, error) {
	if k.native != nil {
		return t.buildNative(k, sk, filter, proj)
	}
	kc := expression.Key(pkAttr).Equal(expression.Value(pk))
	switch {
	case k.skExact:
		kc = kc.And(expression.Key(skAttr).Equal(expression.Value(sk.lo)))
	case sk.op == skBetween:
		kc = kc.And(expression.Key(skAttr).Between(expression.Value(sk.lo), expression.Value(sk.hi)))
	case sk.op == skBeginsWith:
		kc = kc.And(expression.Key(skAttr).BeginsWith(sk.lo))
	case sk.op == skGT:
		kc = kc.And(expression.Key(skAttr).GreaterThan(expression.Value(sk.lo)))
	case sk.op == skGE:
		kc = kc.And(expression.Key(skAttr).GreaterThanEqual(expression.Value(sk.lo)))
	case sk.op == skLT:
		kc = kc.And(expression.Key(skAttr).LessThan(expression.Value(sk.lo)))
	case sk.op == skLE:
		kc = kc.And(expression.Key(skAttr).LessThanEqual(expression.Value(sk.lo)))
	case sk.op == skEQ:
		kc = kc.And(expression.Key(skAttr).Equal(expression.Value(sk.lo)))
	case k.skPrefix != "":
		kc = kc.And(expression.Key(skAttr).BeginsWith(sk.lo))
	}
	return t.finishExpr(expression.NewBuilder().WithKeyCondition(kc), k, filter, proj)
}

// finishExpr adds a query's filter (the label filter ANDed with filter)
// and projection to b and builds it.
func (t *Table) finishExpr(b expression.Builder, k queryKeys, filter *expression.ConditionBuilder, proj []string) (expression.Expression, error) {
	var cond *expression.ConditionBuilder
	if k.filterPrefix != "" {
		c := expression.Name(t.opts.SortKey).BeginsWith(k.filterPrefix)
		cond = &c
	}
	if filter != nil {
		if cond == nil {
			cond = filter
		} else {
			c := cond.And(*filter)
			cond = &c
		}
	}
	if cond != nil {
		b = b.WithFilter(*cond)
	}
	switch {
	case k.keysOnly || proj != nil:
		keyAttrs := t.keyAttrs
		if k.index != "" {
			keyAttrs = t.meta[k.index].proj
		}
		names := make([]expression.NameBuilder, 0, len(keyAttrs)+len(proj))
		for _, name := range keyAttrs {
			names = append(names, expression.Name(name))
		}
		if !k.keysOnly {
			for _, name := range proj {
				if !slices.Contains(keyAttrs, name) {
					names = append(names, expression.Name(name))
				}
			}
		}
		b = b.WithProjection(expression.NamesList(names[0], names[1:]...))
	}
	return b.Build()
}

// values returns a fresh values map for one query.
func (tpl *exprTemplate) values(pk, sk, skHi, filter string) map[string]types.AttributeValue {
	vals := make(map[string]types.AttributeValue, len(tpl.roles))
	// One allocation for every value, not one each: this is every
	// query's hot path.
	avs := make([]types.AttributeValueMemberS, len(tpl.roles))
	i := 0
	for placeholder, role := range tpl.roles {
		v := pk
		switch role {
		case roleSK:
			v = sk
		case roleSKHi:
			v = skHi
		case roleFilter:
			v = filter
		}
		avs[i].Value = v
		vals[placeholder] = &avs[i]
		i++
	}
	return vals
}

// errQuery returns a Query that fails with err when run.
func errQuery[T any](t *Table, op string, err error) Query[T] {
	return Query[T]{querySpec: querySpec{t: t, op: op, err: err}}
}

// Limit sets how many items DynamoDB evaluates per request (QueryInput.Limit):
// the most items one [Query.Page] returns, and the page size [Query.All]
// fetches. Zero (the default) leaves the page to DynamoDB's 1 MB cap. Items
// dropped by a filter (reverse reads of tables shared by several edge labels)
// count toward it. A negative n is an [ErrInvalidOption] when run.
func (q Query[T]) Limit(n int32) Query[T] {
	switch {
	case n < 0:
		q.err = fmt.Errorf("%w: negative limit %d", ErrInvalidOption, n)
	case n == 0:
		q.in.Limit = nil
	default:
		q.in.Limit = aws.Int32(n)
	}
	return q
}

// Desc returns items in descending sort key order (ScanIndexForward=false).
// The default is ascending.
func (q Query[T]) Desc() Query[T] {
	q.in.ScanIndexForward = aws.Bool(false)
	q.calls += ".Desc()"
	return q
}

// ConsistentRead asks for a strongly consistent read. Queries on the base
// table and on local secondary indexes support it: on a global secondary
// index (a reverse read, or [Index] with Local false) the query fails with
// [ErrIndexConsistentRead] before any request is sent.
func (q Query[T]) ConsistentRead() Query[T] {
	if q.in.IndexName != nil && !q.keys.local {
		q.err = ErrIndexConsistentRead
	}
	q.in.ConsistentRead = aws.Bool(true)
	return q
}

func (q Query[T]) wrap(err error) error {
	return &OpError{Op: q.op, Table: q.t.name, Index: aws.ToString(q.in.IndexName), PK: q.pk, SK: q.skPrefix, Err: err}
}

// All returns an iterator over every item of the query, fetching pages
// lazily with the SDK's Query paginator: one Query request per page, and no
// further request once the loop breaks. On failure it yields the error once,
// with a zero T, and stops. Items that belong to other access patterns
// sharing the partition are skipped, never mis-decoded.
func (q Query[T]) All(ctx context.Context) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		if q.err != nil {
			yield(zero, q.wrap(q.err))
			return
		}
		if q.shards != nil {
			q.allMerged(ctx, yield)
			return
		}
		err := q.eachPage(ctx, q.in, func(out *dynamodb.QueryOutput) (bool, error) {
			for _, item := range out.Items {
				v, ok, err := q.decode(item)
				if err != nil {
					return false, err
				}
				if ok && !yield(v, nil) {
					return false, nil
				}
			}
			return true, nil
		})
		if err != nil {
			yield(zero, q.wrap(err))
		}
	}
}

// eachPage runs one partition's query to the end with the SDK's Query
// paginator, handing each page to page until it returns false or an error.
func (q Query[T]) eachPage(ctx context.Context, in dynamodb.QueryInput, page func(*dynamodb.QueryOutput) (bool, error)) error {
	pages := dynamodb.NewQueryPaginator(q.t.client, &in)
	for pages.HasMorePages() {
		out, err := pages.NextPage(ctx, callOpts(ctx)...)
		if err != nil {
			return err
		}
		if more, err := page(out); !more || err != nil {
			return err
		}
	}
	return nil
}

// Collect runs the query to the end and returns all its items; see
// [Query.All].
func (q Query[T]) Collect(ctx context.Context) ([]T, error) {
	var items []T
	if q.err != nil || q.shards != nil {
		for v, err := range q.All(ctx) {
			if err != nil {
				return nil, err
			}
			items = append(items, v)
		}
		return items, nil
	}
	err := q.eachPage(ctx, q.in, func(out *dynamodb.QueryOutput) (bool, error) {
		var err error
		items, err = q.appendDecoded(items, out.Items)
		return err == nil, err
	})
	if err != nil {
		return nil, q.wrap(err)
	}
	return items, nil
}

// appendDecoded appends a page's items of this query's kind, decoded, to
// dst, growing it once for the page rather than once per item.
func (q Query[T]) appendDecoded(dst []T, items []Item) ([]T, error) {
	dst = slices.Grow(dst, len(items))
	for _, item := range items {
		v, ok, err := q.decode(item)
		if err != nil {
			return dst, err
		}
		if ok {
			dst = append(dst, v)
		}
	}
	return dst, nil
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
// is counted; All fails on it.
func (q Query[T]) Count(ctx context.Context) (int, error) {
	if q.err != nil {
		return 0, q.wrap(q.err)
	}
	e, err := q.expressions(true)
	if err != nil {
		return 0, q.wrap(err)
	}
	if q.shards != nil {
		return q.countMerged(ctx, e)
	}
	n, err := q.count(ctx, q.in, e, q.pk)
	if err != nil {
		return 0, q.wrap(err)
	}
	return n, nil
}

// count runs one partition's query (partition key value pk) to the end
// with e, its keys-only expressions, and counts the items q.decode accepts.
func (q Query[T]) count(ctx context.Context, in dynamodb.QueryInput, e exprSet, pk string) (int, error) {
	var err error
	in.KeyConditionExpression, in.FilterExpression, in.ProjectionExpression = e.keyCond, e.filter, e.proj
	in.ExpressionAttributeNames = e.names
	if in.ExpressionAttributeValues, err = e.values(pk); err != nil {
		return 0, err
	}
	n := 0
	err = q.eachPage(ctx, in, func(out *dynamodb.QueryOutput) (bool, error) {
		for _, item := range out.Items {
			_, ok, err := q.decode(item)
			if err != nil {
				return false, err
			}
			if ok {
				n++
			}
		}
		return true, nil
	})
	return n, err
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
// handlers that hand the cursor to a client.
func (q Query[T]) Page(ctx context.Context, cursor string) (Page[T], error) {
	if q.err != nil {
		return Page[T]{}, q.wrap(q.err)
	}
	q.fp = q.fingerprint() // once, for the cursor read and the one written
	if q.shards != nil {
		return q.pageMerged(ctx, cursor)
	}
	in := q.in
	if cursor != "" {
		start, err := q.decodeCursor(cursor)
		if err != nil {
			return Page[T]{}, q.wrap(err)
		}
		in.ExclusiveStartKey = start
	}
	out, err := q.t.client.Query(ctx, &in, callOpts(ctx)...)
	if err != nil {
		return Page[T]{}, q.wrap(err)
	}
	var page Page[T]
	if page.Items, err = q.appendDecoded([]T{}, out.Items); err != nil {
		return Page[T]{}, q.wrap(err)
	}
	if len(out.LastEvaluatedKey) > 0 {
		if page.Cursor, err = q.encodeCursor(out.LastEvaluatedKey); err != nil {
			return Page[T]{}, q.wrap(err)
		}
	}
	return page, nil
}

// cursor is the JSON inside a page cursor. It records which query it
// belongs to so that a cursor cannot be replayed against another one.
type cursor struct {
	V     int               `json:"v"`
	Index string            `json:"i,omitempty"`
	Desc  bool              `json:"d,omitempty"`
	Query string            `json:"q"` // the query's fingerprint
	Key   map[string]string `json:"k,omitempty"`
	// Num holds the key attributes that are numbers (native index keys).
	Num map[string]string `json:"n,omitempty"`
	// Shards holds, for a sharded read, where each shard resumes.
	Shards []shardState `json:"s,omitempty"`
}

// shardState is one shard's place in a merged read: not started (zero),
// resuming after Key, or Done.
type shardState struct {
	Done bool              `json:"x,omitempty"`
	Key  map[string]string `json:"k,omitempty"`
}

// cursorVersion 2 added the query fingerprint.
const cursorVersion = 2

// keyStrings turns a LastEvaluatedKey into plain strings (all key
// attributes of this package's tables are strings).
func keyStrings(lek Item) (map[string]string, error) {
	m, nums, err := keyText(lek)
	if err == nil && nums != nil {
		err = fmt.Errorf("adjlist: LastEvaluatedKey has number attributes %v, want strings", nums)
	}
	return m, err
}

// keyText splits a LastEvaluatedKey into its string and number
// attributes' text (nums is nil when there are none).
func keyText(lek Item) (strs, nums map[string]string, err error) {
	strs = make(map[string]string, len(lek))
	for name, av := range lek {
		switch v := av.(type) {
		case *types.AttributeValueMemberS:
			strs[name] = v.Value
		case *types.AttributeValueMemberN:
			if nums == nil {
				nums = map[string]string{}
			}
			nums[name] = v.Value
		default:
			return nil, nil, fmt.Errorf("adjlist: LastEvaluatedKey attribute %q is %T, want a string or number", name, av)
		}
	}
	return strs, nums, nil
}

func (q Query[T]) encodeCursor(lek Item) (string, error) {
	key, num, err := keyText(lek)
	if err != nil {
		return "", err
	}
	return q.sealCursor(cursor{Key: key, Num: num})
}

// sealCursor stamps c with the query's identity, encodes it and, with a
// CursorKey, signs it.
func (q Query[T]) sealCursor(c cursor) (string, error) {
	c.V, c.Index, c.Desc = cursorVersion, aws.ToString(q.in.IndexName), !aws.ToBool(q.in.ScanIndexForward)
	c.Query = q.fingerprint()
	b, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	out := base64.RawURLEncoding.EncodeToString(b)
	if key := q.t.opts.CursorKey; key != nil {
		out += "." + base64.RawURLEncoding.EncodeToString(signCursor(key, b))
	}
	return out, nil
}

// signCursor is the HMAC-SHA256 of a cursor's JSON under the table's key.
func signCursor(key, payload []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(payload)
	return m.Sum(nil)
}

func badCursor(why string) error { return fmt.Errorf("%w: %s", ErrInvalidCursor, why) }

// fingerprint identifies everything that shapes the query's results
// besides its page size: the operation (and so the item type), the index,
// the key condition, filter and projection with their names and values
// (partition, sort key prefix or range, label filter), the shards and the
// direction. A cursor carries it, so that it resumes only the query that
// issued it. It is 72 bits of SHA-256, base64url: enough to tell queries
// apart; forging is the signature's job ([Options.CursorKey]).
func (q Query[T]) fingerprint() string {
	if q.fp != "" {
		return q.fp
	}
	h := sha256.New()
	field := func(s string) { fmt.Fprintf(h, "%d:%s;", len(s), s) }
	field(q.op)
	field(aws.ToString(q.in.IndexName))
	field(aws.ToString(q.in.KeyConditionExpression))
	field(aws.ToString(q.in.FilterExpression))
	field(aws.ToString(q.in.ProjectionExpression))
	field(fmt.Sprint(aws.ToBool(q.in.ScanIndexForward), len(q.shards)))
	for _, name := range slices.Sorted(maps.Keys(q.in.ExpressionAttributeNames)) {
		field(name)
		field(q.in.ExpressionAttributeNames[name])
	}
	for _, ph := range slices.Sorted(maps.Keys(q.in.ExpressionAttributeValues)) {
		field(ph)
		field(fmt.Sprintf("%T", q.in.ExpressionAttributeValues[ph]))
		field(attrText(q.in.ExpressionAttributeValues[ph]))
	}
	for _, sh := range q.shards {
		field(sh.pk)
	}
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:9])
}

// attrText is a value's text for the fingerprint: strings and numbers as
// they are, anything else as JSON of its Go form.
func attrText(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		return v.Value
	}
	var x any
	if err := attributevalue.Unmarshal(av, &x); err != nil {
		return err.Error()
	}
	b, _ := json.Marshal(x)
	return string(b)
}

// decodeExact decodes unpadded base64url and accepts only the one
// canonical spelling: Go's decoder also takes other final characters
// (unused low bits) and ignores '\r' and '\n', so a second string would
// open the same cursor.
func decodeExact(s string) ([]byte, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || base64.RawURLEncoding.EncodedLen(len(b)) != len(s) || base64.RawURLEncoding.EncodeToString(b) != s {
		return nil, ErrInvalidCursor
	}
	return b, nil
}

// openCursor checks a cursor's encoding (strict: only the string issued
// opens), signature and identity (version, index, direction, query).
func (q Query[T]) openCursor(s string) (cursor, error) {
	var c cursor
	payload, sig, signed := strings.Cut(s, ".")
	b, err := decodeExact(payload)
	if err != nil {
		return c, badCursor("not canonical base64url")
	}
	if key := q.t.opts.CursorKey; key != nil {
		mac, err := decodeExact(sig)
		if !signed || err != nil || !hmac.Equal(mac, signCursor(key, b)) {
			return c, badCursor("signature does not match")
		}
	} else if signed {
		return c, badCursor("signed, but the table has no CursorKey")
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, badCursor("not a cursor")
	}
	switch {
	case c.V != cursorVersion:
		return c, badCursor(fmt.Sprintf("version %d", c.V))
	case c.Index != aws.ToString(q.in.IndexName):
		return c, badCursor("from another index")
	case c.Desc == aws.ToBool(q.in.ScanIndexForward):
		return c, badCursor("from the other direction")
	case (c.Shards != nil) != (q.shards != nil):
		return c, badCursor("from a read with another number of shards")
	case c.Query != q.fingerprint():
		return c, badCursor("from another query")
	}
	return c, nil
}

// startKey validates a cursor's key against partition pk and the query's
// sort key range, and returns it as an ExclusiveStartKey.
func (q Query[T]) startKey(key, num map[string]string, pk string) (Item, error) {
	switch {
	case len(key)+len(num) != len(q.cursorKeys):
		return nil, badCursor("wrong key attributes")
	case q.keys.native != nil:
		for _, v := range q.keys.native.eq {
			if s, n := key[v.name], num[v.name]; attrText(v.av) != s+n {
				return nil, badCursor("from another partition")
			}
		}
	case key[q.pkAttr] != pk:
		return nil, badCursor("from another partition")
	case !q.sk.holds(key[q.skAttr], q.skPrefix):
		return nil, badCursor("outside the query's sort key range")
	}
	start := make(Item, len(q.cursorKeys))
	for _, name := range q.cursorKeys {
		if v, ok := key[name]; ok && v != "" {
			start[name] = &types.AttributeValueMemberS{Value: v}
			continue
		}
		v, ok := num[name]
		if !ok {
			return nil, badCursor("wrong key attributes")
		}
		n, err := numberText(name, v)
		if err != nil {
			return nil, badCursor("wrong key attributes")
		}
		start[name] = n
	}
	return start, nil
}

func (q Query[T]) decodeCursor(s string) (Item, error) {
	c, err := q.openCursor(s)
	if err != nil {
		return nil, err
	}
	return q.startKey(c.Key, c.Num, q.pk)
}
