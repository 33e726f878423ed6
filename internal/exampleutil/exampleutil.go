// Package exampleutil is the plumbing shared by the runnable examples under
// examples/: connecting to DynamoDB Local (or, only when asked, to AWS),
// the standard flags (-table, -cleanup, -aws, -describe), and printing a
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
	"github.com/adjlist/adjlist/internal/ddblocal"
)

// API is what an example needs from DynamoDB: the library's operations,
// table creation, a Scan to print the table raw, and DeleteTable for
// -cleanup. A *dynamodb.Client satisfies it.
type API interface {
	adjlist.Client
	adjlist.TableAdminClient
	dynamodb.ScanAPIClient
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

// ErrOffline is the error of every request made through [Offline].
var ErrOffline = errors.New("exampleutil: offline client: no DynamoDB connection (-describe)")

// Offline returns an adjlist.Client that sends nothing: every call fails
// with [ErrOffline]. adjlist.Describe makes no request, but it takes a
// *adjlist.Table and NewTable refuses a nil client; building the model on
// this client lets -describe run with no DynamoDB at all, and guarantees it
// never reaches one.
func Offline() adjlist.Client { return offline{} }

// offline implements every method of adjlist.Client by failing. The
// embedded (nil) interface only keeps it compiling should adjlist.Client
// grow; such a method would panic rather than send a request.
type offline struct{ adjlist.Client }

func (offline) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return nil, ErrOffline
}

func (offline) PutItem(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return nil, ErrOffline
}

func (offline) UpdateItem(context.Context, *dynamodb.UpdateItemInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	return nil, ErrOffline
}

func (offline) DeleteItem(context.Context, *dynamodb.DeleteItemInput, ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return nil, ErrOffline
}

func (offline) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return nil, ErrOffline
}

func (offline) BatchGetItem(context.Context, *dynamodb.BatchGetItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	return nil, ErrOffline
}
