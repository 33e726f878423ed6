package adjlist

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Client is the subset of the DynamoDB API that [Table] uses. A
// *dynamodb.Client satisfies it; tests may wrap one to count or fail calls.
type Client interface {
	GetItem(ctx context.Context, params *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	PutItem(ctx context.Context, params *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	UpdateItem(ctx context.Context, params *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	DeleteItem(ctx context.Context, params *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
	Query(ctx context.Context, params *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
	BatchGetItem(ctx context.Context, params *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error)
	BatchWriteItem(ctx context.Context, params *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
	TransactWriteItems(ctx context.Context, params *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error)
}

// Options names a table's key attributes, its inverted index and its other
// secondary indexes ([Options].Indexes). The zero
// value of each field means its default, which is the layout of the
// students↔courses design: partition key PK, sort key SK, and a global
// secondary index GSI1 keyed by GSI1PK (partition) and GSI1SK (sort).
//
// Two index layouts are supported:
//
//   - Explicit index keys (the default, and the users/orders design's GSI_PK/GSI_SK): the
//     four attribute names are distinct; edge items carry the index keys,
//     node items do not, so the index holds only edges.
//   - Index on the sort key (the AWS developer guide's adjacency list):
//     IndexPartitionKey is the table's SortKey and IndexSortKey its
//     PartitionKey, e.g. {Index: "GSI1", IndexPartitionKey: "SK",
//     IndexSortKey: "PK"}. Edge items need no extra attributes; every item
//     is in the index, and an edge's index partition is its sort key
//     ("ENROLL#CRS#math204").
type Options struct {
	// PartitionKey is the table's partition key attribute. Default "PK".
	PartitionKey string
	// SortKey is the table's sort key attribute. Default "SK".
	SortKey string
	// Index is the inverted global secondary index used for reverse edge
	// reads. Default "GSI1".
	Index string
	// IndexPartitionKey is the index's partition key attribute; an edge item
	// stores its target node's key there (e.g. "CRS#math204").
	// Default "GSI1PK".
	IndexPartitionKey string
	// IndexSortKey is the index's sort key attribute; an edge item stores its
	// source node's key there (e.g. "STU#a91"). Default "GSI1SK".
	IndexSortKey string
	// NoIndex declares a table without the inverted index, for designs
	// with no reverse reads (item collections only): [CreateTable] makes
	// none, edge items carry no index keys, [Edge.To] fails with
	// [ErrInvalidOption], and [Describe] shows no index columns.
	NoIndex bool

	// Indexes declares the table's other secondary indexes, global and
	// local, each with its key attributes and projection (see [Index]):
	// [CreateTable] creates them beside the inverted index, and item types
	// declare their keys in them with [IndexKeys]. Default none. Index
	// names must be distinct, and no attribute may key two indexes or the
	// table; at most [MaxGlobalIndexes] global (the inverted index
	// included) and [MaxLocalIndexes] local indexes. A violation makes
	// every later call fail with [ErrInvalidOption].
	Indexes []Index

	// CursorKey, when set, signs page cursors with HMAC-SHA256 so that a
	// cursor handed to a client and sent back cannot be forged or edited
	// (even within the same partition); unsigned or mis-signed cursors are
	// refused with [ErrInvalidCursor]. Use 32 random bytes, kept secret and
	// shared by every instance that serves the same clients. Default nil:
	// cursors are checked for their query but not signed.
	CursorKey []byte

	// BatchBackoff computes the wait before a batch call resends the keys
	// DynamoDB left unprocessed (attempt counts from 1). Default: the SDK's
	// retry.NewExponentialJitterBackoff(20 * time.Second).
	BatchBackoff retry.BackoffDelayer
	// BatchMaxAttempts bounds the requests one batch of keys gets,
	// resends included. Default 10.
	BatchMaxAttempts int

	// EncoderOptions, when set, configures the SDK's attributevalue
	// encoder that marshals item data and the values of an [Update] on
	// every write of the table: TagKey "json" for types tagged for
	// encoding/json, NullEmptySets, OmitNullAttributeValues,
	// EncodeTime, ... (see attributevalue.EncoderOptions). A type's own
	// MarshalDynamoDBAttributeValue is used whatever the options. Key
	// attributes stay refused in data ([ErrKeyAttribute]) under any tag
	// key. Default nil: the SDK's defaults (tag key "dynamodbav").
	EncoderOptions func(*attributevalue.EncoderOptions)
	// DecoderOptions, when set, configures the attributevalue decoder
	// that unmarshals item data on every read, Decode and stream record
	// of the table (TagKey, DecodeTime, UseNumber, ...). Give it the tag
	// key EncoderOptions uses. Default nil: the SDK's defaults.
	DecoderOptions func(*attributevalue.DecoderOptions)
}

func (o *Options) setDefaults() {
	def := func(p *string, v string) {
		if *p == "" {
			*p = v
		}
	}
	def(&o.PartitionKey, "PK")
	def(&o.SortKey, "SK")
	def(&o.Index, "GSI1")
	def(&o.IndexPartitionKey, "GSI1PK")
	def(&o.IndexSortKey, "GSI1SK")
	if o.BatchBackoff == nil {
		o.BatchBackoff = retry.NewExponentialJitterBackoff(20 * time.Second)
	}
	if o.BatchMaxAttempts == 0 {
		o.BatchMaxAttempts = 10
	}
}

// Table is one DynamoDB table laid out as an adjacency list: node items and
// edge items share it, told apart by their keys. Create [Node] and [Edge]
// handles on it with [NewNode] and [NewEdge], or [Entity] handles with
// [NewEntity] for keys spelled any other way. The table records every item
// type declared on it ([Table.Check], [DescribeModel]); apart from that
// record, to which declarations from several goroutines may add, a Table
// is immutable, and it is safe for concurrent use.
type Table struct {
	client Client
	name   string
	// tableName is name as the SDK's inputs take it, made once: a request
	// only reads it, and a pointer per request is an allocation.
	tableName *string
	opts      Options
	err       error

	// Condition expressions on the partition key, built once and shared
	// read-only by every request.
	absent, present condition
	// templates caches query expressions by shape (exprShape →
	// *exprTemplate).
	templates sync.Map
	// The attributes of a LastEvaluatedKey on the table and on the index,
	// shared read-only by every query.
	tableCursorKeys, indexCursorKeys []string
	// keyAttrs are every key attribute an item carries (the table's, and
	// the index's where edge items hold their own): what a keys-only
	// query projects, so that its items are judged as whole ones are.
	keyAttrs []string
	// One encoder and decoder for every item: attributevalue.Marshal and
	// UnmarshalMap build a new one per call, and both are read-only once
	// built, so safe to share.
	enc *attributevalue.Encoder
	dec *attributevalue.Decoder
	// indexes are every secondary index, the inverted one first (see
	// Indexes); derived are the index key attributes this package writes
	// from templates (the inverted index's included), which data may not
	// name.
	indexes []Index
	derived map[string]bool
	meta    map[string]*indexMeta // by index name
	layout  layout
	// reg records the item types declared on the table (registry.go).
	reg registry
}

// NewTable returns a [Table] for the DynamoDB table name, reached through
// client. optFns adjust the key attribute names (see [Options]); with none,
// the table uses PK, SK and GSI1 (GSI1PK, GSI1SK). NewTable makes no
// request; an empty name or duplicate attribute names make every later call
// fail with [ErrInvalidOption]. A nil client is allowed for what needs no
// DynamoDB ([Describe], [Node.Key]); every request through it fails with
// [ErrInvalidOption] without being sent.
func NewTable(client Client, name string, optFns ...func(*Options)) *Table {
	if client == nil {
		client = noClient{}
	}
	t := &Table{client: client, name: name, tableName: aws.String(name)}
	for _, fn := range optFns {
		fn(&t.opts)
	}
	t.enc, t.dec = attributevalue.NewEncoder(), attributevalue.NewDecoder()
	if t.opts.EncoderOptions != nil {
		t.enc = attributevalue.NewEncoder(t.opts.EncoderOptions)
	}
	if t.opts.DecoderOptions != nil {
		t.dec = attributevalue.NewDecoder(t.opts.DecoderOptions)
	}
	t.opts.setDefaults()
	o := t.opts
	t.layout = layoutOf(&o)
	t.tableCursorKeys = []string{o.PartitionKey, o.SortKey}
	t.indexCursorKeys = []string{o.IndexPartitionKey, o.IndexSortKey, o.PartitionKey, o.SortKey}
	if keyedOnSortKey(&o) {
		t.indexCursorKeys = t.indexCursorKeys[:2:2] // no spare capacity to append into
	}
	t.keyAttrs = t.tableCursorKeys
	if t.layout == explicitKeys {
		t.keyAttrs = t.indexCursorKeys
	}
	switch {
	case name == "":
		t.err = fmt.Errorf("%w: empty table name", ErrInvalidOption)
	case o.BatchMaxAttempts < 1:
		t.err = fmt.Errorf("%w: BatchMaxAttempts %d", ErrInvalidOption, o.BatchMaxAttempts)
	case o.PartitionKey == o.SortKey:
		t.err = fmt.Errorf("%w: partition and sort key are both %q", ErrInvalidOption, o.PartitionKey)
	case keyedOnSortKey(&o):
	case len(map[string]bool{o.PartitionKey: true, o.SortKey: true, o.IndexPartitionKey: true, o.IndexSortKey: true}) != 4:
		t.err = fmt.Errorf("%w: index key attributes must be distinct from the table's, or exactly its sort and partition key: %+v", ErrInvalidOption, o)
	}
	if t.err == nil {
		t.err = t.initIndexes()
	}
	if t.err == nil {
		pk := expression.Name(o.PartitionKey)
		t.absent, t.err = newCondition(expression.AttributeNotExists(pk))
	}
	if t.err == nil {
		pk := expression.Name(o.PartitionKey)
		t.present, t.err = newCondition(expression.AttributeExists(pk))
	}
	return t
}

// Name returns the DynamoDB table name.
func (t *Table) Name() string { return t.name }

// Options returns the table's key attribute names with defaults filled in.
func (t *Table) Options() Options { return t.opts }

// condition is a built condition expression, kept as the request fields
// it fills (Expression's getters allocate on every call).
type condition struct {
	expr   *string
	names  map[string]string
	values map[string]types.AttributeValue
}

func newCondition(c expression.ConditionBuilder) (condition, error) {
	e, err := expression.NewBuilder().WithCondition(c).Build()
	return condition{e.Condition(), e.Names(), e.Values()}, err
}

// errNoClient is the error of every request made on a table built with a
// nil client.
var errNoClient = fmt.Errorf("%w: the table has no DynamoDB client", ErrInvalidOption)

// noClient stands in for a nil Client: it sends nothing.
type noClient struct{}

func (noClient) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return nil, errNoClient
}

func (noClient) PutItem(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return nil, errNoClient
}

func (noClient) UpdateItem(context.Context, *dynamodb.UpdateItemInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	return nil, errNoClient
}

func (noClient) DeleteItem(context.Context, *dynamodb.DeleteItemInput, ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return nil, errNoClient
}

func (noClient) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return nil, errNoClient
}

func (noClient) BatchGetItem(context.Context, *dynamodb.BatchGetItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	return nil, errNoClient
}

func (noClient) BatchWriteItem(context.Context, *dynamodb.BatchWriteItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	return nil, errNoClient
}

func (noClient) TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return nil, errNoClient
}

// errNoIndex reports a reverse read on a table declared without an index.
func (t *Table) errNoIndex() error {
	if t.layout == noIndex {
		return fmt.Errorf("%w: table %s has no index (Options.NoIndex)", ErrInvalidOption, t.name)
	}
	return nil
}

// isKeyAttr reports whether name is one of the table's key attributes or
// an index key attribute this package derives.
func (t *Table) isKeyAttr(name string) bool {
	o := &t.opts
	return name == o.PartitionKey || name == o.SortKey || name == o.IndexPartitionKey || name == o.IndexSortKey || t.derived[name]
}

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
