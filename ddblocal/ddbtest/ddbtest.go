// Package ddbtest shares one DynamoDB Local server (see package ddblocal)
// among the tests of a package.
//
// Use it from TestMain:
//
//	func TestMain(m *testing.M) { ddbtest.Main(m) }
//
// and in tests:
//
//	client := ddbtest.Client(t)
//	table := ddbtest.TableName(t)
//
// When DynamoDB Local cannot start, tests that call [Client] are skipped
// locally, so `go test` works without Java, but fail when $CI is set, so a
// broken CI setup can never pass by skipping everything.
package ddbtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/adjlist/adjlist/ddblocal"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// shared is the package-wide connection, made at most once.
var shared struct {
	mainCalled atomic.Bool

	once   sync.Once
	client *dynamodb.Client
	stop   func() error
	err    error
}

// connect starts (or attaches to) DynamoDB Local once per test binary.
func connect() error {
	shared.once.Do(func() {
		shared.client, shared.stop, shared.err = ddblocal.Connect(context.Background())
	})
	return shared.err
}

// inCI reports whether we run under CI, where missing DynamoDB Local is a
// failure rather than a reason to skip.
func inCI() bool { return os.Getenv("CI") != "" }

// Main runs the tests of a package that uses DynamoDB Local; call it from
// TestMain. It connects before the tests (see ddblocal.Connect), stops the
// server afterwards and exits with the tests' status. If DynamoDB Local is
// unavailable it exits 1 under CI; otherwise it runs the tests anyway and
// [Client] skips them.
//
// Under `go test -fuzz`, which runs the binary as a coordinator plus one
// worker process per CPU, it connects lazily on the first [Client] call
// instead, so fuzzing code that needs no database starts no JVM at all.
func Main(m *testing.M) {
	shared.mainCalled.Store(true)
	flag.Parse()
	if !isFuzzing() {
		if err := connect(); err != nil && inCI() {
			fmt.Fprintf(os.Stderr, "FAIL: DynamoDB Local is required in CI (CI=%q) but is unavailable: %v\nTo fix: %s\n",
				os.Getenv("CI"), err, ddblocal.InstallHint)
			os.Exit(1)
		}
	}
	code := m.Run()
	// An empty Do orders this read after any connect in a test goroutine
	// (and prevents a late connect during shutdown).
	shared.once.Do(func() {})
	if shared.stop != nil {
		if err := shared.stop(); err != nil {
			fmt.Fprintln(os.Stderr, "ddbtest:", err)
			if code == 0 {
				code = 1
			}
		}
	}
	os.Exit(code)
}

// isFuzzing reports whether this process is the coordinator or a worker of
// a `go test -fuzz` run.
func isFuzzing() bool {
	if f := flag.Lookup("test.fuzzworker"); f != nil && f.Value.String() == "true" {
		return true
	}
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// Client returns the client for the shared DynamoDB Local. If it is
// unavailable, the test fails under CI and is skipped otherwise, with the
// reason and how to install it. It must only be used in packages whose
// TestMain calls [Main].
func Client(t testing.TB) *dynamodb.Client {
	t.Helper()
	if !shared.mainCalled.Load() {
		t.Fatal("ddbtest: add `func TestMain(m *testing.M) { ddbtest.Main(m) }` to this package's tests")
	}
	if err := connect(); err != nil {
		if inCI() {
			t.Fatalf("DynamoDB Local is unavailable: %v\nTo fix: %s", err, ddblocal.InstallHint)
		}
		t.Skipf("DynamoDB Local is unavailable: %v\nTo run this test: %s", err, ddblocal.InstallHint)
	}
	return shared.client
}

var (
	// tableSeq makes names unique within this process.
	tableSeq atomic.Uint64
	// runID makes names unique across processes, which matters when
	// several test binaries share one server via AWS_ENDPOINT_URL_DYNAMODB.
	runID = newRunID()
)

func newRunID() string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return strconv.Itoa(os.Getpid())
	}
	return hex.EncodeToString(b[:])
}

// maxTableName is DynamoDB's limit on table name length.
const maxTableName = 255

// TableName returns a fresh, valid DynamoDB table name for t: its name with
// characters outside [A-Za-z0-9_.-] replaced by '_', truncated to fit, plus
// a suffix unique to this call. Tests can thus share a server without
// clashing, and leftover tables are easy to attribute.
func TableName(t testing.TB) string {
	t.Helper()
	suffix := "-" + runID + "-" + strconv.FormatUint(tableSeq.Add(1), 10)
	base := strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9',
			r == '_', r == '.', r == '-':
			return r
		}
		return '_'
	}, t.Name())
	if base == "" {
		base = "test"
	}
	if max := maxTableName - len(suffix); len(base) > max {
		base = base[:max] // safe: base is ASCII after mapping
	}
	return base + suffix
}
