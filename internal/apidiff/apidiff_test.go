package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNames(t *testing.T) {
	for _, tc := range []struct{ message, want0, want1, want2 string }{
		{"(*Table).Get: changed from func(string) to func(int)", "Get", "Table.Get", "adjlist.Table.Get"},
		{"(*Node[N]).Put: removed", "Put", "Node.Put", "adjlist.Node.Put"},
		{"Pair[K, V].Swap: changed from func() to func(int)", "Swap", "Pair.Swap", "adjlist.Pair.Swap"},
		{"Options.Shards: removed", "Shards", "Options.Shards", "adjlist.Options.Shards"},
		{"(*Table).Get, method set of *Table: removed", "Get", "Table.Get", "adjlist.Table.Get"},
		{"example.com/x/types.Value: changed from int to string", "Value", "types.Value", ""},
		{"NewTable: removed", "NewTable", "adjlist.NewTable", ""},
	} {
		t.Run(tc.message, func(t *testing.T) {
			want := []string{tc.want0, tc.want1}
			if tc.want2 != "" {
				want = append(want, tc.want2)
			}
			assert.Equal(t, want, names("adjlist", tc.message))
		})
	}
}

func TestUnreleasedCodeNames(t *testing.T) {
	changelog := "# Changelog\n\nPreamble `Preamble`.\n\n" +
		"## [Unreleased]\n\n### Changed\n- `Table.Get(ctx, id)` takes a context; `Shards` is gone.\n\n" +
		"## [0.1.0] - 2026-01-01\n\n### Removed\n- `Old`.\n"
	got := codeNames(unreleased(changelog))
	assert.Equal(t, map[string]bool{"Table.Get": true, "ctx": true, "id": true, "Shards": true}, got)
	assert.Empty(t, codeNames(unreleased("# Changelog\n\n## [0.1.0]\n- `Old`\n")), "no Unreleased section")
}

// TestFixture runs the command on a git repository holding testdata/v1 as
// its previous commit and testdata/v2 as HEAD: Table.Get's signature,
// Options.Shards, Node.Put and package sub change incompatibly; New and
// package extra are added; internal/, examples/ and cmd/ change too but are
// no API. It fails unless each of the four incompatible changes is named in
// the Unreleased section.
func TestFixture(t *testing.T) {
	dir := fixtureRepo(t)

	out, code := runIn(t, dir)
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "apidiff: no HEAD~1 (the first commit, or a shallow clone): nothing to compare with")
	_, code = runIn(t, dir, "-base", "nosuchrev")
	assert.Equal(t, 2, code, "an explicit base that does not exist")

	checkout(t, dir, "testdata/v2")
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "v2")

	all := "## [Unreleased]\n\n### Changed\n- `Table.Get(ctx, id)` takes a context.\n- `Node.Put` returns the item.\n\n" +
		"### Removed\n- `Options.Shards`.\n- Package `sub`.\n"
	for _, tc := range []struct {
		name, changelog string
		missing         []string
	}{
		{"every change named", all, nil},
		{"bare names", "## [Unreleased]\n- `Get`, `Put`, `Shards`, `sub`\n", nil},
		{"field missing", "## [Unreleased]\n- `Table.Get`, `Node.Put`, `sub`\n", []string{"Options.Shards: removed"}},
		{"only in a released section", "## [Unreleased]\n- `Get`, `Put`, `sub`\n\n## [0.1.0]\n- `Shards`\n", []string{"Options.Shards: removed"}},
		{"not in backticks", "## [Unreleased]\n- Table.Get, Node.Put, Options.Shards and package sub\n",
			[]string{"(*Table).Get: changed", "Node[N].Put: changed", "Options.Shards: removed", "sub: package removed"}},
		{"no changelog", "", []string{"(*Table).Get: changed", "Node[N].Put: changed", "Options.Shards: removed", "sub: package removed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "CHANGELOG.md")
			if tc.changelog == "" {
				require.NoError(t, os.RemoveAll(path))
			} else {
				require.NoError(t, os.WriteFile(path, []byte("# Changelog\n\n"+tc.changelog), 0o644))
			}
			out, code := runIn(t, dir)
			t.Log(out)
			for _, line := range []string{
				"example.com/fixture:",
				"  compatible:   New: added",
				"example.com/fixture/extra: package added (compatible)",
			} {
				assert.Contains(t, out, line)
			}
			assert.NotContains(t, out, "Onlyv", "internal/, examples/ and cmd/ are no API")
			for _, m := range []string{"(*Table).Get: changed", "Node[N].Put: changed", "Options.Shards: removed", "sub: package removed"} {
				assert.Contains(t, out, m)
			}
			if tc.missing == nil {
				assert.Equal(t, 0, code)
				assert.NotContains(t, out, "NOT IN CHANGELOG")
				return
			}
			assert.Equal(t, 1, code)
			assert.Contains(t, out, "incompatible change(s) not in CHANGELOG.md")
			assert.Equal(t, len(tc.missing), bytes.Count([]byte(out), []byte("NOT IN CHANGELOG")))
			for _, m := range tc.missing {
				assert.Regexp(t, `(?m)`+regexp.QuoteMeta(m)+`.*NOT IN CHANGELOG\)$`, out)
			}
		})
	}
}

// TestReleaseBase: once a release is tagged, the default base is the
// release, not HEAD~1, so a breaking change two commits after it is still
// caught, and it needs the next minor version named.
func TestReleaseBase(t *testing.T) {
	dir := fixtureRepo(t)
	gitRun(t, dir, "tag", "-a", "v0.1.0", "-m", "0.1.0")
	checkout(t, dir, "testdata/v2")
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "v2")
	// A later commit that changes no API: HEAD~1 would see nothing.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "NOTES"), []byte("x"), 0o644))
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "notes")

	named := "## [Unreleased]\n\n%s- `Table.Get`, `Node.Put`, `Options.Shards`, package `sub`.\n\n## [0.1.0] - 2026-11-29\n"
	for _, tc := range []struct {
		name, next string
		code       int
	}{
		{"next minor named", "Next version: 0.2.0\n\n", 0},
		{"no next version", "", 1},
		{"a patch is not enough", "Next version: 0.1.1\n\n", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "CHANGELOG.md"), []byte("# Changelog\n\n"+fmt.Sprintf(named, tc.next)), 0o644))
			out, code := runIn(t, dir)
			assert.Contains(t, out, "apidiff: v0.1.0 (")
			assert.Contains(t, out, "incompatible: Options.Shards: removed (in CHANGELOG)")
			assert.Equal(t, tc.code, code, out)
			if tc.code != 0 {
				assert.Contains(t, out, `write the line "Next version: 0.2.0"`)
			}
		})
	}
	// Without the breaking change nothing is asked.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "CHANGELOG.md"), []byte("# Changelog\n\n## [Unreleased]\n"), 0o644))
	out, code := runIn(t, dir, "-base", "HEAD~1")
	assert.Equal(t, 0, code, out)
	assert.NotContains(t, out, "Next version")
}

// fixtureRepo is a new git repository whose one commit holds testdata/v1.
func fixtureRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q")
	checkout(t, dir, "testdata/v1")
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "v1")
	return dir
}

func runIn(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	t.Setenv("APIDIFF_BASE", "")
	var out, errOut bytes.Buffer
	code := run(append([]string{"-C", dir}, args...), &out, &errOut)
	return out.String() + errOut.String(), code
}

// checkout replaces the tree in dir (all but .git) with the fixture at src.
func checkout(t *testing.T, dir, src string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		if e.Name() != ".git" {
			require.NoError(t, os.RemoveAll(filepath.Join(dir, e.Name())))
		}
	}
	require.NoError(t, os.CopyFS(dir, os.DirFS(src)))
}

func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=apidiff", "-c", "user.email=apidiff@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
}
