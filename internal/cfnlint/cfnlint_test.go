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

func TestCheck(t *testing.T) {
	if _, err := exec.LookPath("cfn-lint"); err != nil {
		t.Skip(InstallHint)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	bad := filepath.Join(dir, "bad.json")
	table := `{"AWSTemplateFormatVersion": "2010-09-09", "Resources": {"T": {"Type": "AWS::DynamoDB::Table",
		"DeletionPolicy": "Retain", "UpdateReplacePolicy": "Retain", "Properties": {"BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"}],
		"KeySchema": [{"AttributeName": "PK", "KeyType": %q}]}}}}`
	assert.NoError(t, os.WriteFile(good, fmt.Appendf(nil, table, "HASH"), 0o600))
	assert.NoError(t, os.WriteFile(bad, fmt.Appendf(nil, table, "BOGUS"), 0o600))

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
