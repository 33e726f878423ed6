package readmecheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/cloudformation"
	"github.com/adjlist/adjlist/workbench"
)

// The tests of this file run the README's blocks that export the model
// and configure the table for production ("Exporting the model",
// "Production tables", "Traces").

// The model as one value, drawn three ways, without a request.
func TestReadmeExportModel(t *testing.T) { require.NoError(t, readmeExportModel(t)) }

// readmeExportModel is TestReadmeExportModel's body: its README blocks return their errors.
func readmeExportModel(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "school")
	table := adjlist.NewTable(l.client, "school")
	s := newSchool(table)
	students, courses, enrolled := s.students, s.courses, s.enrolled
	w, f, g := new(bytes.Buffer), new(bytes.Buffer), new(bytes.Buffer)
	// readme:begin
	m, err := adjlist.DescribeModel(table, students, courses, enrolled)
	if err != nil {
		return err
	}
	// ```mermaid flowchart: node types, edges with label and direction, the
	// index serving each reverse read, item collections, other indexes
	if err := m.Mermaid(w); err != nil {
		return err
	}
	if err := workbench.Write(f, m); err != nil { // NoSQL Workbench data model ("Import data model")
		return err
	}
	if err := cloudformation.Write(g, m); err != nil { // AWS::DynamoDB::Table template
		return err
	}
	// readme:end
	require.NoError(t, err)
	assert.Zero(t, l.requests.Load(), "no request")
	assert.Contains(t, w.String(), "```mermaid\nflowchart LR\n")
	assert.Contains(t, w.String(), `n_STU -->|"ENROLL (Edge.From, table)"| n_CRS`)

	var model struct {
		ModelName string
		DataModel []struct {
			TableName   string
			TableFacets []struct{ FacetName string }
		}
	}
	require.NoError(t, json.Unmarshal(f.Bytes(), &model))
	require.Len(t, model.DataModel, 1)
	assert.Equal(t, "school", model.DataModel[0].TableName)
	assert.Len(t, model.DataModel[0].TableFacets, 3, "one per item type")

	var template struct {
		Resources map[string]struct {
			Type       string
			Properties struct{ TableName string }
		}
	}
	require.NoError(t, json.Unmarshal(g.Bytes(), &template))
	require.Len(t, template.Resources, 1)
	for _, r := range template.Resources {
		assert.Equal(t, "AWS::DynamoDB::Table", r.Type)
		assert.Equal(t, "school", r.Properties.TableName)
	}
	return nil
}

// A production table: what DynamoDB Local honours of CreateTableOptions,
// its refusal of point-in-time recovery, and the CloudFormation template
// with the safe defaults and the options set.
func TestReadmeProductionTable(t *testing.T) { require.NoError(t, readmeProductionTable(t)) }

// readmeProductionTable is TestReadmeProductionTable's body: its README blocks return their errors.
func readmeProductionTable(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "school")
	client, ctx := l.client, t.Context()
	table := adjlist.NewTable(client, "school")
	s := newSchool(table)
	students, courses, enrolled := s.students, s.courses, s.enrolled
	w := new(bytes.Buffer)
	t.Cleanup(func() { // before the table is deleted
		_, err := client.UpdateTable(context.Background(), &dynamodb.UpdateTableInput{TableName: aws.String("school"), DeletionProtectionEnabled: aws.Bool(false)})
		require.NoError(t, err)
	})
	// readme:begin
	err := adjlist.CreateTable(ctx, client, table, func(o *adjlist.CreateTableOptions) {
		o.DeletionProtectionEnabled = true
		o.PointInTimeRecovery, o.RecoveryPeriodInDays = true, 35 // UpdateContinuousBackups once ACTIVE
		o.SSESpecification = &types.SSESpecification{Enabled: aws.Bool(true), KMSMasterKeyId: aws.String("alias/school")}
		o.Tags = map[string]string{"team": "school"}
		o.OnDemandThroughput = &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(1000), MaxWriteRequestUnits: aws.Int64(500)}
		o.IndexOnDemandThroughput = map[string]types.OnDemandThroughput{"GSI1": {MaxReadRequestUnits: aws.Int64(200), MaxWriteRequestUnits: aws.Int64(100)}}
		o.WarmThroughput = &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(15000), WriteUnitsPerSecond: aws.Int64(5000)}
		o.TimeToLive, o.Stream = "expiresAt", true
	})
	// readme:end
	var apiErr smithy.APIError
	require.True(t, errors.As(err, &apiErr), "DynamoDB Local has no UpdateContinuousBackups: %v", err)
	assert.Equal(t, "UnknownOperationException", apiErr.ErrorCode())
	out, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("school")})
	require.NoError(t, err)
	d := out.Table
	assert.Equal(t, types.TableStatusActive, d.TableStatus)
	assert.Equal(t, aws.Bool(true), d.DeletionProtectionEnabled, "honoured")
	assert.Equal(t, &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(1000), MaxWriteRequestUnits: aws.Int64(500)}, d.OnDemandThroughput, "honoured")
	assert.Equal(t, &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}, d.StreamSpecification, "honoured")
	assert.Nil(t, d.SSEDescription, "accepted and ignored")
	ttl, err := client.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("school")})
	require.NoError(t, err)
	assert.Equal(t, "expiresAt", aws.ToString(ttl.TimeToLiveDescription.AttributeName), "honoured")
	// readme:continue

	// The CloudFormation template defaults to the safe choices: DeletionProtectionEnabled
	// true, PointInTimeRecoverySpecification enabled, DeletionPolicy and UpdateReplacePolicy
	// Retain, DynamoDB's AWS owned key. The same settings are options.
	m, err := adjlist.DescribeModel(table, students, courses, enrolled)
	if err != nil {
		return err
	}
	err = cloudformation.Write(w, m, func(o *cloudformation.Options) {
		o.Tags = map[string]string{"team": "school"}
		o.IndexOnDemandThroughput = map[string]types.OnDemandThroughput{"GSI1": {MaxReadRequestUnits: aws.Int64(200)}}
		o.TimeToLiveAttribute, o.StreamViewType = "expiresAt", types.StreamViewTypeNewAndOldImages
		// o.NoDeletionProtection, o.NoPointInTimeRecovery = true, true // a scratch stack
	})
	if err != nil {
		return err
	}
	// readme:end
	require.NoError(t, err)
	var template struct {
		Resources map[string]struct {
			DeletionPolicy, UpdateReplacePolicy string
			Properties                          struct {
				DeletionProtectionEnabled        bool
				PointInTimeRecoverySpecification struct{ PointInTimeRecoveryEnabled bool }
				SSESpecification                 *struct{}
				Tags                             []struct{ Key, Value string }
				TimeToLiveSpecification          struct{ AttributeName string }
				StreamSpecification              struct{ StreamViewType string }
			}
		}
	}
	require.NoError(t, json.Unmarshal(w.Bytes(), &template))
	require.Len(t, template.Resources, 1)
	for _, r := range template.Resources {
		assert.Equal(t, []string{"Retain", "Retain"}, []string{r.DeletionPolicy, r.UpdateReplacePolicy})
		p := r.Properties
		assert.True(t, p.DeletionProtectionEnabled)
		assert.True(t, p.PointInTimeRecoverySpecification.PointInTimeRecoveryEnabled)
		assert.Nil(t, p.SSESpecification, "DynamoDB's AWS owned key")
		assert.Equal(t, []struct{ Key, Value string }{{"team", "school"}}, p.Tags)
		assert.Equal(t, "expiresAt", p.TimeToLiveSpecification.AttributeName)
		assert.Equal(t, "NEW_AND_OLD_IMAGES", p.StreamSpecification.StreamViewType)
	}
	return nil
}

// Traces: with the service's TracerProvider, one span per call, named for
// it, with the requests made and the items returned. It sets the global
// provider, so it does not run in parallel.
func TestReadmeTraces(t *testing.T) {
	spans := tracetest.NewSpanRecorder()
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)))
	t.Cleanup(func() { otel.SetTracerProvider(prev) })
	l := newLocal(t, "school")
	client, ctx := l.client, t.Context()
	given := adjlist.NewTable(client, "school")
	l.create(t, given)
	newSchool(given).seed(t)
	// readme:begin
	table := adjlist.NewTable(client, "school", func(o *adjlist.Options) {
		o.TracerProvider = otel.GetTracerProvider() // nil, the default: no spans, no cost
	})
	// readme:end
	enrolled := newSchool(table).enrolled
	// readme:continue
	roster, err := enrolled.To("math204").Collect(ctx) // one span, "Edge.To"
	// readme:end
	require.NoError(t, err)
	assert.Len(t, roster, 2)
	ended := spans.Ended()
	require.Len(t, ended, 1)
	assert.Equal(t, "Edge.To", ended[0].Name())
	attrs := map[attribute.Key]attribute.Value{}
	for _, kv := range ended[0].Attributes() {
		attrs[kv.Key] = kv.Value
	}
	assert.Equal(t, "aws.dynamodb", attrs["db.system.name"].AsString())
	assert.Equal(t, []string{"school"}, attrs["aws.dynamodb.table_names"].AsStringSlice())
	assert.Equal(t, "GSI1", attrs["aws.dynamodb.index_name"].AsString())
	assert.Equal(t, int64(1), attrs["adjlist.requests"].AsInt64())
	assert.Equal(t, int64(2), attrs["adjlist.items"].AsInt64())
}
