// Package send sends adjlist's requests to DynamoDB and reads their
// failures: single-item writes, batches cut to DynamoDB's limits with
// unprocessed items resent, transactions with their cancellation reasons,
// attempts whose outcome is unknown, and throttling. It works on plain
// items, keys and built expressions; package adjlist wraps its errors.
package send
