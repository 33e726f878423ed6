package ddblocal_test

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

// serviceTest is the test of a service that imports adjlist: it uses only
// public packages, declares its own model on any client and table name, and
// gets DynamoDB Local and a table per test from ddbtest.
const serviceTest = `package service_test

import (
	"testing"
	"time"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

type (
	User       struct{ Name string ` + "`dynamodbav:\"name\"`" + ` }
	Team       struct{ Title string ` + "`dynamodbav:\"title\"`" + ` }
	Membership struct{ Role string ` + "`dynamodbav:\"role\"`" + ` }
)

type model struct {
	table   *adjlist.Table
	users   *adjlist.Node[User]
	teams   *adjlist.Node[Team]
	members *adjlist.Edge[Membership]
}

func newModel(db adjlist.Client, tableName string) model {
	table := adjlist.NewTable(db, tableName)
	users := adjlist.NewNode[User](table, "USER", "PROFILE")
	teams := adjlist.NewNode[Team](table, "TEAM", "META")
	return model{table, users, teams, adjlist.NewEdge[Membership](users, "MEMBER", teams)}
}

func TestMembership(t *testing.T) {
	m := newModel(ddbtest.Client(t), ddbtest.TableName(t))
	ddbtest.CreateTable(t, m.table)
	ctx := t.Context()

	if err := m.users.Put(ctx, "ada", User{Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
	if err := m.teams.Put(ctx, "core", Team{Title: "Core"}); err != nil {
		t.Fatal(err)
	}
	if err := m.members.Put(ctx, "ada", "core", Membership{Role: "lead"}); err != nil {
		t.Fatal(err)
	}
	u, err := m.users.Get(ctx, "ada")
	if err != nil || u.Name != "Ada" {
		t.Fatalf("Get user: %+v, %v", u, err)
	}
	// The reverse read needs the index, which CreateTable made.
	if err := m.members.WaitIndexed(ctx, "ada", "core", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	got, err := m.members.To("core").Collect(ctx)
	if err != nil || len(got) != 1 || got[0].From != "ada" || got[0].Data.Role != "lead" {
		t.Fatalf("members of core: %+v, %v", got, err)
	}
}

func TestNewTableAndPlainClient(t *testing.T) {
	table := ddbtest.NewTable(t)
	// The plain constructor, as a service's dev tooling would use it.
	db := ddblocal.NewClient(*ddbtest.Client(t).Options().BaseEndpoint)
	users := adjlist.NewNode[User](adjlist.NewTable(db, table.Name()), "USER", "PROFILE")
	if err := users.Put(t.Context(), "bob", User{Name: "Bob"}); err != nil {
		t.Fatal(err)
	}
	if u, err := users.Get(t.Context(), "bob"); err != nil || u.Name != "Bob" {
		t.Fatalf("Get: %+v, %v", u, err)
	}
}
`

// goDirective reads the go line of a go.mod.
var goDirective = regexp.MustCompile(`(?m)^go (\S+)$`)

// TestExternalModule builds a throwaway module outside this repository that
// requires adjlist (replaced by this checkout), and runs serviceTest in it,
// as a service's CI would (stress tier): only public packages, DynamoDB Local found by
// $DYNAMODB_LOCAL_DIR, CI set so that nothing may skip.
func TestExternalModule(t *testing.T) {
	// It compiles the SDK and adjlist again for the other module: minutes,
	// so it runs in the stress tier (make stress, in CI too).
	testsize.StressOnly(t)
	jarDir, err := ddblocal.JarDir()
	if err == nil {
		_, err = ddblocal.JavaPath()
	}
	if errors.Is(err, ddblocal.ErrNotInstalled) && os.Getenv("CI") == "" {
		t.Skipf("%v; %s", err, ddblocal.InstallHint)
	}
	require.NoError(t, err)
	goCmd, err := exec.LookPath("go") // go test puts GOROOT/bin first in PATH
	require.NoError(t, err)

	root, err := filepath.Abs("..")
	require.NoError(t, err)
	rootMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	goVersion := goDirective.FindSubmatch(rootMod)
	require.NotNil(t, goVersion, "no go directive in %s/go.mod", root)
	rootSum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)

	mod := t.TempDir()
	write := func(name, content string) {
		require.NoError(t, os.WriteFile(filepath.Join(mod, name), []byte(content), 0o644))
	}
	write("go.mod", "module example.com/service\n\ngo "+string(goVersion[1])+"\n\n"+
		"require github.com/adjlist/adjlist v0.0.0-00010101000000-000000000000\n\n"+
		"replace github.com/adjlist/adjlist => "+root+"\n")
	// adjlist's sums cover its dependencies; -mod=mod lets go add the
	// requirements they imply to the throwaway go.mod.
	write("go.sum", string(rootSum))
	write("service_test.go", serviceTest)

	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goCmd, "test", "-count=1", "-v", "./...")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(),
		"GOFLAGS=-mod=mod",
		"GOWORK=off",
		"CI=true",
		ddblocal.EnvDir+"="+jarDir,
		ddblocal.EnvEndpoint+"=",
	)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go test in the external module:\n%s", out)
	t.Logf("go test in the external module:\n%s", out)
	for _, test := range []string{"TestMembership", "TestNewTableAndPlainClient"} {
		assert.Contains(t, string(out), "--- PASS: "+test, "%s", out)
	}
	assert.NotContains(t, string(out), "SKIP", "%s", out)
	assert.NotContains(t, string(out), "WARN", "an SDK warning was printed:\n%s", out)
	if !strings.Contains(string(out), "ok  \texample.com/service") {
		t.Errorf("no ok line:\n%s", out)
	}

	// The documented install command resolves from the service's module;
	// its dir subcommand (no network) finds the same jar.
	cmd = exec.CommandContext(ctx, goCmd, "run", "github.com/adjlist/adjlist/cmd/adjlist-ddblocal", "dir")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", ddblocal.EnvDir+"="+jarDir)
	out, err = cmd.Output()
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		t.Logf("stderr:\n%s", exitErr.Stderr)
	}
	require.NoError(t, err, "go run .../cmd/adjlist-ddblocal dir in the external module")
	assert.Equal(t, jarDir+"\n", string(out))
}
