package adjlist_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// productionLayout is a table with the inverted index GSI1, another global
// index GSI2 and a local index LSI1.
func productionLayout(o *adjlist.Options) {
	o.Indexes = []adjlist.Index{
		{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"},
		{Name: "LSI1", Local: true, SortKey: "LSI1SK"},
	}
}

// tableAdmin is a DynamoDB stand-in for CreateTable: it records every
// request, says the table is ACTIVE at once, and answers
// UpdateContinuousBackups with backupErrs in turn (then success). It has
// the table operations of a Client.
type tableAdmin struct {
	adjlist.Client // nil: the item calls are never made
	mu             sync.Mutex
	creates        []*dynamodb.CreateTableInput
	backups        []*dynamodb.UpdateContinuousBackupsInput
	ttls           []*dynamodb.UpdateTimeToLiveInput
	backupErrs     []error
	calls          int
}

func (a *tableAdmin) CreateTable(_ context.Context, in *dynamodb.CreateTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.calls++
	a.creates = append(a.creates, in)
	return &dynamodb.CreateTableOutput{}, nil
}

func (a *tableAdmin) DescribeTable(context.Context, *dynamodb.DescribeTableInput, ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.calls++
	return &dynamodb.DescribeTableOutput{Table: &types.TableDescription{TableStatus: types.TableStatusActive}}, nil
}

func (a *tableAdmin) DescribeTimeToLive(context.Context, *dynamodb.DescribeTimeToLiveInput, ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.calls++
	return &dynamodb.DescribeTimeToLiveOutput{}, nil
}

func (a *tableAdmin) UpdateTimeToLive(_ context.Context, in *dynamodb.UpdateTimeToLiveInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.calls++
	a.ttls = append(a.ttls, in)
	return &dynamodb.UpdateTimeToLiveOutput{}, nil
}

func (a *tableAdmin) UpdateContinuousBackups(_ context.Context, in *dynamodb.UpdateContinuousBackupsInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateContinuousBackupsOutput, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.calls++
	a.backups = append(a.backups, in)
	if len(a.backupErrs) > 0 {
		err := a.backupErrs[0]
		a.backupErrs = a.backupErrs[1:]
		return nil, err
	}
	return &dynamodb.UpdateContinuousBackupsOutput{}, nil
}

var _ adjlist.Client = (*tableAdmin)(nil)

// TestCreateTableRequest: what the CreateTable and UpdateContinuousBackups
// requests carry for each setting of CreateTableOptions.
func TestCreateTableRequest(t *testing.T) {
	t.Parallel()
	gsi := func(in *dynamodb.CreateTableInput, name string) types.GlobalSecondaryIndex {
		for _, g := range in.GlobalSecondaryIndexes {
			if aws.ToString(g.IndexName) == name {
				return g
			}
		}
		t.Fatalf("no index %s in the request", name)
		return types.GlobalSecondaryIndex{}
	}
	for _, tt := range []struct {
		name    string
		opts    func(*adjlist.CreateTableOptions)
		check   func(t *testing.T, in *dynamodb.CreateTableInput)
		backups []*types.PointInTimeRecoverySpecification
	}{
		{"zero", func(*adjlist.CreateTableOptions) {}, func(t *testing.T, in *dynamodb.CreateTableInput) {
			assert.Equal(t, types.BillingModePayPerRequest, in.BillingMode)
			assert.Nil(t, in.DeletionProtectionEnabled)
			assert.Nil(t, in.SSESpecification)
			assert.Nil(t, in.Tags)
			assert.Nil(t, in.OnDemandThroughput)
			assert.Nil(t, in.WarmThroughput)
			assert.Nil(t, in.StreamSpecification)
			for _, g := range in.GlobalSecondaryIndexes {
				assert.Nil(t, g.OnDemandThroughput)
				assert.Nil(t, g.WarmThroughput)
			}
		}, nil},
		{"deletion protection", func(o *adjlist.CreateTableOptions) { o.DeletionProtectionEnabled = true }, func(t *testing.T, in *dynamodb.CreateTableInput) {
			assert.Equal(t, aws.Bool(true), in.DeletionProtectionEnabled)
		}, nil},
		{"AWS owned key", func(o *adjlist.CreateTableOptions) {
			o.SSESpecification = &types.SSESpecification{Enabled: aws.Bool(false)}
		}, func(t *testing.T, in *dynamodb.CreateTableInput) {
			assert.Equal(t, &types.SSESpecification{Enabled: aws.Bool(false)}, in.SSESpecification)
		}, nil},
		{"KMS key", func(o *adjlist.CreateTableOptions) {
			o.SSESpecification = &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeKms, KMSMasterKeyId: aws.String("alias/school")}
		}, func(t *testing.T, in *dynamodb.CreateTableInput) {
			assert.Equal(t, &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeKms, KMSMasterKeyId: aws.String("alias/school")}, in.SSESpecification)
		}, nil},
		{"tags sorted by key", func(o *adjlist.CreateTableOptions) {
			o.Tags = map[string]string{"team": "school", "env": "prod", "cost-center": ""}
		}, func(t *testing.T, in *dynamodb.CreateTableInput) {
			assert.Equal(t, []types.Tag{
				{Key: aws.String("cost-center"), Value: aws.String("")},
				{Key: aws.String("env"), Value: aws.String("prod")},
				{Key: aws.String("team"), Value: aws.String("school")},
			}, in.Tags)
		}, nil},
		{"on-demand maximums", func(o *adjlist.CreateTableOptions) {
			o.OnDemandThroughput = &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(1000)}
			o.IndexOnDemandThroughput = map[string]types.OnDemandThroughput{
				"GSI1": {MaxReadRequestUnits: aws.Int64(100), MaxWriteRequestUnits: aws.Int64(50)},
				"GSI2": {MaxWriteRequestUnits: aws.Int64(10)},
			}
		}, func(t *testing.T, in *dynamodb.CreateTableInput) {
			assert.Equal(t, &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(1000)}, in.OnDemandThroughput)
			assert.Equal(t, &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(100), MaxWriteRequestUnits: aws.Int64(50)}, gsi(in, "GSI1").OnDemandThroughput)
			assert.Equal(t, &types.OnDemandThroughput{MaxWriteRequestUnits: aws.Int64(10)}, gsi(in, "GSI2").OnDemandThroughput)
			assert.Nil(t, in.WarmThroughput)
		}, nil},
		{"warm throughput", func(o *adjlist.CreateTableOptions) {
			o.WarmThroughput = &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(15000), WriteUnitsPerSecond: aws.Int64(5000)}
			o.IndexWarmThroughput = map[string]types.WarmThroughput{"GSI2": {ReadUnitsPerSecond: aws.Int64(13000)}}
		}, func(t *testing.T, in *dynamodb.CreateTableInput) {
			assert.Equal(t, &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(15000), WriteUnitsPerSecond: aws.Int64(5000)}, in.WarmThroughput)
			assert.Nil(t, gsi(in, "GSI1").WarmThroughput)
			assert.Equal(t, &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(13000)}, gsi(in, "GSI2").WarmThroughput)
		}, nil},
		{"stream", func(o *adjlist.CreateTableOptions) { o.Stream = true }, func(t *testing.T, in *dynamodb.CreateTableInput) {
			assert.Equal(t, &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}, in.StreamSpecification)
		}, nil},
		{"point-in-time recovery", func(o *adjlist.CreateTableOptions) { o.PointInTimeRecovery = true }, func(t *testing.T, in *dynamodb.CreateTableInput) {},
			[]*types.PointInTimeRecoverySpecification{{PointInTimeRecoveryEnabled: aws.Bool(true)}}},
		{"recovery period", func(o *adjlist.CreateTableOptions) { o.PointInTimeRecovery, o.RecoveryPeriodInDays = true, 7 }, func(t *testing.T, in *dynamodb.CreateTableInput) {},
			[]*types.PointInTimeRecoverySpecification{{PointInTimeRecoveryEnabled: aws.Bool(true), RecoveryPeriodInDays: aws.Int32(7)}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			admin := &tableAdmin{}
			table := adjlist.NewTable(nil, "school", productionLayout)
			require.NoError(t, adjlist.CreateTable(context.Background(), admin, table, tt.opts))
			require.Len(t, admin.creates, 1)
			in := admin.creates[0]
			assert.Equal(t, "school", aws.ToString(in.TableName))
			tt.check(t, in)
			var backups []*types.PointInTimeRecoverySpecification
			for _, b := range admin.backups {
				assert.Equal(t, "school", aws.ToString(b.TableName))
				backups = append(backups, b.PointInTimeRecoverySpecification)
			}
			assert.Equal(t, tt.backups, backups)
		})
	}
}

// TestCreateTableRefusesBadOptions: bad production settings are
// ErrInvalidOption in an *OpError, before any request.
func TestCreateTableRefusesBadOptions(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		table func(*adjlist.Options)
		opts  func(*adjlist.CreateTableOptions)
	}{
		{"recovery period without recovery", productionLayout, func(o *adjlist.CreateTableOptions) { o.RecoveryPeriodInDays = 7 }},
		{"recovery period 36", productionLayout, func(o *adjlist.CreateTableOptions) { o.PointInTimeRecovery, o.RecoveryPeriodInDays = true, 36 }},
		{"negative recovery period", productionLayout, func(o *adjlist.CreateTableOptions) { o.PointInTimeRecovery, o.RecoveryPeriodInDays = true, -1 }},
		{"SSE type AES256", productionLayout, func(o *adjlist.CreateTableOptions) {
			o.SSESpecification = &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeAes256}
		}},
		{"KMS key without Enabled", productionLayout, func(o *adjlist.CreateTableOptions) {
			o.SSESpecification = &types.SSESpecification{KMSMasterKeyId: aws.String("alias/school")}
		}},
		{"KMS type with Enabled false", productionLayout, func(o *adjlist.CreateTableOptions) {
			o.SSESpecification = &types.SSESpecification{Enabled: aws.Bool(false), SSEType: types.SSETypeKms}
		}},
		{"empty KMS key", productionLayout, func(o *adjlist.CreateTableOptions) {
			o.SSESpecification = &types.SSESpecification{Enabled: aws.Bool(true), KMSMasterKeyId: aws.String("")}
		}},
		{"empty tag key", productionLayout, func(o *adjlist.CreateTableOptions) { o.Tags = map[string]string{"": "x"} }},
		{"empty on-demand maximum", productionLayout, func(o *adjlist.CreateTableOptions) { o.OnDemandThroughput = &types.OnDemandThroughput{} }},
		{"zero on-demand maximum", productionLayout, func(o *adjlist.CreateTableOptions) {
			o.OnDemandThroughput = &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(0)}
		}},
		{"negative on-demand maximum", productionLayout, func(o *adjlist.CreateTableOptions) {
			o.OnDemandThroughput = &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(10), MaxWriteRequestUnits: aws.Int64(-1)}
		}},
		{"negative index on-demand maximum", productionLayout, func(o *adjlist.CreateTableOptions) {
			o.IndexOnDemandThroughput = map[string]types.OnDemandThroughput{"GSI1": {MaxReadRequestUnits: aws.Int64(-5)}}
		}},
		{"empty warm throughput", productionLayout, func(o *adjlist.CreateTableOptions) { o.WarmThroughput = &types.WarmThroughput{} }},
		{"negative warm throughput", productionLayout, func(o *adjlist.CreateTableOptions) {
			o.WarmThroughput = &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(-12000)}
		}},
		{"empty index warm throughput", productionLayout, func(o *adjlist.CreateTableOptions) {
			o.IndexWarmThroughput = map[string]types.WarmThroughput{"GSI2": {}}
		}},
		{"on-demand maximum of an undeclared index", productionLayout, func(o *adjlist.CreateTableOptions) {
			o.IndexOnDemandThroughput = map[string]types.OnDemandThroughput{"GSI9": {MaxReadRequestUnits: aws.Int64(10)}}
		}},
		{"warm throughput of an undeclared index", productionLayout, func(o *adjlist.CreateTableOptions) {
			o.IndexWarmThroughput = map[string]types.WarmThroughput{"GSI9": {ReadUnitsPerSecond: aws.Int64(13000)}}
		}},
		{"on-demand maximum of a local index", productionLayout, func(o *adjlist.CreateTableOptions) {
			o.IndexOnDemandThroughput = map[string]types.OnDemandThroughput{"LSI1": {MaxReadRequestUnits: aws.Int64(10)}}
		}},
		{"warm throughput of a local index", productionLayout, func(o *adjlist.CreateTableOptions) {
			o.IndexWarmThroughput = map[string]types.WarmThroughput{"LSI1": {ReadUnitsPerSecond: aws.Int64(13000)}}
		}},
		{"the inverted index of a table without one", func(o *adjlist.Options) { o.NoIndex = true }, func(o *adjlist.CreateTableOptions) {
			o.IndexOnDemandThroughput = map[string]types.OnDemandThroughput{"GSI1": {MaxReadRequestUnits: aws.Int64(10)}}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			admin := &tableAdmin{}
			err := adjlist.CreateTable(context.Background(), admin, adjlist.NewTable(nil, "school", tt.table), tt.opts)
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
			var opErr *adjlist.OpError
			require.ErrorAs(t, err, &opErr)
			assert.Equal(t, "CreateTable", opErr.Op)
			assert.Zero(t, admin.calls, "no request")
		})
	}
}

// TestCreateTableBackupsUnavailable: UpdateContinuousBackups is called
// again, 1 s later, after ContinuousBackupsUnavailableException, and not
// once MaxWait is spent; other errors are returned at once.
func TestCreateTableBackupsUnavailable(t *testing.T) {
	t.Parallel()
	unavailable := &types.ContinuousBackupsUnavailableException{Message: aws.String("Backups are being enabled for the table")}
	pitr := func(o *adjlist.CreateTableOptions) { o.PointInTimeRecovery, o.MaxWait = true, 1900*time.Millisecond }
	t.Run("then available", func(t *testing.T) {
		t.Parallel()
		admin := &tableAdmin{backupErrs: []error{unavailable}}
		start := time.Now()
		require.NoError(t, adjlist.CreateTable(context.Background(), admin, adjlist.NewTable(nil, "school"), pitr))
		assert.Len(t, admin.backups, 2)
		assert.GreaterOrEqual(t, time.Since(start), time.Second)
	})
	t.Run("never available", func(t *testing.T) {
		t.Parallel()
		admin := &tableAdmin{backupErrs: []error{unavailable, unavailable, unavailable}}
		err := adjlist.CreateTable(context.Background(), admin, adjlist.NewTable(nil, "school"), pitr)
		var got *types.ContinuousBackupsUnavailableException
		require.ErrorAs(t, err, &got)
		var opErr *adjlist.OpError
		require.ErrorAs(t, err, &opErr)
		assert.Len(t, admin.backups, 2, "at once, then 1 s later; 2 s more would pass MaxWait")
	})
	t.Run("another error", func(t *testing.T) {
		t.Parallel()
		denied := errors.New("access denied")
		admin := &tableAdmin{backupErrs: []error{denied}}
		err := adjlist.CreateTable(context.Background(), admin, adjlist.NewTable(nil, "school"), pitr)
		require.ErrorIs(t, err, denied)
		assert.Len(t, admin.backups, 1)
	})
}

// apiErrorCode is the DynamoDB error code err unwraps to.
func apiErrorCode(t *testing.T, err error) string {
	t.Helper()
	var apiErr smithy.APIError
	require.ErrorAs(t, err, &apiErr)
	return apiErr.ErrorCode()
}

// TestCreateTableProductionOnLocal: every production setting at once on
// DynamoDB Local, which honours deletion protection, on-demand maximums,
// the stream and TTL (DescribeTable, DescribeTimeToLive and DeleteTable
// show them) and accepts and ignores encryption, warm throughput and tags.
// Local has no UpdateContinuousBackups, so that call is recorded, not
// sent.
func TestCreateTableProductionOnLocal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	rec := &localAdmin{Client: db}
	table := adjlist.NewTable(db, ddbtest.TableName(t), productionLayout)
	require.NoError(t, adjlist.CreateTable(ctx, rec, table, func(o *adjlist.CreateTableOptions) {
		o.DeletionProtectionEnabled = true
		o.PointInTimeRecovery, o.RecoveryPeriodInDays = true, 14
		o.SSESpecification = &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeKms, KMSMasterKeyId: aws.String("alias/school")}
		o.Tags = map[string]string{"team": "school"}
		o.OnDemandThroughput = &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(1000), MaxWriteRequestUnits: aws.Int64(500)}
		o.IndexOnDemandThroughput = map[string]types.OnDemandThroughput{
			"GSI1": {MaxReadRequestUnits: aws.Int64(100), MaxWriteRequestUnits: aws.Int64(50)},
			"GSI2": {MaxReadRequestUnits: aws.Int64(10), MaxWriteRequestUnits: aws.Int64(5)},
		}
		o.WarmThroughput = &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(15000), WriteUnitsPerSecond: aws.Int64(5000)}
		o.IndexWarmThroughput = map[string]types.WarmThroughput{"GSI1": {ReadUnitsPerSecond: aws.Int64(13000)}}
		o.Stream, o.StreamViewType = true, types.StreamViewTypeKeysOnly
		o.TimeToLive = "expiresAt"
	}))
	name := aws.String(table.Name())
	t.Cleanup(func() {
		ctx := context.Background()
		_, err := db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: name, DeletionProtectionEnabled: aws.Bool(false)})
		require.NoError(t, err)
		_, err = db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: name})
		require.NoError(t, err)
	})

	// What the requests carried.
	require.Len(t, rec.creates, 1)
	in := rec.creates[0]
	assert.Equal(t, aws.Bool(true), in.DeletionProtectionEnabled)
	assert.Equal(t, "alias/school", aws.ToString(in.SSESpecification.KMSMasterKeyId))
	assert.Equal(t, []types.Tag{{Key: aws.String("team"), Value: aws.String("school")}}, in.Tags)
	assert.Equal(t, &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(15000), WriteUnitsPerSecond: aws.Int64(5000)}, in.WarmThroughput)
	require.Len(t, rec.backups, 1)
	assert.Equal(t, &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true), RecoveryPeriodInDays: aws.Int32(14)},
		rec.backups[0].PointInTimeRecoverySpecification)

	// What DynamoDB Local made of them.
	out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: name})
	require.NoError(t, err)
	d := out.Table
	assert.Equal(t, aws.Bool(true), d.DeletionProtectionEnabled, "honoured")
	assert.Equal(t, &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(1000), MaxWriteRequestUnits: aws.Int64(500)}, d.OnDemandThroughput, "honoured")
	indexes := map[string]types.GlobalSecondaryIndexDescription{}
	for _, g := range d.GlobalSecondaryIndexes {
		indexes[aws.ToString(g.IndexName)] = g
	}
	assert.Equal(t, &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(100), MaxWriteRequestUnits: aws.Int64(50)}, indexes["GSI1"].OnDemandThroughput, "honoured")
	assert.Equal(t, &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(10), MaxWriteRequestUnits: aws.Int64(5)}, indexes["GSI2"].OnDemandThroughput, "honoured")
	assert.Equal(t, &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}, d.StreamSpecification, "honoured")
	assert.Nil(t, d.SSEDescription, "encryption is accepted and ignored")
	assert.Nil(t, d.WarmThroughput, "warm throughput is accepted and ignored")
	assert.Nil(t, indexes["GSI1"].WarmThroughput, "warm throughput is accepted and ignored")
	ttl, err := db.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: name})
	require.NoError(t, err)
	assert.Equal(t, "expiresAt", aws.ToString(ttl.TimeToLiveDescription.AttributeName), "honoured")
	_, err = db.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: d.TableArn})
	assert.Equal(t, "UnknownOperationException", apiErrorCode(t, err), "no tagging on Local")
	_, err = db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: name})
	assert.Equal(t, "ValidationException", apiErrorCode(t, err), "deletion protection honoured")
}

// localAdmin is DynamoDB Local's client, recording CreateTable requests and
// recording instead of sending UpdateContinuousBackups, which Local does
// not implement.
type localAdmin struct {
	*dynamodb.Client
	creates []*dynamodb.CreateTableInput
	backups []*dynamodb.UpdateContinuousBackupsInput
}

func (a *localAdmin) CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, o ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	a.creates = append(a.creates, in)
	return a.Client.CreateTable(ctx, in, o...)
}

func (a *localAdmin) UpdateContinuousBackups(_ context.Context, in *dynamodb.UpdateContinuousBackupsInput, _ ...func(*dynamodb.Options)) (*dynamodb.UpdateContinuousBackupsOutput, error) {
	a.backups = append(a.backups, in)
	return &dynamodb.UpdateContinuousBackupsOutput{}, nil
}

// TestCreateTableLocalRefuses: what DynamoDB Local refuses, as the
// options' doc comments say.
func TestCreateTableLocalRefuses(t *testing.T) {
	t.Parallel()
	t.Run("UpdateContinuousBackups", func(t *testing.T) {
		t.Parallel()
		ctx := context.Background()
		db := ddbtest.Client(t)
		table := adjlist.NewTable(db, ddbtest.TableName(t))
		err := adjlist.CreateTable(ctx, db, table, func(o *adjlist.CreateTableOptions) { o.PointInTimeRecovery = true })
		dropOnCleanup(t, db, table.Name())
		assert.Equal(t, "UnknownOperationException", apiErrorCode(t, err))
		var opErr *adjlist.OpError
		require.ErrorAs(t, err, &opErr)
		out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table.Name())})
		require.NoError(t, err)
		assert.Equal(t, types.TableStatusActive, out.Table.TableStatus, "returned after the table is ACTIVE")
	})
	for name, fn := range map[string]func(*adjlist.CreateTableOptions){
		"a table maximum without the other": func(o *adjlist.CreateTableOptions) {
			o.OnDemandThroughput = &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(100)}
		},
		"an index maximum without the other": func(o *adjlist.CreateTableOptions) {
			o.IndexOnDemandThroughput = map[string]types.OnDemandThroughput{"GSI1": {MaxWriteRequestUnits: aws.Int64(100)}}
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			db := ddbtest.Client(t)
			err := adjlist.CreateTable(context.Background(), db, adjlist.NewTable(db, ddbtest.TableName(t)), fn)
			assert.Equal(t, "ValidationException", apiErrorCode(t, err))
		})
	}
}

// TestCreateTableExistingKeepsSettings: with IfNotExists, an existing
// table keeps its settings; point-in-time recovery is still applied.
func TestCreateTableExistingKeepsSettings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	rec := &localAdmin{Client: db}
	require.NoError(t, adjlist.CreateTable(ctx, rec, table, func(o *adjlist.CreateTableOptions) {
		o.IfNotExists, o.DeletionProtectionEnabled, o.PointInTimeRecovery = true, true, true
		o.OnDemandThroughput = &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(10), MaxWriteRequestUnits: aws.Int64(10)}
	}))
	out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table.Name())})
	require.NoError(t, err)
	assert.Equal(t, aws.Bool(false), out.Table.DeletionProtectionEnabled)
	assert.Nil(t, out.Table.OnDemandThroughput)
	assert.Len(t, rec.backups, 1, "UpdateContinuousBackups, on the existing table")
}
