package adjlist

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TableAdminClient is the subset of the DynamoDB API that [CreateTable]
// uses. A *dynamodb.Client satisfies it.
type TableAdminClient interface {
	CreateTable(ctx context.Context, params *dynamodb.CreateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error)
	dynamodb.DescribeTableAPIClient
}

// CreateTableOptions configures [CreateTable]. The zero value creates an
// on-demand table whose inverted index projects ALL attributes and waits
// up to five minutes for it.
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
	// MaxWait bounds the wait for the table and its index to become ACTIVE.
	// Default 5 minutes.
	MaxWait time.Duration
	// Stream enables DynamoDB Streams on the table (StreamSpecification),
	// with StreamViewType, for the streams package and
	// [Counter.Apply]. Default off.
	Stream bool
	// StreamViewType is what each stream record holds: NEW_AND_OLD_IMAGES
	// (the default), NEW_IMAGE, OLD_IMAGE or KEYS_ONLY.
	StreamViewType types.StreamViewType
	// TimeToLive, when set, names the attribute DynamoDB's Time to Live
	// reads: once the table is ACTIVE, CreateTable enables TTL on it with
	// UpdateTimeToLive (after DescribeTimeToLive, so that a table that
	// already has it, with IfNotExists, is left as it is). Items whose
	// attribute holds an epoch-seconds time in the past are then deleted
	// by DynamoDB, typically within a few days; give handles the same name
	// in [Tracking].Expiry. The client must also implement
	// [TimeToLiveClient] (a *dynamodb.Client does), else CreateTable fails
	// with [ErrInvalidOption] before any request. TTL already enabled on
	// another attribute is UpdateTimeToLive's ValidationException
	// (smithy.APIError), returned after the table is ACTIVE. Default "":
	// TTL is not touched.
	TimeToLive string
}

// TimeToLiveClient is what [CreateTable] also needs of its client to enable
// Time to Live ([CreateTableOptions].TimeToLive). A *dynamodb.Client
// satisfies it. It is separate from [TableAdminClient] so that clients
// written for CreateTable before TTL keep compiling.
type TimeToLiveClient interface {
	DescribeTimeToLive(ctx context.Context, params *dynamodb.DescribeTimeToLiveInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error)
	UpdateTimeToLive(ctx context.Context, params *dynamodb.UpdateTimeToLiveInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error)
}

// CreateTable creates t's DynamoDB table with on-demand billing, string
// partition and sort keys, the inverted global secondary index (e.g. GSI1
// on GSI1PK/GSI1SK, projected as CreateTableOptions says) and every index
// of [Options].Indexes (string derived keys; native key attributes of
// their declared types), then waits with the SDK's TableExists waiter,
// bounded by MaxWait, until the table and its global indexes are ACTIVE. It is meant
// for development and tests; production tables belong in infrastructure
// code.
//
// It calls CreateTable, then DescribeTable until ACTIVE, then, with
// CreateTableOptions.TimeToLive, DescribeTimeToLive and UpdateTimeToLive.
// If the table already exists and IfNotExists is false, the error unwraps
// to *types.ResourceInUseException.
func CreateTable(ctx context.Context, api TableAdminClient, t *Table, optFns ...func(*CreateTableOptions)) error {
	opts := CreateTableOptions{Projection: types.ProjectionTypeAll, MaxWait: 5 * time.Minute}
	for _, fn := range optFns {
		fn(&opts)
	}
	wrap := func(err error) error { return &OpError{Op: "CreateTable", Table: t.name, Err: err} }
	if t.err != nil {
		return wrap(t.err)
	}
	if opts.MaxWait <= 0 {
		return wrap(fmt.Errorf("%w: MaxWait %v", ErrInvalidOption, opts.MaxWait))
	}
	ttl, ok := api.(TimeToLiveClient)
	if opts.TimeToLive != "" && !ok {
		return wrap(fmt.Errorf("%w: TimeToLive needs a client with UpdateTimeToLive (TimeToLiveClient)", ErrInvalidOption))
	}
	if opts.TimeToLive != "" && t.isKeyAttr(opts.TimeToLive) {
		return wrap(fmt.Errorf("%w: TimeToLive %q is a key attribute", ErrInvalidOption, opts.TimeToLive))
	}
	proj := &types.Projection{ProjectionType: opts.Projection}
	if opts.Projection == types.ProjectionTypeInclude {
		proj.NonKeyAttributes = opts.NonKeyAttributes
	}
	defs, gsis, lsis := t.tableSchema(proj)
	in := &dynamodb.CreateTableInput{
		TableName:   aws.String(t.name),
		BillingMode: types.BillingModePayPerRequest,
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String(t.opts.PartitionKey), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(t.opts.SortKey), KeyType: types.KeyTypeRange},
		},
		AttributeDefinitions:   defs,
		GlobalSecondaryIndexes: gsis,
		LocalSecondaryIndexes:  lsis,
	}
	if opts.Stream {
		view := opts.StreamViewType
		if view == "" {
			view = types.StreamViewTypeNewAndOldImages
		}
		in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: view}
	}
	_, err := api.CreateTable(ctx, in)
	var inUse *types.ResourceInUseException
	if err != nil && !(opts.IfNotExists && errors.As(err, &inUse)) {
		return wrap(err)
	}
	waiter := dynamodb.NewTableExistsWaiter(api, func(w *dynamodb.TableExistsWaiterOptions) {
		w.MinDelay = time.Second
		w.MaxDelay = 20 * time.Second
		w.Retryable = tableAndIndexesActive
	})
	if err := waiter.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(t.name)}, opts.MaxWait); err != nil {
		return wrap(err)
	}
	if opts.TimeToLive != "" {
		if err := enableTTL(ctx, ttl, t.name, opts.TimeToLive); err != nil {
			return wrap(err)
		}
	}
	return nil
}

// enableTTL turns on Time to Live on attribute name unless it is on
// already.
func enableTTL(ctx context.Context, api TimeToLiveClient, table, name string) error {
	out, err := api.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(table)})
	if err != nil {
		return err
	}
	if d := out.TimeToLiveDescription; d != nil && aws.ToString(d.AttributeName) == name &&
		(d.TimeToLiveStatus == types.TimeToLiveStatusEnabled || d.TimeToLiveStatus == types.TimeToLiveStatusEnabling) {
		return nil
	}
	_, err = api.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
		TableName:               aws.String(table),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String(name), Enabled: aws.Bool(true)},
	})
	return err
}

// tableAndIndexesActive extends the SDK's TableExists condition: a table is
// only usable for reverse reads once its global secondary indexes are ACTIVE
// too.
func tableAndIndexesActive(_ context.Context, _ *dynamodb.DescribeTableInput, out *dynamodb.DescribeTableOutput, err error) (bool, error) {
	if err != nil {
		var nf *types.ResourceNotFoundException
		if errors.As(err, &nf) {
			return true, nil
		}
		return false, err
	}
	if out.Table == nil || out.Table.TableStatus != types.TableStatusActive {
		return true, nil
	}
	for _, gsi := range out.Table.GlobalSecondaryIndexes {
		if gsi.IndexStatus != types.IndexStatusActive {
			return true, nil
		}
	}
	return false, nil
}
