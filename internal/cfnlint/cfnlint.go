// Package cfnlint runs cfn-lint, AWS's CloudFormation linter, on templates
// written by tests.
package cfnlint

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// InstallHint says how to install cfn-lint (a Python tool).
const InstallHint = "pip install cfn-lint (or pipx install cfn-lint)"

// Check runs cfn-lint on the template at path and fails t unless it
// reports nothing (no error, warning or informational finding, as the
// command's exit status 0 says). Without cfn-lint on PATH it skips t with
// [InstallHint], or fails t when the CI environment variable is set.
//
// cfn-lint starts slowly (about 2 s of Python imports per run), so the
// templates go to a long-lived Python process (server.py) that imports
// cfnlint once and lints each with cfnlint.api.lint_file, the function
// behind the command: the one listening on the socket $[EnvSocket] names,
// which scripts/with-ddblocal.sh starts for all the test binaries of make
// test, else one started for the test binary. Where neither is available,
// each template gets a run of the command instead.
func Check(t testing.TB, path string) {
	t.Helper()
	bin, err := exec.LookPath("cfn-lint")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("cfn-lint is not installed and CI is set: %s", InstallHint)
		}
		t.Skipf("cfn-lint is not installed: %s", InstallHint)
	}
	if findings, ok := shared.lint(path); ok {
		if len(findings) > 0 {
			t.Fatalf("cfn-lint %s:\n%s", path, strings.Join(findings, "\n"))
		}
		return
	}
	out, err := exec.Command(bin, "--", path).CombinedOutput()
	if err != nil {
		t.Fatalf("cfn-lint %s: %v\n%s", path, err, out)
	}
}

// EnvSocket names the environment variable that holds the path of the Unix
// socket a shared server.py listens on (python3 server.py PATH).
const EnvSocket = "ADJLIST_CFNLINT_SOCKET"

// server is the long-lived linter: one request (a path) at a time.
type server struct {
	socket string // the path of a shared server's socket, if any
	once   sync.Once
	mu     sync.Mutex
	in     io.Writer
	out    *bufio.Reader
	ok     bool
}

var shared = server{socket: os.Getenv(EnvSocket)}

// serve reads a template path per line and answers with a JSON list of
// cfn-lint's findings, each as str() of cfnlint's match.
//
//go:embed server.py
var serve string

// lint lints path in the server, starting it on first use; ok is false
// when the server is not available.
func (s *server) lint(path string) (findings []string, ok bool) {
	s.once.Do(s.start)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.ok || strings.ContainsAny(path, "\n") {
		return nil, false
	}
	// A shared server runs in a directory of its own.
	path, err := filepath.Abs(path)
	if err != nil {
		return nil, false
	}
	if _, err := fmt.Fprintln(s.in, path); err != nil {
		s.ok = false
		return nil, false
	}
	line, err := s.out.ReadString('\n')
	if err == nil {
		err = json.Unmarshal([]byte(line), &findings)
	}
	if err != nil {
		s.ok = false
		return nil, false
	}
	return findings, true
}

// start connects to the server at s.socket, if it answers,
// else runs server.py in the Python interpreter that has cfnlint, if any:
// python3 on PATH. That process ends with the test binary (its stdin
// closes).
func (s *server) start() {
	if s.socket != "" {
		if conn, err := net.Dial("unix", s.socket); err == nil {
			s.in, s.out, s.ok = conn, bufio.NewReader(conn), true
			return
		}
	}
	cmd := exec.Command("python3", "-c", serve)
	in, err := cmd.StdinPipe()
	if err != nil {
		return
	}
	out, err := cmd.StdoutPipe()
	if err != nil || cmd.Start() != nil {
		return
	}
	s.in, s.out = in, bufio.NewReader(out)
	if line, err := s.out.ReadString('\n'); err == nil && line == "ready\n" {
		s.ok = true
		return
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
}
