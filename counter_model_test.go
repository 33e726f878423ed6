package adjlist_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// counterModel is a school with a counter of enrolments per course and a
// native index on the counts, declared on a table without a client: the
// model alone.
func counterModel(t *testing.T) (*adjlist.Table, []adjlist.Describer) {
	t.Helper()
	table := adjlist.NewTable(nil, "school", func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "ByCount",
			PartitionAttributes: []adjlist.KeyAttribute{{Name: "counter"}},
			SortAttributes:      []adjlist.KeyAttribute{{Name: "count", Type: "N"}}}}
	})
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	counter := newEdgeCounter(enrolled, "ENROLLED")
	require.NoError(t, table.Check())
	return table, []adjlist.Describer{students, courses, enrolled, counter}
}

func keyItem(pk, sk string) adjlist.Item {
	return adjlist.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}}
}

// A counter's aggregate item is typed as the counter's, "counter
// ENROLLED", the name Verify's findings give it, not as a node of its
// target type.
func TestTypeOfCounterAggregate(t *testing.T) {
	t.Parallel()
	table, _ := counterModel(t)
	for _, tc := range []struct {
		pk, sk, want string
	}{
		{"CRS#math204", "ENROLLED", "counter ENROLLED"},
		{"CRS#math204", "METADATA", "node CRS"},
		{"STU#a91", "ENROLL#CRS#math204", "edge ENROLL (STU → CRS)"},
	} {
		name, ok := table.TypeOf(keyItem(tc.pk, tc.sk))
		assert.True(t, ok, "%s %s", tc.pk, tc.sk)
		assert.Equal(t, tc.want, name, "%s %s", tc.pk, tc.sk)
		v, ok, err := table.Decode(keyItem(tc.pk, tc.sk))
		require.NoError(t, err)
		assert.True(t, ok)
		assert.Equal(t, tc.want, v.Type, "Table.Decode names it as TypeOf does")
	}
	_, ok := table.TypeOf(keyItem("CRS#math204", "ENROLLED##STU#a91"))
	assert.False(t, ok, "a per-edge marker is no recorded item type")
}

// Describe shows a counter's aggregates as what they are, with ItemCounter.Get
// as the access pattern that reads one, whether the counter is given or
// recorded; never as a second node type of its target.
func TestDescribeCounter(t *testing.T) {
	t.Parallel()
	table, handles := counterModel(t)
	for name, hs := range map[string][]adjlist.Describer{"given": handles, "recorded": nil} {
		t.Run(name, func(t *testing.T) {
			var b strings.Builder
			require.NoError(t, adjlist.Describe(&b, table, hs...))
			out := b.String()
			assert.Contains(t, out, "| counter ENROLLED | `CRS#<id>` | `ENROLLED` |  |  | counter, count |")
			assert.Contains(t, out, "| one CRS's ENROLLED count | `ItemCounter.Get` | GetItem | `PK = \"CRS#<id>\" AND SK = \"ENROLLED\"` | table |")
			assert.Contains(t, out, "| item | counter | count |\n| --- | --- | --- |\n| counter ENROLLED | `<counter>` | `<count>` |\n")
			assert.NotContains(t, out, "| node CRS | `CRS#<id>` | `ENROLLED`")
			assert.Equal(t, 1, strings.Count(out, "| get one CRS |"), "one node type CRS")

			m, err := adjlist.DescribeModel(table, hs...)
			require.NoError(t, err)
			require.Len(t, m.Items, 4)
			agg := m.Items[3]
			assert.Equal(t, []string{"counter ENROLLED", "counter", "ENROLLED", "", "CRS", "CRS#<id>", "ENROLLED"},
				[]string{agg.Name, agg.Kind, agg.Type, agg.From, agg.To, agg.PartitionKey, agg.SortKey})
			assert.Equal(t, []adjlist.Attribute{{Name: "counter", Type: "S"}, {Name: "count", Type: "N"}}, agg.Attributes)
		})
	}
}

// The diagram draws the aggregates as a box of their own in the target
// node type's partitions, which the native index on the counts points at.
func TestMermaidDrawsCounter(t *testing.T) {
	t.Parallel()
	table, handles := counterModel(t)
	m, err := adjlist.DescribeModel(table, handles...)
	require.NoError(t, err)
	var b strings.Builder
	require.NoError(t, m.Mermaid(&b))
	assert.Contains(t, b.String(), "  k_CRS_ENROLLED[\"ENROLLED (counter of CRS)<br/>SK = ENROLLED\"]\n"+
		"  n_CRS ---|\"ENROLLED count (ItemCounter.Get, table)\"| k_CRS_ENROLLED\n")
	assert.Contains(t, b.String(), "  i_ByCount -.->|\"#lt;counter#gt; · #lt;count#gt;\"| k_CRS_ENROLLED\n")
	assert.Equal(t, 1, strings.Count(b.String(), "  n_CRS["), "one node type CRS")
}

// A counter refused at declaration is reported by Check and Describe, and
// leaves the record of the node type whose marker it took.
func TestCounterRefusedRecord(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "school")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	require.NoError(t, table.Check())
	counter := newEdgeCounter(enrolled, "METADATA")
	require.ErrorIs(t, table.Check(), adjlist.ErrInvalidOption)
	require.ErrorIs(t, adjlist.Describe(&strings.Builder{}, table, counter), adjlist.ErrInvalidOption)
	name, ok := table.TypeOf(keyItem("CRS#math204", "METADATA"))
	assert.True(t, ok)
	assert.Equal(t, "node CRS", name)
	require.NoError(t, adjlist.Describe(&strings.Builder{}, table, students, courses, enrolled))
}

// Verify checks an aggregate's index keys as its node's items are checked
// (an index key of an index it is not in), naming it as TypeOf does.
func TestVerifyCounterAggregateIndexKey(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := newLossSchool(t)
	lossy := s.fill(t)
	agg := s.rawGet(t, lossy[0])
	agg["GSI2PK"] = &types.AttributeValueMemberS{Value: "STATUS#OPEN"}
	_, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table.Name()), Item: agg})
	require.NoError(t, err)

	res, err := adjlist.Verify(ctx, s.db, s.table)
	require.NoError(t, err)
	require.Len(t, res.Findings, 1)
	f := res.Findings[0]
	assert.Equal(t, adjlist.FindingIndexKeyExtra, f.Kind)
	assert.Equal(t, lossy[0], f.Key)
	assert.Equal(t, "GSI2PK", f.Attribute)
	name, ok := s.table.TypeOf(agg)
	require.True(t, ok)
	assert.Equal(t, "counter ENROLLED", name)
	assert.Equal(t, name, f.Type, "Finding.Type is TypeOf's name")
}

// An ItemCounter's count items are drawn in the partitions they live in:
// a collection's under its parent node type, an Entity's on their own;
// Describe's item names that owner (To) and its Get pattern says whose
// count it reads.
func TestMermaidDrawsItemCounters(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "tracker")
	tr := declareTracker(t, nil, table)
	type review struct {
		Stars int `dynamodbav:"stars"`
	}
	reviews := adjlist.NewEntity[review](table, "review", "BOOK#{book}", "REVIEW#{user}")
	perBook := adjlist.NewItemCounter(reviews, "REVIEWS")
	watches := adjlist.NewEdge[struct{}](tr.projects, "WATCH", tr.projects)
	outDegree := adjlist.NewItemCounter(watches, "WATCHING")
	require.NoError(t, table.Check())
	m, err := adjlist.DescribeModel(table, tr.projects, tr.issues, tr.byStatus, reviews, perBook, watches, outDegree)
	require.NoError(t, err)
	to := map[string]string{}
	for _, it := range m.Items {
		to[it.Name] = it.To
	}
	assert.Equal(t, "PROJ", to["counter ISSUES"])
	assert.Equal(t, "", to["counter REVIEWS"])
	assert.Equal(t, "PROJ", to["counter WATCHING"], "an edge counted per source: the source's partitions")
	var calls []string
	for _, p := range m.AccessPatterns {
		if p.Call == "ItemCounter.Get" {
			calls = append(calls, p.Name)
		}
	}
	assert.Contains(t, calls, "one PROJ's ISSUES count by status")

	var b strings.Builder
	require.NoError(t, m.Mermaid(&b))
	assert.Contains(t, b.String(), "  k_PROJ_ISSUES[\"ISSUES (counter of PROJ)<br/>SK = ISSUES#35;#lt;status#gt;\"]\n"+
		"  n_PROJ ---|\"ISSUES count (ItemCounter.Get, table)\"| k_PROJ_ISSUES\n")
	assert.Contains(t, b.String(), "  k__REVIEWS[\"REVIEWS (counter)<br/>")
	assert.Contains(t, b.String(), "  n_PROJ ---|\"WATCHING count (ItemCounter.Get, table)\"| k_PROJ_WATCHING\n")
	assert.NotContains(t, b.String(), `n_[""]`, "no node without a type")
}
