// Package exampleutil is the plumbing shared by the runnable examples under
// examples/: connecting to DynamoDB Local (or, only when asked, to AWS),
// the standard flags (-table, -cleanup, -aws, -describe, -verify,
// -workbench, -cloudformation), writing the model's exports, and printing a
// table raw, the way the seeds draw it.
//
// It holds no adjlist usage: each example's main.go keeps its model and its
// run function, which is what users copy.
package exampleutil

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal"
)

// API is what an example needs from DynamoDB: the library's operations,
// table creation, a Scan to print the table raw (all in adjlist.Client),
// and DeleteTable for -cleanup. A *dynamodb.Client satisfies it.
type API interface {
	adjlist.Client
	DeleteTable(ctx context.Context, in *dynamodb.DeleteTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteTableOutput, error)
}

var _ API = (*dynamodb.Client)(nil)

// Connect returns a client and a function that releases it. Only with
// useAWS does it load your AWS configuration (config.LoadDefaultConfig) and
// reach real, billed DynamoDB. Otherwise it uses DynamoDB Local through
// ddblocal.Connect: the endpoint in AWS_ENDPOINT_URL_DYNAMODB if set, else a
// private in-memory server it starts and stop kills. If DynamoDB Local is
// not installed the error says how to install it.
func Connect(ctx context.Context, useAWS bool) (API, func() error, error) {
	if useAWS {
		cfg, err := config.LoadDefaultConfig(ctx)
		if err != nil {
			return nil, nil, err
		}
		return dynamodb.NewFromConfig(cfg), func() error { return nil }, nil
	}
	client, stop, err := ddblocal.Connect(ctx)
	if errors.Is(err, ddblocal.ErrNotInstalled) {
		err = fmt.Errorf("%w\nTo fix: %s", err, ddblocal.InstallHint)
	}
	if err != nil {
		return nil, nil, err
	}
	return client, stop, nil
}
