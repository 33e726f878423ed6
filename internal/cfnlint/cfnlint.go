// Package cfnlint runs cfn-lint, AWS's CloudFormation linter, on templates
// written by tests.
package cfnlint

import (
	"os"
	"os/exec"
	"testing"
)

// InstallHint says how to install cfn-lint (a Python tool).
const InstallHint = "pip install cfn-lint (or pipx install cfn-lint)"

// Check runs cfn-lint on the template at path and fails t unless it
// reports nothing (exit status 0: no error, warning or informational
// finding). Without cfn-lint on PATH it skips t with [InstallHint], or
// fails t when the CI environment variable is set.
func Check(t testing.TB, path string) {
	t.Helper()
	bin, err := exec.LookPath("cfn-lint")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("cfn-lint is not installed and CI is set: %s", InstallHint)
		}
		t.Skipf("cfn-lint is not installed: %s", InstallHint)
	}
	out, err := exec.Command(bin, "--", path).CombinedOutput()
	if err != nil {
		t.Fatalf("cfn-lint %s: %v\n%s", path, err, out)
	}
}
