package ddblocal

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Region is the region [ClientOptions] sets. DynamoDB Local accepts any
// region; the servers [Start] runs use -sharedDb, so every region and
// access key sees the same tables.
const Region = "us-east-1"

// ClientOptions returns a dynamodb option function that points a client at
// the DynamoDB Local listening on endpoint (a base URL such as
// "http://127.0.0.1:8000", e.g. [Server.Endpoint]) and makes it print no
// warnings there. Use it with a client built from your own configuration:
//
//	client := dynamodb.NewFromConfig(cfg, ddblocal.ClientOptions(endpoint))
//
// It changes exactly these [dynamodb.Options] fields, overriding whatever
// the configuration held, and nothing else (retries, HTTP client, logger
// and middleware stay as configured):
//
//   - BaseEndpoint = endpoint, so requests go to DynamoDB Local;
//   - EndpointOptions.UseFIPSEndpoint and UseDualStackEndpoint = disabled,
//     because the SDK refuses a custom endpoint together with either;
//   - Region = [Region] ("us-east-1"), needed to sign requests;
//   - Credentials = static access key "local", secret "local", so the
//     client never loads or sends real AWS credentials (DynamoDB Local
//     accepts any);
//   - DisableValidateResponseChecksum = true. DynamoDB's responses carry an
//     X-Amz-Crc32 header that the SDK checks by default; DynamoDB Local
//     omits it on error responses, and the SDK then logs "WARN failed to
//     close HTTP response body, this may affect connection reuse" for every
//     failed call, expected ones such as a failed condition included
//     (aws/aws-sdk-go-v2#3545). The check guards against corruption in
//     transit, which loopback traffic does not suffer; turn it back on with
//     a later option if you point the client elsewhere.
//
// Option functions run in order, so options passed after this one may
// change any of these again.
func ClientOptions(endpoint string) func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		o.BaseEndpoint = aws.String(endpoint)
		o.EndpointOptions.UseFIPSEndpoint = aws.FIPSEndpointStateDisabled
		o.EndpointOptions.UseDualStackEndpoint = aws.DualStackEndpointStateDisabled
		o.Region = Region
		o.Credentials = credentials.NewStaticCredentialsProvider("local", "local", "")
		o.DisableValidateResponseChecksum = true
	}
}

// NewClient returns a DynamoDB client for the DynamoDB Local listening on
// endpoint, a base URL such as "http://127.0.0.1:8000" (e.g.
// [Server.Endpoint]). It is usable outside tests, in development tools and
// local runs of a service.
//
// It starts from an empty [dynamodb.Options] (it reads no shared AWS
// config file and no environment variable, so it can never pick up a real
// account's credentials or endpoint) and applies [ClientOptions], whose
// documentation lists every setting it makes and why, then optFns, which
// run last and may override anything. Everything else keeps the SDK's
// defaults; in particular the logger discards output unless an option sets
// one. It makes no request, so it cannot fail; a wrong endpoint shows up as
// an error from the first call.
func NewClient(endpoint string, optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{}, append([]func(*dynamodb.Options){ClientOptions(endpoint)}, optFns...)...)
}
