// Package cloudformation writes an adjlist model's table as an
// AWS::DynamoDB::Table resource of a CloudFormation template, so that the
// production table is created in infrastructure code exactly as the model
// expects it: its key schema, the attribute definitions of every key
// attribute, every global and local secondary index with its projection,
// on-demand billing, and optionally TTL and a stream.
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
//	        "GlobalSecondaryIndexes": [{"IndexName": "GSI1", "KeySchema": [...], "Projection": {"ProjectionType": "ALL"}}]
//	      }
//	    }
//	  }
//	}
//
// The template is built from the small typed structs below, not from a
// CloudFormation library. [TableProperties.CreateTableInput] turns the
// properties into the CreateTable request that makes the same table, for
// tests against DynamoDB Local.
package cloudformation

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist"
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
	// (TimeToLiveSpecification). Default: no TTL.
	TimeToLiveAttribute string
	// StreamViewType, when set, enables a stream with that view
	// (StreamSpecification), e.g. NEW_AND_OLD_IMAGES. Default: no stream.
	StreamViewType types.StreamViewType
	// DeletionPolicy is the resource's DeletionPolicy and
	// UpdateReplacePolicy: Retain (default), Snapshot or Delete.
	DeletionPolicy string
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
// names them.
type TableProperties struct {
	TableName               string                   `json:"TableName,omitempty"`
	BillingMode             string                   `json:"BillingMode"`
	AttributeDefinitions    []AttributeDefinition    `json:"AttributeDefinitions"`
	KeySchema               []KeySchemaElement       `json:"KeySchema"`
	GlobalSecondaryIndexes  []SecondaryIndex         `json:"GlobalSecondaryIndexes,omitempty"`
	LocalSecondaryIndexes   []SecondaryIndex         `json:"LocalSecondaryIndexes,omitempty"`
	TimeToLiveSpecification *TimeToLiveSpecification `json:"TimeToLiveSpecification,omitempty"`
	StreamSpecification     *StreamSpecification     `json:"StreamSpecification,omitempty"`
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

// SecondaryIndex is one global or local secondary index.
type SecondaryIndex struct {
	IndexName  string             `json:"IndexName"`
	KeySchema  []KeySchemaElement `json:"KeySchema"`
	Projection Projection         `json:"Projection"`
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

// NewTemplate returns the template of m's table: one resource of
// [ResourceType] under Options.LogicalID, with PAY_PER_REQUEST billing,
// string table keys, every index of m.Indexes (derived keys as strings,
// native keys with their types, a local index's partition key the
// table's) and its projection. It makes no request. It returns an error
// for an INCLUDE projection without attributes or an unknown
// DeletionPolicy.
func NewTemplate(m *adjlist.Model, optFns ...func(*Options)) (*Template, error) {
	o := Options{LogicalID: "Table", Projection: types.ProjectionTypeAll, DeletionPolicy: "Retain"}
	for _, fn := range optFns {
		fn(&o)
	}
	switch o.DeletionPolicy {
	case "Retain", "Snapshot", "Delete":
	default:
		return nil, fmt.Errorf("cloudformation: DeletionPolicy %q, want Retain, Snapshot or Delete", o.DeletionPolicy)
	}
	p := TableProperties{TableName: m.Table, BillingMode: string(types.BillingModePayPerRequest)}
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
	key(&p.KeySchema, m.PartitionKey, types.ScalarAttributeTypeS, types.KeyTypeHash)
	key(&p.KeySchema, m.SortKey, types.ScalarAttributeTypeS, types.KeyTypeRange)
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
			return nil, fmt.Errorf("cloudformation: index %s: INCLUDE projection without NonKeyAttributes", ix.Name)
		}
		si.Projection = Projection{ProjectionType: string(proj)}
		if proj == types.ProjectionTypeInclude {
			si.Projection.NonKeyAttributes = attrs
		}
		if ix.Local {
			p.LocalSecondaryIndexes = append(p.LocalSecondaryIndexes, si)
		} else {
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
// indexes, and the stream if p has one. TTL is not part of it: DynamoDB
// sets TTL with UpdateTimeToLive once the table exists.
func (p TableProperties) CreateTableInput() *dynamodb.CreateTableInput {
	in := &dynamodb.CreateTableInput{
		TableName:   aws.String(p.TableName),
		BillingMode: types.BillingMode(p.BillingMode),
		KeySchema:   keySchema(p.KeySchema),
	}
	for _, d := range p.AttributeDefinitions {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{
			AttributeName: aws.String(d.AttributeName), AttributeType: types.ScalarAttributeType(d.AttributeType)})
	}
	for _, ix := range p.GlobalSecondaryIndexes {
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName: aws.String(ix.IndexName), KeySchema: keySchema(ix.KeySchema), Projection: ix.Projection.sdk()})
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
