package cfnlint

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder stands in for a test: it records Fatalf and Skipf and ends the
// goroutine as they do.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Skipf(format string, args ...any) {
	r.skip = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func check(t *testing.T, path string) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() { defer close(done); Check(r, path) }()
	<-done
	return r
}

// template is a one-table template whose key type is a %q verb.
const template = `{"AWSTemplateFormatVersion": "2010-09-09", "Resources": {"T": {"Type": "AWS::DynamoDB::Table",
	"DeletionPolicy": "Retain", "UpdateReplacePolicy": "Retain", "Properties": {"BillingMode": "PAY_PER_REQUEST",
	"AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"}],
	"KeySchema": [{"AttributeName": "PK", "KeyType": %q}]}}}}`

func TestCheck(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("cfn-lint"); err != nil {
		t.Skip(InstallHint)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	bad := filepath.Join(dir, "bad.json")
	assert.NoError(t, os.WriteFile(good, fmt.Appendf(nil, template, "HASH"), 0o600))
	assert.NoError(t, os.WriteFile(bad, fmt.Appendf(nil, template, "BOGUS"), 0o600))

	assert.Empty(t, check(t, good).fatal)
	assert.Contains(t, check(t, bad).fatal, "E3")
}

func TestCheckMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("CI", "")
	assert.Contains(t, check(t, "x.json").skip, InstallHint)
	t.Setenv("CI", "true")
	assert.Contains(t, check(t, "x.json").fatal, InstallHint)
}

// ruleIDs are the rule IDs of cfn-lint's findings per template path: the
// command prints each as "E3012 message" over "path:line:col", the server
// as "[E3012: rule] (message) matched path:line".
var (
	commandFinding = regexp.MustCompile(`(?m)^([EWI]\d{4}) .*\n(.+):\d+:\d+$`)
	serverFinding  = regexp.MustCompile(`^\[([EWI]\d{4}): .* matched (.+):\d+$`)
)

// sharedSocket returns the socket of the shared server make test runs
// ($ADJLIST_CFNLINT_SOCKET), else starts server.py on a socket of its own
// until the test ends.
func sharedSocket(t *testing.T) string {
	if path := os.Getenv(EnvSocket); path != "" {
		return path
	}
	path := filepath.Join(t.TempDir(), "cfnlint.sock")
	cmd := exec.Command("python3", "-c", serve, path)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err, "server.py on a socket starts (python3 with cfnlint)")
	require.Equal(t, "ready\n", line)
	return path
}

// TestServerAgreesWithCommand: the long-lived linter, in a process of the
// test binary's own (also when the shared socket does not answer) and
// shared on a socket, finds what the command finds on a good and a bad
// template: the same rules, on the same template.
func TestServerAgreesWithCommand(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("cfn-lint")
	if err != nil {
		t.Skip(InstallHint)
	}
	dir := t.TempDir()
	want := map[string][]string{}
	var paths []string
	for name, keyType := range map[string]string{"good": "HASH", "bad": "BOGUS"} {
		path := filepath.Join(dir, name+".json")
		require.NoError(t, os.WriteFile(path, fmt.Appendf(nil, template, keyType), 0o600))
		paths = append(paths, path)
		want[path] = []string{}
	}
	out, err := exec.Command(bin, append([]string{"--"}, paths...)...).Output()
	var exitErr *exec.ExitError
	require.ErrorAs(t, err, &exitErr, "the bad template fails the command")
	for _, m := range commandFinding.FindAllStringSubmatch(string(out), -1) {
		want[m[2]] = append(want[m[2]], m[1])
	}
	require.NotEmpty(t, want[filepath.Join(dir, "bad.json")], "the command's findings:\n%s", out)

	for name, socket := range map[string]string{
		"own process":   filepath.Join(dir, "no-such.sock"),
		"shared socket": sharedSocket(t),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := server{socket: socket}
			for _, path := range paths {
				findings, ok := s.lint(path)
				require.True(t, ok, "the server answers (python3 with cfnlint)")
				got := []string{}
				for _, f := range findings {
					m := serverFinding.FindStringSubmatch(f)
					if assert.NotNil(t, m, "finding %q", f) {
						assert.Equal(t, path, m[2])
						got = append(got, m[1])
					}
				}
				assert.ElementsMatch(t, want[path], got, "%s: server %v, command:\n%s", path, findings, out)
			}
		})
	}
}
