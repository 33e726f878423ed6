package adjlist

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sentValues is what q would send: its key condition and its values as
// text (strings and numbers alike).
func sentValues[T any](t *testing.T, q Query[T]) (string, map[string]string) {
	t.Helper()
	require.NoError(t, q.err)
	out := map[string]string{}
	for ph, av := range q.run.In.ExpressionAttributeValues {
		switch v := av.(type) {
		case *types.AttributeValueMemberS:
			out[ph] = v.Value
		case *types.AttributeValueMemberN:
			out[ph] = v.Value
		}
	}
	return aws.ToString(q.run.In.KeyConditionExpression), out
}

// TestRangeValuesOneRule: a range value is the sort key after the query's
// prefix with its ids as they are, on every path: the '#'s the template
// puts between its parts are separators, ids are escaped, AllTypes (no
// one template) takes every '#' as a separator, a native index takes the
// value as it is.
func TestRangeValuesOneRule(t *testing.T) {
	t.Parallel()
	table := NewTable(nil, "t", func(o *Options) {
		o.Indexes = append(o.Indexes, Index{Name: "ByState", PartitionAttributes: []KeyAttribute{{Name: "device"}},
			SortAttributes: []KeyAttribute{{Name: "state"}}})
	})
	logs := NewEntity[struct{}](table, "log", "LOG#{deviceID}", "{state}#{date}")
	posts := NewEntity[struct{}](table, "post", "u#{userID}#post", "p#{postID}#u#{authorID}")
	ws := NewNode[struct{}](table, "WS", "META")
	projects := NewCollection[struct{}](ws, "PROJ")
	tags := NewNode[struct{}](table, "TAG", "META")
	tagged := NewEdge[struct{}](tags, "TAGGED", projects)
	require.NoError(t, table.Check())

	for _, tc := range []struct {
		name string
		q    Query[Item]
		cond string
		want map[string]string
	}{
		{"one field: begins_with up to the template's '#'", AllTypes(logs.List("12345")).BeginsWith("WARNING1#"), // the reference
			"(#0 = :0) AND (begins_with (#1, :1))", map[string]string{":0": "LOG#12345", ":1": "WARNING1#"}},
		{"List: the same value, the same key", retype(logs.List("12345").BeginsWith("WARNING1#"), rawItem),
			"(#0 = :0) AND (begins_with (#1, :1))", map[string]string{":0": "LOG#12345", ":1": "WARNING1#"}},
		{"List: the last id takes the rest, escaped", retype(logs.List("12345").BeginsWith("W#2026#x%"), rawItem),
			"(#0 = :0) AND (begins_with (#1, :1))", map[string]string{":0": "LOG#12345", ":1": "W#2026%23x%25"}},
		{"AllTypes: every '#' separates, '%' escaped", AllTypes(logs.List("12345")).BeginsWith("W%#2026#x"),
			"(#0 = :0) AND (begins_with (#1, :1))", map[string]string{":0": "LOG#12345", ":1": "W%25#2026#x"}},
		{"List: '%' as AllTypes writes it", retype(logs.List("12345").BeginsWith("W%#2026"), rawItem),
			"(#0 = :0) AND (begins_with (#1, :1))", map[string]string{":0": "LOG#12345", ":1": "W%25#2026"}},
		{"a leading field given: one id left", retype(logs.List("12345", "W#1").Between("2026-01", "2026-02#x"), rawItem),
			"(#0 = :0) AND (#1 BETWEEN :1 AND :2)", map[string]string{":0": "LOG#12345", ":1": "W%231#2026-01", ":2": "W%231#2026-02%23x"}},
		{"constant text kept", retype(posts.List("u1").Between("1#u#a", "1#u#b%"), rawItem),
			"(#0 = :0) AND (#1 BETWEEN :1 AND :2)", map[string]string{":0": "u#u1#post", ":1": "p#1#u#a", ":2": "p#1#u#b%25"}},
		{"one id: '#' is the id's", retype(projects.List("acme").LessThanEqual("a#b"), rawItem),
			"(#0 = :0) AND (#1 BETWEEN :1 AND :2)", map[string]string{":0": "WS#acme", ":1": "PROJ#", ":2": "PROJ#a%23b"}},
		{"a child's ref after the edge prefix", retype(tagged.From("go").BeginsWith("acme#PROJ#2026"), rawItem),
			"(#0 = :0) AND (begins_with (#1, :1))", map[string]string{":0": "TAG#go", ":1": "TAGGED#WS#acme#PROJ#2026"}},
		{"a child's ref, its ids escaped", retype(tagged.From("go").Equal("a%#PROJ#b#1"), rawItem),
			"(#0 = :0) AND (#1 = :1)", map[string]string{":0": "TAG#go", ":1": "TAGGED#WS#a%25#PROJ#b%231"}},
		{"native: the attribute's own value", retype(logs.ByIndex("ByState", "d1").BeginsWith("W#1%"), rawItem),
			"(#0 = :0) AND (begins_with (#1, :1))", map[string]string{":0": "d1", ":1": "W#1%"}},
		{"native through AllTypes: the same", AllTypes(logs.ByIndex("ByState", "d1")).BeginsWith("W#1%"),
			"(#0 = :0) AND (begins_with (#1, :1))", map[string]string{":0": "d1", ":1": "W#1%"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cond, vals := sentValues(t, tc.q)
			assert.Equal(t, tc.cond, cond)
			assert.Equal(t, tc.want, vals)
		})
	}
}

// TestConditionsAfterAnyPrefix: an entity whose sort key prefix does not
// end in '#' ("v{ver}") takes every condition after its prefix, as
// Entity.List's doc says; GreaterThan ends at the prefix's end ("w").
func TestConditionsAfterAnyPrefix(t *testing.T) {
	t.Parallel()
	table := NewTable(nil, "t", func(o *Options) { o.NoIndex = true })
	vers := NewEntity[struct{}](table, "ver", "doc#{docID}", "v{ver}")
	require.NoError(t, table.Check())
	list := vers.List("d")
	for _, tc := range []struct {
		name string
		q    Query[EntityItem[struct{}]]
		cond string
		want map[string]string
	}{
		{"List", list, "(#0 = :0) AND (begins_with (#1, :1))", map[string]string{":0": "doc#d", ":1": "v"}},
		{"Equal", list.Equal("2"), "(#0 = :0) AND (#1 = :1)", map[string]string{":0": "doc#d", ":1": "v2"}},
		{"BeginsWith", list.BeginsWith("1"), "(#0 = :0) AND (begins_with (#1, :1))", map[string]string{":0": "doc#d", ":1": "v1"}},
		{"GreaterThan", list.GreaterThan("2"), "(#0 = :0) AND (#1 BETWEEN :1 AND :2)", map[string]string{":0": "doc#d", ":1": "v2 ", ":2": "w"}},
		{"GreaterThanEqual", list.GreaterThanEqual("2"), "(#0 = :0) AND (#1 BETWEEN :1 AND :2)", map[string]string{":0": "doc#d", ":1": "v2", ":2": "w"}},
		{"LessThan", list.LessThan("2"), "(#0 = :0) AND (#1 BETWEEN :1 AND :2)", map[string]string{":0": "doc#d", ":1": "v", ":2": "v2"}},
		{"Between", list.Between("1", "3#"), "(#0 = :0) AND (#1 BETWEEN :1 AND :2)", map[string]string{":0": "doc#d", ":1": "v1", ":2": "v3%23"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cond, vals := sentValues(t, tc.q)
			assert.Equal(t, tc.cond, cond)
			assert.Equal(t, tc.want, vals)
		})
	}
	// A List naming every field is one key: no range within it.
	assert.ErrorIs(t, vers.List("d", "2").GreaterThan("1").err, ErrInvalidOption)
}

// retype is q decoding with decode instead (LessThan's bound, in q's
// querySpec, still skipped).
func retype[T, U any](q Query[T], decode func(Item) (U, bool, error)) Query[U] {
	return Query[U]{querySpec: q.querySpec, decode: decode}
}
