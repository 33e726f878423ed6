// Package cfnlint runs cfn-lint, AWS's CloudFormation linter, on templates
// written by tests.
package cfnlint

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
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
// templates of one test binary go to one long-lived Python process that
// imports cfnlint once and lints each with cfnlint.api.lint_file, the
// function behind the command; where that process cannot start, each
// template gets a run of the command instead.
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

// server is the long-lived linter: one request (a path) at a time.
type server struct {
	once sync.Once
	mu   sync.Mutex
	in   io.WriteCloser
	out  *bufio.Reader
	ok   bool
}

var shared server

// serve reads a template path per line and answers with a JSON list of
// cfn-lint's findings, each as the command prints it.
const serve = `
import json, sys
from pathlib import Path
from cfnlint.api import lint_file
print("ready", flush=True)
for line in sys.stdin:
    print(json.dumps([str(m) for m in lint_file(Path(line.rstrip("\n")))]), flush=True)
`

// lint lints path in the server, starting it on first use; ok is false
// when the server is not available.
func (s *server) lint(path string) (findings []string, ok bool) {
	s.once.Do(s.start)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.ok || strings.ContainsAny(path, "\n") {
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

// start runs the Python interpreter that has cfnlint, if any: python3 on
// PATH. The process ends with the test binary (its stdin closes).
func (s *server) start() {
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
