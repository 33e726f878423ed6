package adjlist

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/schema"
)

// CreateTableOptions configures [CreateTable]. The zero value creates an
// on-demand table whose inverted index projects ALL, with none of the
// production settings (no deletion protection, point-in-time recovery,
// customer key, tags, throughput limits or stream), TTL on the model's
// attribute (see TimeToLive), and waits up to five minutes. Bad settings
// are [ErrInvalidOption] in an [*OpError], before any request. With
// IfNotExists an existing table keeps its settings: only TimeToLive and
// PointInTimeRecovery are applied to it. docs/operations.md ("Production
// tables") says which settings DynamoDB Local honours.
type CreateTableOptions struct {
	// Projection is the inverted index's projection type: ALL (default),
	// KEYS_ONLY (reverse reads return ids without edge data) or INCLUDE (keys
	// plus NonKeyAttributes). Each of [Options].Indexes has its own.
	Projection types.ProjectionType
	// NonKeyAttributes lists the attributes projected with INCLUDE.
	NonKeyAttributes []string
	// IfNotExists makes an existing table of the same name a success; the call
	// then waits for it to be ACTIVE. Its key schema is not compared.
	IfNotExists bool
	// MaxWait bounds, from the end of the CreateTable request, the wait for the
	// table and its global indexes to be ACTIVE and, with PointInTimeRecovery,
	// for UpdateContinuousBackups to be accepted. Default 5 minutes.
	MaxWait time.Duration
	// Stream enables DynamoDB Streams (StreamSpecification) with
	// StreamViewType, for the streams package. Default off.
	Stream bool
	// StreamViewType is what each stream record holds: NEW_AND_OLD_IMAGES
	// (the default), NEW_IMAGE, OLD_IMAGE or KEYS_ONLY.
	StreamViewType types.StreamViewType
	// TimeToLive names the Time to Live attribute (epoch seconds), enabled
	// once the table is ACTIVE with DescribeTimeToLive then UpdateTimeToLive
	// (a table that has it already is left). Default "": the model's
	// ([Model].TimeToLive: the [Tracking].Expiry of the item types declared
	// before the call), or none. Item types naming two attributes are
	// [ErrInvalidOption] unless it is set. TTL already on another attribute is
	// UpdateTimeToLive's ValidationException (smithy.APIError).
	TimeToLive string

	// DeletionProtectionEnabled creates the table with deletion protection:
	// DeleteTable fails until UpdateTable turns it off. Default false.
	DeletionProtectionEnabled bool
	// PointInTimeRecovery enables continuous backups: once the table is ACTIVE
	// (after TimeToLive), CreateTable calls UpdateContinuousBackups, again
	// while DynamoDB answers ContinuousBackupsUnavailableException (1 s apart,
	// doubling up to 20 s, within MaxWait). DynamoDB Local answers
	// UnknownOperationException. Default false.
	PointInTimeRecovery bool
	// RecoveryPeriodInDays is the point-in-time recovery period, 1 to 35 days;
	// it needs PointInTimeRecovery. Default 0: DynamoDB's 35 days.
	RecoveryPeriodInDays int32
	// SSESpecification chooses the encryption key: nil or Enabled false is the
	// AWS owned key; Enabled true a KMS key, alias/aws/dynamodb unless
	// KMSMasterKeyId names a customer managed key. SSEType or KMSMasterKeyId
	// without Enabled true, an SSEType other than KMS or an empty
	// KMSMasterKeyId is [ErrInvalidOption].
	SSESpecification *types.SSESpecification
	// Tags are the table's tags, key to value, sent sorted by key. An empty key
	// is [ErrInvalidOption]. Default none.
	Tags map[string]string
	// OnDemandThroughput caps the table's on-demand throughput, in read and
	// write request units per second. Each maximum set must be at least 1, and
	// one must be set, else [ErrInvalidOption]; unset ones are not sent.
	// Default nil: no limit.
	OnDemandThroughput *types.OnDemandThroughput
	// IndexOnDemandThroughput caps global secondary indexes' on-demand
	// throughput, by index name ([Options].Index, e.g. "GSI1", or a global
	// index of [Options].Indexes), values as for OnDemandThroughput. Any other
	// name is [ErrInvalidOption]. Default none.
	IndexOnDemandThroughput map[string]types.OnDemandThroughput
	// WarmThroughput pre-warms the table, in read and write units per second.
	// Each value set must be at least 1, and one must be set, else
	// [ErrInvalidOption]. Default nil: DynamoDB's default.
	WarmThroughput *types.WarmThroughput
	// IndexWarmThroughput pre-warms global secondary indexes, by name as
	// IndexOnDemandThroughput. Default none.
	IndexWarmThroughput map[string]types.WarmThroughput
}

// CreateTable creates t's table, on-demand, with the inverted index (e.g.
// GSI1 on GSI1PK/GSI1SK) and every index of [Options].Indexes, with the
// settings of [CreateTableOptions]. It calls CreateTable, DescribeTable
// until the table and its global indexes are ACTIVE (the SDK's
// TableExists waiter, within MaxWait), then, for a Time to Live attribute,
// DescribeTimeToLive and UpdateTimeToLive, then, with PointInTimeRecovery,
// UpdateContinuousBackups. Production tables usually belong in
// infrastructure code: see package cloudformation.
//
// Errors are [*OpError] with Op "CreateTable": [ErrInvalidOption] before
// any request for options that cannot work; an existing table without
// IfNotExists unwraps to *types.ResourceInUseException.
func CreateTable(ctx context.Context, api Client, t *Table, optFns ...func(*CreateTableOptions)) error {
	var opts CreateTableOptions
	optErr := applyOptions(&opts, optFns)
	wrap := func(err error) error { return &OpError{Op: "CreateTable", Table: t.name, Err: err} }
	if optErr != nil {
		return wrap(optErr)
	}
	if t.err != nil {
		return wrap(t.err)
	}
	opts.Projection = cmp.Or(opts.Projection, types.ProjectionTypeAll) // the zero value's defaults
	if opts.MaxWait == 0 {
		opts.MaxWait = 5 * time.Minute
	}
	if opts.MaxWait < 0 {
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
		partition, sort := ix.KeySchema(t.opts.PartitionKey)
		st.Indexes = append(st.Indexes, schema.TableIndex{Name: ix.Name, Local: ix.Local, Projection: ix.Projection,
			NonKeyAttributes: ix.NonKeyAttributes, Partition: schema.Attrs(partition), Sort: schema.Attrs(sort)})
	}
	return st
}
