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
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// readmeGoBlocks returns the Go blocks of README.md, read whole
// ([Blocks]).
func readmeGoBlocks(t *testing.T) []Block {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	all, err := Blocks(string(b))
	require.NoError(t, err, "README.md")
	var out []Block
	for _, b := range all {
		if b.Lang == "go" {
			out = append(out, b)
		}
	}
	require.NotEmpty(t, out, "README.md has no Go block")
	return out
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

// TestReadmeGoBlocks wraps each Go block of the README by one rule and
// type-checks it with the prelude (prelude.go.txt: the data types, handles
// and variables the README's prose introduces):
//
//   - a block that parses as a file's declarations (after a package
//     clause) is such a file, e.g. a func or an import list with tests;
//   - any other block is the body of a function in a file that imports the
//     packages above.
//
// Each block is checked with the prelude and the declaration blocks
// before it (a test may call the README's NewModel), so statement blocks
// may declare the same names. Unused variables and imports are allowed:
// snippets show calls, not whole programs. Every other error fails with the
// README line it is on.
func TestReadmeGoBlocks(t *testing.T) {
	prelude, err := os.ReadFile("prelude.go.txt")
	require.NoError(t, err)
	fset := token.NewFileSet()
	imp := exportImporter(t, fset)
	pre, err := parser.ParseFile(fset, "prelude.go", prelude, parser.SkipObjectResolution)
	require.NoError(t, err)
	var decls []*ast.File // the declaration blocks so far, which later blocks may use
	for _, b := range readmeGoBlocks(t) {
		first := b.Line + 1 // the README line of the block's first line
		name := fmt.Sprintf("README.md:%d", first)
		// offset is the line of the wrapped source the block starts on.
		src, offset := "package readme\n\n"+b.Text, 3
		file, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		isDecls := err == nil && onlyDecls(file)
		switch {
		case isDecls && len(file.Imports) == 0:
			src, offset = "package readme\n\n"+imports+"\n"+b.Text, 4+strings.Count(imports, "\n")
			file, err = parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		case !isDecls:
			src, offset = "package readme\n\n"+imports+"\nfunc _() error {\n"+b.Text+"\nreturn nil\n}\n", 5+strings.Count(imports, "\n")
			file, err = parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		}
		if err != nil {
			t.Errorf("README Go block at line %d does not parse: %v", first, relocate(err.Error(), first, offset))
			continue
		}
		var errs []string
		conf := types.Config{Importer: imp, Error: func(err error) {
			// Snippets show calls, not programs: a variable or import
			// left unused is fine. Other soft errors (a := that declares
			// nothing new) are compile errors all the same.
			if te, ok := err.(types.Error); ok && te.Soft && unusedRE.MatchString(te.Msg) {
				return
			}
			errs = append(errs, relocate(err.Error(), first, offset))
		}}
		conf.Check("readme", fset, append([]*ast.File{pre, file}, decls...), nil)
		for _, e := range errs {
			t.Errorf("README Go block at line %d: %s", first, e)
		}
		if isDecls && len(errs) == 0 {
			decls = append(decls, file)
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

var position = regexp.MustCompile(`README\.md:\d+:(\d+):(\d+)`)

// relocate turns a position in the wrapped source into the README's line.
func relocate(msg string, first, offset int) string {
	return position.ReplaceAllStringFunc(msg, func(p string) string {
		m := position.FindStringSubmatch(p)
		var line, col int
		fmt.Sscan(m[1], &line)
		fmt.Sscan(m[2], &col)
		return fmt.Sprintf("README.md:%d:%d", first+line-offset, col)
	})
}
