package adjlist_test

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/internal/testsize"
)

// The escaping matrix: ids and data values that a key written unescaped,
// or a read that spells a key part otherwise than the write, would
// misplace, in every part of every table and index key of every handle,
// each read back by every path that reaches it.

// hxLong is an id whose escaped spelling is 990 bytes, near the 1,024 of
// the sort keys it lands in (behind an edge's label in a child's ref, in
// an entity's sort key beside another id, in an index sort key).
var hxLong = strings.Repeat("é#", 198)

// hxIDs are the matrix's ids: '#' and '%' anywhere, escapes spelled
// out, unicode around a '#', and a long one.
var hxIDs = []string{"a#b", "%23", "%", "#", "a%b#c", "#leading", "trailing#", "é#ü", hxLong}

// hxData is every item type's data: tag and label key the native indexes
// (label holds a hostile value as it is), name feeds derived index keys.
type hxData struct {
	Tag   string `dynamodbav:"tag,omitempty"`
	Label string `dynamodbav:"label,omitempty"`
	Name  string `dynamodbav:"name,omitempty"`
}

// hxModel is one table with every kind of index (the inverted GSI1,
// derived global GSI2 and GSI3, derived local LSI1, native global NAT and
// native local LSN on a string sort attribute, native NSK on the table's
// sort key) and every handle: nodes, a collection and a sharded one, a
// labelled and an unlabelled edge between nodes, edges into and from
// children, counters, an entity of four key fields, and those below.
type hxModel struct {
	table                      *adjlist.Table
	calls                      *countingClient
	ws, stu, crs, tag          *adjlist.Node[hxData]
	proj, task                 *adjlist.Collection[hxData, hxData]
	enroll, likes, tagged, has *adjlist.Edge[hxData]
	enrolled, hasCount, liked  *edgeCounter[hxData]
	order                      *adjlist.Entity[hxData]
	// A self-keyed node type in a sharded index, a sharded edge between
	// its nodes, and an entity whose keys start with fields.
	usr     *adjlist.Node[hxData]
	follows *adjlist.Edge[hxData]
	item    *adjlist.Entity[hxData]
}

// The partitions the matrix fills, each of a hostile id: a parent whose
// id holds '%' but no '#' (range values name its children's refs, which
// the rule cuts at the '#'s; the hostile ids are parents too), a student,
// two courses, a tag, a child, an entity's partitions, two users.
const (
	hxPP      = "ac%me"
	hxStudent = "st#u%"
	hxCourse  = "cr#s%"
	hxCourse1 = "cr%s#1"
	hxTag     = "t#g%"
	hxTag1    = "t%g#1"
	hxOrg     = "or#g%"
	hxUser    = "u#1%"
	hxKid     = "c#0%"
	hxUsr0    = "u#0%"
	hxUsr1    = "u%1#"
	hxPlay    = "p#l%"
)

func newHxModel(t *testing.T) *hxModel {
	t.Helper()
	db := ddbtest.Client(t)
	m := &hxModel{calls: &countingClient{Client: db}}
	m.table = adjlist.NewTable(m.calls, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{
			{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"},
			{Name: "GSI3", PartitionKey: "GSI3PK", SortKey: "GSI3SK"},
			{Name: "LSI1", Local: true, SortKey: "LSI1SK"},
			{Name: "NAT", PartitionAttributes: []adjlist.KeyAttribute{{Name: "tag"}}, SortAttributes: []adjlist.KeyAttribute{{Name: "label"}}},
			{Name: "LSN", Local: true, SortAttributes: []adjlist.KeyAttribute{{Name: "label"}}},
			{Name: "NSK", PartitionAttributes: []adjlist.KeyAttribute{{Name: "tag"}}, SortAttributes: []adjlist.KeyAttribute{{Name: "SK"}}},
		}
	})
	ddbtest.CreateTable(t, m.table)
	keys := func(pk, sk adjlist.KeyTemplate, local string) []adjlist.IndexKeys {
		return []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: pk, SortKey: sk},
			{Index: "LSI1", SortKey: adjlist.Template(local + "#{name}")}}
	}
	m.ws = adjlist.NewNode[hxData](m.table, "WS", "META", func(o *adjlist.NodeOptions) {
		o.Indexes = keys(adjlist.Template("TAG#{tag}"), adjlist.Template("{@self}"), "W")
	})
	m.proj = adjlist.NewCollection[hxData](m.ws, "PROJ", func(o *adjlist.CollectionOptions) {
		o.Indexes = keys(adjlist.Template("IN#{@parent}"), adjlist.Template("{@self}"), "P")
	})
	m.task = adjlist.NewCollection[hxData](m.ws, "TASK", func(o *adjlist.CollectionOptions) {
		o.Shards = 4
		o.Indexes = keys(adjlist.Template("ON#{@parent}"), adjlist.Template("{@self}"), "T")
	})
	m.stu = adjlist.NewNode[hxData](m.table, "STU", "PROFILE")
	m.crs = adjlist.NewNode[hxData](m.table, "CRS", "METADATA")
	m.tag = adjlist.NewNode[hxData](m.table, "TAG", "META")
	m.enroll = adjlist.NewEdge[hxData](m.stu, "ENROLL", m.crs, func(o *adjlist.EdgeOptions) {
		o.Indexes = keys(adjlist.Template("{@target}"), adjlist.Template("{@source}"), "E")
	})
	m.likes = adjlist.NewEdge[hxData](m.stu, "", m.crs, func(o *adjlist.EdgeOptions) {
		o.Indexes = append(keys(adjlist.Template("LIKED#{@target}"), adjlist.Template("{@source}"), "L"),
			adjlist.IndexKeys{Index: "GSI3", PartitionKey: adjlist.Template("BY#{@source}"), SortKey: adjlist.Template("{@self}")})
	})
	m.tagged = adjlist.NewEdge[hxData](m.tag, "TAGGED", m.proj, func(o *adjlist.EdgeOptions) {
		o.Indexes = append(keys(adjlist.Template("TO#{@target}"), adjlist.Template("{@source}"), "G"),
			adjlist.IndexKeys{Index: "GSI3", PartitionKey: adjlist.Template("{@self}"), SortKey: adjlist.Template("{@source}")})
	})
	m.has = adjlist.NewEdge[hxData](m.proj, "HAS", m.tag, func(o *adjlist.EdgeOptions) {
		o.Indexes = keys(adjlist.Template("FROM#{@source}"), adjlist.Template("{@target}"), "H")
	})
	m.enrolled = newCountedEdge(m.table, "CRS", m.enroll, "ENROLLED", stream)
	m.hasCount = newCountedEdge(m.table, "TAG", m.has, "HASCOUNT", stream)
	m.liked = newEdgeCounter(m.likes, "LIKED")
	m.order = adjlist.NewEntity[hxData](m.table, "order", "ORG#{org}#U#{user}", "D#{date}#O#{order}", func(o *adjlist.EntityOptions) {
		o.Indexes = []adjlist.IndexKeys{
			{Index: "GSI2", PartitionKey: adjlist.Template("O#{order}"), SortKey: adjlist.Template("{user}#{date}")},
			{Index: "GSI3", PartitionKey: adjlist.Template("N#{name}"), SortKey: adjlist.Template("{@self}")},
			{Index: "LSI1", SortKey: adjlist.Template("{name}%#{order}")}, // text holding '%' after a value
		}
	})
	m.usr = adjlist.NewNode[hxData](m.table, "USR", "", func(o *adjlist.NodeOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("U#{tag}"), SortKey: adjlist.Template("{@self}")},
			{Index: "GSI3", PartitionKey: adjlist.Template("ALLU"), SortKey: adjlist.Template("{name}"), Shards: 3}}
	})
	m.follows = adjlist.NewEdge[hxData](m.usr, "FOLLOWS", m.usr, func(o *adjlist.EdgeOptions) { o.Shards = 3 })
	m.item = adjlist.NewEntity[hxData](m.table, "item", "{player}", "{state}#{item}")
	require.NoError(t, m.table.Check())
	return m
}

// hxEsc is an id as keys hold it ('#' → "%23", '%' → "%25").
func hxEsc(id string) string {
	return strings.NewReplacer("%", "%25", "#", "%23").Replace(id)
}

// hxItem is an item a read returns, as its show prints it, and the sort
// key text a range condition compares: after the query's prefix, or the
// whole value where there is none.
type hxItem struct{ show, key string }

// hxValue is a range value as a read takes it, and its text in a key.
type hxValue struct{ v, key string }

// hxOneID is the range values of a key that ends in one id: each id,
// escaped.
func hxOneID(ids []string) []hxValue {
	var out []hxValue
	for _, id := range ids {
		out = append(out, hxValue{id, hxEsc(id)})
	}
	return out
}

// hxRaw is the range values of a native attribute: the values as they
// are.
func hxRaw(vs []string) []hxValue {
	var out []hxValue
	for _, v := range vs {
		out = append(out, hxValue{v, v})
	}
	return out
}

// hxReads checks base and every range condition of each value on it:
// Collect returns exactly the items whose key the condition keeps, in
// key order (polled, for global indexes lag); so do pages of one item
// resumed by their cursors (each holding the hostile key its page ended
// on), and Count, for base in both directions, for one Between and for
// each condition of one value.
func hxReads[T any](t *testing.T, base adjlist.Query[T], show func(T) string, items []hxItem, values []hxValue) {
	t.Helper()
	items = slices.SortedFunc(slices.Values(items), func(a, b hxItem) int { return cmp.Compare(a.key, b.key) })
	want := func(keep func(string) bool) []string {
		var out []string
		for _, it := range items {
			if keep(it.key) {
				out = append(out, it.show)
			}
		}
		return out
	}
	all := want(func(string) bool { return true })
	hxCheck(t, "all", base, show, all, waitIndex, true) // polled: global indexes lag
	hxCheck(t, "all, descending", base.Desc(), show, reversed(all), 0, hxTier(t, "desc"))
	for i, v := range values {
		check := hxOnce[T]
		if i == len(values)/2 {
			if hxTier(t, "paged") {
				check = hxFast[T] // one value's conditions paged too
			}
		} else if !hxTier(t, fmt.Sprint(i)) {
			continue
		}
		for _, c := range []struct {
			name string
			q    adjlist.Query[T]
			keep func(string) bool
		}{
			{"GreaterThan", base.GreaterThan(v.v), func(k string) bool { return k > v.key }},
			{"GreaterThanEqual", base.GreaterThanEqual(v.v), func(k string) bool { return k >= v.key }},
			{"LessThan", base.LessThan(v.v), func(k string) bool { return k < v.key }},
			{"LessThanEqual", base.LessThanEqual(v.v), func(k string) bool { return k <= v.key }},
			{"BeginsWith", base.BeginsWith(v.v), func(k string) bool { return strings.HasPrefix(k, v.key) }},
			{"Equal", base.Equal(v.v), func(k string) bool { return k == v.key }},
		} {
			check(t, fmt.Sprintf("%s(%.20q)", c.name, v.v), c.q, show, want(c.keep))
		}
	}
	sorted := slices.SortedFunc(slices.Values(values), func(a, b hxValue) int { return cmp.Compare(a.key, b.key) })
	for i := 1; i < len(sorted); i++ {
		lo, hi := sorted[i-1], sorted[i]
		if i > 1 {
			lo = sorted[i-2] // two steps, so that each range holds items
		}
		check := hxOnce[T]
		if i == len(sorted)/2 {
			// One range paged: the pages of "all" already resume from
			// every hostile key, and paging every range one item at a
			// time was a quarter of this test's requests.
			if hxTier(t, "paged between") {
				check = hxFast[T]
			}
		} else if !hxTier(t, "between"+fmt.Sprint(i)) {
			continue
		}
		check(t, fmt.Sprintf("Between(%.20q, %.20q)", lo.v, hi.v), base.Between(lo.v, hi.v), show,
			want(func(k string) bool { return lo.key <= k && k <= hi.key }))
	}
}

func reversed(s []string) []string {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}

// hxRead checks that q returns want: collected (polled for at most
// waitIndex), and, for the reads hxTier takes, paged one item at a time
// and counted.
func hxRead[T any](t *testing.T, name string, q adjlist.Query[T], show func(T) string, want []string) {
	t.Helper()
	hxCheck(t, name, q, show, want, waitIndex, hxTier(t, name))
}

// hxTier reports whether the check named name of test t runs in this
// tier: every check in `make stress`; in `make test`, which the matrix's
// 8,000 requests made a minute long, one in three, picked by the names'
// hash, so that the reads take different thirds of the values and of the
// paged checks. Every read's "all" is always paged, its cursors resuming
// from every hostile key.
func hxTier(t *testing.T, name string) bool {
	if testsize.Stress() {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(t.Name() + "\x00" + name))
	return h.Sum32()%3 == 0
}

// hxFast is hxRead without the polls, for reads of an index that has
// returned every item already.
func hxFast[T any](t *testing.T, name string, q adjlist.Query[T], show func(T) string, want []string) {
	t.Helper()
	hxCheck(t, name, q, show, want, 0, true)
}

// hxOnce checks q's Collect only.
func hxOnce[T any](t *testing.T, name string, q adjlist.Query[T], show func(T) string, want []string) {
	t.Helper()
	hxCheck(t, name, q, show, want, 0, false)
}

func hxCheck[T any](t *testing.T, name string, q adjlist.Query[T], show func(T) string, want []string, wait time.Duration, paged bool) {
	t.Helper()
	ctx := context.Background()
	var got []string
	var err error
	deadline := time.Now().Add(wait)
	for {
		var items []T
		items, err = q.Collect(ctx)
		got = got[:0]
		for _, v := range items {
			got = append(got, show(v))
		}
		if err == nil && slices.Equal(got, want) || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !assert.NoError(t, err, name) || !assert.Equal(t, want, got, "%s: Collect", name) || !paged {
		return
	}
	var pages []string
	cursor := ""
	for page := 0; ; page++ {
		if !assert.Less(t, page, 4*len(want)+8, "%s: pages never end", name) {
			return
		}
		p, err := q.Limit(1).Page(ctx, cursor)
		if !assert.NoError(t, err, "%s: page %d", name, page) {
			return
		}
		for _, v := range p.Items {
			pages = append(pages, show(v))
		}
		if cursor = p.Cursor; cursor == "" {
			break
		}
	}
	assert.Equal(t, want, pages, "%s: pages of one", name)
	n, err := q.Count(ctx)
	assert.NoError(t, err, name)
	assert.Equal(t, len(want), n, "%s: Count", name)
}

func hxNode(v adjlist.NodeItem[hxData]) string    { return v.ID }
func hxChildShow(v adjlist.Child[hxData]) string  { return v.Parent + "/" + v.ID }
func hxEdge(v adjlist.EdgeItem[hxData]) string    { return v.From + " → " + v.To }
func hxIDsOf(v adjlist.EntityItem[hxData]) string { return fmt.Sprintf("%q", []string(v.IDs)) }

// hxRef is a PROJ child's ref.
func hxRef(t *testing.T, m *hxModel, parent, child string) string {
	t.Helper()
	ref, err := m.proj.Ref(parent, child)
	require.NoError(t, err)
	return ref
}

// TestEscapingMatrix: every hostile id and data value, in every part of
// every table and index key of every handle, is read back exactly, under
// the id it was written with, by every read that reaches it: Get, the
// handles' listings, ByIndex on every kind of index, every range
// condition (the items whose stored key it keeps, and no others), pages
// of one item resumed by a cursor holding a hostile key, AllTypes with
// Load and PageIndex, Scan, Table.TypeOf and Decode, and Verify, which
// finds nothing. Every range condition and page in make stress; in make
// test the third hxTier picks.
func TestEscapingMatrix(t *testing.T) {
	t.Parallel()
	m := newHxModel(t)
	ctx := context.Background()
	n := len(hxIDs)
	data := func(tag, v string) hxData { return hxData{Tag: tag, Label: v, Name: v} }

	// Writes.
	for i, id := range hxIDs {
		next := hxIDs[(i+1)%n]
		require.NoError(t, m.ws.Put(ctx, id, data("ws", id)), "%q", id)
		if i == 0 { // every edge's endpoints exist, so that Verify finds none dangling
			require.NoError(t, m.stu.Put(ctx, hxStudent, hxData{Name: "me"}))
			require.NoError(t, m.ws.Put(ctx, hxPP, hxData{}))
			require.NoError(t, m.proj.Put(ctx, hxPP, hxKid, data("proj", hxKid)))
			require.NoError(t, m.tag.Put(ctx, hxTag, hxData{}))
			require.NoError(t, m.tag.Put(ctx, hxTag1, hxData{}))
			require.NoError(t, m.crs.Put(ctx, hxCourse, hxData{}))
			require.NoError(t, m.crs.Put(ctx, hxCourse1, hxData{}))
		}
		require.NoError(t, m.stu.Put(ctx, id, hxData{}))
		require.NoError(t, m.crs.Put(ctx, id, hxData{}))
		require.NoError(t, m.tag.Put(ctx, id, hxData{}))
		require.NoError(t, m.proj.Put(ctx, hxPP, id, data("proj", id)))
		require.NoError(t, m.proj.Put(ctx, id, hxKid, hxData{Name: id}), "a hostile parent")
		require.NoError(t, m.task.Put(ctx, hxPP, id, data("task", id)))
		require.NoError(t, m.task.Put(ctx, id, hxKid, hxData{Name: id}))
		require.NoError(t, m.enroll.Put(ctx, hxStudent, id, data("enroll", id)))
		require.NoError(t, m.enrolled.Apply(ctx, "100", hxStudent, id, true), "every edge counted from a stream")
		require.NoError(t, m.enroll.Put(ctx, id, hxCourse, data("", id)))
		require.NoError(t, m.enrolled.Apply(ctx, "100", id, hxCourse, true))
		require.NoError(t, m.enroll.Put(ctx, id, hxCourse1, hxData{}))
		require.NoError(t, m.enrolled.Apply(ctx, "100", id, hxCourse1, true))
		require.NoError(t, m.enrolled.Apply(ctx, "100", id, hxCourse1, true), "a duplicate record")
		require.NoError(t, m.likes.Put(ctx, hxStudent, id, data("likes", id)), "counted at write time")
		require.NoError(t, m.likes.Put(ctx, id, hxCourse, hxData{Name: id}))
		require.NoError(t, m.tagged.Put(ctx, hxTag, hxRef(t, m, hxPP, id), data("tagged", id)))
		require.NoError(t, m.tagged.Put(ctx, id, hxRef(t, m, hxPP, hxKid), hxData{Name: id}))
		require.NoError(t, m.has.Put(ctx, hxRef(t, m, hxPP, hxKid), id, data("has", id)))
		require.NoError(t, m.hasCount.Apply(ctx, "100", hxRef(t, m, hxPP, hxKid), id, true))
		require.NoError(t, m.has.Put(ctx, hxRef(t, m, hxPP, id), hxTag, hxData{Name: id}))
		require.NoError(t, m.hasCount.Apply(ctx, "100", hxRef(t, m, hxPP, id), hxTag, true))
		require.NoError(t, m.has.Put(ctx, hxRef(t, m, hxPP, id), hxTag1, hxData{}))
		require.NoError(t, m.hasCount.Apply(ctx, "100", hxRef(t, m, hxPP, id), hxTag1, true), "counted from a stream, a ref the source")
		require.NoError(t, m.hasCount.Apply(ctx, "100", hxRef(t, m, hxPP, id), hxTag1, true), "a duplicate record")
		require.NoError(t, m.order.Put(ctx, adjlist.IDs{hxOrg, hxUser, id, next}, data("order", id)))
		require.NoError(t, m.order.Put(ctx, adjlist.IDs{id, id, "2026", "o1"}, hxData{Name: id}))
		if i == 0 {
			require.NoError(t, m.usr.Put(ctx, hxUsr0, hxData{}))
			require.NoError(t, m.usr.Put(ctx, hxUsr1, hxData{}))
		}
		require.NoError(t, m.usr.Put(ctx, id, data("usr", id)))
		require.NoError(t, m.follows.Put(ctx, hxUsr0, id, hxData{}))
		require.NoError(t, m.follows.Put(ctx, id, hxUsr1, hxData{}))
		require.NoError(t, m.item.Put(ctx, adjlist.IDs{hxPlay, id, next}, hxData{}))
	}
	// An update re-derives index keys from hostile ids and values.
	for _, id := range hxIDs {
		_, err := m.proj.Update(ctx, hxPP, id, adjlist.Set("name", id))
		require.NoError(t, err)
		_, err = m.order.Update(ctx, adjlist.IDs{id, id, "2026", "o1"}, adjlist.Set("name", id))
		require.NoError(t, err)
	}

	// The items each read must return, with the key text its ranges
	// compare.
	ppKids := append(slices.Clone(hxIDs), hxKid) // the children of hxPP
	var taskItems, projItems []hxItem
	for _, id := range ppKids {
		projItems = append(projItems, hxItem{hxPP + "/" + id, hxEsc(id)})
	}
	var wsItems, childItems, stuItems, refItems, tagItems, refSrcItems, orderItems, userItems []hxItem
	for i, id := range hxIDs {
		wsItems = append(wsItems, hxItem{id, hxEsc(id)})
		taskItems = append(taskItems, hxItem{hxPP + "/" + id, hxEsc(id)})
		childItems = append(childItems, hxItem{hxStudent + " → " + id, hxEsc(id)})
		stuItems = append(stuItems, hxItem{id + " → " + hxCourse, hxEsc(id)})
		refItems = append(refItems, hxItem{hxTag + " → " + hxRef(t, m, hxPP, id), hxEsc(hxPP) + "#PROJ#" + hxEsc(id)})
		tagItems = append(tagItems, hxItem{id + " → " + hxRef(t, m, hxPP, hxKid), hxEsc(id)})
		refSrcItems = append(refSrcItems, hxItem{hxRef(t, m, hxPP, hxKid) + " → " + id, hxEsc(id)})
		orderItems = append(orderItems, hxItem{fmt.Sprintf("%q", []string{hxOrg, hxUser, id, hxIDs[(i+1)%n]}),
			hxEsc(id) + "#O#" + hxEsc(hxIDs[(i+1)%n])})
		userItems = append(userItems, hxItem{fmt.Sprintf("%q", []string{id, id, "2026", "o1"}), hxEsc(id) + "#2026"})
	}
	raw := func(items []hxItem, vs []string) []hxItem { // the same items keyed by a native attribute's raw value
		out := slices.Clone(items)
		for i := range out {
			out[i].key = vs[i]
		}
		return out
	}
	var usrFromItems, usrToItems, itemItems []hxItem
	for i, id := range hxIDs {
		usrFromItems = append(usrFromItems, hxItem{hxUsr0 + " → " + id, hxEsc(id)})
		usrToItems = append(usrToItems, hxItem{id + " → " + hxUsr1, hxEsc(id)})
		itemItems = append(itemItems, hxItem{fmt.Sprintf("%q", []string{hxPlay, id, hxIDs[(i+1)%n]}), hxEsc(id) + "#" + hxEsc(hxIDs[(i+1)%n])})
	}
	oneID := hxOneID(hxIDs)
	rawValues := hxRaw(hxIDs)
	var refValues []hxValue // a child's ref after its parent's type: <parent id>#PROJ#<child id>
	for _, id := range hxIDs {
		refValues = append(refValues, hxValue{hxPP + "#PROJ#" + id, hxEsc(hxPP) + "#PROJ#" + hxEsc(id)})
	}

	type read struct {
		name string
		run  func(t *testing.T)
	}
	reads := []read{
		{"node GSI2 (SelfKey)", func(t *testing.T) { hxReads(t, m.ws.ByIndex("GSI2", "ws"), hxNode, wsItems, oneID) }},
		{"node NAT", func(t *testing.T) { hxReads(t, m.ws.ByIndex("NAT", "ws"), hxNode, raw(wsItems, hxIDs), rawValues) }},
		{"node LSI1 and LSN, Get", func(t *testing.T) {
			for _, id := range hxIDs {
				hxRead(t, "LSI1 "+id, m.ws.ByIndex("LSI1", id), hxNode, []string{id})
				hxRead(t, "LSI1 range "+id, m.ws.ByIndex("LSI1", id).Equal(id), hxNode, []string{id})
				hxRead(t, "LSN "+id, m.ws.ByIndex("LSN", id), hxNode, []string{id})
				hxRead(t, "LSN range "+id, m.ws.ByIndex("LSN", id).Equal(id), hxNode, []string{id})
				got, err := m.ws.Get(ctx, id)
				require.NoError(t, err)
				assert.Equal(t, data("ws", id), got)
			}
		}},
		{"children List", func(t *testing.T) { hxReads(t, m.proj.List(hxPP), hxChildShow, projItems, oneID) }},
		{"children GSI2 (ParentKey, SelfKey)", func(t *testing.T) { hxReads(t, m.proj.ByIndex("GSI2", hxPP), hxChildShow, projItems, oneID) }},
		{"children LSI1 (Attr)", func(t *testing.T) { hxReads(t, m.proj.ByIndex("LSI1", hxPP), hxChildShow, projItems, oneID) }},
		{"children NAT", func(t *testing.T) {
			hxReads(t, m.proj.ByIndex("NAT", "proj"), hxChildShow, raw(projItems, ppKids), rawValues)
		}},
		{"children LSN", func(t *testing.T) {
			hxReads(t, m.proj.ByIndex("LSN", hxPP), hxChildShow, raw(projItems, ppKids), rawValues)
		}},
		{"children of hostile parents", func(t *testing.T) {
			for _, id := range hxIDs {
				want := []string{id + "/" + hxKid}
				hxRead(t, "List "+id, m.proj.List(id), hxChildShow, want)
				hxRead(t, "GSI2 "+id, m.proj.ByIndex("GSI2", id), hxChildShow, want)
				hxRead(t, "LSI1 "+id, m.proj.ByIndex("LSI1", id).Equal(id), hxChildShow, want)
				hxRead(t, "sharded List "+id, m.task.List(id), hxChildShow, want)
				hxRead(t, "sharded GSI2 "+id, m.task.ByIndex("GSI2", id), hxChildShow, want)
				hxRead(t, "sharded LSI1 "+id, m.task.ByIndex("LSI1", id).Equal(id), hxChildShow, want)
				got, err := m.proj.Get(ctx, id, hxKid)
				require.NoError(t, err)
				assert.Equal(t, hxData{Name: id}, got)
				fam, err := m.proj.Load(ctx, id)
				require.NoError(t, err)
				assert.Equal(t, adjlist.Family[hxData, hxData]{ID: id, Parent: data("ws", id), Children: []adjlist.Child[hxData]{{Parent: id, ID: hxKid, Data: got}}}, fam)
			}
		}},
		{"sharded children List", func(t *testing.T) {
			hxReads(t, m.task.List(hxPP), hxChildShow, taskItems, oneID)
		}},
		{"sharded children GSI2", func(t *testing.T) { hxReads(t, m.task.ByIndex("GSI2", hxPP), hxChildShow, taskItems, oneID) }},
		{"sharded children LSI1 (merged shards)", func(t *testing.T) {
			hxReads(t, m.task.ByIndex("LSI1", hxPP), hxChildShow, taskItems, oneID)
		}},
		{"sharded children NAT", func(t *testing.T) {
			hxReads(t, m.task.ByIndex("NAT", "task"), hxChildShow, raw(taskItems, hxIDs), rawValues)
		}},
		{"edge From", func(t *testing.T) { hxReads(t, m.enroll.From(hxStudent), hxEdge, childItems, oneID) }},
		{"edge To", func(t *testing.T) { hxReads(t, m.enroll.To(hxCourse), hxEdge, stuItems, oneID) }},
		{"edge To, counted by Apply", func(t *testing.T) {
			hxReads(t, m.enroll.To(hxCourse1), hxEdge, hxTo(stuItems, hxCourse, hxCourse1), oneID)
		}},
		{"edge GSI2 (TargetKey, SourceKey)", func(t *testing.T) { hxReads(t, m.enroll.ByIndex("GSI2", hxCourse), hxEdge, stuItems, oneID) }},
		{"edge LSI1", func(t *testing.T) { hxReads(t, m.enroll.ByIndex("LSI1", hxStudent), hxEdge, childItems, oneID) }},
		{"edge NAT", func(t *testing.T) {
			hxReads(t, m.enroll.ByIndex("NAT", "enroll"), hxEdge, raw(childItems, hxIDs), rawValues)
		}},
		{"edge LSN", func(t *testing.T) {
			hxReads(t, m.enroll.ByIndex("LSN", hxStudent), hxEdge, raw(childItems, hxIDs), rawValues)
		}},
		{"edge Get", func(t *testing.T) {
			for _, id := range hxIDs {
				got, err := m.enroll.Get(ctx, hxStudent, id)
				require.NoError(t, err)
				assert.Equal(t, data("enroll", id), got)
			}
		}},
		{"counters", func(t *testing.T) {
			for _, c := range []string{hxCourse, hxCourse1} {
				got, err := m.enrolled.Get(ctx, c)
				require.NoError(t, err)
				assert.Equal(t, int64(n), got, c)
			}
			for _, tag := range []string{hxTag, hxTag1} {
				got, err := m.hasCount.Get(ctx, tag)
				require.NoError(t, err)
				assert.Equal(t, int64(n), got, tag)
			}
			got, err := m.liked.Get(ctx, hxCourse)
			require.NoError(t, err)
			assert.Equal(t, int64(n), got, "counted at write time")
			// The partitions of the targets counted from a stream: the
			// node, the aggregate, and a marker per edge, which the
			// counter decodes (its source parsed from the marker's key).
			for _, tc := range []struct{ pk, node, counter, id string }{
				{"CRS#" + hxEsc(hxCourse1), "crs", "enrolled", hxCourse1},
				{"TAG#" + hxEsc(hxTag1), "tag", "hascount", hxTag1},
			} {
				want := []string{tc.node + " " + tc.id, fmt.Sprintf("%s %s %d", tc.counter, tc.id, n)}
				for range hxIDs {
					want = append(want, tc.counter+" "+tc.id+" 0")
				}
				var got []string
				for _, item := range hxPartition(t, m, tc.pk) {
					got = append(got, m.show(item))
				}
				assert.ElementsMatch(t, want, got, tc.pk)
			}
			for _, id := range hxIDs {
				for _, c := range []*edgeCounter[hxData]{m.enrolled, m.hasCount, m.liked} {
					got, err := c.Get(ctx, id)
					require.NoError(t, err)
					assert.Equal(t, int64(1), got, id)
				}
			}
		}},
		{"unlabelled edge From", func(t *testing.T) { hxReads(t, m.likes.From(hxStudent), hxEdge, childItems, oneID) }},
		{"unlabelled edge To", func(t *testing.T) { hxReads(t, m.likes.To(hxCourse), hxEdge, stuItems, oneID) }},
		{"unlabelled edge GSI2 (TargetKey, SourceKey)", func(t *testing.T) { hxReads(t, m.likes.ByIndex("GSI2", hxCourse), hxEdge, stuItems, oneID) }},
		{"unlabelled edge GSI3 (SourceKey, SelfKey)", func(t *testing.T) { hxReads(t, m.likes.ByIndex("GSI3", hxStudent), hxEdge, childItems, oneID) }},
		{"edge into children From", func(t *testing.T) { hxReads(t, m.tagged.From(hxTag), hxEdge, refItems, refValues) }},
		{"edge into children LSI1 (Attr)", func(t *testing.T) {
			hxReads(t, m.tagged.ByIndex("LSI1", hxTag), hxEdge, hxRekey(refItems, hxIDs), oneID)
		}},
		{"edge into a child To", func(t *testing.T) {
			hxReads(t, m.tagged.To(hxRef(t, m, hxPP, hxKid)), hxEdge, tagItems, oneID)
		}},
		{"edge into a child GSI2 (TargetKey, SourceKey)", func(t *testing.T) {
			hxReads(t, m.tagged.ByIndex("GSI2", hxRef(t, m, hxPP, hxKid)), hxEdge, tagItems, oneID)
		}},
		{"edge into a child GSI3 (SelfKey)", func(t *testing.T) {
			for _, id := range hxIDs {
				ref := hxRef(t, m, hxPP, id)
				hxRead(t, "GSI3 "+id, m.tagged.ByIndex("GSI3", ref), hxEdge, []string{hxTag + " → " + ref})
				hxRead(t, "To "+id, m.tagged.To(ref), hxEdge, []string{hxTag + " → " + ref})
			}
		}},
		{"edge from a child From", func(t *testing.T) {
			hxReads(t, m.has.From(hxRef(t, m, hxPP, hxKid)), hxEdge, refSrcItems, oneID)
		}},
		{"edge from a child GSI2 (SourceKey, TargetKey)", func(t *testing.T) {
			hxReads(t, m.has.ByIndex("GSI2", hxRef(t, m, hxPP, hxKid)), hxEdge, refSrcItems, oneID)
		}},
		{"edge from children To", func(t *testing.T) {
			var items []hxItem
			for _, it := range refItems {
				items = append(items, hxItem{strings.TrimPrefix(it.show, hxTag+" → ") + " → " + hxTag, it.key})
			}
			hxReads(t, m.has.To(hxTag), hxEdge, items, refValues)
		}},
		{"entity List", func(t *testing.T) {
			var values []hxValue // a date alone, as far as its first '#'
			for _, id := range hxIDs {
				if !strings.Contains(id, "#") {
					values = append(values, hxValue{id, hxEsc(id)})
				}
			}
			values = append(values, hxValue{"%#O#a", "%25#O#a"}, hxValue{"%#O#a#b", "%25#O#a%23b"})
			hxReads(t, m.order.List(hxOrg, hxUser), hxIDsOf, orderItems, values)
			// The same keys on a native index keyed on SK, which the
			// entity spells.
			hxReads(t, m.order.ByIndex("NSK", "order"), hxIDsOf, orderItems, values)
		}},
		{"entity List by leading sort key fields", func(t *testing.T) {
			for i, id := range hxIDs {
				want := []string{orderItems[i].show}
				hxRead(t, "List date "+id, m.order.List(hxOrg, hxUser, id), hxIDsOf, want)
				hxRead(t, "List date and order "+id, m.order.List(hxOrg, hxUser, id, hxIDs[(i+1)%n]), hxIDsOf, want)
				hxRead(t, "List user "+id, m.order.List(id, id), hxIDsOf, []string{userItems[i].show})
				got, err := m.order.Get(ctx, adjlist.IDs{hxOrg, hxUser, id, hxIDs[(i+1)%n]})
				require.NoError(t, err)
				assert.Equal(t, data("order", id), got)
			}
		}},
		{"entity GSI2 (fields)", func(t *testing.T) {
			var values []hxValue // a user alone, or a user and a date, cut at the first '#'
			for _, id := range hxIDs {
				if !strings.Contains(id, "#") {
					values = append(values, hxValue{id, hxEsc(id)}, hxValue{id + "#2026", hxEsc(id) + "#2026"})
				}
			}
			hxReads(t, m.order.ByIndex("GSI2", "o1"), hxIDsOf, userItems, values)
			for i, id := range hxIDs {
				hxRead(t, "GSI2 "+id, m.order.ByIndex("GSI2", id), hxIDsOf, []string{orderItems[(i+n-1)%n].show})
			}
		}},
		{"entity GSI3 (Attr, SelfKey)", func(t *testing.T) {
			for i, id := range hxIDs {
				// GSI3SK is the sort key: "D#2026#O#o1" and "D#<date>#O#<order>".
				items := []hxItem{{orderItems[i].show, "D#" + orderItems[i].key}, {userItems[i].show, "D#2026#O#o1"}}
				hxRead(t, "GSI3 "+id, m.order.ByIndex("GSI3", id), hxIDsOf, hxWant(items))
				hxRead(t, "GSI3 range "+id, m.order.ByIndex("GSI3", id).Equal("2026#O#o1"), hxIDsOf, []string{userItems[i].show})
			}
		}},
		{"entity LSI1 (Attr, field)", func(t *testing.T) {
			items := slices.Clone(orderItems) // LSI1SK = "{name}%#{order}", name the date
			var values []hxValue              // a name, or a name and an order, which takes the rest
			for i, id := range hxIDs {
				items[i].key = hxEsc(id) + "%#" + hxEsc(hxIDs[(i+1)%n])
				if !strings.Contains(id, "#") {
					values = append(values, hxValue{id, hxEsc(id)}, hxValue{id + "%#a#b", hxEsc(id) + "%#a%23b"})
				}
			}
			hxReads(t, m.order.ByIndex("LSI1", hxOrg, hxUser), hxIDsOf, items, values)
			for i, id := range hxIDs {
				hxRead(t, "LSI1 "+id, m.order.ByIndex("LSI1", id, id), hxIDsOf, []string{userItems[i].show})
			}
		}},
		{"entity NAT", func(t *testing.T) {
			hxReads(t, m.order.ByIndex("NAT", "order"), hxIDsOf, raw(orderItems, hxIDs), rawValues)
		}},
		{"entity LSN", func(t *testing.T) {
			hxReads(t, m.order.ByIndex("LSN", hxOrg, hxUser), hxIDsOf, raw(orderItems, hxIDs), rawValues)
		}},
		{"self-keyed node GSI2 (SelfKey)", func(t *testing.T) { hxReads(t, m.usr.ByIndex("GSI2", "usr"), hxNode, wsItems, oneID) }},
		{"self-keyed node in a sharded index (Attr)", func(t *testing.T) { hxReads(t, m.usr.ByIndex("GSI3"), hxNode, wsItems, oneID) }},
		{"sharded edge From", func(t *testing.T) { hxReads(t, m.follows.From(hxUsr0), hxEdge, usrFromItems, oneID) }},
		{"sharded edge To (merged shards)", func(t *testing.T) { hxReads(t, m.follows.To(hxUsr1), hxEdge, usrToItems, oneID) }},
		{"self-keyed node and sharded edge Get", func(t *testing.T) {
			for _, id := range hxIDs {
				got, err := m.usr.Get(ctx, id)
				require.NoError(t, err)
				assert.Equal(t, data("usr", id), got)
				e, err := m.follows.Get(ctx, id, hxUsr1)
				require.NoError(t, err)
				assert.Equal(t, hxData{}, e)
				require.NoError(t, m.follows.WaitIndexed(ctx, id, hxUsr1, waitIndex))
			}
		}},
		{"entity whose sort key starts with a field", func(t *testing.T) {
			var values []hxValue // a state, or a state and an item, which takes the rest
			for _, id := range hxIDs {
				if !strings.Contains(id, "#") {
					values = append(values, hxValue{id, hxEsc(id)}, hxValue{id + "#x#y", hxEsc(id) + "#x%23y"})
				}
			}
			hxReads(t, m.item.List(hxPlay), hxIDsOf, itemItems, values)
			for i, id := range hxIDs {
				hxRead(t, "List state "+id, m.item.List(hxPlay, id), hxIDsOf, []string{itemItems[i].show})
				hxRead(t, "List state, range "+id, m.item.List(hxPlay, id).GreaterThanEqual(hxIDs[(i+1)%n]), hxIDsOf, []string{itemItems[i].show})
			}
		}},
		{"AllTypes of children", func(t *testing.T) {
			values := []hxValue{{"PROJ", "PROJ"}, {"PROJ#", "PROJ#"}}
			for _, id := range hxIDs {
				if !strings.Contains(id, "#") { // AllTypes: every '#' a separator
					values = append(values, hxValue{"PROJ#" + id, "PROJ#" + hxEsc(id)})
				}
			}
			withParent := append(hxPrefixed("proj ", "PROJ#", projItems), hxItem{"ws " + hxPP, "META"})
			hxReads(t, adjlist.AllTypes(m.proj.List(hxPP)), m.show, withParent, values)
			hxReads(t, adjlist.AllTypes(m.proj.ByIndex("GSI2", hxPP)), m.show, hxPrefixed("proj ", "PROJ#", projItems), values)
			hxReads(t, adjlist.AllTypes(m.task.List(hxPP)), m.show, hxPrefixed("task ", "TASK#", taskItems), nil)
			for _, id := range hxIDs {
				hxRead(t, "parent and child "+id, adjlist.AllTypes(m.proj.List(id)), m.show, []string{"ws " + id, "proj " + id + "/" + hxKid})
			}
			var kids []adjlist.Child[hxData]
			var nodes []adjlist.NodeItem[hxData]
			other, err := adjlist.Load(ctx, adjlist.AllTypes(m.proj.List(hxPP)), m.ws.Into(&nodes), m.proj.Into(&kids))
			require.NoError(t, err)
			assert.Zero(t, other)
			assert.Equal(t, []adjlist.NodeItem[hxData]{{ID: hxPP}}, nodes)
			var got []string
			for _, k := range kids {
				got = append(got, hxChildShow(k))
				assert.Equal(t, data("proj", k.ID), k.Data)
			}
			assert.Equal(t, hxWant(projItems), got)
		}},
		{"AllTypes of a source's partition", func(t *testing.T) {
			var items []hxItem
			values := []hxValue{{"CRS", "CRS"}, {"ENROLL#CRS#", "ENROLL#CRS#"}}
			for _, id := range hxIDs {
				items = append(items, hxItem{"enroll " + hxStudent + " → " + id, "ENROLL#CRS#" + hxEsc(id)},
					hxItem{"likes " + hxStudent + " → " + id, "CRS#" + hxEsc(id)})
				if !strings.Contains(id, "#") {
					values = append(values, hxValue{"CRS#" + id, "CRS#" + hxEsc(id)}, hxValue{"ENROLL#CRS#" + id, "ENROLL#CRS#" + hxEsc(id)})
				}
			}
			items = append(items, hxItem{"stu " + hxStudent, "PROFILE"})
			hxReads(t, adjlist.AllTypes(m.enroll.From(hxStudent)), m.show, items, values)
			hxReads(t, adjlist.AllTypes(m.tagged.To(hxRef(t, m, hxPP, hxKid))), m.show, hxPrefixed("tagged ", "TAG#", tagItems), nil)
		}},
		{"AllTypes of an entity", func(t *testing.T) {
			values := []hxValue{{"D", "D"}, {"D#", "D#"}, {"D#%", "D#%25"}, {"D#%23", "D#%2523"}, {"D#%#O#a", "D#%25#O#a"}}
			hxReads(t, adjlist.AllTypes(m.order.List(hxOrg, hxUser)), m.show, hxPrefixed("order ", "D#", orderItems), values)
			hxReads(t, adjlist.AllTypes(m.order.ByIndex("NAT", "order")), m.show, hxPrefixed("order ", "", raw(orderItems, hxIDs)), rawValues)
			hxReads(t, adjlist.AllTypes(m.order.ByIndex("NSK", "order")), m.show, hxPrefixed("order ", "D#", orderItems), values)
			var got []adjlist.EntityItem[hxData]
			other, err := adjlist.Load(ctx, adjlist.AllTypes(m.order.List(hxOrg, hxUser)), m.order.Into(&got))
			require.NoError(t, err)
			assert.Zero(t, other)
			var shows []string
			for _, v := range got {
				shows = append(shows, hxIDsOf(v))
			}
			assert.Equal(t, hxWant(orderItems), shows)
		}},
		{"PageIndex, PagePartition, LoadPartition, LoadNode", func(t *testing.T) {
			var kids []adjlist.Child[hxData]
			cursor := ""
			for page := 0; page < 3*n; page++ {
				var dst []adjlist.Child[hxData]
				p, err := adjlist.PageIndex(ctx, m.proj.ByIndex("GSI2", hxPP).Limit(1), cursor, m.proj.Into(&dst))
				require.NoError(t, err)
				kids = append(kids, dst...)
				if cursor = p.Cursor; cursor == "" {
					break
				}
			}
			require.Empty(t, cursor)
			var got []string
			for _, k := range kids {
				got = append(got, hxChildShow(k))
			}
			assert.Equal(t, hxWant(projItems), got, "PageIndex")

			for _, id := range hxIDs {
				var kids []adjlist.Child[hxData]
				hasNode := false
				cursor := ""
				for page := 0; page < 4; page++ {
					p, err := adjlist.PagePartition(ctx, m.ws, id, cursor, 1, m.proj.Into(&kids))
					require.NoError(t, err)
					if p.HasNode {
						hasNode = true
						assert.Equal(t, data("ws", id), p.Node)
					}
					if cursor = p.Cursor; cursor == "" {
						break
					}
				}
				assert.True(t, hasNode, id)
				assert.Equal(t, []adjlist.Child[hxData]{{Parent: id, ID: hxKid, Data: hxData{Name: id}}}, kids, id)
			}

			var enrolls, likes []adjlist.EdgeItem[hxData]
			p, err := adjlist.LoadPartition(ctx, m.stu, hxStudent, m.enroll.Into(&enrolls), m.likes.Into(&likes))
			require.NoError(t, err)
			assert.Equal(t, hxData{Name: "me"}, p.Node)
			assert.Zero(t, p.Other)
			ln, err := adjlist.LoadNode(ctx, m.stu, m.enroll, hxStudent)
			require.NoError(t, err)
			var shows, lshows, nshows []string
			for i := range enrolls {
				shows, lshows = append(shows, hxEdge(enrolls[i])), append(lshows, hxEdge(likes[i]))
			}
			for _, e := range ln.Edges {
				nshows = append(nshows, hxEdge(e))
			}
			assert.Equal(t, hxWant(childItems), shows)
			assert.Equal(t, hxWant(childItems), lshows)
			assert.Equal(t, hxWant(childItems), nshows)
		}},
		{"GetMany and Hydrate", func(t *testing.T) {
			nodes, err := m.ws.GetMany(ctx, hxIDs)
			require.NoError(t, err)
			require.Len(t, nodes, n)
			for i, id := range hxIDs {
				assert.Equal(t, adjlist.NodeItem[hxData]{ID: id, Data: data("ws", id)}, nodes[i])
			}
			var kids, wantKids []adjlist.Child[hxData]
			var ids []adjlist.IDs
			var edges, wantEdges []adjlist.EdgeItem[hxData]
			for i, id := range hxIDs {
				kids = append(kids, adjlist.Child[hxData]{Parent: hxPP, ID: id}, adjlist.Child[hxData]{Parent: id, ID: hxKid})
				wantKids = append(wantKids, adjlist.Child[hxData]{Parent: hxPP, ID: id, Data: data("proj", id)}, adjlist.Child[hxData]{Parent: id, ID: hxKid, Data: hxData{Name: id}})
				ids = append(ids, adjlist.IDs{hxOrg, hxUser, id, hxIDs[(i+1)%n]})
				edges = append(edges, adjlist.EdgeItem[hxData]{From: hxStudent, To: id})
				wantEdges = append(wantEdges, adjlist.EdgeItem[hxData]{From: hxStudent, To: id, Data: data("enroll", id)})
			}
			gotKids, err := m.proj.GetMany(ctx, kids)
			require.NoError(t, err)
			assert.ElementsMatch(t, wantKids, gotKids)
			gotOrders, err := m.order.GetMany(ctx, ids)
			require.NoError(t, err)
			require.Len(t, gotOrders, n)
			for _, v := range gotOrders {
				assert.Equal(t, data("order", v.IDs[2]), v.Data, "%q", v.IDs)
			}
			gotEdges, err := m.enroll.Hydrate(ctx, edges)
			require.NoError(t, err)
			assert.ElementsMatch(t, wantEdges, gotEdges)
		}},
	}
	// The reads change nothing: they run in parallel, and "reads" returns
	// once they have all ended.
	t.Run("reads", func(t *testing.T) {
		for _, tt := range reads {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				tt.run(t)
			})
		}
	})

	// Scan of each handle, and of the table: every item of each type,
	// which Table.TypeOf names and its handle decodes; Verify finds
	// nothing to report.
	want := map[string][]string{}
	for i, id := range hxIDs {
		add := func(typ, show string) { want[typ] = append(want[typ], show) }
		if i == 0 {
			add("node USR", "usr "+hxUsr0)
			add("node USR", "usr "+hxUsr1)
			add("node WS", "ws "+hxPP)
			add("child PROJ of WS", "proj "+hxPP+"/"+hxKid)
		}
		add("node WS", "ws "+id)
		add("child PROJ of WS", "proj "+hxPP+"/"+id)
		add("child PROJ of WS", "proj "+id+"/"+hxKid)
		add("child TASK of WS", "task "+hxPP+"/"+id)
		add("child TASK of WS", "task "+id+"/"+hxKid)
		add("edge ENROLL (STU → CRS)", "enroll "+hxStudent+" → "+id)
		add("edge ENROLL (STU → CRS)", "enroll "+id+" → "+hxCourse)
		add("edge ENROLL (STU → CRS)", "enroll "+id+" → "+hxCourse1)
		add("edge STU → CRS", "likes "+hxStudent+" → "+id)
		add("edge STU → CRS", "likes "+id+" → "+hxCourse)
		add("edge TAGGED (TAG → WS/PROJ)", "tagged "+hxTag+" → "+hxRef(t, m, hxPP, id))
		add("edge TAGGED (TAG → WS/PROJ)", "tagged "+id+" → "+hxRef(t, m, hxPP, hxKid))
		add("edge HAS (WS/PROJ → TAG)", "has "+hxRef(t, m, hxPP, hxKid)+" → "+id)
		add("edge HAS (WS/PROJ → TAG)", "has "+hxRef(t, m, hxPP, id)+" → "+hxTag)
		add("edge HAS (WS/PROJ → TAG)", "has "+hxRef(t, m, hxPP, id)+" → "+hxTag1)
		add("entity order", "order "+orderItems[i].show)
		add("entity order", "order "+userItems[i].show)
		add("node USR", "usr "+id)
		add("edge FOLLOWS (USR → USR)", "follows "+hxUsr0+" → "+id)
		add("edge FOLLOWS (USR → USR)", "follows "+id+" → "+hxUsr1)
		add("entity item", "item "+itemItems[i].show)
	}
	byType := map[string][]string{}
	_, err := adjlist.Scan(ctx, m.calls, m.table, func(_ context.Context, v adjlist.TypedItem) error {
		typ, ok := m.table.TypeOf(v.Item)
		assert.True(t, ok)
		assert.Equal(t, v.Type, typ)
		byType[v.Type] = append(byType[v.Type], m.show(v.Item))
		return nil
	})
	require.NoError(t, err)
	for typ, shows := range want {
		assert.ElementsMatch(t, shows, byType[typ], typ)
	}
	t.Logf("types scanned: %v", slices.Sorted(maps.Keys(byType)))

	var scannedWS, scannedOrders []string
	_, err = adjlist.Scan(ctx, m.calls, m.ws, func(_ context.Context, v adjlist.NodeItem[hxData]) error {
		scannedWS = append(scannedWS, "ws "+hxNode(v))
		return nil
	})
	require.NoError(t, err)
	assert.ElementsMatch(t, want["node WS"], scannedWS)
	_, err = adjlist.Scan(ctx, m.calls, m.order, func(_ context.Context, v adjlist.EntityItem[hxData]) error {
		scannedOrders = append(scannedOrders, "order "+hxIDsOf(v))
		return nil
	})
	require.NoError(t, err)
	assert.ElementsMatch(t, want["entity order"], scannedOrders)

	res, err := adjlist.Verify(ctx, m.calls, m.table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
}

// hxPartition is every item of the table's partition pk, read with the
// SDK alone.
func hxPartition(t *testing.T, m *hxModel, pk string) []adjlist.Item {
	t.Helper()
	e, err := expression.NewBuilder().WithKeyCondition(expression.Key("PK").Equal(expression.Value(pk))).Build()
	require.NoError(t, err)
	pages := dynamodb.NewQueryPaginator(m.calls, &dynamodb.QueryInput{TableName: aws.String(m.table.Name()),
		KeyConditionExpression: e.KeyCondition(), ExpressionAttributeNames: e.Names(), ExpressionAttributeValues: e.Values()})
	var items []adjlist.Item
	for pages.HasMorePages() {
		out, err := pages.NextPage(context.Background())
		require.NoError(t, err)
		items = append(items, out.Items...)
	}
	return items
}

// hxPrefixed is items shown with their type's tag, keyed by their whole
// sort key (prefix and key).
func hxPrefixed(tag, prefix string, items []hxItem) []hxItem {
	out := slices.Clone(items)
	for i := range out {
		out[i].show, out[i].key = tag+out[i].show, prefix+out[i].key
	}
	return out
}

// show prints an item of any of the model's types, its type's tag first.
func (m *hxModel) show(item adjlist.Item) string {
	c := func() adjlist.Item { return maps.Clone(item) }
	if v, ok, _ := m.ws.Decode(c()); ok {
		return "ws " + hxNode(v)
	}
	if v, ok, _ := m.usr.Decode(c()); ok {
		return "usr " + hxNode(v)
	}
	if v, ok, _ := m.follows.Decode(c()); ok {
		return "follows " + hxEdge(v)
	}
	if v, ok, _ := m.item.Decode(c()); ok {
		return "item " + hxIDsOf(v)
	}
	if v, ok, _ := m.crs.Decode(c()); ok {
		return "crs " + hxNode(v)
	}
	if v, ok, _ := m.tag.Decode(c()); ok {
		return "tag " + hxNode(v)
	}
	if v, ok, _ := m.stu.Decode(c()); ok {
		return "stu " + hxNode(v)
	}
	if v, ok, _ := m.proj.Decode(c()); ok {
		return "proj " + hxChildShow(v)
	}
	if v, ok, _ := m.task.Decode(c()); ok {
		return "task " + hxChildShow(v)
	}
	if v, ok, _ := m.enroll.Decode(c()); ok {
		return "enroll " + hxEdge(v)
	}
	if v, ok, _ := m.likes.Decode(c()); ok {
		return "likes " + hxEdge(v)
	}
	if v, ok, _ := m.tagged.Decode(c()); ok {
		return "tagged " + hxEdge(v)
	}
	if v, ok, _ := m.has.Decode(c()); ok {
		return "has " + hxEdge(v)
	}
	if v, ok, _ := m.order.Decode(c()); ok {
		return "order " + hxIDsOf(v)
	}
	if v, ok, _ := m.enrolled.Decode(c()); ok {
		return fmt.Sprintf("enrolled %s %d", v.ID, v.Data.Count)
	}
	if v, ok, _ := m.hasCount.Decode(c()); ok {
		return fmt.Sprintf("hascount %s %d", v.ID, v.Data.Count)
	}
	return fmt.Sprintf("unknown %q", rawText(item))
}

// hxWant is the shows of items in key order.
func hxWant(items []hxItem) []string {
	var out []string
	for _, it := range slices.SortedFunc(slices.Values(items), func(a, b hxItem) int { return cmp.Compare(a.key, b.key) }) {
		out = append(out, it.show)
	}
	return out
}

// hxRekey is items keyed by the escaped ids.
func hxRekey(items []hxItem, ids []string) []hxItem {
	out := slices.Clone(items)
	for i := range out {
		out[i].key = hxEsc(ids[i])
	}
	return out
}

// hxTo is edges into one course as edges into another.
func hxTo(items []hxItem, from, to string) []hxItem {
	out := slices.Clone(items)
	for i := range out {
		out[i].show = strings.TrimSuffix(out[i].show, from) + to
	}
	return out
}

// TestEscapingOnTableKeyIndexes: on an index keyed on the table's own
// keys, SK then PK (the inverted index of that layout, or a native index
// so keyed), an entity's reads spell every part of both keys as its
// writes do: the partition from ids, and range values on the PK it
// spells by the rule of range values, after its leading text ("ORG#" of
// "ORG#{org}", ids as they are, escaped), through its own ByIndex and
// through AllTypes of it; an edge's reverse read on the inverted index
// too. Scan, TypeOf and Verify agree.
func TestEscapingOnTableKeyIndexes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, index string
		layout      adjlist.Options
	}{
		{"native index on SK, PK", "InvertedIndex", adjlist.Options{NoIndex: true, Indexes: []adjlist.Index{{Name: "InvertedIndex",
			PartitionAttributes: []adjlist.KeyAttribute{{Name: "SK"}}, SortAttributes: []adjlist.KeyAttribute{{Name: "PK"}}}}}},
		{"inverted index on SK, PK", "GSI1", adjlist.Options{IndexPartitionKey: "SK", IndexSortKey: "PK"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			db := ddbtest.Client(t)
			calls := &countingClient{Client: db}
			table := adjlist.NewTable(calls, ddbtest.TableName(t), func(o *adjlist.Options) { *o = tt.layout })
			ddbtest.CreateTable(t, table)
			mappings := adjlist.NewEntity[hxData](table, "mapping", "ORG#{org}", "USER#{username}")
			stu := adjlist.NewNode[hxData](table, "STU", "PROFILE")
			crs := adjlist.NewNode[hxData](table, "CRS", "METADATA")
			enroll := adjlist.NewEdge[hxData](stu, "ENROLL", crs)
			require.NoError(t, table.Check())
			ctx := context.Background()
			require.NoError(t, crs.Put(ctx, hxCourse, hxData{}))
			var orgs, users, edges []hxItem
			values := []hxValue{}
			for _, id := range hxIDs {
				require.NoError(t, mappings.Put(ctx, adjlist.IDs{id, hxUser}, hxData{}))
				require.NoError(t, mappings.Put(ctx, adjlist.IDs{hxOrg, id}, hxData{}))
				orgs = append(orgs, hxItem{fmt.Sprintf("%q", []string{id, hxUser}), hxEsc(id)})
				users = append(users, hxItem{fmt.Sprintf("%q", []string{hxOrg, id}), hxEsc(id)})
				if tt.index == "GSI1" {
					require.NoError(t, stu.Put(ctx, id, hxData{}))
					require.NoError(t, enroll.Put(ctx, id, hxCourse, hxData{}))
					edges = append(edges, hxItem{id + " → " + hxCourse, hxEsc(id)})
				}
				if !strings.Contains(id, "#") { // AllTypes: every '#' a separator
					values = append(values, hxValue{"ORG#" + id, "ORG#" + hxEsc(id)})
				}
			}
			values = append(values, hxValue{"ORG", "ORG"}, hxValue{"ORG#", "ORG#"})

			t.Run("ByIndex, ranges on the PK it spells", func(t *testing.T) {
				hxReads(t, mappings.ByIndex(tt.index, hxUser), hxIDsOf, orgs, hxOneID(hxIDs))
			})
			t.Run("AllTypes of it", func(t *testing.T) {
				hxReads(t, adjlist.AllTypes(mappings.ByIndex(tt.index, hxUser)), func(item adjlist.Item) string {
					v, ok, err := mappings.Decode(item)
					require.NoError(t, err)
					require.True(t, ok)
					return hxIDsOf(v)
				}, hxPrefixed("", "ORG#", orgs), values)
			})
			t.Run("ByIndex of each key", func(t *testing.T) {
				for i, id := range hxIDs {
					hxRead(t, "user "+id, mappings.ByIndex(tt.index, id), hxIDsOf, []string{users[i].show})
					hxRead(t, "user and org "+id, mappings.ByIndex(tt.index, hxUser, id), hxIDsOf, []string{orgs[i].show})
				}
			})
			if tt.index == "GSI1" {
				t.Run("edge To", func(t *testing.T) { hxReads(t, enroll.To(hxCourse), hxEdge, edges, hxOneID(hxIDs)) })
			}
			var types []string
			_, err := adjlist.Scan(ctx, calls, table, func(_ context.Context, v adjlist.TypedItem) error {
				typ, ok := table.TypeOf(v.Item)
				assert.True(t, ok)
				types = append(types, typ)
				return nil
			})
			require.NoError(t, err)
			assert.Len(t, types, 2*len(hxIDs)+1+2*len(edges))
			res, err := adjlist.Verify(ctx, calls, table)
			require.NoError(t, err)
			assert.Empty(t, res.Findings)
		})
	}
}

// TestEscapingAtKeyLimits: a child whose sort key is exactly 1,024 bytes,
// its id all '#'s but two bytes, is read by every range condition that
// names it, GreaterThan included (SK BETWEEN its key and a space, 1,025
// bytes, would be refused by DynamoDB; no key is longer than it, so the
// range starts at the key itself, which the read leaves out).
func TestEscapingAtKeyLimits(t *testing.T) {
	t.Parallel()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	ddbtest.CreateTable(t, table)
	ws := adjlist.NewNode[hxData](table, "WS", "META")
	proj := adjlist.NewCollection[hxData](ws, "PROJ", func(o *adjlist.CollectionOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2", PartitionKey: adjlist.Template("{@parent}"), SortKey: adjlist.Template("{@self}")}}
	})
	ctx := context.Background()
	long := strings.Repeat("#", (maxSortKeyLen-len("PROJ#")-2)/3) + "xx"
	_, sk, err := proj.Key(hxPP, long)
	require.NoError(t, err)
	require.Len(t, sk, maxSortKeyLen)
	ids := []string{"#", strings.Repeat("#", 10), long, "~"} // "~" sorts after "%"; long's conditions are paged
	for _, id := range ids {
		require.NoError(t, proj.Put(ctx, hxPP, id, hxData{}))
	}
	var items []hxItem
	for _, id := range ids {
		items = append(items, hxItem{hxPP + "/" + id, hxEsc(id)})
	}
	for name, q := range map[string]adjlist.Query[adjlist.Child[hxData]]{"List": proj.List(hxPP), "ByIndex": proj.ByIndex("GSI2", hxPP)} {
		t.Run(name, func(t *testing.T) { hxReads(t, q, hxChildShow, items, hxOneID(ids)) })
	}
}

// TestEscapingCascadeAndTraversal: the cascades and the traversal build
// and parse every key they read and delete as the writes spelled them:
// with ids whose escaped spelling is another id's raw one ("a%23b" and
// "a#b"), DeleteNode and DeleteChild remove exactly the node's or the
// child's items and the edges into and out of them, and Peers finds the
// nodes that share a target, each once.
func TestEscapingCascadeAndTraversal(t *testing.T) {
	t.Parallel()
	m := newHxModel(t)
	ctx := context.Background()
	ids := []string{"a", "a#b", "a%23b", "%"}
	kids := []string{"p#1", "p%2"}
	const tagIn, tagOut = "t#", "t%"
	require.NoError(t, m.tag.Put(ctx, tagIn, hxData{}))
	require.NoError(t, m.tag.Put(ctx, tagOut, hxData{}))
	for _, id := range ids {
		require.NoError(t, m.ws.Put(ctx, id, hxData{}))
		require.NoError(t, m.stu.Put(ctx, id, hxData{}))
		require.NoError(t, m.crs.Put(ctx, id, hxData{}))
		for _, kid := range kids {
			require.NoError(t, m.proj.Put(ctx, id, kid, hxData{}))
			ref := hxRef(t, m, id, kid)
			require.NoError(t, m.tagged.Put(ctx, tagIn, ref, hxData{}))
			require.NoError(t, m.has.Put(ctx, ref, tagOut, hxData{}))
			require.NoError(t, m.tagged.WaitIndexed(ctx, tagIn, ref, waitIndex))
		}
		for _, c := range slices.Compact([]string{"a#b", id}) { // every student shares course a#b
			require.NoError(t, m.enroll.Put(ctx, id, c, hxData{}))
			require.NoError(t, m.enroll.WaitIndexed(ctx, id, c, waitIndex))
		}
	}

	peers, err := adjlist.TwoHop(ctx, m.enroll, m.enroll, "a", 100)
	require.NoError(t, err)
	var got []string
	for _, p := range peers.Peers {
		got = append(got, p.ID+" via "+strings.Join(p.Via, ","))
	}
	assert.Equal(t, []string{"% via a#b", "a#b via a#b", "a%23b via a#b"}, got, "in the roster's key order")

	_, err = adjlist.DeleteNode(ctx, m.ws, "a#b", m.proj, m.tagged, m.has)
	require.NoError(t, err)
	_, err = adjlist.DeleteChild(ctx, m.proj, "a%23b", "p#1", m.tagged, m.has)
	require.NoError(t, err)
	_, err = adjlist.DeleteNode(ctx, m.crs, "a#b", m.enroll)
	require.NoError(t, err)

	for _, id := range ids {
		_, err := m.ws.Get(ctx, id)
		if id == "a#b" {
			require.ErrorIs(t, err, adjlist.ErrNotFound)
		} else {
			require.NoError(t, err, id)
		}
		var want []string
		for _, kid := range kids {
			if id != "a#b" && (id != "a%23b" || kid != "p#1") {
				want = append(want, id+"/"+kid)
			}
		}
		hxRead(t, "children of "+id, m.proj.List(id), hxChildShow, want)
		for _, kid := range kids {
			ref := hxRef(t, m, id, kid)
			var in, out []string
			if slices.Contains(want, id+"/"+kid) {
				in, out = []string{tagIn + " → " + ref}, []string{ref + " → " + tagOut}
			}
			hxRead(t, "edges into "+ref, m.tagged.To(ref), hxEdge, in)
			hxRead(t, "edges from "+ref, m.has.From(ref), hxEdge, out)
		}
		var enrolments []string // those into course a#b are gone with it
		if id != "a#b" {
			enrolments = []string{id + " → " + id}
		}
		hxRead(t, "enrolments of "+id, m.enroll.From(id), hxEdge, enrolments)
	}
	hxRead(t, "roster of the deleted course", m.enroll.To("a#b"), hxEdge, nil)
}

// TestEscapingParseOnlyWhatRenders: every handle parses an id part of a
// key as the one inverse of the escaping: a key whose id would hold a
// control character (which no call takes, so no write spells it) or a
// malformed escape is no item of the type, for children and edges as for
// nodes, refs and entities: Decode and Table.TypeOf refuse it, and Verify
// reports it as an unknown item rather than as an item whose id no call
// can name.
func TestEscapingParseOnlyWhatRenders(t *testing.T) {
	t.Parallel()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	ws := adjlist.NewNode[hxData](table, "WS", "META")
	proj := adjlist.NewCollection[hxData](ws, "PROJ")
	stu := adjlist.NewNode[hxData](table, "STU", "PROFILE")
	crs := adjlist.NewNode[hxData](table, "CRS", "METADATA")
	enroll := adjlist.NewEdge[hxData](stu, "ENROLL", crs)
	likes := adjlist.NewEdge[hxData](stu, "", crs)
	tagged := adjlist.NewEdge[hxData](stu, "TAGGED", proj)
	order := adjlist.NewEntity[hxData](table, "order", "ORG#{org}", "O#{order}")
	require.NoError(t, table.Check())
	keys := func(pk, sk string) adjlist.Item {
		return adjlist.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}}
	}
	decoders := map[string]func(adjlist.Item) bool{
		"node WS":      func(i adjlist.Item) bool { _, ok, _ := ws.Decode(i); return ok },
		"child PROJ":   func(i adjlist.Item) bool { _, ok, _ := proj.Decode(i); return ok },
		"edge ENROLL":  func(i adjlist.Item) bool { _, ok, _ := enroll.Decode(i); return ok },
		"edge STU→CRS": func(i adjlist.Item) bool { _, ok, _ := likes.Decode(i); return ok },
		"edge TAGGED":  func(i adjlist.Item) bool { _, ok, _ := tagged.Decode(i); return ok },
		"entity order": func(i adjlist.Item) bool { _, ok, _ := order.Decode(i); return ok },
	}
	var bad []adjlist.Item
	for _, id := range []string{"x\x01", "x\x7f", "x\u0085", "%2", "%zz", ""} {
		for _, k := range [][2]string{
			{"WS#" + id, "META"},
			{"WS#a", "PROJ#" + id},
			{"STU#a", "ENROLL#CRS#" + id},
			{"STU#a", "CRS#" + id},
			{"STU#a", "TAGGED#WS#a#PROJ#" + id},
			{"ORG#a", "O#" + id},
		} {
			item := keys(k[0], k[1])
			for name, decode := range decoders {
				assert.False(t, decode(maps.Clone(item)), "%s decodes %q", name, k)
			}
			typ, ok := table.TypeOf(item)
			assert.False(t, ok, "%q is a %s", k, typ)
			if id != "" && !strings.HasPrefix(id, "%") {
				bad = append(bad, item)
			}
		}
	}
	// The keys each decoder takes with a valid id in that place.
	for name, k := range map[string][2]string{"node WS": {"WS#x", "META"}, "child PROJ": {"WS#a", "PROJ#x"},
		"edge ENROLL": {"STU#a", "ENROLL#CRS#x"}, "edge STU→CRS": {"STU#a", "CRS#x"},
		"edge TAGGED": {"STU#a", "TAGGED#WS#a#PROJ#x"}, "entity order": {"ORG#a", "O#x"}} {
		assert.True(t, decoders[name](keys(k[0], k[1])), "%s: %q", name, k)
	}

	ctx := context.Background()
	var want []string
	for _, item := range bad {
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table.Name()), Item: item})
		require.NoError(t, err)
		want = append(want, rawText(item)["PK"]+" "+rawText(item)["SK"])
	}
	res, err := adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	var unknown []string
	for _, f := range res.Findings {
		if f.Kind == adjlist.FindingUnknownItem {
			unknown = append(unknown, f.Key.PK+" "+f.Key.SK)
		}
	}
	assert.ElementsMatch(t, want, unknown)
}
