// Package schema is a table's schema: its catalog of item types
// (catalog.go), its definition checked once on plain values
// (tabledef*.go), and CreateTable's request, checks and follow-up calls
// (schema.go, check.go, create.go).
package schema

import (
	"maps"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Table is what CreateTable needs of a table (key types "" for S).
type Table struct {
	Name                          string
	PartitionKey, SortKey         string
	PartitionKeyType, SortKeyType types.ScalarAttributeType
	Indexes                       []TableIndex // in the order sent
	// Inverted: Indexes[0] is the inverted index, projected as Options say.
	Inverted bool
}

// TableIndex is one secondary index with its key attributes resolved: a local
// index's Partition is the table's partition key.
type TableIndex struct {
	Name             string
	Local            bool
	Partition, Sort  []KeyAttribute
	Projection       types.ProjectionType
	NonKeyAttributes []string
}

// Options is adjlist.CreateTableOptions field for field, so that a
// conversion keeps them in step; that type documents the fields.
type Options struct {
	Projection                types.ProjectionType
	NonKeyAttributes          []string
	IfNotExists               bool
	MaxWait                   time.Duration
	Stream                    bool
	StreamViewType            types.StreamViewType
	TimeToLive                string
	DeletionProtectionEnabled bool
	PointInTimeRecovery       bool
	RecoveryPeriodInDays      int32
	SSESpecification          *types.SSESpecification
	Tags                      map[string]string
	OnDemandThroughput        *types.OnDemandThroughput
	IndexOnDemandThroughput   map[string]types.OnDemandThroughput
	WarmThroughput            *types.WarmThroughput
	IndexWarmThroughput       map[string]types.WarmThroughput
}

// Input is the CreateTable request for t with o: on-demand billing, each
// key attribute defined once, tags sorted by key.
func Input(t *Table, o *Options) *dynamodb.CreateTableInput {
	proj := &types.Projection{ProjectionType: o.Projection}
	if o.Projection == types.ProjectionTypeInclude {
		proj.NonKeyAttributes = o.NonKeyAttributes
	}
	defs, gsis, lsis := indexes(t, proj)
	for i := range gsis {
		name := aws.ToString(gsis[i].IndexName)
		if v, ok := o.IndexOnDemandThroughput[name]; ok {
			gsis[i].OnDemandThroughput = &v
		}
		if v, ok := o.IndexWarmThroughput[name]; ok {
			gsis[i].WarmThroughput = &v
		}
	}
	in := &dynamodb.CreateTableInput{
		TableName:   aws.String(t.Name),
		BillingMode: types.BillingModePayPerRequest,
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String(t.PartitionKey), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(t.SortKey), KeyType: types.KeyTypeRange},
		},
		AttributeDefinitions:   defs,
		GlobalSecondaryIndexes: gsis,
		LocalSecondaryIndexes:  lsis,
		OnDemandThroughput:     o.OnDemandThroughput,
		WarmThroughput:         o.WarmThroughput,
		SSESpecification:       o.SSESpecification,
	}
	if o.DeletionProtectionEnabled {
		in.DeletionProtectionEnabled = aws.Bool(true)
	}
	for _, k := range slices.Sorted(maps.Keys(o.Tags)) {
		in.Tags = append(in.Tags, types.Tag{Key: aws.String(k), Value: aws.String(o.Tags[k])})
	}
	if o.Stream {
		view := o.StreamViewType
		if view == "" {
			view = types.StreamViewTypeNewAndOldImages
		}
		in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: view}
	}
	return in
}

func orS(typ types.ScalarAttributeType) types.ScalarAttributeType {
	if typ == "" {
		return types.ScalarAttributeTypeS
	}
	return typ
}

// indexes returns t's attribute definitions and indexes, the inverted
// one projected as proj.
func indexes(t *Table, proj *types.Projection) ([]types.AttributeDefinition, []types.GlobalSecondaryIndex, []types.LocalSecondaryIndex) {
	defs := []types.AttributeDefinition{}
	seen := map[string]bool{}
	define := func(name string, typ types.ScalarAttributeType) {
		if !seen[name] {
			seen[name] = true
			defs = append(defs, types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: typ})
		}
	}
	define(t.PartitionKey, orS(t.PartitionKeyType))
	define(t.SortKey, orS(t.SortKeyType))
	var gsis []types.GlobalSecondaryIndex
	var lsis []types.LocalSecondaryIndex
	for i, ix := range t.Indexes {
		var schema []types.KeySchemaElement
		for _, k := range []struct {
			kt    types.KeyType
			attrs []KeyAttribute
		}{{types.KeyTypeHash, ix.Partition}, {types.KeyTypeRange, ix.Sort}} {
			for _, a := range k.attrs {
				define(a.Name, a.Type)
				schema = append(schema, types.KeySchemaElement{AttributeName: aws.String(a.Name), KeyType: k.kt})
			}
		}
		p := &types.Projection{ProjectionType: ix.Projection, NonKeyAttributes: ix.NonKeyAttributes}
		if i == 0 && t.Inverted {
			p = proj // the inverted index: CreateTableOptions
		}
		if ix.Local {
			lsis = append(lsis, types.LocalSecondaryIndex{IndexName: aws.String(ix.Name), KeySchema: schema, Projection: p})
		} else {
			gsis = append(gsis, types.GlobalSecondaryIndex{IndexName: aws.String(ix.Name), KeySchema: schema, Projection: p})
		}
	}
	return defs, gsis, lsis
}
