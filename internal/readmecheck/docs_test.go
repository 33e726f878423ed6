package readmecheck

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

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
	for _, name := range append(docFiles(t), "RELIABILITY.md", "BENCHMARKS.md", "CHANGELOG.md") {
		b, err := os.ReadFile(filepath.Join(root, name))
		require.NoError(t, err)
		for i, line := range strings.Split(string(b), "\n") {
			assert.False(t, issue.MatchString(line), "%s:%d names an issue: %s", name, i+1, line)
		}
	}
}

// linkedDocs are the documents whose relative links must resolve.
func linkedDocs(t *testing.T) []string {
	return append(docFiles(t), "RELIABILITY.md", "BENCHMARKS.md", "CHANGELOG.md")
}

// TestDocsLinksResolve: every relative link of README.md, the guides
// under docs/ and the other top-level documents names a file or
// directory that exists and, after a '#', a heading of that Markdown
// file (as GitHub makes anchors of headings).
func TestDocsLinksResolve(t *testing.T) {
	anchors := map[string]map[string]bool{}
	for _, name := range linkedDocs(t) {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		require.NoError(t, err)
		for _, l := range relativeLinks(string(b)) {
			for _, e := range checkLink(name, l, anchors) {
				t.Errorf("%s:%d: %s", name, l.line, e)
			}
		}
	}
}

// A link to a missing file, or to a heading a document does not have,
// fails; a link in code does not count.
func TestCheckLink(t *testing.T) {
	doc := "# Top\n\nSee [reads](reads.md#pages-and-cursors), [x](#top), [gone](nosuch.md), [bad](#nowhere),\n" +
		"[web](https://example.com), `[code](nosuch.md)`.\n\n```go\nf[i](x)\n```\n"
	anchors := map[string]map[string]bool{"docs/reads.md": {"pages-and-cursors": true}, "docs/guide.md": headingAnchors(doc)}
	var got []string
	for _, l := range relativeLinks(doc) {
		got = append(got, checkLink("docs/guide.md", l, anchors)...)
	}
	assert.Len(t, got, 2)
	assert.Contains(t, strings.Join(got, "\n"), "nosuch.md: no such file")
	assert.Contains(t, strings.Join(got, "\n"), `no heading "nowhere"`)
}

// link is a relative link of a document, and its line.
type link struct {
	target string
	line   int
}

var (
	linkRE   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	codeSpan = regexp.MustCompile("`+[^`]*`+")
)

// relativeLinks returns the links of a Markdown document that are not
// absolute URLs, outside code blocks and code spans.
func relativeLinks(doc string) []link {
	var out []link
	inBlock, fence := false, ""
	for i, line := range strings.Split(doc, "\n") {
		trimmed := strings.TrimSpace(line)
		if inBlock {
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				inBlock = false
			}
			continue
		}
		if c, n, _, _, ok := fenceLine(line); ok {
			inBlock, fence = true, strings.Repeat(string(c), n)
			continue
		}
		for _, m := range linkRE.FindAllStringSubmatch(codeSpan.ReplaceAllString(line, ""), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			out = append(out, link{target, i + 1})
		}
	}
	return out
}

// checkLink checks one link of the document name, reading the headings
// of the documents it points into (cached in anchors, by path).
func checkLink(name string, l link, anchors map[string]map[string]bool) []string {
	file, frag, _ := strings.Cut(l.target, "#")
	target := name
	if file != "" {
		target = path.Join(path.Dir(name), file)
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
			return []string{fmt.Sprintf("%s: no such file (%s)", l.target, target)}
		}
	}
	if frag == "" {
		return nil
	}
	if !strings.HasSuffix(target, ".md") {
		return []string{fmt.Sprintf("%s: an anchor into a file that is not Markdown", l.target)}
	}
	as, ok := anchors[target]
	if !ok {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(target)))
		if err != nil {
			return []string{err.Error()}
		}
		as = headingAnchors(string(b))
		anchors[target] = as
	}
	if !as[frag] {
		return []string{fmt.Sprintf("%s: %s has no heading %q", l.target, target, frag)}
	}
	return nil
}

// headingAnchors are the anchors GitHub gives a document's headings:
// lower case, punctuation but '-' and '_' dropped, spaces made '-', a
// repeated one suffixed -1, -2, ...
func headingAnchors(doc string) map[string]bool {
	out := map[string]bool{}
	blocks, _ := Blocks(doc)
	inBlock := map[int]bool{}
	lines := strings.Split(doc, "\n")
	for _, b := range blocks {
		for i := b.Line; i <= b.Line+strings.Count(b.Text, "\n")+1; i++ {
			inBlock[i] = true
		}
	}
	seen := map[string]int{}
	for i, line := range lines {
		if inBlock[i+1] || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimLeft(line, "#")
		if !strings.HasPrefix(text, " ") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(text)) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}
