package cfnlint

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
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

// TestServerAgreesWithCommand: the long-lived linter finds what the
// command finds, on a good and a bad template.
func TestServerAgreesWithCommand(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("cfn-lint")
	if err != nil {
		t.Skip(InstallHint)
	}
	dir := t.TempDir()
	var s server
	for name, keyType := range map[string]string{"good": "HASH", "bad": "BOGUS"} {
		path := filepath.Join(dir, name+".json")
		assert.NoError(t, os.WriteFile(path, fmt.Appendf(nil, template, keyType), 0o600))
		findings, ok := s.lint(path)
		if !assert.True(t, ok, "the server starts (python3 with cfnlint)") {
			return
		}
		cmdErr := exec.Command(bin, "--", path).Run()
		assert.Equal(t, cmdErr == nil, len(findings) == 0, "%s: server %v, command %v", name, findings, cmdErr)
	}
}
