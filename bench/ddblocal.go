package bench

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/adjlist/adjlist/ddblocal"
)

// Local is a DynamoDB Local endpoint: one this process started with the
// library's launcher (package ddblocal: in memory, on a free loopback
// port), or the one named by AWS_ENDPOINT_URL_DYNAMODB. It never points
// at AWS.
type Local struct {
	Endpoint string
	srv      *ddblocal.Server // nil for an endpoint from the environment
}

// StartLocal uses $AWS_ENDPOINT_URL_DYNAMODB if set, after checking that
// it answers, else starts DynamoDB Local from the jar `make deps`
// installed (ddblocal.Start, which waits until it answers).
func StartLocal(ctx context.Context) (*Local, error) {
	if ep := os.Getenv(ddblocal.EnvEndpoint); ep != "" {
		l := &Local{Endpoint: ep}
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if _, err := l.Client().ListTables(ctx, &dynamodb.ListTablesInput{Limit: aws.Int32(1)}); err != nil {
			return nil, fmt.Errorf("%s=%s does not answer: %w", ddblocal.EnvEndpoint, ep, err)
		}
		return l, nil
	}
	srv, err := ddblocal.Start(ctx)
	if err != nil {
		return nil, err
	}
	return &Local{Endpoint: srv.Endpoint(), srv: srv}, nil
}

// Stop kills a server this process started; it does nothing for an
// endpoint from the environment. Its error says the server had died
// during the run.
func (l *Local) Stop() error {
	if l == nil || l.srv == nil {
		return nil
	}
	return l.srv.Stop()
}

// Client returns ddblocal's client for the endpoint (dummy static
// credentials, no shared AWS config, no CRC32 check: aws/aws-sdk-go-v2#3545)
// and a pool of 128 idle connections, so the e2e runs (at most 32
// callers) never wait for one. Both e2e implementations share one.
func (l *Local) Client(optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns, tr.MaxIdleConnsPerHost = 128, 128
	pool := func(o *dynamodb.Options) { o.HTTPClient = &http.Client{Transport: tr} }
	return ddblocal.NewClient(l.Endpoint, append([]func(*dynamodb.Options){pool}, optFns...)...)
}

// ServerCPU returns the CPU time (user + system, all threads) the DynamoDB
// Local process has used so far, from /proc/PID/stat, in clock ticks of
// 10 ms; ok is false for an endpoint this process did not start or where
// /proc is unavailable.
func (l *Local) ServerCPU() (d time.Duration, ok bool) {
	if l == nil || l.srv == nil {
		return 0, false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(l.srv.PID()) + "/stat")
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
