package ddblocal_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/ddblocal"
)

// TestClientOptionsChangesExactlyThese: ClientOptions "changes exactly
// these dynamodb.Options fields, overriding whatever the configuration
// held, and nothing else": BaseEndpoint, the FIPS and dual-stack endpoint
// options, Region, static credentials "local"/"local" and
// DisableValidateResponseChecksum; retries, HTTP client and logger stay.
func TestClientOptionsChangesExactlyThese(t *testing.T) {
	logger := &captureLogger{}
	retryer := retry.NewStandard()
	httpClient := &http.Client{}
	configured := dynamodb.Options{
		BaseEndpoint:     aws.String("https://dynamodb.eu-west-1.amazonaws.com"),
		Region:           "eu-west-1",
		Credentials:      failingCredentials{t},
		EndpointOptions:  dynamodb.EndpointResolverOptions{UseFIPSEndpoint: aws.FIPSEndpointStateEnabled, UseDualStackEndpoint: aws.DualStackEndpointStateEnabled},
		Retryer:          retryer,
		RetryMaxAttempts: 7,
		HTTPClient:       httpClient,
		Logger:           logger,
		ClientLogMode:    aws.LogRetries,
		AppID:            "my-app",
	}
	got := configured
	ddblocal.ClientOptions("http://127.0.0.1:8123")(&got)

	creds, err := got.Credentials.Retrieve(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "local", creds.AccessKeyID)
	assert.Equal(t, "local", creds.SecretAccessKey)
	assert.Empty(t, creds.SessionToken)

	want := configured
	want.BaseEndpoint = aws.String("http://127.0.0.1:8123")
	want.EndpointOptions.UseFIPSEndpoint = aws.FIPSEndpointStateDisabled
	want.EndpointOptions.UseDualStackEndpoint = aws.DualStackEndpointStateDisabled
	want.Region = ddblocal.Region
	want.DisableValidateResponseChecksum = true
	want.Credentials, got.Credentials = nil, nil
	assert.Equal(t, want, got, "nothing else changed")
	assert.Same(t, retryer, got.Retryer.(*retry.Standard))
	assert.Same(t, httpClient, got.HTTPClient.(*http.Client))
	assert.Same(t, logger, got.Logger.(*captureLogger))
}

// TestNewClientReadsNoEnvironment: NewClient "reads no shared AWS config
// file and no environment variable": an environment naming another
// region, endpoint and keys changes nothing, and options passed run last.
func TestNewClientReadsNoEnvironment(t *testing.T) {
	t.Setenv("AWS_REGION", "eu-west-1")
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", "https://dynamodb.eu-west-1.amazonaws.com")
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIAREAL")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "real")
	opts := ddblocal.NewClient("http://127.0.0.1:8123").Options()
	assert.Equal(t, "http://127.0.0.1:8123", aws.ToString(opts.BaseEndpoint))
	assert.Equal(t, ddblocal.Region, opts.Region)
	creds, err := opts.Credentials.Retrieve(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "local", creds.AccessKeyID)
	assert.True(t, opts.DisableValidateResponseChecksum)

	later := ddblocal.NewClient("http://127.0.0.1:8123", func(o *dynamodb.Options) { o.Region = "eu-north-1" }).Options()
	assert.Equal(t, "eu-north-1", later.Region, "optFns run last")
}

// TestCacheDir: CacheDir is os.UserCacheDir()/adjlist/dynamodb-local ($XDG_CACHE_HOME
// on Linux), neither created nor checked; with no cache directory (HOME
// and XDG_CACHE_HOME unset) it is os.UserCacheDir's error, wrapped.
func TestCacheDir(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the layout checked is Linux's")
	}
	cache := filepath.Join(t.TempDir(), "no-such-cache")
	t.Setenv("XDG_CACHE_HOME", cache)
	got, err := ddblocal.CacheDir()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(cache, "adjlist", "dynamodb-local"), got)
	assert.NoDirExists(t, cache, "not created")

	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	_, err = ddblocal.CacheDir()
	require.Error(t, err)
	assert.NotNil(t, errors.Unwrap(err), "os.UserCacheDir's error, wrapped")
}

// TestJavaPath: JavaPath is $JAVA_HOME/bin/java if it exists, else java
// from $PATH; with neither, an error wrapping ErrNotInstalled.
func TestJavaPath(t *testing.T) {
	fakeJava := func(dir string) string {
		t.Helper()
		require.NoError(t, os.MkdirAll(dir, 0o755))
		p := filepath.Join(dir, "java")
		require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755))
		return p
	}
	home := t.TempDir()
	inHome := fakeJava(filepath.Join(home, "bin"))
	onPath := fakeJava(filepath.Join(t.TempDir(), "path"))

	t.Setenv("PATH", filepath.Dir(onPath))
	t.Setenv("JAVA_HOME", home)
	got, err := ddblocal.JavaPath()
	require.NoError(t, err)
	assert.Equal(t, inHome, got, "JAVA_HOME first")

	t.Setenv("JAVA_HOME", t.TempDir()) // no bin/java there
	got, err = ddblocal.JavaPath()
	require.NoError(t, err)
	assert.Equal(t, onPath, got, "else PATH")

	t.Setenv("PATH", t.TempDir())
	_, err = ddblocal.JavaPath()
	require.ErrorIs(t, err, ddblocal.ErrNotInstalled)
}
