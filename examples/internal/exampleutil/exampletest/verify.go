package exampletest

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/ddblocal"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
)

// VerifyClean runs ex as a command with -verify -cleanup on a fresh table
// of DynamoDB Local (reached through AWS_ENDPOINT_URL_DYNAMODB, as a
// user's shell would) and requires that it succeeds and reports no
// findings: every item the example writes fits the model it declares
// (adjlist.Verify). On a failure the message carries the -verify report,
// every finding on its line.
func VerifyClean(t *testing.T, ex exampleutil.Example) {
	t.Helper()
	db := ddbtest.Client(t)
	t.Setenv(ddblocal.EnvEndpoint, aws.ToString(db.Options().BaseEndpoint))
	table := ddbtest.TableName(t)
	var out bytes.Buffer
	err := ex.Execute(context.Background(), []string{"-table", table, "-verify", "-cleanup"}, &out)
	report := out.String()
	if i := strings.LastIndex(report, "\nverify "); i >= 0 {
		report = report[i:] // the run's own output is the example tests' concern
	}
	require.NoError(t, err, "%s -verify:%s", ex.Name, report)
	assert.Regexp(t, `\nverify `+table+`: [1-9][0-9]* items scanned, no findings\n$`, out.String())
}
