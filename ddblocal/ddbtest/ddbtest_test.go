package ddbtest_test

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

var validTableName = regexp.MustCompile(`^[A-Za-z0-9_.-]{3,255}$`)

func TestTableName(t *testing.T) {
	seen := map[string]bool{}
	for _, name := range []string{"plain", "with space/and:colons", "ünïcödé", strings.Repeat("x", 300)} {
		t.Run(name, func(t *testing.T) {
			for range 3 {
				got := ddbtest.TableName(t)
				assert.Regexp(t, validTableName, got)
				assert.False(t, seen[got], "duplicate name %q", got)
				seen[got] = true
			}
		})
	}
}

func TestClientCreateTable(t *testing.T) {
	client := ddbtest.Client(t)
	table := ddbtest.TableName(t)

	_, err := client.CreateTable(t.Context(), &dynamodb.CreateTableInput{
		TableName:            aws.String(table),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
	})
	require.NoError(t, err)

	out, err := client.ListTables(t.Context(), &dynamodb.ListTablesInput{})
	require.NoError(t, err)
	assert.Contains(t, out.TableNames, table)
}

// Under CI a missing DynamoDB Local fails the run, never skips it: Main
// exits first, and under -test.fuzz, where Main does not connect, Client
// fails the test. The test binary re-runs itself without DynamoDB Local.
func TestCIGuard(t *testing.T) {
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"Main":             {nil, "DynamoDB Local is required in CI"},
		"Client (fuzzing)": {[]string{"-test.fuzz=^FuzzNone$", "-test.fuzzcachedir=" + t.TempDir()}, "--- FAIL: TestClientCreateTable"},
	} {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestClientCreateTable$", "-test.v"}, tc.args...)...)
			cmd.Env = append(os.Environ(), "CI=true", "DYNAMODB_LOCAL_DIR="+t.TempDir(), "AWS_ENDPOINT_URL_DYNAMODB=")
			out, err := cmd.CombinedOutput()
			assert.Error(t, err, "a CI run without DynamoDB Local passed:\n%s", out)
			assert.Contains(t, string(out), tc.want)
		})
	}
}

// Outside CI a missing DynamoDB Local skips the tests that need it, and Main
// says so in one line with the count and the install command, since `go
// test ./...` shows a passing package as a bare "ok".
func TestSkipSummary(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestClientCreateTable$")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CI=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "DYNAMODB_LOCAL_DIR="+t.TempDir(), "AWS_ENDPOINT_URL_DYNAMODB=")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr // not a terminal
	err := cmd.Run()
	require.NoError(t, err, "a run without DynamoDB Local outside CI must pass (skipping):\n%s%s", &stdout, &stderr)
	out := stdout.String() + stderr.String()
	assert.Contains(t, out, "ddbtest: 1 test SKIPPED: DynamoDB Local is")
	assert.Contains(t, out, "adjlist-ddblocal install")
	// One short line on stderr, with the command an importer runs.
	assert.Equal(t, "ddbtest: 1 test SKIPPED: DynamoDB Local is not installed; to run them: "+
		"go run github.com/adjlist/adjlist/cmd/adjlist-ddblocal install\n", stderr.String())
}

type user struct {
	Name string `dynamodbav:"name"`
}

func TestNewTable(t *testing.T) {
	var name string
	t.Run("table", func(t *testing.T) {
		table := ddbtest.NewTable(t)
		name = table.Name()
		assert.True(t, strings.HasPrefix(name, "TestNewTable_table-"), name)

		out, err := ddbtest.Client(t).DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		require.NoError(t, err)
		require.Len(t, out.Table.GlobalSecondaryIndexes, 1, "the table's index is created too")
		assert.Equal(t, table.Options().Index, aws.ToString(out.Table.GlobalSecondaryIndexes[0].IndexName))

		users := adjlist.NewNode[user](table, "USER", "PROFILE")
		require.NoError(t, users.Put(t.Context(), "u1", user{Name: "Ada"}))
		got, err := users.Get(t.Context(), "u1")
		require.NoError(t, err)
		assert.Equal(t, "Ada", got.Name)
	})
	require.NotEmpty(t, name)
	_, err := ddbtest.Client(t).DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	var notFound *types.ResourceNotFoundException
	require.ErrorAs(t, err, &notFound, "the table is deleted when its test ends")
}

// CreateTable creates a table built on another client, with that table's
// own layout.
func TestCreateTableOwnLayout(t *testing.T) {
	table := adjlist.NewTable(ddbtest.Client(t), ddbtest.TableName(t), func(o *adjlist.Options) { o.NoIndex = true })
	ddbtest.CreateTable(t, table)

	out, err := ddbtest.Client(t).DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(table.Name())})
	require.NoError(t, err)
	assert.Empty(t, out.Table.GlobalSecondaryIndexes)
}
