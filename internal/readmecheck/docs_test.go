package readmecheck

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// root is the module's directory, from this package's.
const root = "../.."

// layoutPaths returns the paths the first column of README.md's Layout
// table names, each as written between backticks, a trailing "/" dropped.
func layoutPaths(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(b), "\n## Layout\n")
	require.True(t, ok, "README.md has no ## Layout section")
	section, _, _ = strings.Cut(section, "\n## ")
	var out []string
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 {
			continue
		}
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(cells[1], -1) {
			out = append(out, strings.TrimSuffix(m[1], "/"))
		}
	}
	require.NotEmpty(t, out, "the Layout table names no path")
	return out
}

// TestReadmeLayoutListsEveryFile holds the README's Layout table to the
// module: it names every non-test Go file of the root package and every
// directory that holds Go code (a directory under examples/ through
// `examples/*`), and nothing that does not exist.
func TestReadmeLayoutListsEveryFile(t *testing.T) {
	listed := layoutPaths(t)
	var want []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		name := d.Name()
		switch {
		case d.IsDir() && rel != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules"):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(name, ".go"):
		case path.Dir(rel) == ".":
			if !strings.HasSuffix(name, "_test.go") {
				want = append(want, rel)
			}
		case path.Dir(path.Dir(rel)) == "examples":
			want = append(want, "examples/*")
		default:
			want = append(want, path.Dir(rel))
		}
		return nil
	})
	require.NoError(t, err)
	slices.Sort(want)
	for _, p := range slices.Compact(want) {
		assert.Contains(t, listed, p, "README.md's Layout table does not list %s", p)
	}
	for _, p := range listed {
		if p == "examples/*" {
			continue
		}
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
		assert.NoError(t, err, "README.md's Layout table lists %s", p)
	}
}

// TestDocsNameNoIssue: the public docs say what changed, not which issue
// of a tracker their readers do not have changed it.
func TestDocsNameNoIssue(t *testing.T) {
	issue := regexp.MustCompile(`(?i)\bissues?[ -]#?\d+|\bissue \d+ and \d+|the defects issue`)
	for _, name := range []string{"README.md", "RELIABILITY.md", "BENCHMARKS.md", "CHANGELOG.md"} {
		b, err := os.ReadFile(filepath.Join(root, name))
		require.NoError(t, err)
		for i, line := range strings.Split(string(b), "\n") {
			assert.False(t, issue.MatchString(line), "%s:%d names an issue: %s", name, i+1, line)
		}
	}
}
