package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/ddblocal"
	"github.com/adjlist/adjlist/internal/testsize"
)

// installMarker precedes the commands of docs/existing-tables.md that install and run the
// command in a module of the reader's own.
const installMarker = "<!-- run by TestInstallAsTool in a module of its own -->\n```sh\n"

// TestInstallAsTool runs docs/existing-tables.md's commands for adjlist-gen, line by
// line and exactly as written, in a throwaway module outside this
// repository that did not require adjlist (the README's go run of the
// package path fails there: "is replaced but not required", and go mod
// tidy drops a requirement nothing imports): go get -tool makes it a tool
// of the module (Go 1.24+), go tool runs it on the complaint management
// model, go get -t adds what the package's test imports, and go test runs
// that test on DynamoDB Local. Offline, the go.mod starts with the
// requirement go get would add from the module proxy (adjlist has no
// tagged release: its newest commit, as a pseudo-version), replaced by
// this checkout, and GOPROXY=off. It builds the SDK again for another
// module: stress tier.
func TestInstallAsTool(t *testing.T) {
	testsize.StressOnly(t)
	readme := readFile(t, "../../docs/existing-tables.md")
	start := strings.Index(readme, installMarker)
	require.GreaterOrEqual(t, start, 0, "docs/existing-tables.md has no install commands for adjlist-gen")
	block := readme[start+len(installMarker):]
	block = block[:strings.Index(block, "```")]

	env := append(os.Environ(), "GOWORK=off", "GOPROXY=off", "GOFLAGS=", "CI=true")
	if os.Getenv(ddblocal.EnvEndpoint) == "" {
		jarDir, err := ddblocal.JarDir()
		if err == nil {
			_, err = ddblocal.JavaPath()
		}
		if errors.Is(err, ddblocal.ErrNotInstalled) && os.Getenv("CI") == "" {
			t.Skipf("%v; %s", err, ddblocal.InstallHint)
		}
		require.NoError(t, err)
		env = append(env, ddblocal.EnvDir+"="+jarDir)
	}
	goCmd, err := exec.LookPath("go") // go test puts GOROOT/bin first in PATH
	require.NoError(t, err)
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	rootMod := readFile(t, filepath.Join(root, "go.mod"))
	goVersion := regexp.MustCompile(`(?m)^go (\S+)$`).FindStringSubmatch(rootMod)
	require.NotNil(t, goVersion, "no go directive in %s/go.mod", root)

	mod := t.TempDir()
	write := func(name, content string) {
		require.NoError(t, os.WriteFile(filepath.Join(mod, name), []byte(content), 0o644))
	}
	write("go.mod", "module example.com/service\n\ngo "+goVersion[1]+"\n\n"+
		"require github.com/adjlist/adjlist v0.0.0-00010101000000-000000000000\n\n"+
		"replace github.com/adjlist/adjlist => "+root+"\n")
	write("go.sum", readFile(t, filepath.Join(root, "go.sum")))
	write("ComplaintManagementSchema.json", readFile(t, "testdata/complaint-management/ComplaintManagementSchema.json"))

	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	var ran []string
	for _, line := range strings.Split(block, "\n") {
		line, _, _ = strings.Cut(line, "#")
		args := strings.Fields(line)
		if len(args) == 0 {
			continue
		}
		require.Equal(t, "go", args[0], "the README's install commands are go commands: %q", line)
		cmd := exec.CommandContext(ctx, goCmd, args[1:]...)
		cmd.Dir, cmd.Env = mod, env
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s:\n%s", line, out)
		ran = append(ran, args[1])
		if args[1] == "test" {
			assert.Contains(t, string(out), "ok  \texample.com/service/complaints", "%s", out)
		}
	}
	assert.Equal(t, []string{"get", "tool", "get", "test"}, ran, "the README installs, generates, adds the test's imports and tests")
	assert.FileExists(t, filepath.Join(mod, "complaints", "model.go"))
	assert.Contains(t, readFile(t, filepath.Join(mod, "go.mod")), "\ntool github.com/adjlist/adjlist/cmd/adjlist-gen\n",
		"a tool directive keeps the requirement through go mod tidy")
}
