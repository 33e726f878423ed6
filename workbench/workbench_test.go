package workbench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/workbench"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

type (
	student struct {
		Name  string   `dynamodbav:"name"`
		Year  int      `dynamodbav:"year"`
		Tags  []string `dynamodbav:"tags,stringset,omitempty"`
		Admin bool     `dynamodbav:"admin"`
	}
	course struct {
		Title string            `dynamodbav:"title"`
		Meta  map[string]string `dynamodbav:"meta,omitempty"`
		Blob  []byte            `dynamodbav:"blob,omitempty"`
		Notes []any             `dynamodbav:"notes,omitempty"`
	}
	enrollment struct {
		EnrolledOn string `dynamodbav:"enrolledOn"`
		Grade      string `dynamodbav:"grade"`
	}
)

type school struct {
	table    *adjlist.Table
	students *adjlist.Node[student]
	courses  *adjlist.Node[course]
	enrolled *adjlist.Edge[enrollment]
}

// schoolOptions gives the table an index by enrolment date, a local
// index, and a native index on two sort attributes (which NoSQL
// Workbench cannot hold).
func schoolOptions(o *adjlist.Options) {
	o.Indexes = []adjlist.Index{
		{Name: "BYDATE", PartitionKey: "BYDATE_PK", SortKey: "BYDATE_SK", Projection: types.ProjectionTypeKeysOnly},
		{Name: "LSI1", Local: true, SortKey: "LSI1SK"},
		{Name: "NATIVE", PartitionAttributes: []adjlist.KeyAttribute{{Name: "title"}},
			SortAttributes: []adjlist.KeyAttribute{{Name: "year", Type: types.ScalarAttributeTypeN}, {Name: "name"}}},
	}
}

func newSchool(table *adjlist.Table) school {
	students := adjlist.NewNode[student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[enrollment](students, "ENROLL", courses, func(o *adjlist.EdgeOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: "BYDATE", PartitionKey: adjlist.Template("{@target}"),
			SortKey: adjlist.Template("ON#{enrolledOn}")}}
	})
	return school{table, students, courses, enrolled}
}

func (s school) model(t *testing.T) *adjlist.Model {
	t.Helper()
	m, err := adjlist.DescribeModel(s.table, s.students, s.courses, s.enrolled)
	require.NoError(t, err)
	return m
}

var (
	ada     = student{Name: "Ada", Year: 2, Tags: []string{"math", "poetry"}, Admin: true}
	linalg  = course{Title: "Linear Algebra", Meta: map[string]string{"room": "B12"}, Blob: []byte{0, 1, 2}, Notes: []any{"x", 1.5, nil}}
	enrolOn = enrollment{EnrolledOn: "2026-09-01", Grade: "B"}
)

// TestWorkbenchRoundTrip writes the school with the library, exports the
// model with a Scan of the table as its sample data, and puts the file's
// TableData into a fresh table, where the library's handles read back
// what was written, on the table and on the indexes.
func TestWorkbenchRoundTrip(t *testing.T) {
	ctx := context.Background()
	src := newSchool(ddbtest.NewTable(t, schoolOptions))
	require.NoError(t, src.students.Put(ctx, "a91", ada))
	require.NoError(t, src.courses.Put(ctx, "math204", linalg))
	require.NoError(t, src.enrolled.Put(ctx, "a91", "math204", enrolOn))
	db := ddbtest.Client(t)
	out, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(src.table.Name())})
	require.NoError(t, err)
	require.Len(t, out.Items, 3)

	var buf bytes.Buffer
	require.NoError(t, workbench.Write(&buf, src.model(t), func(o *workbench.Options) { o.Items = out.Items }))
	var f workbench.File
	require.NoError(t, json.Unmarshal(buf.Bytes(), &f))
	require.Len(t, f.DataModel, 1)
	require.Len(t, f.DataModel[0].TableData, 3)

	dst := newSchool(ddbtest.NewTable(t, schoolOptions))
	for _, item := range f.DataModel[0].TableData {
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(dst.table.Name()), Item: item.AttributeValues()})
		require.NoError(t, err)
	}
	got, err := dst.students.Get(ctx, "a91")
	require.NoError(t, err)
	assert.Equal(t, ada, got)
	gotCourse, err := dst.courses.Get(ctx, "math204")
	require.NoError(t, err)
	assert.Equal(t, linalg, gotCourse)
	edges, err := dst.enrolled.From("a91").Collect(ctx)
	require.NoError(t, err)
	assert.Equal(t, []adjlist.EdgeItem[enrollment]{{From: "a91", To: "math204", Data: enrolOn}}, edges)
	roster, err := dst.enrolled.To("math204").Collect(ctx)
	require.NoError(t, err)
	assert.Equal(t, []adjlist.EdgeItem[enrollment]{{From: "a91", To: "math204", Data: enrolOn}}, roster)
	byDate, err := dst.enrolled.ByIndex("BYDATE", "math204").GreaterThanEqual("2026-09-01").Collect(ctx)
	require.NoError(t, err)
	require.Len(t, byDate, 1)
	assert.Equal(t, "a91", byDate[0].From)
}

// TestWorkbenchStructure: the file has the fields of AWS's sample models,
// and the model's table, indexes, attributes and facets.
func TestWorkbenchStructure(t *testing.T) {
	s := newSchool(adjlist.NewTable(nil, "school", schoolOptions))
	date := time.Date(2026, 11, 23, 16, 5, 0, 0, time.UTC)
	items := []map[string]types.AttributeValue{
		{"PK": &types.AttributeValueMemberS{Value: "STU#a91"}, "SK": &types.AttributeValueMemberS{Value: "PROFILE"}, "name": &types.AttributeValueMemberS{Value: "Ada"}},
		{"PK": &types.AttributeValueMemberS{Value: "STU#a91"}, "SK": &types.AttributeValueMemberS{Value: "ENROLL#CRS#math204"}},
		{"PK": &types.AttributeValueMemberS{Value: "OTHER#1"}, "SK": &types.AttributeValueMemberS{Value: "X"}},
	}
	var buf bytes.Buffer
	require.NoError(t, workbench.Write(&buf, s.model(t), func(o *workbench.Options) {
		o.Date, o.Items, o.Projection, o.NonKeyAttributes = date, items, types.ProjectionTypeInclude, []string{"grade"}
	}))

	// The raw JSON has exactly the sample models' fields.
	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(buf.Bytes(), &raw))
	assert.ElementsMatch(t, []string{"ModelName", "ModelMetadata", "DataModel"}, keys(raw))
	var tables []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw["DataModel"], &tables))
	require.Len(t, tables, 1)
	assert.ElementsMatch(t, []string{"TableName", "KeyAttributes", "NonKeyAttributes", "TableFacets", "GlobalSecondaryIndexes",
		"TableData", "DataAccess", "BillingMode"}, keys(tables[0]))
	assert.JSONEq(t, `{"MySql": {}}`, string(tables[0]["DataAccess"]))

	var f workbench.File
	require.NoError(t, json.Unmarshal(buf.Bytes(), &f))
	assert.Equal(t, "school", f.ModelName)
	md := f.ModelMetadata
	assert.Equal(t, "adjlist", md.Author)
	assert.Equal(t, "Nov 23, 2026, 04:05 PM", md.DateCreated)
	assert.Equal(t, "Amazon DynamoDB", md.AWSService)
	assert.Equal(t, "3.0", md.Version)
	assert.Contains(t, md.Description, "- CRS's ENROLL edges from STU (reverse): Edge.To, Query GSI1PK = \"CRS#<to>\"")

	tb := f.DataModel[0]
	assert.Equal(t, "school", tb.TableName)
	assert.Equal(t, workbench.KeyAttributes{PartitionKey: workbench.Attribute{"PK", "S"}, SortKey: &workbench.Attribute{"SK", "S"}}, tb.KeyAttributes)
	assert.Equal(t, []workbench.Attribute{
		{"GSI1PK", "S"}, {"GSI1SK", "S"}, {"BYDATE_PK", "S"}, {"BYDATE_SK", "S"}, {"LSI1SK", "S"},
		{"title", "S"}, {"year", "N"}, {"name", "S"},
		{"tags", "SS"}, {"admin", "BOOL"}, {"meta", "M"}, {"blob", "B"}, {"notes", "L"}, {"enrolledOn", "S"}, {"grade", "S"},
	}, tb.NonKeyAttributes)
	assert.Equal(t, []workbench.GlobalSecondaryIndex{
		{IndexName: "GSI1", KeyAttributes: workbench.KeyAttributes{PartitionKey: workbench.Attribute{"GSI1PK", "S"}, SortKey: &workbench.Attribute{"GSI1SK", "S"}},
			Projection: workbench.Projection{ProjectionType: "INCLUDE", NonKeyAttributes: []string{"grade"}}},
		{IndexName: "BYDATE", KeyAttributes: workbench.KeyAttributes{PartitionKey: workbench.Attribute{"BYDATE_PK", "S"}, SortKey: &workbench.Attribute{"BYDATE_SK", "S"}},
			Projection: workbench.Projection{ProjectionType: "KEYS_ONLY"}},
	}, tb.GlobalSecondaryIndexes, "no LSI, no native index of several sort attributes")
	assert.Equal(t, "PAY_PER_REQUEST", tb.BillingMode)
	assert.Len(t, tb.TableData, 3)

	require.Len(t, tb.TableFacets, 3)
	stu, crs, enr := tb.TableFacets[0], tb.TableFacets[1], tb.TableFacets[2]
	assert.Equal(t, "node_STU", stu.FacetName)
	assert.Equal(t, workbench.KeyAttributeAlias{PartitionKeyAlias: "STU#<id>", SortKeyAlias: "PROFILE"}, stu.KeyAttributeAlias)
	assert.Equal(t, []string{"name", "year", "tags", "admin"}, stu.NonKeyAttributes)
	assert.Equal(t, []workbench.Item{workbench.NewItem(items[0])}, stu.TableData)
	assert.Equal(t, "node_CRS", crs.FacetName)
	assert.Equal(t, []string{"title", "meta", "blob", "notes"}, crs.NonKeyAttributes, "title alone does not put a course in NATIVE")
	assert.Empty(t, crs.TableData)
	assert.Equal(t, "edge_ENROLL_STU_CRS", enr.FacetName)
	assert.Equal(t, workbench.KeyAttributeAlias{PartitionKeyAlias: "STU#<from>", SortKeyAlias: "ENROLL#CRS#<to>"}, enr.KeyAttributeAlias)
	assert.Equal(t, []string{"enrolledOn", "grade", "GSI1PK", "GSI1SK", "BYDATE_PK", "BYDATE_SK"}, enr.NonKeyAttributes)
	assert.Equal(t, []workbench.Item{workbench.NewItem(items[1])}, enr.TableData)
}

func TestWorkbenchErrors(t *testing.T) {
	s := newSchool(adjlist.NewTable(nil, "school", schoolOptions))
	_, err := workbench.New(s.model(t), func(o *workbench.Options) {
		o.Items = []map[string]types.AttributeValue{{"PK": &types.AttributeValueMemberS{Value: "STU#a"}}}
	})
	require.Error(t, err)

	var v workbench.Value
	for _, bad := range []string{`{"X": "1"}`, `{"S": "a", "N": "1"}`, `"S"`, `{"N": 1}`} {
		assert.Error(t, json.Unmarshal([]byte(bad), &v), bad)
	}
	_, err = json.Marshal(workbench.Value{AttributeValue: &types.UnknownUnionMember{Tag: "X"}})
	assert.Error(t, err)
}

// TestValueRoundTrip: every DynamoDB type survives DynamoDB JSON.
func TestValueRoundTrip(t *testing.T) {
	item := map[string]types.AttributeValue{
		"s": &types.AttributeValueMemberS{Value: "a"}, "n": &types.AttributeValueMemberN{Value: "1.5"},
		"b": &types.AttributeValueMemberB{Value: []byte{1, 2}}, "bool": &types.AttributeValueMemberBOOL{Value: true},
		"null": &types.AttributeValueMemberNULL{Value: true}, "ss": &types.AttributeValueMemberSS{Value: []string{"x", "y"}},
		"ns": &types.AttributeValueMemberNS{Value: []string{"1", "2"}}, "bs": &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2}}},
		"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "e"}}},
		"m": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": &types.AttributeValueMemberN{Value: "3"}}},
	}
	b, err := json.Marshal(workbench.NewItem(item))
	require.NoError(t, err)
	assert.Contains(t, string(b), `"s":{"S":"a"}`)
	assert.Contains(t, string(b), `"b":{"B":"AQI="}`)
	var back workbench.Item
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, item, back.AttributeValues())
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
