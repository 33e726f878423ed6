package readmecheck

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docFiles are the documents whose Go blocks run: README.md, then every
// guide under docs/, by name, each as a path relative to the module root.
func docFiles(t *testing.T) []string {
	t.Helper()
	guides, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, guides, "no guide under docs/")
	out := []string{"README.md"}
	for _, g := range guides {
		rel, err := filepath.Rel(root, g)
		require.NoError(t, err)
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

// docBlock is a Go block of one of the documents.
type docBlock struct {
	Doc string // "README.md", "docs/reads.md"
	Block
}

// docGoBlocks returns the Go blocks of every document ([docFiles]), in
// order, read whole ([Blocks]).
func docGoBlocks(t *testing.T) []docBlock {
	t.Helper()
	var out []docBlock
	for _, name := range docFiles(t) {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		require.NoError(t, err)
		bs, err := goBlocks(string(b))
		require.NoError(t, err, name)
		require.NotEmpty(t, bs, "%s has no Go block", name)
		for _, b := range bs {
			out = append(out, docBlock{name, b})
		}
	}
	return out
}

// goBlocks returns the Go blocks of a Markdown document.
func goBlocks(doc string) ([]Block, error) {
	all, err := Blocks(doc)
	var out []Block
	for _, b := range all {
		if b.Lang == "go" {
			out = append(out, b)
		}
	}
	return out, err
}

// imports is what every block may use; an import a block does not use is
// a soft error, ignored.
const imports = `import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/stretchr/testify/require"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"go.opentelemetry.io/otel"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/cloudformation"
	"github.com/adjlist/adjlist/ddblocal"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/streams"
	"github.com/adjlist/adjlist/workbench"
)
`

// TestReadmeGoBlocks type-checks the Go blocks of README.md and of every
// guide under docs/ ([checkDoc]); every error fails with the document's
// line it is on.
func TestReadmeGoBlocks(t *testing.T) {
	c := newChecker(t)
	for _, name := range docFiles(t) {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		require.NoError(t, err)
		errs, err := c.checkDoc(name, string(b))
		require.NoError(t, err, name)
		for _, e := range errs {
			t.Error(e)
		}
	}
}

// A guide's block that does not compile fails, at its own line: an
// undefined name, a wrong argument, a block that does not parse. A good
// block, and a document's own declaration of a name the prelude declares
// too, pass.
func TestCheckDocCatchesBadBlocks(t *testing.T) {
	c := newChecker(t)
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"good", "text\n```go\nerr := students.Put(ctx, \"a91\", Student{})\n```\n", ""},
		{"undefined", "text\n\n```go\nerr := nosuch.Put(ctx)\n```\n", "docs/guide.md:4:8: undefined: nosuch"},
		{"wrong argument", "```go\nerr := students.Put(ctx, 7, Student{})\n```\n", "docs/guide.md:2:"},
		{"does not parse", "```go\nx := \n```\n", "Go block at line 2 does not parse"},
		{"own declaration replaces the prelude's",
			"```go\ntype Project struct{ Name string }\n```\n\n```go\n_ = Project{Name: \"x\"}\n```\n", ""},
		{"a later block sees an earlier declaration", "```go\nfunc Hello() string { return \"hi\" }\n```\n```go\n_ = Hello() + 1\n```\n", "docs/guide.md:5:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs, err := c.checkDoc("docs/guide.md", tc.doc)
			require.NoError(t, err)
			if tc.want == "" {
				assert.Empty(t, errs)
				return
			}
			require.NotEmpty(t, errs)
			assert.Contains(t, strings.Join(errs, "\n"), tc.want)
		})
	}
}

// checker type-checks documents' Go blocks against the module.
type checker struct {
	fset    *token.FileSet
	imp     types.Importer
	prelude []byte
}

func newChecker(t *testing.T) *checker {
	t.Helper()
	prelude, err := os.ReadFile("prelude.go.txt")
	require.NoError(t, err)
	fset := token.NewFileSet()
	return &checker{fset: fset, imp: exportImporter(t, fset), prelude: prelude}
}

// checkDoc wraps each Go block of the document doc (named name) by one
// rule and type-checks it with the prelude (prelude.go.txt: the data
// types, handles and variables the docs' prose introduces):
//
//   - a block that parses as a file's declarations (after a package
//     clause) is such a file, e.g. a func or an import list with tests;
//   - any other block is the body of a function in a file that imports the
//     packages above.
//
// Each block is checked with the prelude and the declaration blocks of
// the same document before it (a test may call the guide's NewModel), so
// statement blocks may declare the same names. A name a declaration block
// of the document declares replaces the prelude's of that name (the
// README's quick start declares its own Project). Unused variables and
// imports are allowed: snippets show calls, not whole programs. It
// returns every other error, with the document's line it is on.
func (c *checker) checkDoc(name, doc string) ([]string, error) {
	blocks, err := goBlocks(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	type wrapped struct {
		b       Block
		file    *ast.File
		offset  int
		isDecls bool
		err     error
	}
	var ws []wrapped
	own := map[string]bool{} // the names the document's declaration blocks declare
	for _, b := range blocks {
		// offset is the line of the wrapped source the block starts on.
		src, offset := "package readme\n\n"+b.Text, 3
		file, err := parser.ParseFile(c.fset, name, src, parser.SkipObjectResolution)
		isDecls := err == nil && onlyDecls(file)
		switch {
		case isDecls && len(file.Imports) == 0:
			src, offset = "package readme\n\n"+imports+"\n"+b.Text, 4+strings.Count(imports, "\n")
			file, err = parser.ParseFile(c.fset, name, src, parser.SkipObjectResolution)
		case !isDecls:
			src, offset = "package readme\n\n"+imports+"\nfunc _() error {\n"+b.Text+"\nreturn nil\n}\n", 5+strings.Count(imports, "\n")
			file, err = parser.ParseFile(c.fset, name, src, parser.SkipObjectResolution)
		}
		if err == nil && isDecls {
			for n := range declared(file) {
				own[n] = true
			}
		}
		ws = append(ws, wrapped{b, file, offset, isDecls, err})
	}
	pre, err := parser.ParseFile(c.fset, "prelude.go", c.prelude, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	dropDecls(pre, own)
	var (
		out   []string
		decls []*ast.File // the declaration blocks so far, which later blocks may use
	)
	for _, w := range ws {
		first := w.b.Line + 1 // the document's line of the block's first line
		if w.err != nil {
			out = append(out, fmt.Sprintf("%s: Go block at line %d does not parse: %v", name, first, relocate(name, w.err.Error(), first, w.offset)))
			continue
		}
		var errs []string
		conf := types.Config{Importer: c.imp, Error: func(err error) {
			// Snippets show calls, not programs: a variable or import
			// left unused is fine. Other soft errors (a := that declares
			// nothing new) are compile errors all the same.
			if te, ok := err.(types.Error); ok && te.Soft && unusedRE.MatchString(te.Msg) {
				return
			}
			errs = append(errs, relocate(name, err.Error(), first, w.offset))
		}}
		conf.Check("readme", c.fset, append([]*ast.File{pre, w.file}, decls...), nil)
		for _, e := range errs {
			out = append(out, fmt.Sprintf("%s: Go block at line %d: %s", name, first, e))
		}
		if w.isDecls && len(errs) == 0 {
			decls = append(decls, w.file)
		}
	}
	return out, nil
}

// declared yields the names a file declares at package level.
func declared(f *ast.File) map[string]bool {
	out := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				out[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					out[s.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range s.Names {
						out[n.Name] = true
					}
				}
			}
		}
	}
	return out
}

// dropDecls removes from f the type and value declarations of names,
// and whatever in f then refers to them (a prelude variable of a dropped
// type): the names the document declares itself.
func dropDecls(f *ast.File, names map[string]bool) {
	if len(names) == 0 {
		return
	}
	uses := func(n ast.Node) bool {
		found := false
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && names[id.Name] {
				found = true
			}
			return !found
		})
		return found
	}
	for changed := true; changed; { // a dropped spec's names drop what uses them
		changed = false
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			specs := g.Specs[:0]
			for _, s := range g.Specs {
				if !uses(s) {
					specs = append(specs, s)
					continue
				}
				changed = true
				switch s := s.(type) {
				case *ast.TypeSpec:
					names[s.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names[n.Name] = true
					}
				}
			}
			g.Specs = specs
		}
	}
}

// exportImporter imports packages from the compiler's export data, which
// `go list -export` finds (building it into the build cache if needed):
// much faster than type-checking the SDK from source.
func exportImporter(t *testing.T, fset *token.FileSet) types.Importer {
	t.Helper()
	var pkgs []string
	for _, line := range strings.Split(imports, "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, `"`) {
			pkgs = append(pkgs, strings.Trim(l, `"`))
		}
	}
	goCmd, err := exec.LookPath("go") // go test puts GOROOT/bin first in PATH
	require.NoError(t, err)
	out, err := exec.Command(goCmd, append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}"}, pkgs...)...).Output()
	require.NoError(t, err, "go list -export")
	exports := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if path, file, ok := strings.Cut(line, "="); ok && file != "" {
			exports[path] = file
		}
	}
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %q: add it to the imports of readme_test.go", path)
		}
		return os.Open(file)
	})
}

// onlyDecls reports whether f holds nothing but declarations, so that it
// parsed as the file it is rather than as statements that happen to parse.
func onlyDecls(f *ast.File) bool { return len(f.Decls) > 0 }

var unusedRE = regexp.MustCompile(`declared and not used|imported and not used`)

// relocate turns a position in the wrapped source of a block of the
// document name into the document's line.
func relocate(name, msg string, first, offset int) string {
	position := regexp.MustCompile(regexp.QuoteMeta(name) + `:(\d+):(\d+)`)
	return position.ReplaceAllStringFunc(msg, func(p string) string {
		m := position.FindStringSubmatch(p)
		var line, col int
		fmt.Sscan(m[1], &line)
		fmt.Sscan(m[2], &col)
		return fmt.Sprintf("%s:%d:%d", name, first+line-offset, col)
	})
}
