// Package ddbtest forwards to the public test harness,
// [github.com/adjlist/adjlist/ddblocal/ddbtest], so that tests written
// before it moved out of internal/ keep compiling. It holds no state of its
// own: both import paths share one DynamoDB Local per test binary.
//
// Deprecated: import github.com/adjlist/adjlist/ddblocal/ddbtest instead.
package ddbtest

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// Main is [ddbtest.Main]: call it from TestMain.
func Main(m *testing.M) { ddbtest.Main(m) }

// Client is [ddbtest.Client]: the shared DynamoDB Local's client, or a skip
// (a failure under CI) when it is unavailable.
func Client(t testing.TB) *dynamodb.Client {
	t.Helper()
	return ddbtest.Client(t)
}

// TableName is [ddbtest.TableName]: a fresh, valid table name for t.
func TableName(t testing.TB) string {
	t.Helper()
	return ddbtest.TableName(t)
}
