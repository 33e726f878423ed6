package exampletest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryExampleExports builds every program under examples/ and runs it
// as a user would: `-describe -workbench F -cloudformation F` prints the
// Markdown and the Mermaid diagram, writes both files and exits 0, without
// DynamoDB; a flag -describe would ignore exits non-zero. Exports checks
// the files' contents per example.
func TestEveryExampleExports(t *testing.T) {
	goCmd, err := exec.LookPath("go") // go test puts GOROOT/bin first in PATH
	require.NoError(t, err)
	root, err := filepath.Abs(filepath.Join("..", "..", "..", ".."))
	require.NoError(t, err)
	bin := t.TempDir()
	build := exec.Command(goCmd, "build", "-o", bin+string(os.PathSeparator), "./examples/...")
	build.Dir = root
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build ./examples/...:\n%s", out)
	dirs, err := filepath.Glob(filepath.Join(root, "examples", "*", "main.go"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	for _, main := range dirs {
		name := filepath.Base(filepath.Dir(main))
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			exe := filepath.Join(bin, name)
			files := t.TempDir()
			wb, cf := filepath.Join(files, "model.json"), filepath.Join(files, "table.json")
			cmd := exec.Command(exe, "-describe", "-workbench", wb, "-cloudformation", cf)
			cmd.Env = append(os.Environ(), "AWS_ENDPOINT_URL_DYNAMODB=http://127.0.0.1:1") // any request would fail
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			require.NoError(t, cmd.Run(), "%s -describe: %s", name, stderr.String())
			assert.Contains(t, stdout.String(), "### Table `adjlist-"+name+"`")
			assert.Contains(t, stdout.String(), "```mermaid\nflowchart LR\n")
			for _, f := range []string{wb, cf} {
				info, err := os.Stat(f)
				if assert.NoError(t, err, "%s -describe wrote no %s", name, filepath.Base(f)) {
					assert.NotZero(t, info.Size())
				}
			}

			bad := exec.Command(exe, "-describe", "-cleanup")
			bad.Env = cmd.Env
			out, err := bad.CombinedOutput()
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit, "%s -describe -cleanup must fail:\n%s", name, out)
			assert.Equal(t, 2, exit.ExitCode())
			assert.Contains(t, string(out), "-cleanup has no effect with -describe")
		})
	}
}
