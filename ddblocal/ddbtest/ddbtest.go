// Package ddbtest runs a package's tests against one DynamoDB Local server
// (see package [github.com/adjlist/adjlist/ddblocal]) shared by all of them,
// with a fresh table per test.
//
// Use it from TestMain, which starts the server before the tests (or attaches
// to the one named by $AWS_ENDPOINT_URL_DYNAMODB) and stops it after them:
//
//	func TestMain(m *testing.M) { ddbtest.Main(m) }
//
// and in each test, either let it build the table:
//
//	table := ddbtest.NewTable(t) // adjlist.NewTable + adjlist.CreateTable, deleted when t ends
//	users := adjlist.NewNode[User](table, "USER", "PROFILE")
//
// or build your service's own table on its client and a fresh name, and let
// it create that:
//
//	model := myservice.NewModel(ddbtest.Client(t), ddbtest.TableName(t))
//	ddbtest.CreateTable(t, model.Table)
//
// When DynamoDB Local cannot start (not installed, no Java), tests that need
// it are skipped with an install hint ([ddblocal.InstallHint]), so `go test`
// works without Java; but when $CI is set they fail instead, so a broken CI
// setup can never pass by skipping everything.
package ddbtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal"
)

// shared is the package-wide connection, made at most once.
var shared struct {
	mainCalled atomic.Bool

	once   sync.Once
	client *dynamodb.Client
	stop   func() error
	err    error

	skipped atomic.Int64 // tests that Client skipped
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
// TestMain. It connects before the tests (see [ddblocal.Connect]: the
// endpoint in $AWS_ENDPOINT_URL_DYNAMODB, else a private server it starts),
// stops the server afterwards and exits with the tests' status (1 if they
// passed but the server had died meanwhile). If DynamoDB Local is
// unavailable it exits 1 under CI; otherwise it runs the tests anyway,
// [Client] skips them, and Main ends with one line on stderr (and on the
// terminal, which `go test ./...` does not hide) giving the number skipped
// and the command that installs DynamoDB Local:
//
//	ddbtest: 12 tests SKIPPED: DynamoDB Local is not installed; to run them: go run github.com/adjlist/adjlist/cmd/adjlist-ddblocal install
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
	if n := shared.skipped.Load(); n > 0 {
		reportSkips(n, shared.err)
	}
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

// installCommand installs DynamoDB Local for a module that requires
// adjlist, from its own directory (and checks for Java).
const installCommand = "go run github.com/adjlist/adjlist/cmd/adjlist-ddblocal install"

// reportSkips says, in one short line on stderr, that n tests were skipped
// and how to run them: when DynamoDB Local is not installed, the command
// that installs it ([installCommand]); else that `go test -v` shows why it
// did not start. A passing package's output is hidden by `go test ./...`
// (it prints only "ok"), so the line also goes to the controlling
// terminal, when there is one and stderr is not already it.
func reportSkips(n int64, err error) {
	fmt.Fprint(os.Stderr, skipLine(n, err))
	if fi, statErr := os.Stderr.Stat(); statErr == nil && fi.Mode()&os.ModeCharDevice != 0 {
		return // stderr is a terminal: the line is already on it
	}
	if tty, ttyErr := os.OpenFile("/dev/tty", os.O_WRONLY, 0); ttyErr == nil {
		fmt.Fprint(tty, skipLine(n, err))
		tty.Close()
	}
}

// skipLine is reportSkips's line, newline included.
func skipLine(n int64, err error) string {
	tests := "tests"
	if n == 1 {
		tests = "test"
	}
	if errors.Is(err, ddblocal.ErrNotInstalled) {
		return fmt.Sprintf("ddbtest: %d %s SKIPPED: DynamoDB Local is not installed; to run them: %s\n", n, tests, installCommand)
	}
	return fmt.Sprintf("ddbtest: %d %s SKIPPED: DynamoDB Local did not start; `go test -v` shows why\n", n, tests)
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

// Client returns the client for the shared DynamoDB Local, made by
// [ddblocal.NewClient] (dummy credentials, no SDK warnings). If it is
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
		shared.skipped.Add(1)
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

// NewTable returns a fresh, empty table for t on the shared DynamoDB Local:
// adjlist.NewTable on [Client] and [TableName], with optFns (its key
// attributes and index), created by [CreateTable] and deleted when t ends.
// Failures end the test (or skip it, see [Client]).
func NewTable(t testing.TB, optFns ...func(*adjlist.Options)) *adjlist.Table {
	t.Helper()
	table := adjlist.NewTable(Client(t), TableName(t), optFns...)
	CreateTable(t, table)
	return table
}

// cleanupTimeout bounds the DeleteTable call that ends each table's life.
const cleanupTimeout = 30 * time.Second

// CreateTable creates table's DynamoDB table on the shared DynamoDB Local and
// deletes it when t ends. It calls [adjlist.CreateTable] with [Client] as the
// admin client, whatever client table was built with, so the table gets the
// key schema and every index that table's options declare; optFns configure
// that call (projection, IfNotExists). Build table with [TableName] so that
// each test has its own. A failure to create ends the test with t.Fatal (or
// skips it, see [Client]); a failure to delete at the end fails it.
func CreateTable(t testing.TB, table *adjlist.Table, optFns ...func(*adjlist.CreateTableOptions)) {
	t.Helper()
	client := Client(t)
	if err := adjlist.CreateTable(t.Context(), client, table, optFns...); err != nil {
		t.Fatalf("ddbtest: CreateTable %s: %v", table.Name(), err)
	}
	t.Cleanup(func() {
		// t.Context is already cancelled when cleanups run.
		ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
		defer cancel()
		if _, err := client.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table.Name())}); err != nil {
			t.Errorf("ddbtest: DeleteTable %s: %v", table.Name(), err)
		}
	})
}
