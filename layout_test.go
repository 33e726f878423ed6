package adjlist_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// Every layout the seeds use must serve both directions of an edge.
func TestLayouts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		layout adjlist.Options
		label  string
		// the raw edge item a91→math204, key attributes only
		want map[string]string
	}{
		{
			name:  "explicit GSI1PK/GSI1SK (seed 000)",
			label: "ENROLL",
			want:  map[string]string{"PK": "STU#a91", "SK": "ENROLL#CRS#math204", "GSI1PK": "CRS#math204", "GSI1SK": "STU#a91"},
		},
		{
			name:   "GSI_PK/GSI_SK, unlabelled (seed 003)",
			layout: adjlist.Options{IndexPartitionKey: "GSI_PK", IndexSortKey: "GSI_SK"},
			want:   map[string]string{"PK": "STU#a91", "SK": "CRS#math204", "GSI_PK": "CRS#math204", "GSI_SK": "STU#a91"},
		},
		{
			name:   "custom names EntityRef/Detail (seed 004)",
			layout: adjlist.Options{PartitionKey: "EntityRef", SortKey: "Detail", Index: "ByTarget", IndexPartitionKey: "TargetRef", IndexSortKey: "SourceRef"},
			label:  "ENROLL",
			want:   map[string]string{"EntityRef": "STU#a91", "Detail": "ENROLL#CRS#math204", "TargetRef": "CRS#math204", "SourceRef": "STU#a91"},
		},
		{
			name:   "index on the sort key (seed 002)",
			layout: adjlist.Options{IndexPartitionKey: "SK", IndexSortKey: "PK"},
			label:  "ENROLL",
			want:   map[string]string{"PK": "STU#a91", "SK": "ENROLL#CRS#math204"},
		},
		{
			name:   "index on the sort key, unlabelled",
			layout: adjlist.Options{IndexPartitionKey: "SK", IndexSortKey: "PK"},
			want:   map[string]string{"PK": "STU#a91", "SK": "CRS#math204"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSchoolLayout(t, tt.layout, tt.label)
			ctx := context.Background()
			seedSchool(t, s)

			o := s.table.Options()
			raw := rawItem(t, s, tt.want[o.PartitionKey], tt.want[o.SortKey])
			for k, v := range tt.want {
				assert.Equal(t, v, raw[k], k)
			}
			assert.Len(t, raw, len(tt.want)+2, "keys plus enrolledOn, grade: %v", raw)

			fwd, err := s.enrolled.From("a91").Collect(ctx)
			require.NoError(t, err)
			assert.Equal(t, []string{"cs101", "math204"}, ids(fwd, edgeTo))

			node, err := adjlist.LoadNode(ctx, s.students, s.enrolled, "a91")
			require.NoError(t, err)
			assert.Equal(t, "Ada", node.Node.Name)
			assert.Equal(t, []string{"cs101", "math204"}, ids(node.Edges, edgeTo))

			require.EventuallyWithT(t, func(c *assert.CollectT) {
				rev, err := s.enrolled.To("math204").Collect(ctx)
				require.NoError(c, err)
				assert.Equal(c, []string{"a91", "b30"}, ids(rev, edgeFrom))
				rev, err = s.enrolled.To("cs101").Collect(ctx)
				require.NoError(c, err)
				assert.Equal(c, []string{"a9", "a91"}, ids(rev, edgeFrom), "waitlist edges stay out")

				page, err := s.enrolled.To("math204").Limit(1).Page(ctx, "")
				require.NoError(c, err)
				require.NotEmpty(c, page.Cursor)
				next, err := s.enrolled.To("math204").Limit(1).Page(ctx, page.Cursor)
				require.NoError(c, err)
				assert.Equal(c, []string{"b30"}, ids(next.Items, edgeFrom), "cursor resumes on the index")
			}, 5*time.Second, 20*time.Millisecond)

			require.NoError(t, s.enrolled.Delete(ctx, "a91", "math204"))
			_, err = s.enrolled.Get(ctx, "a91", "math204")
			require.ErrorIs(t, err, adjlist.ErrNotFound)
		})
	}
}

func TestInvalidLayouts(t *testing.T) {
	t.Parallel()
	db := newSchool(t).db
	for _, o := range []adjlist.Options{
		{PartitionKey: "K", SortKey: "K"},
		{IndexPartitionKey: "PK"},
		{IndexPartitionKey: "SK", IndexSortKey: "X"},
		{IndexSortKey: "GSI1PK"},
	} {
		table := adjlist.NewTable(db, "t", func(opts *adjlist.Options) { *opts = o })
		students := adjlist.NewNode[Student](table, "STU", "PROFILE")
		err := students.Put(context.Background(), "a91", Student{})
		assert.ErrorIs(t, err, adjlist.ErrInvalidOption, "%+v", o)
	}
}

func ids[T any](items []T, id func(T) string) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, id(it))
	}
	return out
}

func rawItem(t *testing.T, s *school, pk, sk string) map[string]string {
	t.Helper()
	o := s.table.Options()
	in := getInput(s.table.Name(), pk, sk)
	in.Key = map[string]types.AttributeValue{
		o.PartitionKey: &types.AttributeValueMemberS{Value: pk},
		o.SortKey:      &types.AttributeValueMemberS{Value: sk},
	}
	out, err := s.db.GetItem(context.Background(), in)
	require.NoError(t, err)
	require.NotNil(t, out.Item, "no item %s / %s", pk, sk)
	return stringsOf(t, out.Item)
}

// The AWS developer guide's adjacency list: node items keyed by their own
// id (PK = SK) on a table whose index is keyed on the sort key.
func TestSelfKeyedNodesOnSortKeyIndex(t *testing.T) {
	t.Parallel()
	type Bill struct {
		Amount int `dynamodbav:"amount"`
	}
	type Line struct {
		Qty int `dynamodbav:"qty"`
	}
	db := newSchool(t).db
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) { o.IndexPartitionKey, o.IndexSortKey = "SK", "PK" })
	ctx := context.Background()
	require.NoError(t, adjlist.CreateTable(ctx, db, table))
	dropOnCleanup(t, db, table.Name())
	invoices := adjlist.NewNode[Bill](table, "INVOICE", "")
	bills := adjlist.NewNode[Bill](table, "BILL", "")
	lines := adjlist.NewEdge[Line](invoices, "", bills)

	require.NoError(t, invoices.Put(ctx, "92551", Bill{Amount: 100}))
	require.NoError(t, bills.Put(ctx, "4224663", Bill{Amount: 40}))
	require.NoError(t, lines.Put(ctx, "92551", "4224663", Line{Qty: 2}))
	require.NoError(t, lines.Put(ctx, "92552", "4224663", Line{Qty: 1}))

	pk, sk, err := bills.Key("4224663")
	require.NoError(t, err)
	assert.Equal(t, []string{"BILL#4224663", "BILL#4224663"}, []string{pk, sk})

	got, err := bills.Get(ctx, "4224663")
	require.NoError(t, err)
	assert.Equal(t, 40, got.Amount)

	inv, err := adjlist.LoadNode(ctx, invoices, lines, "92551")
	require.NoError(t, err)
	assert.Equal(t, 100, inv.Node.Amount)
	assert.Equal(t, []adjlist.EdgeItem[Line]{{From: "92551", To: "4224663", Data: Line{Qty: 2}}}, inv.Edges)

	require.EventuallyWithT(t, func(c *assert.CollectT) {
		items, err := lines.To("4224663").Collect(ctx)
		require.NoError(c, err)
		assert.Equal(c, []string{"92551", "92552"}, ids(items, func(e adjlist.EdgeItem[Line]) string { return e.From }), "the bill's own item is not an edge")
	}, 5*time.Second, 20*time.Millisecond)
}

func TestNoIndexTable(t *testing.T) {
	t.Parallel()
	db := newSchool(t).db
	calls := &countingClient{Client: db}
	table := adjlist.NewTable(calls, ddbtest.TableName(t), func(o *adjlist.Options) { o.NoIndex = true })
	ctx := context.Background()
	require.NoError(t, adjlist.CreateTable(ctx, db, table))
	dropOnCleanup(t, db, table.Name())
	out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table.Name())})
	require.NoError(t, err)
	assert.Empty(t, out.Table.GlobalSecondaryIndexes)
	assert.Len(t, out.Table.AttributeDefinitions, 2)

	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	require.NoError(t, enrolled.Put(ctx, "a91", "math204", math204))
	got, err := db.GetItem(ctx, getInput(table.Name(), "STU#a91", "ENROLL#CRS#math204"))
	require.NoError(t, err)
	assert.NotContains(t, got.Item, "GSI1PK", "no index keys on a table without an index")

	before := calls.total()
	_, err = enrolled.To("math204").Collect(ctx)
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	assert.Equal(t, before, calls.total())
}

func TestNilClientTable(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "school")
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	pk, sk, err := students.Key("a91")
	require.NoError(t, err)
	assert.Equal(t, []string{"STU#a91", "PROFILE"}, []string{pk, sk})
	_, err = students.Get(context.Background(), "a91")
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
}
