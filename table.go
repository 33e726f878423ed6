package adjlist

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"go.opentelemetry.io/otel/trace"

	"github.com/adjlist/adjlist/internal/schema"
	"github.com/adjlist/adjlist/internal/send"
	"github.com/adjlist/adjlist/internal/telemetry"
)

// Client is every DynamoDB operation adjlist calls: the table's items
// through a [Table], and the table itself through [CreateTable]. A
// *dynamodb.Client satisfies it; a test fake embeds a Client and
// overrides the calls it counts or fails. A wrapper must pass each call's
// optFns on to the client it wraps: adjlist sets per-call SDK options
// through them (the retryer of a write that must not be resent after an
// unknown outcome, docs/writes.md).
type Client interface {
	GetItem(ctx context.Context, params *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	PutItem(ctx context.Context, params *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	UpdateItem(ctx context.Context, params *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	DeleteItem(ctx context.Context, params *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
	Query(ctx context.Context, params *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
	BatchGetItem(ctx context.Context, params *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error)
	BatchWriteItem(ctx context.Context, params *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
	TransactWriteItems(ctx context.Context, params *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error)
	TransactGetItems(ctx context.Context, params *dynamodb.TransactGetItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error)
	Scan(ctx context.Context, params *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
	CreateTable(ctx context.Context, params *dynamodb.CreateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error)
	DescribeTable(ctx context.Context, params *dynamodb.DescribeTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
	DescribeTimeToLive(ctx context.Context, params *dynamodb.DescribeTimeToLiveInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error)
	UpdateTimeToLive(ctx context.Context, params *dynamodb.UpdateTimeToLiveInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error)
	UpdateContinuousBackups(ctx context.Context, params *dynamodb.UpdateContinuousBackupsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateContinuousBackupsOutput, error)
}

// Options names a table's key attributes, its inverted index and its other
// secondary indexes. The zero value of each field means its default: the
// students↔courses layout, partition key PK, sort key SK, and the global
// secondary index GSI1 keyed GSI1PK (partition) and GSI1SK (sort). Other
// layouts: an index on the sort key ({IndexPartitionKey: "SK",
// IndexSortKey: "PK"}), on the sort key alone (IndexPartitionOnly), or
// none (NoIndex); docs/modelling.md ("Layouts") compares them.
type Options struct {
	// PartitionKey is the table's partition key attribute. Default "PK".
	PartitionKey string
	// SortKey is the table's sort key attribute. Default "SK".
	SortKey string
	// PartitionKeyType and SortKeyType are the DynamoDB types of the table's
	// key attributes: "" or types.ScalarAttributeTypeS (the default), or
	// types.ScalarAttributeTypeN for a number key. Only an [Entity] whose
	// template for that key is one {field} ("{id}", ids such as "42") keys
	// such a table; [Node], [Edge], [Collection] and counters are refused with
	// [ErrInvalidOption], as is any other type, on every call. [CreateTable]
	// and the exports declare the types.
	PartitionKeyType, SortKeyType types.ScalarAttributeType
	// Index is the inverted global secondary index used for reverse edge
	// reads. Default "GSI1".
	Index string
	// IndexPartitionKey is the index's partition key attribute; an edge item
	// stores its target node's key there (e.g. "CRS#math204").
	// Default "GSI1PK".
	IndexPartitionKey string
	// IndexSortKey is the index's sort key attribute; an edge item stores its
	// source node's key there (e.g. "STU#a91"). Default "GSI1SK"; empty,
	// with no default, when IndexPartitionOnly.
	IndexSortKey string
	// IndexPartitionOnly declares an inverted index with no sort key:
	// IndexPartitionKey must be the table's SortKey and IndexSortKey empty,
	// else every call fails with [ErrInvalidOption]. An edge's index partition
	// is its sort key ("BILL#4224663"), and [Edge.To] narrows to the source's
	// type with a filter (begins_with(PK, "INVOICE#")): it pays for the items
	// it filters out, returns edges in no defined order, and refuses sort key
	// conditions. Default false.
	IndexPartitionOnly bool
	// NoIndex declares a table without the inverted index: [CreateTable] makes
	// none, edge items carry no index keys, [Edge.To] fails with
	// [ErrInvalidOption], and IndexPartitionKey and IndexSortKey are data like
	// any other.
	NoIndex bool

	// Indexes declares the table's other secondary indexes, global and local
	// (see [Index]); [CreateTable] creates them and item types declare their
	// keys in them with [IndexKeys]. Names must be distinct, no attribute may
	// key two indexes or the table, at most 20 global (the inverted index
	// included) and 5 local: else every call fails with [ErrInvalidOption].
	// Default none.
	Indexes []Index

	// CursorKey, when set, signs page cursors with HMAC-SHA256, so a cursor
	// sent back by a client cannot be forged or edited; unsigned or
	// mis-signed cursors are [ErrInvalidCursor]. Use 32 secret random bytes
	// shared by every instance serving the same clients. Default nil: cursors
	// are checked for their query but not signed.
	CursorKey []byte

	// BatchBackoff computes the wait before a batch call resends the keys
	// DynamoDB left unprocessed (attempt counts from 1). Default: the SDK's
	// retry.NewExponentialJitterBackoff(20 * time.Second).
	BatchBackoff retry.BackoffDelayer
	// BatchMaxAttempts bounds the requests one batch of keys gets,
	// resends included. Default 10.
	BatchMaxAttempts int

	// EncoderOptions, when set, configures the attributevalue encoder of
	// every write's data and [Update] values, and of the values a query is
	// given for a key (ByIndex's, ranges'), e.g. TagKey "json". Tag options
	// such as ",unixtime" cannot reach a bare value given to a query: pass it
	// as the tag makes it (t.Unix()). Key attributes stay refused in data
	// ([ErrKeyAttribute]). Default nil: the SDK's defaults (tag key
	// "dynamodbav").
	EncoderOptions func(*attributevalue.EncoderOptions)
	// DecoderOptions, when set, configures the attributevalue decoder of
	// every read, Decode and stream record. Its tag key must be
	// EncoderOptions' ([ErrInvalidOption] on every call otherwise). Default
	// nil: the SDK's defaults.
	DecoderOptions func(*attributevalue.DecoderOptions)

	// TracerProvider, when set, traces every call with OpenTelemetry: one
	// Client span per call, named as the Op of the [*OpError] it would return
	// ("Edge.Put", "DeleteNode"), with the semantic conventions' DynamoDB
	// attributes and adjlist.requests and adjlist.items; a recording span
	// makes requests ask for ReturnConsumedCapacity=TOTAL. Item data is never
	// recorded. docs/operations.md ("Traces") lists the attributes. Default
	// nil: no spans.
	TracerProvider trace.TracerProvider
}

// Table is one DynamoDB table laid out as an adjacency list. Declare item
// types on it with [NewNode], [NewEdge], [NewCollection] and [NewEntity];
// it records them ([Table.Check], [DescribeModel]). A Table is safe for
// concurrent use.
type Table struct {
	client Client
	name   string
	// tableName is made once: a pointer per request is an allocation.
	tableName *string
	opts      Options
	err       error

	// The guards attribute_not_exists(PK) and attribute_exists(PK), built
	// once; requests only read them.
	absent, present send.Cond
	templates       sync.Map // ddbexpr.Shape → *ddbexpr.Template
	// The attributes of a LastEvaluatedKey on the table and on the index.
	tableCursorKeys, indexCursorKeys []string
	// keyAttrs are every key attribute an item carries: what a keys-only
	// query projects, so that its items are judged as whole ones are.
	keyAttrs []string
	// Shared, read-only: attributevalue.Marshal and UnmarshalMap build a
	// new encoder or decoder per call.
	enc *attributevalue.Encoder
	dec *attributevalue.Decoder
	// indexes are every secondary index, the inverted one first; derived
	// are the index key attributes written from templates, which data may
	// not name.
	indexes []Index
	derived map[string]bool
	meta    map[string]*indexMeta // by index name
	layout  layout
	reg     registry
	// tracer is nil without a TracerProvider (trace.go).
	tracer    trace.Tracer
	spanStart []trace.SpanStartOption
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
		client = noClient{Err: errNoClient}
	}
	t := &Table{client: client, name: name, tableName: aws.String(name)}
	optErr := applyOptions(&t.opts, optFns)
	t.opts = t.opts.clone() // the caller's slices stay the caller's
	t.enc, t.dec = attributevalue.NewEncoder(), attributevalue.NewDecoder()
	if t.opts.EncoderOptions != nil {
		t.enc = attributevalue.NewEncoder(t.opts.EncoderOptions)
	}
	if t.opts.DecoderOptions != nil {
		t.dec = attributevalue.NewDecoder(t.opts.DecoderOptions)
	}
	o := &t.opts
	isk := &o.IndexSortKey
	if o.IndexPartitionOnly {
		isk = nil // no index sort key: no default either
	}
	schema.Defaults(&o.PartitionKey, &o.SortKey, &o.Index, &o.IndexPartitionKey, isk)
	if o.BatchBackoff == nil {
		o.BatchBackoff = retry.NewExponentialJitterBackoff(20 * time.Second)
	}
	if o.BatchMaxAttempts == 0 {
		o.BatchMaxAttempts = 10
	}
	t.tracer, t.spanStart = telemetry.Tracer(o.TracerProvider, name)
	t.layout = layoutOf(o)
	t.tableCursorKeys = []string{o.PartitionKey, o.SortKey}
	t.indexCursorKeys = []string{o.IndexPartitionKey, o.IndexSortKey, o.PartitionKey, o.SortKey}
	switch {
	case t.layout == sortKeyOnlyIndex:
		t.indexCursorKeys = []string{o.SortKey, o.PartitionKey}
	case keyedOnSortKey(o):
		t.indexCursorKeys = t.indexCursorKeys[:2:2] // no spare capacity to append into
	}
	t.keyAttrs = t.tableCursorKeys
	if t.layout == explicitKeys {
		t.keyAttrs = t.indexCursorKeys
	}
	t.err = optErr
	if t.err == nil {
		c := schema.Config{Name: name, EncoderTagKey: t.encoderTagKey(), DecoderTagKey: t.decoderTagKey(), BatchMaxAttempts: o.BatchMaxAttempts,
			PartitionKey: o.PartitionKey, SortKey: o.SortKey, IndexPartitionKey: o.IndexPartitionKey, IndexSortKey: o.IndexSortKey,
			IndexPartitionOnly: o.IndexPartitionOnly, NoIndex: o.NoIndex, PartitionKeyType: o.PartitionKeyType, SortKeyType: o.SortKeyType}
		t.err = c.Check()
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

// Options returns the table's options with defaults filled in, as a deep
// copy: changing what it returns (CursorKey's bytes, an index of Indexes)
// changes nothing of the table.
func (t *Table) Options() Options { return t.opts.clone() }

// clone is o with every slice copied, nested ones included.
func (o Options) clone() Options {
	o.CursorKey = slices.Clone(o.CursorKey)
	o.Indexes = cloneIndexes(o.Indexes)
	return o
}

// newCondition is c built, as the request fields it fills (Expression's
// getters allocate on every call).
func newCondition(c expression.ConditionBuilder) (send.Cond, error) {
	e, err := expression.NewBuilder().WithCondition(c).Build()
	return send.Cond{Expr: e.Condition(), Names: e.Names(), Values: e.Values()}, err
}

var errNoClient = fmt.Errorf("%w: the table has no DynamoDB client", ErrInvalidOption)

// noClient stands in for a nil Client (repair.go and verify.go look for it).
type noClient = schema.NoClient

// errNoIndex reports a reverse read on a table declared without an index.
func (t *Table) errNoIndex() error {
	if t.layout == noIndex {
		return fmt.Errorf("%w: table %s has no index (Options.NoIndex)", ErrInvalidOption, t.name)
	}
	return nil
}

// isKeyAttr reports whether name is a table key attribute or an index key
// attribute this package derives.
func (t *Table) isKeyAttr(name string) bool {
	o := &t.opts
	inverted := t.layout != noIndex && name != "" && (name == o.IndexPartitionKey || name == o.IndexSortKey)
	return name == o.PartitionKey || name == o.SortKey || inverted || t.derived[name]
}
