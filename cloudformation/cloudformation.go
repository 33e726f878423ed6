// Package cloudformation writes an adjlist model's table as an
// AWS::DynamoDB::Table resource of a CloudFormation template, so that the
// production table is created in infrastructure code exactly as the model
// expects it: its key schema, the attribute definitions of every key
// attribute, every global and local secondary index with its projection,
// on-demand billing, and the settings a production table needs. Its
// defaults are the safe ones: deletion protection and point-in-time
// recovery on, DeletionPolicy and UpdateReplacePolicy Retain, the AWS
// owned encryption key; Time to Live (TimeToLiveSpecification) is on the
// model's TTL attribute, the one its item types name in
// adjlist.Tracking.Expiry ([adjlist.Model].TimeToLive); [Options] turns
// the safe defaults off or sets encryption with a KMS key, tags,
// on-demand maximum and warm throughput (for the table and each global
// index), another TTL attribute and a stream.
//
//	m, err := adjlist.DescribeModel(table, students, courses, enrolled)
//	...
//	err = cloudformation.Write(f, m)
//
// writes
//
//	{
//	  "AWSTemplateFormatVersion": "2010-09-09",
//	  "Resources": {
//	    "Table": {
//	      "Type": "AWS::DynamoDB::Table",
//	      "DeletionPolicy": "Retain",
//	      "UpdateReplacePolicy": "Retain",
//	      "Properties": {
//	        "TableName": "school",
//	        "BillingMode": "PAY_PER_REQUEST",
//	        "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"}, ...],
//	        "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
//	        "GlobalSecondaryIndexes": [{"IndexName": "GSI1", "KeySchema": [...], "Projection": {"ProjectionType": "ALL"}}],
//	        "DeletionProtectionEnabled": true,
//	        "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": true}
//	      }
//	    }
//	  }
//	}
//
// The template is built from the small typed structs below, not from a
// CloudFormation library; property names are those of the
// AWS::DynamoDB::Table schema, and the tests run cfn-lint on templates
// with every option set. [TableProperties.CreateTableInput] turns the
// properties into the CreateTable request that makes the same table, for
// tests against DynamoDB Local.
package cloudformation

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/internal/schema"
)

// ResourceType is the CloudFormation type of the table resource.
const ResourceType = "AWS::DynamoDB::Table"

// Options configures [NewTemplate] and [Write]. The zero value of each
// field means its default.
type Options struct {
	// LogicalID is the table resource's logical id in the template.
	// Default "Table".
	LogicalID string
	// Description is the template's Description. Default none.
	Description string
	// Projection is the inverted index's projection type (the model leaves
	// it to CreateTable, see adjlist.CreateTableOptions): ALL (default),
	// KEYS_ONLY or INCLUDE with NonKeyAttributes. The projections of
	// adjlist.Options.Indexes come from the model.
	Projection types.ProjectionType
	// NonKeyAttributes lists the attributes the inverted index projects
	// with INCLUDE.
	NonKeyAttributes []string
	// TimeToLiveAttribute, when set, enables TTL on that attribute
	// (TimeToLiveSpecification with Enabled true), whatever the model's.
	// Default the model's TimeToLive, the attribute its item types name
	// in adjlist.Tracking.Expiry: a model with none gets no TTL.
	TimeToLiveAttribute string
	// StreamViewType, when set, enables a stream with that view
	// (StreamSpecification), e.g. NEW_AND_OLD_IMAGES. Default: no stream.
	StreamViewType types.StreamViewType
	// DeletionPolicy is the resource's DeletionPolicy and
	// UpdateReplacePolicy: Retain (default), Snapshot or Delete.
	DeletionPolicy string

	// NoDeletionProtection writes DeletionProtectionEnabled false. By
	// default it is true: DynamoDB refuses DeleteTable, from
	// CloudFormation or anyone else, until an update turns it off.
	NoDeletionProtection bool
	// NoPointInTimeRecovery writes PointInTimeRecoverySpecification with
	// PointInTimeRecoveryEnabled false. By default it is true: the table
	// can be restored to any point in time of the recovery period.
	NoPointInTimeRecovery bool
	// RecoveryPeriodInDays is the point-in-time recovery period, 1 to 35
	// days (RecoveryPeriodInDays). Default 0: not written, so DynamoDB's
	// 35 days apply. Set with NoPointInTimeRecovery it is an error.
	RecoveryPeriodInDays int32
	// SSESpecification chooses the encryption key as
	// adjlist.CreateTableOptions.SSESpecification does, written as
	// SSESpecification (SSEEnabled, SSEType, KMSMasterKeyId): Enabled
	// true is a KMS key (SSEType KMS is written), the AWS managed key
	// unless KMSMasterKeyId names one; Enabled false is the AWS owned
	// key. SSEType or KMSMasterKeyId without Enabled true, an SSEType
	// other than KMS or an empty KMSMasterKeyId is an error. Default nil:
	// no SSESpecification, so DynamoDB's default, the AWS owned key.
	SSESpecification *types.SSESpecification
	// Tags are the table's tags, key to value (Tags, sorted by key). An
	// empty key is an error. Default none.
	Tags map[string]string
	// OnDemandThroughput caps the table's on-demand throughput
	// (OnDemandThroughput): MaxReadRequestUnits and MaxWriteRequestUnits,
	// in read and write request units per second. Each one set must be
	// at least 1, and at least one must be set; an unset one is not
	// written. Default nil: no limit.
	OnDemandThroughput *types.OnDemandThroughput
	// IndexOnDemandThroughput caps the on-demand throughput of global
	// secondary indexes of the model, by index name (the inverted index,
	// e.g. "GSI1", or one of adjlist.Options.Indexes), written in the
	// index's OnDemandThroughput. Values as for OnDemandThroughput. A
	// name that is not a global index of the model is an error. Default
	// none.
	IndexOnDemandThroughput map[string]types.OnDemandThroughput
	// WarmThroughput pre-warms the table (WarmThroughput):
	// ReadUnitsPerSecond and WriteUnitsPerSecond, the read and write
	// units per second the table can serve at once. Each one set must be
	// at least 1, and at least one must be set. Default nil: DynamoDB's
	// default warm throughput.
	WarmThroughput *types.WarmThroughput
	// IndexWarmThroughput pre-warms global secondary indexes, by index
	// name as IndexOnDemandThroughput names them, written in the index's
	// WarmThroughput. Values as for WarmThroughput. Default none.
	IndexWarmThroughput map[string]types.WarmThroughput
}

// Template is a CloudFormation template holding the table resource.
type Template struct {
	AWSTemplateFormatVersion string              `json:"AWSTemplateFormatVersion"`
	Description              string              `json:"Description,omitempty"`
	Resources                map[string]Resource `json:"Resources"`
}

// Resource is one AWS::DynamoDB::Table resource.
type Resource struct {
	Type                string          `json:"Type"`
	DeletionPolicy      string          `json:"DeletionPolicy,omitempty"`
	UpdateReplacePolicy string          `json:"UpdateReplacePolicy,omitempty"`
	Properties          TableProperties `json:"Properties"`
}

// TableProperties are the resource's properties, named as CloudFormation
// names them. DeletionProtectionEnabled is always written, false too;
// the pointer and list properties only when non-nil (NewTemplate always
// sets PointInTimeRecoverySpecification).
type TableProperties struct {
	TableName                        string                            `json:"TableName,omitempty"`
	BillingMode                      string                            `json:"BillingMode"`
	AttributeDefinitions             []AttributeDefinition             `json:"AttributeDefinitions"`
	KeySchema                        []KeySchemaElement                `json:"KeySchema"`
	GlobalSecondaryIndexes           []SecondaryIndex                  `json:"GlobalSecondaryIndexes,omitempty"`
	LocalSecondaryIndexes            []SecondaryIndex                  `json:"LocalSecondaryIndexes,omitempty"`
	DeletionProtectionEnabled        bool                              `json:"DeletionProtectionEnabled"`
	PointInTimeRecoverySpecification *PointInTimeRecoverySpecification `json:"PointInTimeRecoverySpecification,omitempty"`
	SSESpecification                 *SSESpecification                 `json:"SSESpecification,omitempty"`
	OnDemandThroughput               *OnDemandThroughput               `json:"OnDemandThroughput,omitempty"`
	WarmThroughput                   *WarmThroughput                   `json:"WarmThroughput,omitempty"`
	TimeToLiveSpecification          *TimeToLiveSpecification          `json:"TimeToLiveSpecification,omitempty"`
	StreamSpecification              *StreamSpecification              `json:"StreamSpecification,omitempty"`
	Tags                             []Tag                             `json:"Tags,omitempty"`
}

// AttributeDefinition declares one key attribute's type: S or N.
type AttributeDefinition struct {
	AttributeName string `json:"AttributeName"`
	AttributeType string `json:"AttributeType"`
}

// KeySchemaElement is one key attribute: HASH (partition) or RANGE (sort).
type KeySchemaElement struct {
	AttributeName string `json:"AttributeName"`
	KeyType       string `json:"KeyType"`
}

// SecondaryIndex is one global or local secondary index. Only a global
// one has OnDemandThroughput or WarmThroughput.
type SecondaryIndex struct {
	IndexName          string              `json:"IndexName"`
	KeySchema          []KeySchemaElement  `json:"KeySchema"`
	Projection         Projection          `json:"Projection"`
	OnDemandThroughput *OnDemandThroughput `json:"OnDemandThroughput,omitempty"`
	WarmThroughput     *WarmThroughput     `json:"WarmThroughput,omitempty"`
}

// Projection is an index's projection.
type Projection struct {
	ProjectionType   string   `json:"ProjectionType"`
	NonKeyAttributes []string `json:"NonKeyAttributes,omitempty"`
}

// TimeToLiveSpecification enables TTL on one attribute.
type TimeToLiveSpecification struct {
	AttributeName string `json:"AttributeName"`
	Enabled       bool   `json:"Enabled"`
}

// StreamSpecification enables the table's stream.
type StreamSpecification struct {
	StreamViewType string `json:"StreamViewType"`
}

// PointInTimeRecoverySpecification turns point-in-time recovery on or off;
// RecoveryPeriodInDays (1 to 35) is written when set.
type PointInTimeRecoverySpecification struct {
	PointInTimeRecoveryEnabled bool  `json:"PointInTimeRecoveryEnabled"`
	RecoveryPeriodInDays       int32 `json:"RecoveryPeriodInDays,omitempty"`
}

// SSESpecification is the table's encryption: SSEEnabled true with SSEType
// KMS is a KMS key (KMSMasterKeyId, or the AWS managed key without one);
// SSEEnabled false is the AWS owned key.
type SSESpecification struct {
	SSEEnabled     bool   `json:"SSEEnabled"`
	SSEType        string `json:"SSEType,omitempty"`
	KMSMasterKeyId string `json:"KMSMasterKeyId,omitempty"`
}

// OnDemandThroughput is the maximum on-demand throughput of the table or
// a global index, in request units per second; 0 is not written (no
// maximum).
type OnDemandThroughput struct {
	MaxReadRequestUnits  int64 `json:"MaxReadRequestUnits,omitempty"`
	MaxWriteRequestUnits int64 `json:"MaxWriteRequestUnits,omitempty"`
}

// WarmThroughput is the warm throughput of the table or a global index,
// in units per second; 0 is not written.
type WarmThroughput struct {
	ReadUnitsPerSecond  int64 `json:"ReadUnitsPerSecond,omitempty"`
	WriteUnitsPerSecond int64 `json:"WriteUnitsPerSecond,omitempty"`
}

// Tag is one tag of the table.
type Tag struct {
	Key   string `json:"Key"`
	Value string `json:"Value"`
}

// NewTemplate returns the template of m's table: one resource of
// [ResourceType] under Options.LogicalID, with PAY_PER_REQUEST billing,
// table keys typed as the model's (S, or N for a number key), every index of
// m.Indexes (derived keys as strings, native keys with their types, a local
// index's partition key the table's) and its projection, deletion protection
// and point-in-time recovery (unless Options turn them off), TTL on the
// model's Time to Live attribute if it has one, and the settings of
// [Options]. It makes no request. Bad options (an INCLUDE projection without
// attributes, an unknown DeletionPolicy, Projection or StreamViewType, and
// those [Options] names) are an error that wraps adjlist.ErrInvalidOption.
func NewTemplate(m *adjlist.Model, optFns ...func(*Options)) (*Template, error) {
	var o Options
	for _, fn := range optFns {
		if fn == nil {
			return nil, fmt.Errorf("%w: nil option function", adjlist.ErrInvalidOption)
		}
		fn(&o)
	}
	o.LogicalID = cmp.Or(o.LogicalID, "Table")
	o.DeletionPolicy = cmp.Or(o.DeletionPolicy, "Retain")
	o.TimeToLiveAttribute = cmp.Or(o.TimeToLiveAttribute, m.TimeToLive)
	switch o.DeletionPolicy {
	case "Retain", "Snapshot", "Delete":
	default:
		return nil, invalid("DeletionPolicy %q, want Retain, Snapshot or Delete", o.DeletionPolicy)
	}
	if err := o.check(m); err != nil {
		return nil, err
	}
	p := TableProperties{TableName: m.Table, BillingMode: string(types.BillingModePayPerRequest),
		DeletionProtectionEnabled:        !o.NoDeletionProtection,
		PointInTimeRecoverySpecification: &PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: !o.NoPointInTimeRecovery, RecoveryPeriodInDays: o.RecoveryPeriodInDays},
		SSESpecification:                 sse(o.SSESpecification),
		OnDemandThroughput:               onDemand(o.OnDemandThroughput),
		WarmThroughput:                   warm(o.WarmThroughput),
	}
	for _, k := range slices.Sorted(maps.Keys(o.Tags)) {
		p.Tags = append(p.Tags, Tag{Key: k, Value: o.Tags[k]})
	}
	seen := map[string]bool{}
	define := func(name string, typ types.ScalarAttributeType) {
		if typ == "" {
			typ = types.ScalarAttributeTypeS
		}
		if !seen[name] {
			seen[name] = true
			p.AttributeDefinitions = append(p.AttributeDefinitions, AttributeDefinition{name, string(typ)})
		}
	}
	key := func(schema *[]KeySchemaElement, name string, typ types.ScalarAttributeType, kt types.KeyType) {
		define(name, typ)
		*schema = append(*schema, KeySchemaElement{name, string(kt)})
	}
	key(&p.KeySchema, m.PartitionKey, m.PartitionKeyType, types.KeyTypeHash)
	key(&p.KeySchema, m.SortKey, m.SortKeyType, types.KeyTypeRange)
	for _, ix := range m.Indexes {
		si := SecondaryIndex{IndexName: ix.Name}
		partition, sort := ix.KeySchema(m.PartitionKey)
		for _, a := range partition {
			key(&si.KeySchema, a.Name, a.Type, types.KeyTypeHash)
		}
		for _, a := range sort {
			key(&si.KeySchema, a.Name, a.Type, types.KeyTypeRange)
		}
		proj, attrs := ix.Projection, ix.NonKeyAttributes
		if ix.Name == m.InvertedIndex {
			proj, attrs = o.Projection, o.NonKeyAttributes
		}
		if proj == "" {
			proj = types.ProjectionTypeAll
		}
		if proj == types.ProjectionTypeInclude && len(attrs) == 0 {
			return nil, invalid("index %s: INCLUDE projection without NonKeyAttributes", ix.Name)
		}
		si.Projection = Projection{ProjectionType: string(proj)}
		if proj == types.ProjectionTypeInclude {
			si.Projection.NonKeyAttributes = attrs
		}
		if ix.Local {
			p.LocalSecondaryIndexes = append(p.LocalSecondaryIndexes, si)
		} else {
			if v, ok := o.IndexOnDemandThroughput[ix.Name]; ok {
				si.OnDemandThroughput = onDemand(&v)
			}
			if v, ok := o.IndexWarmThroughput[ix.Name]; ok {
				si.WarmThroughput = warm(&v)
			}
			p.GlobalSecondaryIndexes = append(p.GlobalSecondaryIndexes, si)
		}
	}
	if o.TimeToLiveAttribute != "" {
		p.TimeToLiveSpecification = &TimeToLiveSpecification{AttributeName: o.TimeToLiveAttribute, Enabled: true}
	}
	if o.StreamViewType != "" {
		p.StreamSpecification = &StreamSpecification{StreamViewType: string(o.StreamViewType)}
	}
	return &Template{
		AWSTemplateFormatVersion: "2010-09-09",
		Description:              o.Description,
		Resources: map[string]Resource{o.LogicalID: {
			Type: ResourceType, DeletionPolicy: o.DeletionPolicy, UpdateReplacePolicy: o.DeletionPolicy, Properties: p,
		}},
	}, nil
}

// Write writes the template of m's table ([NewTemplate]) to w as indented
// JSON, which cfn-lint and CloudFormation accept. It returns NewTemplate's
// error or the write error.
func Write(w io.Writer, m *adjlist.Model, optFns ...func(*Options)) error {
	t, err := NewTemplate(m, optFns...)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(t)
}

// CreateTableInput is the CreateTable request that makes the table p
// describes: the same name, billing mode, keys, attribute definitions and
// indexes (with their on-demand and warm throughput), deletion
// protection, encryption, tags, on-demand and warm throughput, and the
// stream if p has one. TTL and point-in-time recovery are not part of it:
// DynamoDB sets them with UpdateTimeToLive and UpdateContinuousBackups
// once the table exists.
func (p TableProperties) CreateTableInput() *dynamodb.CreateTableInput {
	in := &dynamodb.CreateTableInput{
		TableName:          aws.String(p.TableName),
		BillingMode:        types.BillingMode(p.BillingMode),
		KeySchema:          keySchema(p.KeySchema),
		OnDemandThroughput: p.OnDemandThroughput.sdk(),
		WarmThroughput:     p.WarmThroughput.sdk(),
	}
	if p.DeletionProtectionEnabled {
		in.DeletionProtectionEnabled = aws.Bool(true)
	}
	if s := p.SSESpecification; s != nil {
		in.SSESpecification = &types.SSESpecification{Enabled: aws.Bool(s.SSEEnabled), SSEType: types.SSEType(s.SSEType)}
		if s.KMSMasterKeyId != "" {
			in.SSESpecification.KMSMasterKeyId = aws.String(s.KMSMasterKeyId)
		}
	}
	for _, t := range p.Tags {
		in.Tags = append(in.Tags, types.Tag{Key: aws.String(t.Key), Value: aws.String(t.Value)})
	}
	for _, d := range p.AttributeDefinitions {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{
			AttributeName: aws.String(d.AttributeName), AttributeType: types.ScalarAttributeType(d.AttributeType)})
	}
	for _, ix := range p.GlobalSecondaryIndexes {
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName: aws.String(ix.IndexName), KeySchema: keySchema(ix.KeySchema), Projection: ix.Projection.sdk(),
			OnDemandThroughput: ix.OnDemandThroughput.sdk(), WarmThroughput: ix.WarmThroughput.sdk()})
	}
	for _, ix := range p.LocalSecondaryIndexes {
		in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{
			IndexName: aws.String(ix.IndexName), KeySchema: keySchema(ix.KeySchema), Projection: ix.Projection.sdk()})
	}
	if p.StreamSpecification != nil {
		in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true),
			StreamViewType: types.StreamViewType(p.StreamSpecification.StreamViewType)}
	}
	return in
}

func keySchema(ks []KeySchemaElement) []types.KeySchemaElement {
	out := make([]types.KeySchemaElement, len(ks))
	for i, k := range ks {
		out[i] = types.KeySchemaElement{AttributeName: aws.String(k.AttributeName), KeyType: types.KeyType(k.KeyType)}
	}
	return out
}

func (p Projection) sdk() *types.Projection {
	return &types.Projection{ProjectionType: types.ProjectionType(p.ProjectionType), NonKeyAttributes: p.NonKeyAttributes}
}

func (t *OnDemandThroughput) sdk() *types.OnDemandThroughput {
	if t == nil {
		return nil
	}
	return &types.OnDemandThroughput{MaxReadRequestUnits: positive(t.MaxReadRequestUnits), MaxWriteRequestUnits: positive(t.MaxWriteRequestUnits)}
}

func (t *WarmThroughput) sdk() *types.WarmThroughput {
	if t == nil {
		return nil
	}
	return &types.WarmThroughput{ReadUnitsPerSecond: positive(t.ReadUnitsPerSecond), WriteUnitsPerSecond: positive(t.WriteUnitsPerSecond)}
}

// positive is v's pointer, or nil for 0 (not written).
func positive(v int64) *int64 {
	if v == 0 {
		return nil
	}
	return aws.Int64(v)
}

func onDemand(t *types.OnDemandThroughput) *OnDemandThroughput {
	if t == nil {
		return nil
	}
	return &OnDemandThroughput{MaxReadRequestUnits: aws.ToInt64(t.MaxReadRequestUnits), MaxWriteRequestUnits: aws.ToInt64(t.MaxWriteRequestUnits)}
}

func warm(t *types.WarmThroughput) *WarmThroughput {
	if t == nil {
		return nil
	}
	return &WarmThroughput{ReadUnitsPerSecond: aws.ToInt64(t.ReadUnitsPerSecond), WriteUnitsPerSecond: aws.ToInt64(t.WriteUnitsPerSecond)}
}

func sse(s *types.SSESpecification) *SSESpecification {
	if s == nil {
		return nil
	}
	out := &SSESpecification{SSEEnabled: aws.ToBool(s.Enabled), KMSMasterKeyId: aws.ToString(s.KMSMasterKeyId)}
	if out.SSEEnabled {
		out.SSEType = string(types.SSETypeKms)
	}
	return out
}

// invalid is an error of bad options, wrapping adjlist.ErrInvalidOption.
func invalid(format string, args ...any) error {
	return fmt.Errorf("cloudformation: %w: %s", adjlist.ErrInvalidOption, fmt.Sprintf(format, args...))
}

// check refuses the settings a table cannot have: those CreateTable
// refuses too ([schema.CheckSettings]), and recovery turned both off and
// on.
func (o *Options) check(m *adjlist.Model) error {
	if o.RecoveryPeriodInDays != 0 && o.NoPointInTimeRecovery {
		return invalid("RecoveryPeriodInDays %d with NoPointInTimeRecovery", o.RecoveryPeriodInDays)
	}
	global := map[string]bool{}
	for _, ix := range m.Indexes {
		global[ix.Name] = !ix.Local
	}
	err := schema.CheckSettings(&schema.Options{
		RecoveryPeriodInDays: o.RecoveryPeriodInDays, SSESpecification: o.SSESpecification, Tags: o.Tags,
		OnDemandThroughput: o.OnDemandThroughput, WarmThroughput: o.WarmThroughput,
		IndexOnDemandThroughput: o.IndexOnDemandThroughput, IndexWarmThroughput: o.IndexWarmThroughput,
		Projection: o.Projection, NonKeyAttributes: o.NonKeyAttributes, StreamViewType: o.StreamViewType,
	}, func(field, name string) error {
		if !global[name] {
			return fmt.Errorf("%s: %q is not a global secondary index of table %s", field, name, m.Table)
		}
		return nil
	})
	if err != nil {
		return invalid("%s", err)
	}
	return nil
}
