//go:build linux

package ddblocal

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// servedBy finds the owner of a listening socket in /proc: this test's
// process group holds its listener, another group does not.
func TestServedBy(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port

	ours, known := servedBy(syscall.Getpgrp(), port)
	require.True(t, known, "/proc lists the listener")
	assert.True(t, ours, "this process group holds it")

	other := exec.Command("sleep", "30")
	other.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, other.Start())
	t.Cleanup(func() { _ = other.Process.Kill(); _ = other.Wait() })
	ours, known = servedBy(other.Process.Pid, port)
	assert.True(t, known)
	assert.False(t, ours, "another process group does not")

	_, known = servedBy(syscall.Getpgrp(), 1) // nothing listens on port 1
	assert.False(t, known)
}

// A launched server that never binds, while another server answers
// ListTables on its port: launch does not take that answer for its own
// server's, but fails at once with ErrPortInUse naming the port, and
// kills what it launched.
func TestLaunchAnsweredByAnotherServer(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		_, _ = w.Write([]byte(`{"TableNames":[]}`))
	}))
	defer other.Close()
	port := other.Listener.Addr().(*net.TCPAddr).Port

	java := filepath.Join(t.TempDir(), "java")
	require.NoError(t, os.WriteFile(java, []byte("#!/bin/sh\nexec sleep 60\n"), 0o755))
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	start := time.Now()
	s, exited, err := launch(ctx, java, t.TempDir(), port, []string{"-inMemory"})
	require.ErrorIs(t, err, ErrPortInUse)
	assert.Nil(t, s)
	assert.False(t, exited)
	assert.Contains(t, err.Error(), "port "+strconv.Itoa(port))
	assert.Less(t, time.Since(start), 10*time.Second, "at the first answer, not at the timeout")
}
