package adjlist_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// throttlingClient answers the operation named in fail with err, as the
// SDK returns a throttling error once its retries are spent (an
// OperationError around the exception): it sits behind the SDK's
// retryer, at the Client interface. Other operations reach DynamoDB
// Local.
type throttlingClient struct {
	adjlist.Client
	fail  string
	err   error
	calls atomic.Int64 // of the operation fail
}

func (c *throttlingClient) inject(op string) error {
	if op != c.fail {
		return nil
	}
	c.calls.Add(1)
	return &smithy.OperationError{ServiceID: "DynamoDB", OperationName: op, Err: c.err}
}

func (c *throttlingClient) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	if err := c.inject("GetItem"); err != nil {
		return nil, err
	}
	return c.Client.GetItem(ctx, in, o...)
}

func (c *throttlingClient) PutItem(ctx context.Context, in *dynamodb.PutItemInput, o ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	if err := c.inject("PutItem"); err != nil {
		return nil, err
	}
	return c.Client.PutItem(ctx, in, o...)
}

func (c *throttlingClient) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, o ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	if err := c.inject("UpdateItem"); err != nil {
		return nil, err
	}
	return c.Client.UpdateItem(ctx, in, o...)
}

func (c *throttlingClient) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	if err := c.inject("Query"); err != nil {
		return nil, err
	}
	return c.Client.Query(ctx, in, o...)
}

func (c *throttlingClient) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	if err := c.inject("BatchGetItem"); err != nil {
		return nil, err
	}
	return c.Client.BatchGetItem(ctx, in, o...)
}

func (c *throttlingClient) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	if err := c.inject("BatchWriteItem"); err != nil {
		return nil, err
	}
	return c.Client.BatchWriteItem(ctx, in, o...)
}

func (c *throttlingClient) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	if err := c.inject("TransactWriteItems"); err != nil {
		return nil, err
	}
	return c.Client.TransactWriteItems(ctx, in, o...)
}

func (c *throttlingClient) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, o ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	if err := c.inject("TransactGetItems"); err != nil {
		return nil, err
	}
	return c.Client.TransactGetItems(ctx, in, o...)
}

// reasons is the ThrottlingReasons list of one reason on resource.
func reasons(reason, resource string) []types.ThrottlingReason {
	return []types.ThrottlingReason{{Reason: aws.String(reason), Resource: aws.String(resource)}}
}

// cancelled is a TransactionCanceledException with one reason code per
// action.
func cancelled(codes ...string) *types.TransactionCanceledException {
	rs := make([]types.CancellationReason, len(codes))
	for i, c := range codes {
		rs[i] = types.CancellationReason{Code: aws.String(c)}
	}
	return &types.TransactionCanceledException{Message: aws.String("Transaction cancelled"), CancellationReasons: rs}
}

// DynamoDB's throttling errors come back as a *ThrottlingError inside the
// OpError, naming the table or index, the reason, and where adjlist knows
// them the partition key and the item type; the SDK's exception stays
// reachable.
func TestThrottlingError(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	seedSchool(t, s)
	client := &throttlingClient{Client: s.db}
	table := adjlist.NewTable(client, s.table.Name())
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	sharded := adjlist.NewEdge[Enrollment](students, "FOLLOW", courses, func(o *adjlist.EdgeOptions) { o.Shards = 4 })
	name := s.table.Name()
	arn := "arn:aws:dynamodb:eu-west-1:123456789012:table/" + name
	ctx := context.Background()
	const edgeKind = "edge ENROLL (STU → CRS)"

	tests := []struct {
		name string
		fail string // the operation throttled
		err  error  // the SDK's exception
		call func() error
		want adjlist.ThrottlingError // but Err
	}{
		{"a hot item on the table", "GetItem",
			&types.ProvisionedThroughputExceededException{Message: aws.String("Throughput exceeds the current capacity"), ThrottlingReasons: reasons("TableReadKeyRangeThroughputExceeded", arn)},
			func() error { _, err := students.Get(ctx, "a91"); return err },
			adjlist.ThrottlingError{Reason: "TableReadKeyRangeThroughputExceeded", Resource: arn, Table: name, PK: "STU#a91", ItemType: "node STU", HotPartition: true}},
		{"an edge write held back by a hot index partition", "PutItem",
			&types.ProvisionedThroughputExceededException{ThrottlingReasons: reasons("IndexWriteKeyRangeThroughputExceeded", arn+"/index/GSI1")},
			func() error { return enrolled.Put(ctx, "a91", "phys1", math204) },
			adjlist.ThrottlingError{Reason: "IndexWriteKeyRangeThroughputExceeded", Resource: arn + "/index/GSI1", Table: name, Index: "GSI1", PK: "STU#a91", ItemType: edgeKind, HotPartition: true}},
		{"several reasons: the first", "PutItem",
			&types.ProvisionedThroughputExceededException{ThrottlingReasons: append(reasons("TableWriteKeyRangeThroughputExceeded", arn), reasons("IndexWriteProvisionedThroughputExceeded", arn+"/index/GSI1")...)},
			func() error { return students.Replace(ctx, "a91", Student{Name: "Ada"}) },
			adjlist.ThrottlingError{Reason: "TableWriteKeyRangeThroughputExceeded", Resource: arn, Table: name, PK: "STU#a91", ItemType: "node STU", HotPartition: true}},
		{"an on-demand maximum on an update", "UpdateItem",
			&types.ThrottlingException{ThrottlingReasons: reasons("TableWriteMaxOnDemandThroughputExceeded", arn)},
			func() error { _, err := students.Update(ctx, "a91", adjlist.Set("year", 3)); return err },
			adjlist.ThrottlingError{Reason: "TableWriteMaxOnDemandThroughputExceeded", Resource: arn, Table: name, PK: "STU#a91", ItemType: "node STU"}},
		{"a hot index partition on a reverse read", "Query",
			&types.ProvisionedThroughputExceededException{ThrottlingReasons: reasons("IndexReadKeyRangeThroughputExceeded", arn+"/index/GSI1")},
			func() error { _, err := enrolled.To("math204").Collect(ctx); return err },
			adjlist.ThrottlingError{Reason: "IndexReadKeyRangeThroughputExceeded", Resource: arn + "/index/GSI1", Table: name, Index: "GSI1", PK: "CRS#math204", ItemType: edgeKind, HotPartition: true}},
		{"no reason given: the code, and the query's index", "Query",
			&types.RequestLimitExceeded{Message: aws.String("Throughput exceeds the current throughput limit for your account")},
			func() error { _, err := enrolled.To("math204").Page(ctx, ""); return err },
			adjlist.ThrottlingError{Reason: "RequestLimitExceeded", Table: name, Index: "GSI1", PK: "CRS#math204", ItemType: edgeKind}},
		{"a resource that is no ARN", "GetItem",
			&types.ProvisionedThroughputExceededException{ThrottlingReasons: reasons("TableReadProvisionedThroughputExceeded", "not-an-arn")},
			func() error { _, err := students.Get(ctx, "b30"); return err },
			adjlist.ThrottlingError{Reason: "TableReadProvisionedThroughputExceeded", Resource: "not-an-arn", Table: name, PK: "STU#b30", ItemType: "node STU"}},
		{"a sharded read: the key without its shard", "Query",
			&types.ProvisionedThroughputExceededException{},
			func() error { _, err := sharded.To("math204").Page(ctx, ""); return err },
			adjlist.ThrottlingError{Reason: "ProvisionedThroughputExceededException", Table: name, Index: "GSI1", PK: "CRS#math204", ItemType: "edge FOLLOW (STU → CRS)"}},
		{"a partition of several types", "Query",
			&types.ProvisionedThroughputExceededException{ThrottlingReasons: reasons("TableReadKeyRangeThroughputExceeded", arn)},
			func() error { _, err := adjlist.LoadNode(ctx, students, enrolled, "a91"); return err },
			adjlist.ThrottlingError{Reason: "TableReadKeyRangeThroughputExceeded", Resource: arn, Table: name, PK: "STU#a91", HotPartition: true}},
		{"a batch read spans partitions", "BatchGetItem",
			&types.ProvisionedThroughputExceededException{ThrottlingReasons: reasons("TableReadProvisionedThroughputExceeded", arn)},
			func() error { _, err := students.GetMany(ctx, []string{"a91", "b30"}); return err },
			adjlist.ThrottlingError{Reason: "TableReadProvisionedThroughputExceeded", Resource: arn, Table: name}},
		{"a batch write spans partitions", "BatchWriteItem",
			&types.ProvisionedThroughputExceededException{ThrottlingReasons: reasons("TableWriteAccountLimitExceeded", arn)},
			func() error { _, err := enrolled.PutMany(ctx, roster(3, "A")); return err },
			adjlist.ThrottlingError{Reason: "TableWriteAccountLimitExceeded", Resource: arn, Table: name}},
		{"a transaction's throttled action: its item", "TransactWriteItems",
			cancelled("None", "ThrottlingError", "None"),
			func() error { return enrolled.Put(ctx, "a91", "phys1", math204, checkEnds) },
			adjlist.ThrottlingError{Reason: "ThrottlingError", Table: name, PK: "CRS#phys1", ItemType: "node CRS"}},
		{"a transactional read's throttled item", "TransactGetItems",
			cancelled("ThrottlingError", "None"),
			func() error {
				rt := adjlist.NewReadTx(table)
				students.TxGet(rt, "b30")
				courses.TxGet(rt, "math204")
				return rt.Run(ctx)
			},
			adjlist.ThrottlingError{Reason: "ThrottlingError", Table: name, PK: "STU#b30", ItemType: "node STU"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client.fail, client.err = tt.fail, tt.err
			err := tt.call()
			require.Error(t, err)

			var oe *adjlist.OpError
			require.ErrorAs(t, err, &oe)
			var te *adjlist.ThrottlingError
			require.ErrorAs(t, err, &te)
			got := *te
			got.Err = nil
			assert.Equal(t, tt.want, got)
			assert.Equal(t, strings.HasSuffix(tt.want.Reason, "KeyRangeThroughputExceeded"), te.HotPartition, "HotPartition is the KeyRange reasons")
			assert.Contains(t, te.Error(), "throttled ("+tt.want.Reason+")")
			if tt.want.PK != "" {
				assert.Contains(t, te.Error(), `partition "`+tt.want.PK+`"`)
			}

			// The SDK's exception is still there, through the
			// ThrottlingError itself.
			var op *smithy.OperationError
			assert.ErrorAs(t, te.Err, &op)
			target := reflectNew(tt.err)
			assert.True(t, errors.As(te, target), "errors.As reaches the SDK's %T", tt.err)
			assert.True(t, errors.As(err, target))
		})
	}

	// Other errors carry none.
	client.fail = ""
	_, err := students.Get(ctx, "nobody")
	require.ErrorIs(t, err, adjlist.ErrNotFound)
	assert.False(t, errors.As(err, new(*adjlist.ThrottlingError)))
	err = enrolled.Put(ctx, "a91", "math204", math204)
	require.ErrorIs(t, err, adjlist.ErrExists)
	assert.False(t, errors.As(err, new(*adjlist.ThrottlingError)))
}

// reflectNew returns a pointer to a nil value of err's type, for
// errors.As.
func reflectNew(err error) any {
	switch err.(type) {
	case *types.ProvisionedThroughputExceededException:
		return new(*types.ProvisionedThroughputExceededException)
	case *types.RequestLimitExceeded:
		return new(*types.RequestLimitExceeded)
	case *types.ThrottlingException:
		return new(*types.ThrottlingException)
	case *types.TransactionCanceledException:
		return new(*types.TransactionCanceledException)
	}
	panic("no target for " + err.Error())
}

// A transaction that keeps being throttled with ConflictRetries is
// retried, then reported with the throttled action's ThrottlingError, and
// its error names the SDK's exception once.
func TestThrottlingErrorTxRetried(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	seedSchool(t, s)
	client := &throttlingClient{Client: s.db, fail: "TransactWriteItems", err: cancelled("ThrottlingError")}
	table := adjlist.NewTable(client, s.table.Name(), func(o *adjlist.Options) { o.BatchBackoff = &noWait{} })
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	tx := adjlist.NewTx(table)
	students.Put(context.Background(), "z1", Student{Name: "Zed"}, adjlist.InTx(tx))
	err := tx.Commit(context.Background(), func(o *adjlist.TxOptions) { o.ConflictRetries = 2 })
	var te *adjlist.ThrottlingError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, "STU#z1", te.PK)
	assert.Equal(t, "node STU", te.ItemType)
	assert.False(t, te.HotPartition)
	assert.Equal(t, int64(3), client.calls.Load(), "sent once and retried twice")
	var tce *types.TransactionCanceledException
	assert.ErrorAs(t, err, &tce)
	assert.Equal(t, 1, strings.Count(err.Error(), "Transaction cancelled"), err.Error())
}
