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

// Employee is the DynamoDB labs' employees design, reduced: managers carry
// their manager title, others none. The manager index GSI_2 is keyed on
// that title and the literal text "root".
type Employee struct {
	Name         string `dynamodbav:"name"`
	ManagerTitle string `dynamodbav:"manager_title,omitempty"`
	Hired        string `dynamodbav:"hired,omitempty"`
}

type managersModel struct {
	db        *dynamodb.Client
	calls     *countingClient
	table     *adjlist.Table
	employees *adjlist.Node[Employee]
	// contractors share GSI_2 with a sort key from data, which an update
	// cannot always know.
	contractors *adjlist.Node[Employee]
}

func newManagersModel(t *testing.T) *managersModel {
	t.Helper()
	db := ddbtest.Client(t)
	m := &managersModel{db: db, calls: &countingClient{Client: db}}
	m.table = adjlist.NewTable(m.calls, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "GSI_2", PartitionKey: "GSI_2_PK", SortKey: "GSI_2_SK", KeysTogether: true}}
	})
	ddbtest.CreateTable(t, m.table)
	m.employees = adjlist.NewNode[Employee](m.table, "EMP", "META", func(o *adjlist.NodeOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI_2", PartitionKey: adjlist.Template("{manager_title}"), SortKey: adjlist.Template("root")}}
	})
	m.contractors = adjlist.NewNode[Employee](m.table, "CON", "META", func(o *adjlist.NodeOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI_2", PartitionKey: adjlist.Template("{manager_title}"), SortKey: adjlist.Template("{hired}")}}
	})
	return m
}

func (m *managersModel) raw(t *testing.T, pk string) map[string]string {
	t.Helper()
	out, err := m.db.GetItem(context.Background(), getInput(m.table.Name(), pk, "META"))
	require.NoError(t, err)
	return rawText(out.Item)
}

// index keys of an item: the GSI_2 attributes it carries.
func gsi2Keys(item map[string]string) map[string]string {
	out := map[string]string{}
	for _, k := range []string{"GSI_2_PK", "GSI_2_SK"} {
		if v, ok := item[k]; ok {
			out[k] = v
		}
	}
	return out
}

// A manager carries both keys of GSI_2, an employee neither: the sort
// key's literal text is not written without the partition key. Updates,
// Verify, Repair and Migrate keep to it.
func TestIndexKeysTogether(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := newManagersModel(t)
	manager := map[string]string{"GSI_2_PK": "CTO", "GSI_2_SK": "root"}
	none := map[string]string{}

	require.NoError(t, m.employees.Put(ctx, "e1", Employee{Name: "Ann", ManagerTitle: "CTO"}))
	require.NoError(t, m.employees.Put(ctx, "e2", Employee{Name: "Bob"}))
	require.NoError(t, m.employees.Replace(ctx, "e3", Employee{Name: "Cy"}))
	assert.Equal(t, manager, gsi2Keys(m.raw(t, "EMP#e1")))
	assert.Equal(t, none, gsi2Keys(m.raw(t, "EMP#e2")))
	assert.Equal(t, none, gsi2Keys(m.raw(t, "EMP#e3")))

	var got []adjlist.NodeItem[Employee]
	require.Eventually(t, func() bool {
		var err error
		got, err = m.employees.ByIndex("GSI_2", "CTO").Collect(ctx)
		require.NoError(t, err)
		return len(got) == 1
	}, 5*time.Second, 20*time.Millisecond)
	assert.Equal(t, "e1", got[0].ID)

	// Promoted, demoted, renamed.
	_, err := m.employees.Update(ctx, "e2", adjlist.Set("manager_title", "VP"))
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"GSI_2_PK": "VP", "GSI_2_SK": "root"}, gsi2Keys(m.raw(t, "EMP#e2")))
	_, err = m.employees.Update(ctx, "e1", adjlist.Remove("manager_title"))
	require.NoError(t, err)
	assert.Equal(t, none, gsi2Keys(m.raw(t, "EMP#e1")))
	_, err = m.employees.Update(ctx, "e3", adjlist.Set("name", "Cyd"))
	require.NoError(t, err)
	assert.Equal(t, none, gsi2Keys(m.raw(t, "EMP#e3")))

	// An update that knows one key but not the other is refused before
	// any request.
	require.NoError(t, m.contractors.Put(ctx, "c1", Employee{Name: "Dee", Hired: "2020"}))
	before := m.calls.total()
	_, err = m.contractors.Update(ctx, "c1", adjlist.Set("manager_title", "Lead"))
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	assert.ErrorContains(t, err, `index GSI_2 keeps its keys together`)
	assert.ErrorContains(t, err, `not ["hired"]`)
	assert.Equal(t, before, m.calls.total(), "no request")
	_, err = m.contractors.Update(ctx, "c1", adjlist.Set("manager_title", "Lead").Set("hired", "2021"))
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"GSI_2_PK": "Lead", "GSI_2_SK": "2021"}, gsi2Keys(m.raw(t, "CON#c1")))

	res, err := adjlist.Verify(ctx, m.db, m.table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)

	// A stray sort key, as an index whose keys are kept apart writes: a
	// finding that Repair removes.
	stray := func(id string) {
		_, err := m.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(m.table.Name()),
			Key:                       map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "EMP#" + id}, "SK": &types.AttributeValueMemberS{Value: "META"}},
			UpdateExpression:          aws.String("SET GSI_2_SK = :r"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":r": &types.AttributeValueMemberS{Value: "root"}}})
		require.NoError(t, err)
	}
	stray("e3")
	res, err = adjlist.Verify(ctx, m.db, m.table)
	require.NoError(t, err)
	require.Len(t, res.Findings, 1)
	f := res.Findings[0]
	assert.Equal(t, adjlist.FindingIndexKeyExtra, f.Kind)
	assert.Equal(t, adjlist.Key{PK: "EMP#e3", SK: "META"}, f.Key)
	assert.Equal(t, "GSI_2_SK", f.Attribute)
	rep, err := adjlist.Repair(ctx, m.db, m.table, res.Findings)
	require.NoError(t, err)
	assert.Len(t, rep.Repaired, 1)
	assert.Equal(t, none, gsi2Keys(m.raw(t, "EMP#e3")))

	// Migrate removes one too.
	stray("e1")
	mig, err := adjlist.Migrate(ctx, m.db, m.employees)
	require.NoError(t, err)
	assert.Equal(t, 1, mig.Rewritten)
	assert.Equal(t, none, gsi2Keys(m.raw(t, "EMP#e1")))

	res, err = adjlist.Verify(ctx, m.db, m.table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
}
