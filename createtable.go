package adjlist

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/schema"
)

// CreateTableOptions configures [CreateTable]. The zero value creates an
// on-demand table whose inverted index projects ALL attributes, with none
// of the production settings below (no deletion protection, no
// point-in-time recovery, the AWS owned encryption key, no tags, no
// throughput limits, no stream) and TTL only on the attribute the item
// types declared on the table name in [Tracking].Expiry (see TimeToLive),
// and waits up to five minutes for it. Bad settings are refused before any request with
// [ErrInvalidOption] in an [*OpError].
//
// With IfNotExists, a table that already exists keeps its own settings:
// only TimeToLive and PointInTimeRecovery, which take calls of their own,
// are applied to it.
type CreateTableOptions struct {
	// Projection is the inverted index's projection type (each of
	// [Options].Indexes has its own): ALL (default), KEYS_ONLY
	// (the index holds only the table's and the index's keys, so reverse
	// reads return endpoint ids without edge data) or INCLUDE (keys plus
	// NonKeyAttributes).
	Projection types.ProjectionType
	// NonKeyAttributes lists the attributes projected with INCLUDE.
	NonKeyAttributes []string
	// IfNotExists makes an existing table with the same name a success: the
	// call then only waits for it to be ACTIVE. Its key schema is not
	// compared.
	IfNotExists bool
	// MaxWait bounds the wait for the table and its global indexes to
	// become ACTIVE and then, with PointInTimeRecovery, for DynamoDB to
	// accept UpdateContinuousBackups: one budget for both, counted from
	// the end of the CreateTable call. Default 5 minutes.
	MaxWait time.Duration
	// Stream enables DynamoDB Streams on the table (StreamSpecification),
	// with StreamViewType, for the streams package and
	// [ItemCounter.Apply]. Default off. DynamoDB Local honours it:
	// DescribeTable reports the stream and its view type.
	Stream bool
	// StreamViewType is what each stream record holds: NEW_AND_OLD_IMAGES
	// (the default), NEW_IMAGE, OLD_IMAGE or KEYS_ONLY.
	StreamViewType types.StreamViewType
	// TimeToLive names the attribute DynamoDB's Time to Live reads: once
	// the table is ACTIVE, CreateTable enables TTL on it with
	// UpdateTimeToLive (after DescribeTimeToLive, so that a table that
	// already has it, with IfNotExists, is left as it is). Items whose
	// attribute holds an epoch-seconds time in the past are then deleted
	// by DynamoDB, typically within a few days. Default "": the model's,
	// the attribute the item types the table records (those declared
	// before the call) name in [Tracking].Expiry, as [Model].TimeToLive;
	// with none, TTL is not touched. Set, it wins over the model's. Item
	// types naming two different attributes are [ErrInvalidOption] unless
	// TimeToLive is set. TTL already enabled on
	// another attribute is UpdateTimeToLive's ValidationException
	// (smithy.APIError), returned after the table is ACTIVE. DynamoDB
	// Local honours it: DescribeTimeToLive reports the attribute.
	TimeToLive string

	// DeletionProtectionEnabled creates the table with deletion protection
	// (CreateTableInput.DeletionProtectionEnabled): DeleteTable then fails
	// with a ValidationException until UpdateTable turns it off. Default
	// false. DynamoDB Local honours it: DescribeTable reports it and
	// refuses DeleteTable.
	DeletionProtectionEnabled bool
	// PointInTimeRecovery enables point-in-time recovery (continuous
	// backups), which CreateTable's request cannot carry: once the table
	// is ACTIVE (and after TimeToLive), CreateTable calls
	// UpdateContinuousBackups with PointInTimeRecoveryEnabled true, and
	// calls it again while DynamoDB answers
	// ContinuousBackupsUnavailableException, as it may for a new table
	// (1 s apart, doubling up to 20 s, within MaxWait).
	// Default false: continuous backups are not touched. DynamoDB Local
	// does not implement UpdateContinuousBackups: it answers
	// UnknownOperationException (smithy.APIError), which CreateTable
	// returns after the table is ACTIVE.
	PointInTimeRecovery bool
	// RecoveryPeriodInDays is the point-in-time recovery period, 1 to 35
	// days (RecoveryPeriodInDays of UpdateContinuousBackups); it needs
	// PointInTimeRecovery. Default 0: not sent, so DynamoDB's default of
	// 35 days applies.
	RecoveryPeriodInDays int32
	// SSESpecification chooses the table's server-side encryption key, as
	// CreateTableInput.SSESpecification: nil (the default) or Enabled
	// false is the AWS owned key; Enabled true is a KMS key (SSEType KMS,
	// the only type DynamoDB takes, may be left empty), the AWS managed
	// key alias/aws/dynamodb unless KMSMasterKeyId names a customer
	// managed key (key id, ARN, alias name or alias ARN). SSEType or
	// KMSMasterKeyId without Enabled true, an SSEType other than KMS or
	// an empty KMSMasterKeyId is [ErrInvalidOption]. DynamoDB Local
	// accepts and ignores it: DescribeTable reports no SSEDescription.
	SSESpecification *types.SSESpecification
	// Tags are the table's tags, key to value
	// (CreateTableInput.Tags, sent sorted by key). An empty key is
	// [ErrInvalidOption]. Default none. DynamoDB Local accepts and ignores
	// them: it has no ListTagsOfResource (UnknownOperationException).
	Tags map[string]string
	// OnDemandThroughput caps the table's on-demand throughput
	// (CreateTableInput.OnDemandThroughput): MaxReadRequestUnits and
	// MaxWriteRequestUnits, in read and write request units per second.
	// Each one set must be at least 1, and at least one must be set, else
	// [ErrInvalidOption]; an unset one is not sent. Default nil: no
	// limit. DynamoDB Local honours it (DescribeTable reports it) but
	// refuses a setting without both maximums with a ValidationException.
	OnDemandThroughput *types.OnDemandThroughput
	// IndexOnDemandThroughput caps the on-demand throughput of global
	// secondary indexes, by index name: the inverted index
	// ([Options].Index, e.g. "GSI1") or a global index of
	// [Options].Indexes (GlobalSecondaryIndex.OnDemandThroughput). Values
	// as for OnDemandThroughput. A name that is not a global index of the
	// table (a local index shares the table's throughput) is
	// [ErrInvalidOption]. Default none. DynamoDB Local treats it as it
	// treats OnDemandThroughput.
	IndexOnDemandThroughput map[string]types.OnDemandThroughput
	// WarmThroughput pre-warms the table
	// (CreateTableInput.WarmThroughput): ReadUnitsPerSecond and
	// WriteUnitsPerSecond, the read and write units per second the table
	// can serve at once. Each one set must be at least 1, and at least one
	// must be set, else [ErrInvalidOption]. Default nil: DynamoDB's
	// default warm throughput. DynamoDB Local accepts and ignores it: DescribeTable
	// reports no WarmThroughput.
	WarmThroughput *types.WarmThroughput
	// IndexWarmThroughput pre-warms global secondary indexes, by index
	// name, as IndexOnDemandThroughput names them
	// (GlobalSecondaryIndex.WarmThroughput). Values as for WarmThroughput.
	// Default none. DynamoDB Local accepts and ignores it.
	IndexWarmThroughput map[string]types.WarmThroughput
}

// CreateTable creates t's DynamoDB table with on-demand billing, string
// partition and sort keys, the inverted global secondary index (e.g. GSI1
// on GSI1PK/GSI1SK, projected as CreateTableOptions says) and every index
// of [Options].Indexes (string derived keys; native key attributes of
// their declared types), with the settings of [CreateTableOptions], then
// waits with the SDK's TableExists waiter, bounded by MaxWait, until the
// table and its global indexes are ACTIVE. Its zero options suit
// development and tests; production tables usually belong in
// infrastructure code (see package cloudformation, whose template has the
// same settings and safe defaults).
//
// It calls CreateTable, then DescribeTable until ACTIVE, then, with
// CreateTableOptions.TimeToLive or a Time to Live attribute of the model
// (the item types' [Tracking].Expiry), DescribeTimeToLive and
// UpdateTimeToLive,
// then, with PointInTimeRecovery, UpdateContinuousBackups. Options that
// cannot work ([CreateTableOptions] says which) fail with
// [ErrInvalidOption] before any request; every error is an [*OpError]
// with Op "CreateTable". If the table already exists and IfNotExists is
// false, the error unwraps to *types.ResourceInUseException.
func CreateTable(ctx context.Context, api Client, t *Table, optFns ...func(*CreateTableOptions)) error {
	opts := CreateTableOptions{Projection: types.ProjectionTypeAll, MaxWait: 5 * time.Minute}
	optErr := applyOptions(&opts, optFns)
	wrap := func(err error) error { return &OpError{Op: "CreateTable", Table: t.name, Err: err} }
	if optErr != nil {
		return wrap(optErr)
	}
	if t.err != nil {
		return wrap(t.err)
	}
	if opts.MaxWait <= 0 {
		return wrap(fmt.Errorf("%w: MaxWait %v", ErrInvalidOption, opts.MaxWait))
	}
	o := schema.Options(opts) // the same fields: this fails to compile when they part
	ttlFrom := "TimeToLive"
	if o.TimeToLive == "" {
		var err error
		if o.TimeToLive, err = t.timeToLive(); err != nil {
			return wrap(err)
		}
		ttlFrom = "the item types' Tracking.Expiry"
	}
	if o.TimeToLive != "" && t.isKeyAttr(o.TimeToLive) {
		return wrap(fmt.Errorf("%w: TimeToLive %q (%s) is a key attribute", ErrInvalidOption, o.TimeToLive, ttlFrom))
	}
	st := schemaOf(t)
	if err := schema.CheckCreate(st, &o); err != nil {
		return wrap(fmt.Errorf("%w: %w", ErrInvalidOption, err))
	}
	if err := schema.Create(ctx, api, api, api, st, &o); err != nil {
		return wrap(err)
	}
	return nil
}

// schemaOf describes t's keys and indexes for [schema.Create].
func schemaOf(t *Table) *schema.Table {
	st := &schema.Table{Name: t.name, PartitionKey: t.opts.PartitionKey, SortKey: t.opts.SortKey, Inverted: t.layout != noIndex,
		PartitionKeyType: t.opts.PartitionKeyType, SortKeyType: t.opts.SortKeyType}
	for _, ix := range t.indexes {
		sx := schema.TableIndex{Name: ix.Name, Local: ix.Local, Projection: ix.Projection, NonKeyAttributes: ix.NonKeyAttributes}
		partition, sort := ix.KeySchema(t.opts.PartitionKey)
		for _, a := range partition {
			sx.Partition = append(sx.Partition, schema.KeyAttribute(a))
		}
		for _, a := range sort {
			sx.Sort = append(sx.Sort, schema.KeyAttribute(a))
		}
		st.Indexes = append(st.Indexes, sx)
	}
	return st
}
