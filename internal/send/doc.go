// Package send sends adjlist's requests to DynamoDB and reads their
// failures: single-item writes (PutItem, UpdateItem, DeleteItem, or a
// one-action TransactWriteItems with a token) and what a failed condition
// means; batches (BatchGetItem, BatchWriteItem) cut to DynamoDB's limits
// with what it leaves unprocessed resent; transactions (TransactWriteItems,
// TransactGetItems) checked against DynamoDB's limits, conflicts retried,
// cancellation reasons mapped to each action; the attempts whose outcome
// the client never learned; and where DynamoDB throttled a request.
//
// One set of client interfaces serves them all: ItemClient, BatchClient,
// WriteClient and ReadClient, each a part of *dynamodb.Client. It works on
// plain items, keys and built expressions, and knows nothing of item
// types; package adjlist wraps its errors in its own.
package send
