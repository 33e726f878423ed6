package schema

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	smithytime "github.com/aws/smithy-go/time"
)

// AdminClient is what Create needs of every client: adjlist.TableAdminClient.
type AdminClient interface {
	CreateTable(ctx context.Context, params *dynamodb.CreateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error)
	dynamodb.DescribeTableAPIClient
}

// TimeToLiveClient is what Create needs to enable Time to Live:
// adjlist.TimeToLiveClient.
type TimeToLiveClient interface {
	DescribeTimeToLive(ctx context.Context, params *dynamodb.DescribeTimeToLiveInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error)
	UpdateTimeToLive(ctx context.Context, params *dynamodb.UpdateTimeToLiveInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error)
}

// BackupsClient is what Create needs to enable point-in-time recovery:
// adjlist.ContinuousBackupsClient.
type BackupsClient interface {
	UpdateContinuousBackups(ctx context.Context, params *dynamodb.UpdateContinuousBackupsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateContinuousBackupsOutput, error)
}

// Create sends [Input] (an existing table a success with o.IfNotExists),
// waits up to o.MaxWait for the table and its global indexes to be
// ACTIVE, then enables o.TimeToLive (if set, with ttl) and point-in-time
// recovery (if set, with backups) within the same MaxWait. o must have
// passed [CheckCreate].
func Create(ctx context.Context, api AdminClient, ttl TimeToLiveClient, backups BackupsClient, t *Table, o *Options) error {
	_, err := api.CreateTable(ctx, Input(t, o))
	var inUse *types.ResourceInUseException
	if err != nil && !(o.IfNotExists && errors.As(err, &inUse)) {
		return err
	}
	deadline := time.Now().Add(o.MaxWait)
	waiter := dynamodb.NewTableExistsWaiter(api, func(w *dynamodb.TableExistsWaiterOptions) {
		w.MinDelay = time.Second
		w.MaxDelay = 20 * time.Second
		w.Retryable = tableAndIndexesActive
	})
	if err := waiter.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(t.Name)}, o.MaxWait); err != nil {
		return err
	}
	if o.TimeToLive != "" {
		if err := enableTTL(ctx, ttl, t.Name, o.TimeToLive); err != nil {
			return err
		}
	}
	if o.PointInTimeRecovery {
		return enablePITR(ctx, backups, t.Name, o.RecoveryPeriodInDays, deadline)
	}
	return nil
}

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

// enablePITR calls again while continuous backups are not available yet,
// until deadline.
func enablePITR(ctx context.Context, api BackupsClient, table string, days int32, deadline time.Time) error {
	spec := &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}
	if days != 0 {
		spec.RecoveryPeriodInDays = aws.Int32(days)
	}
	in := &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String(table), PointInTimeRecoverySpecification: spec}
	for delay := time.Second; ; delay = min(2*delay, 20*time.Second) {
		_, err := api.UpdateContinuousBackups(ctx, in)
		var unavailable *types.ContinuousBackupsUnavailableException
		if err == nil || !errors.As(err, &unavailable) || time.Now().Add(delay).After(deadline) {
			return err
		}
		if done := smithytime.SleepWithContext(ctx, delay); done != nil {
			return fmt.Errorf("%w (UpdateContinuousBackups: %w)", done, err)
		}
	}
}

// tableAndIndexesActive extends the SDK's TableExists condition: reverse
// reads need the global indexes ACTIVE too.
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
