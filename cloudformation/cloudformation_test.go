package cloudformation_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/cloudformation"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/internal/cfnlint"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

type (
	student struct {
		Name string `dynamodbav:"name"`
	}
	course struct {
		Title string `dynamodbav:"title"`
	}
	enrollment struct {
		EnrolledOn string `dynamodbav:"enrolledOn"`
		Status     string `dynamodbav:"status"`
		Year       int    `dynamodbav:"year"`
	}
)

// model builds the school model on a table named name with opts.
func model(t *testing.T, db adjlist.Client, name string, opts func(*adjlist.Options), edge func(*adjlist.EdgeOptions)) (*adjlist.Table, *adjlist.Model) {
	t.Helper()
	table := adjlist.NewTable(db, name, opts)
	students := adjlist.NewNode[student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[enrollment](students, "ENROLL", courses, edge)
	m, err := adjlist.DescribeModel(table, students, courses, enrolled)
	require.NoError(t, err)
	return table, m
}

var layouts = []struct {
	name string
	opts func(*adjlist.Options)
	edge func(*adjlist.EdgeOptions)
}{
	{"default", func(*adjlist.Options) {}, func(*adjlist.EdgeOptions) {}},
	{"no index", func(o *adjlist.Options) { o.NoIndex = true }, func(*adjlist.EdgeOptions) {}},
	{"index on the sort key", func(o *adjlist.Options) { o.IndexPartitionKey, o.IndexSortKey = "SK", "PK" }, func(*adjlist.EdgeOptions) {}},
	{"every kind of index", func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{
			{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK", Projection: types.ProjectionTypeInclude, NonKeyAttributes: []string{"status"}},
			{Name: "LSI1", Local: true, SortKey: "LSI1SK", Projection: types.ProjectionTypeKeysOnly},
			{Name: "BYSTATUS", PartitionAttributes: []adjlist.KeyAttribute{{Name: "status"}},
				SortAttributes: []adjlist.KeyAttribute{{Name: "year", Type: types.ScalarAttributeTypeN}}},
			{Name: "NOSORT", PartitionKey: "NOSORTPK"},
			{Name: "MULTI", PartitionAttributes: []adjlist.KeyAttribute{{Name: "grade"}, {Name: "term"}},
				SortAttributes: []adjlist.KeyAttribute{{Name: "score", Type: types.ScalarAttributeTypeN}, {Name: "enrolledOn"}}},
		}
	}, func(o *adjlist.EdgeOptions) {
		o.Indexes = []adjlist.IndexKeys{
			{Index: "GSI2", PartitionKey: adjlist.Template("{@target}"), SortKey: adjlist.Template("{enrolledOn}")},
			{Index: "LSI1", SortKey: adjlist.Template("{enrolledOn}")},
			{Index: "NOSORT", PartitionKey: adjlist.Template("ALL"), Shards: 4},
		}
	}},
}

// TestTemplate: for every layout the template is cfn-lint clean, and its
// properties create on DynamoDB Local the table adjlist.CreateTable makes
// for the same model.
func TestTemplate(t *testing.T) {
	for _, tt := range layouts {
		t.Run(tt.name, func(t *testing.T) {
			db := ddbtest.Client(t)
			table, m := model(t, db, ddbtest.TableName(t), tt.opts, tt.edge)
			var buf bytes.Buffer
			require.NoError(t, cloudformation.Write(&buf, m))
			path := filepath.Join(t.TempDir(), "table.json")
			require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o600))
			cfnlint.Check(t, path)

			var tpl cloudformation.Template
			require.NoError(t, json.Unmarshal(buf.Bytes(), &tpl))
			assert.Equal(t, "2010-09-09", tpl.AWSTemplateFormatVersion)
			require.Contains(t, tpl.Resources, "Table")
			res := tpl.Resources["Table"]
			assert.Equal(t, "AWS::DynamoDB::Table", res.Type)
			assert.Equal(t, "Retain", res.DeletionPolicy)
			assert.Equal(t, "PAY_PER_REQUEST", res.Properties.BillingMode)
			assert.Equal(t, table.Name(), res.Properties.TableName)
			assert.True(t, res.Properties.DeletionProtectionEnabled, "safe default")
			assert.Equal(t, &cloudformation.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: true}, res.Properties.PointInTimeRecoverySpecification, "safe default")
			assert.Nil(t, res.Properties.SSESpecification, "DynamoDB's default key")

			ddbtest.CreateTable(t, table)
			want := describe(t, db, table.Name())
			in := res.Properties.CreateTableInput()
			in.TableName = aws.String(ddbtest.TableName(t))
			createOnCleanup(t, db, in)
			assert.Equal(t, want, describe(t, db, aws.ToString(in.TableName)))
		})
	}
}

// createOnCleanup creates the table of in, and deletes it when t ends
// (turning its deletion protection off first).
func createOnCleanup(t *testing.T, db *dynamodb.Client, in *dynamodb.CreateTableInput) {
	t.Helper()
	_, err := db.CreateTable(context.Background(), in)
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx := context.Background()
		_, err := db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: in.TableName, DeletionProtectionEnabled: aws.Bool(false)})
		assert.NoError(t, err)
		_, err = db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: in.TableName})
		assert.NoError(t, err)
	})
}

// layout is what DescribeTable says of a table's keys and indexes, in a
// stable order.
type layout struct {
	Billing types.BillingMode
	Defs    []string
	Keys    []types.KeySchemaElement
	GSIs    map[string]index
	LSIs    map[string]index
}

type index struct {
	Keys       []types.KeySchemaElement
	Projection types.ProjectionType
	NonKey     []string
}

func describe(t *testing.T, db *dynamodb.Client, name string) layout {
	t.Helper()
	out, err := db.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	require.NoError(t, err)
	d := out.Table
	l := layout{Keys: d.KeySchema, GSIs: map[string]index{}, LSIs: map[string]index{}}
	if d.BillingModeSummary != nil {
		l.Billing = d.BillingModeSummary.BillingMode
	}
	for _, a := range d.AttributeDefinitions {
		l.Defs = append(l.Defs, aws.ToString(a.AttributeName)+":"+string(a.AttributeType))
	}
	slices.Sort(l.Defs)
	for _, g := range d.GlobalSecondaryIndexes {
		l.GSIs[aws.ToString(g.IndexName)] = index{g.KeySchema, g.Projection.ProjectionType, g.Projection.NonKeyAttributes}
	}
	for _, g := range d.LocalSecondaryIndexes {
		l.LSIs[aws.ToString(g.IndexName)] = index{g.KeySchema, g.Projection.ProjectionType, g.Projection.NonKeyAttributes}
	}
	return l
}

// TestTemplateProperties: the exact properties of the indexed layout.
func TestTemplateProperties(t *testing.T) {
	_, m := model(t, nil, "school", layouts[3].opts, layouts[3].edge)
	tpl, err := cloudformation.NewTemplate(m)
	require.NoError(t, err)
	p := tpl.Resources["Table"].Properties
	assert.Equal(t, []cloudformation.AttributeDefinition{
		{AttributeName: "PK", AttributeType: "S"}, {AttributeName: "SK", AttributeType: "S"},
		{AttributeName: "GSI1PK", AttributeType: "S"}, {AttributeName: "GSI1SK", AttributeType: "S"},
		{AttributeName: "GSI2PK", AttributeType: "S"}, {AttributeName: "GSI2SK", AttributeType: "S"},
		{AttributeName: "LSI1SK", AttributeType: "S"},
		{AttributeName: "status", AttributeType: "S"}, {AttributeName: "year", AttributeType: "N"},
		{AttributeName: "NOSORTPK", AttributeType: "S"},
		{AttributeName: "grade", AttributeType: "S"}, {AttributeName: "term", AttributeType: "S"},
		{AttributeName: "score", AttributeType: "N"}, {AttributeName: "enrolledOn", AttributeType: "S"},
	}, p.AttributeDefinitions)
	assert.Equal(t, []cloudformation.KeySchemaElement{{AttributeName: "PK", KeyType: "HASH"}, {AttributeName: "SK", KeyType: "RANGE"}}, p.KeySchema)
	require.Len(t, p.GlobalSecondaryIndexes, 5)
	assert.Equal(t, cloudformation.SecondaryIndex{IndexName: "GSI1",
		KeySchema:  []cloudformation.KeySchemaElement{{AttributeName: "GSI1PK", KeyType: "HASH"}, {AttributeName: "GSI1SK", KeyType: "RANGE"}},
		Projection: cloudformation.Projection{ProjectionType: "ALL"}}, p.GlobalSecondaryIndexes[0])
	assert.Equal(t, cloudformation.Projection{ProjectionType: "INCLUDE", NonKeyAttributes: []string{"status"}}, p.GlobalSecondaryIndexes[1].Projection)
	assert.Equal(t, []cloudformation.KeySchemaElement{{AttributeName: "status", KeyType: "HASH"}, {AttributeName: "year", KeyType: "RANGE"}}, p.GlobalSecondaryIndexes[2].KeySchema)
	assert.Equal(t, []cloudformation.KeySchemaElement{{AttributeName: "NOSORTPK", KeyType: "HASH"}}, p.GlobalSecondaryIndexes[3].KeySchema)
	assert.Equal(t, []cloudformation.KeySchemaElement{ // a native multi-attribute key: partition attributes, then sort attributes, in order
		{AttributeName: "grade", KeyType: "HASH"}, {AttributeName: "term", KeyType: "HASH"},
		{AttributeName: "score", KeyType: "RANGE"}, {AttributeName: "enrolledOn", KeyType: "RANGE"},
	}, p.GlobalSecondaryIndexes[4].KeySchema)
	assert.Equal(t, []cloudformation.SecondaryIndex{{IndexName: "LSI1",
		KeySchema:  []cloudformation.KeySchemaElement{{AttributeName: "PK", KeyType: "HASH"}, {AttributeName: "LSI1SK", KeyType: "RANGE"}},
		Projection: cloudformation.Projection{ProjectionType: "KEYS_ONLY"}}}, p.LocalSecondaryIndexes)
	assert.Nil(t, p.TimeToLiveSpecification)
	assert.Nil(t, p.StreamSpecification)
}

// TestTemplateOptions: the inverted index's projection, TTL, stream,
// logical id, description and deletion policy are inputs; bad ones are
// refused.
func TestTemplateOptions(t *testing.T) {
	_, m := model(t, nil, "school", layouts[0].opts, layouts[0].edge)
	var buf bytes.Buffer
	require.NoError(t, cloudformation.Write(&buf, m, func(o *cloudformation.Options) {
		o.LogicalID, o.Description, o.DeletionPolicy = "SchoolTable", "the school", "Delete"
		o.Projection, o.NonKeyAttributes = types.ProjectionTypeInclude, []string{"grade"}
		o.TimeToLiveAttribute, o.StreamViewType = "expiresAt", types.StreamViewTypeNewAndOldImages
	}))
	path := filepath.Join(t.TempDir(), "table.json")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o600))
	cfnlint.Check(t, path)
	var tpl cloudformation.Template
	require.NoError(t, json.Unmarshal(buf.Bytes(), &tpl))
	assert.Equal(t, "the school", tpl.Description)
	res := tpl.Resources["SchoolTable"]
	assert.Equal(t, "Delete", res.DeletionPolicy)
	assert.Equal(t, "Delete", res.UpdateReplacePolicy)
	p := res.Properties
	assert.Equal(t, cloudformation.Projection{ProjectionType: "INCLUDE", NonKeyAttributes: []string{"grade"}}, p.GlobalSecondaryIndexes[0].Projection)
	assert.Equal(t, &cloudformation.TimeToLiveSpecification{AttributeName: "expiresAt", Enabled: true}, p.TimeToLiveSpecification)
	assert.Equal(t, &cloudformation.StreamSpecification{StreamViewType: "NEW_AND_OLD_IMAGES"}, p.StreamSpecification)
	in := p.CreateTableInput()
	assert.Equal(t, types.StreamViewTypeNewAndOldImages, in.StreamSpecification.StreamViewType)

	for name, fn := range map[string]func(*cloudformation.Options){
		"include without attributes": func(o *cloudformation.Options) { o.Projection = types.ProjectionTypeInclude },
		"deletion policy":            func(o *cloudformation.Options) { o.DeletionPolicy = "Keep" },
		"recovery period without recovery": func(o *cloudformation.Options) {
			o.NoPointInTimeRecovery, o.RecoveryPeriodInDays = true, 7
		},
		"recovery period 36":       func(o *cloudformation.Options) { o.RecoveryPeriodInDays = 36 },
		"negative recovery period": func(o *cloudformation.Options) { o.RecoveryPeriodInDays = -1 },
		"SSE type AES256": func(o *cloudformation.Options) {
			o.SSESpecification = &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeAes256}
		},
		"KMS key without Enabled": func(o *cloudformation.Options) {
			o.SSESpecification = &types.SSESpecification{KMSMasterKeyId: aws.String("alias/school")}
		},
		"KMS type with Enabled false": func(o *cloudformation.Options) {
			o.SSESpecification = &types.SSESpecification{Enabled: aws.Bool(false), SSEType: types.SSETypeKms}
		},
		"empty KMS key": func(o *cloudformation.Options) {
			o.SSESpecification = &types.SSESpecification{Enabled: aws.Bool(true), KMSMasterKeyId: aws.String("")}
		},
		"empty tag key":           func(o *cloudformation.Options) { o.Tags = map[string]string{"": "x"} },
		"empty on-demand maximum": func(o *cloudformation.Options) { o.OnDemandThroughput = &types.OnDemandThroughput{} },
		"negative on-demand maximum": func(o *cloudformation.Options) {
			o.OnDemandThroughput = &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(10), MaxWriteRequestUnits: aws.Int64(-1)}
		},
		"zero index on-demand maximum": func(o *cloudformation.Options) {
			o.IndexOnDemandThroughput = map[string]types.OnDemandThroughput{"GSI1": {MaxReadRequestUnits: aws.Int64(0)}}
		},
		"empty warm throughput": func(o *cloudformation.Options) { o.WarmThroughput = &types.WarmThroughput{} },
		"negative warm throughput": func(o *cloudformation.Options) {
			o.WarmThroughput = &types.WarmThroughput{WriteUnitsPerSecond: aws.Int64(-4000)}
		},
		"empty index warm throughput": func(o *cloudformation.Options) {
			o.IndexWarmThroughput = map[string]types.WarmThroughput{"GSI1": {}}
		},
		"on-demand maximum of an undeclared index": func(o *cloudformation.Options) {
			o.IndexOnDemandThroughput = map[string]types.OnDemandThroughput{"GSI9": {MaxReadRequestUnits: aws.Int64(10)}}
		},
		"warm throughput of an undeclared index": func(o *cloudformation.Options) {
			o.IndexWarmThroughput = map[string]types.WarmThroughput{"GSI9": {ReadUnitsPerSecond: aws.Int64(13000)}}
		},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := cloudformation.NewTemplate(m, fn)
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
			assert.True(t, strings.HasPrefix(err.Error(), "cloudformation: "))
		})
	}
	// A local index has the table's throughput.
	_, local := model(t, nil, "school", layouts[3].opts, layouts[3].edge)
	for name, fn := range map[string]func(*cloudformation.Options){
		"on-demand maximum of a local index": func(o *cloudformation.Options) {
			o.IndexOnDemandThroughput = map[string]types.OnDemandThroughput{"LSI1": {MaxReadRequestUnits: aws.Int64(10)}}
		},
		"warm throughput of a local index": func(o *cloudformation.Options) {
			o.IndexWarmThroughput = map[string]types.WarmThroughput{"LSI1": {ReadUnitsPerSecond: aws.Int64(13000)}}
		},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := cloudformation.NewTemplate(local, fn)
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
		})
	}
}

// lint writes the template of m with optFns and runs cfn-lint on it.
func lint(t *testing.T, m *adjlist.Model, optFns ...func(*cloudformation.Options)) cloudformation.Template {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, cloudformation.Write(&buf, m, optFns...))
	path := filepath.Join(t.TempDir(), "table.json")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o600))
	cfnlint.Check(t, path)
	var tpl cloudformation.Template
	require.NoError(t, json.Unmarshal(buf.Bytes(), &tpl))
	return tpl
}

// production sets every production option of the template.
func production(o *cloudformation.Options) {
	o.RecoveryPeriodInDays = 14
	o.SSESpecification = &types.SSESpecification{Enabled: aws.Bool(true), KMSMasterKeyId: aws.String("alias/school")}
	o.Tags = map[string]string{"team": "school", "env": "prod"}
	o.OnDemandThroughput = &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(1000), MaxWriteRequestUnits: aws.Int64(500)}
	o.IndexOnDemandThroughput = map[string]types.OnDemandThroughput{
		"GSI1": {MaxReadRequestUnits: aws.Int64(100), MaxWriteRequestUnits: aws.Int64(50)},
		"GSI2": {MaxReadRequestUnits: aws.Int64(10), MaxWriteRequestUnits: aws.Int64(5)},
	}
	o.WarmThroughput = &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(15000), WriteUnitsPerSecond: aws.Int64(5000)}
	o.IndexWarmThroughput = map[string]types.WarmThroughput{"GSI1": {ReadUnitsPerSecond: aws.Int64(13000)}}
	o.TimeToLiveAttribute, o.StreamViewType = "expiresAt", types.StreamViewTypeNewImage
}

// TestTemplateProduction: with every production option set, the template
// is cfn-lint clean and has exactly these properties; its CreateTable
// request carries them, and DynamoDB Local creates the table.
func TestTemplateProduction(t *testing.T) {
	db := ddbtest.Client(t)
	_, m := model(t, db, ddbtest.TableName(t), layouts[3].opts, layouts[3].edge)
	p := lint(t, m, production).Resources["Table"].Properties
	assert.True(t, p.DeletionProtectionEnabled)
	assert.Equal(t, &cloudformation.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 14}, p.PointInTimeRecoverySpecification)
	assert.Equal(t, &cloudformation.SSESpecification{SSEEnabled: true, SSEType: "KMS", KMSMasterKeyId: "alias/school"}, p.SSESpecification)
	assert.Equal(t, []cloudformation.Tag{{Key: "env", Value: "prod"}, {Key: "team", Value: "school"}}, p.Tags)
	assert.Equal(t, &cloudformation.OnDemandThroughput{MaxReadRequestUnits: 1000, MaxWriteRequestUnits: 500}, p.OnDemandThroughput)
	assert.Equal(t, &cloudformation.WarmThroughput{ReadUnitsPerSecond: 15000, WriteUnitsPerSecond: 5000}, p.WarmThroughput)
	assert.Equal(t, &cloudformation.TimeToLiveSpecification{AttributeName: "expiresAt", Enabled: true}, p.TimeToLiveSpecification)
	assert.Equal(t, &cloudformation.StreamSpecification{StreamViewType: "NEW_IMAGE"}, p.StreamSpecification)
	indexes := map[string]cloudformation.SecondaryIndex{}
	for _, ix := range p.GlobalSecondaryIndexes {
		indexes[ix.IndexName] = ix
	}
	assert.Equal(t, &cloudformation.OnDemandThroughput{MaxReadRequestUnits: 100, MaxWriteRequestUnits: 50}, indexes["GSI1"].OnDemandThroughput)
	assert.Equal(t, &cloudformation.WarmThroughput{ReadUnitsPerSecond: 13000}, indexes["GSI1"].WarmThroughput)
	assert.Equal(t, &cloudformation.OnDemandThroughput{MaxReadRequestUnits: 10, MaxWriteRequestUnits: 5}, indexes["GSI2"].OnDemandThroughput)
	assert.Nil(t, indexes["GSI2"].WarmThroughput)
	assert.Nil(t, indexes["BYSTATUS"].OnDemandThroughput)

	in := p.CreateTableInput()
	assert.Equal(t, aws.Bool(true), in.DeletionProtectionEnabled)
	assert.Equal(t, &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeKms, KMSMasterKeyId: aws.String("alias/school")}, in.SSESpecification)
	assert.Equal(t, []types.Tag{{Key: aws.String("env"), Value: aws.String("prod")}, {Key: aws.String("team"), Value: aws.String("school")}}, in.Tags)
	assert.Equal(t, &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(1000), MaxWriteRequestUnits: aws.Int64(500)}, in.OnDemandThroughput)
	assert.Equal(t, &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(15000), WriteUnitsPerSecond: aws.Int64(5000)}, in.WarmThroughput)
	assert.Equal(t, &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(13000)}, in.GlobalSecondaryIndexes[0].WarmThroughput)
	assert.Equal(t, &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(100), MaxWriteRequestUnits: aws.Int64(50)}, in.GlobalSecondaryIndexes[0].OnDemandThroughput)

	createOnCleanup(t, db, in)
	out, err := db.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: in.TableName})
	require.NoError(t, err)
	assert.Equal(t, aws.Bool(true), out.Table.DeletionProtectionEnabled)
	assert.Equal(t, in.OnDemandThroughput, out.Table.OnDemandThroughput)
}

// TestTemplateSafeDefaultsOff: deletion protection and point-in-time
// recovery turned off are written as false, and encryption with the AWS
// owned key as SSEEnabled false; the template stays cfn-lint clean.
func TestTemplateSafeDefaultsOff(t *testing.T) {
	_, m := model(t, nil, "school", layouts[0].opts, layouts[0].edge)
	p := lint(t, m, func(o *cloudformation.Options) {
		o.NoDeletionProtection, o.NoPointInTimeRecovery = true, true
		o.SSESpecification = &types.SSESpecification{Enabled: aws.Bool(false)}
		o.WarmThroughput = &types.WarmThroughput{WriteUnitsPerSecond: aws.Int64(4000)}
		o.OnDemandThroughput = &types.OnDemandThroughput{MaxWriteRequestUnits: aws.Int64(100)}
	}).Resources["Table"].Properties
	assert.False(t, p.DeletionProtectionEnabled)
	assert.Equal(t, &cloudformation.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: false}, p.PointInTimeRecoverySpecification)
	assert.Equal(t, &cloudformation.SSESpecification{SSEEnabled: false}, p.SSESpecification)
	assert.Equal(t, &cloudformation.WarmThroughput{WriteUnitsPerSecond: 4000}, p.WarmThroughput)
	assert.Equal(t, &cloudformation.OnDemandThroughput{MaxWriteRequestUnits: 100}, p.OnDemandThroughput)
	in := p.CreateTableInput()
	assert.Nil(t, in.DeletionProtectionEnabled)
	assert.Equal(t, &types.SSESpecification{Enabled: aws.Bool(false)}, in.SSESpecification)
	assert.Equal(t, &types.WarmThroughput{WriteUnitsPerSecond: aws.Int64(4000)}, in.WarmThroughput)
	assert.Equal(t, &types.OnDemandThroughput{MaxWriteRequestUnits: aws.Int64(100)}, in.OnDemandThroughput)
}
