package main

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The model's budget: code lines (neither blank nor comment) and distinct
// library names a reader must learn, counted between main.go's
// "// model:begin" and "// model:end".
const (
	maxModelLines = 140
	maxModelNames = 45
)

// TestModelSize measures the model in main.go: its code lines, and the
// distinct names of package adjlist it uses (adjlist.X, and each method
// called and field set on a value of an adjlist type, by name: Get once
// for every handle's Get), and holds them to the budget.
func TestModelSize(t *testing.T) {
	src, err := os.ReadFile("main.go")
	require.NoError(t, err)
	text := string(src)
	begin, end := strings.Index(text, "// model:begin\n"), strings.Index(text, "// model:end\n")
	require.True(t, begin >= 0 && end > begin, "main.go marks its model")
	lines := 0
	for _, l := range strings.Split(text[begin:end], "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "//") {
			lines++
		}
	}

	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", src, parser.ParseComments)
	require.NoError(t, err)
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: exportImporter(t, fset)}
	_, err = conf.Check("main", fset, []*ast.File{f}, info)
	require.NoError(t, err)

	model := libNames(fset, f, info, begin, end)
	all := libNames(fset, f, info, 0, len(src))
	t.Logf("model: %d code lines, %d library names: %s", lines, len(model), strings.Join(model, " "))
	t.Logf("main.go, model, run and printing: %d library names: %s", len(all), strings.Join(all, " "))
	assert.LessOrEqual(t, lines, maxModelLines, "code lines")
	assert.LessOrEqual(t, len(model), maxModelNames, "library names: %v", model)
}

// libNames are the distinct names of package adjlist that f uses between
// byte offsets begin and end, sorted: adjlist.X, and each method called
// and field set (in a selector or a composite literal) on a value of an
// adjlist type.
func libNames(fset *token.FileSet, f *ast.File, info *types.Info, begin, end int) []string {
	const lib = "github.com/adjlist/adjlist"
	inRange := func(n ast.Node) bool {
		off := fset.Position(n.Pos()).Offset
		return off > begin && off < end
	}
	names := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil || !inRange(n) {
			return true
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				if pkg, ok := info.Uses[id].(*types.PkgName); ok && pkg.Imported().Path() == lib {
					names[n.Sel.Name] = true
					return true
				}
			}
			if s, ok := info.Selections[n]; ok && s.Obj().Pkg() != nil && s.Obj().Pkg().Path() == lib {
				names[n.Sel.Name] = true
			}
		case *ast.KeyValueExpr: // a field of a library struct set in a literal
			if id, ok := n.Key.(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok && v.IsField() && v.Pkg().Path() == lib {
					names[id.Name] = true
				}
			}
		}
		return true
	})
	return slices.Sorted(maps.Keys(names))
}

// exportImporter imports packages from the export data the go command
// has built for this package's dependencies (go list -export), so the
// type check reads no dependency's source.
func exportImporter(t *testing.T, fset *token.FileSet) types.Importer {
	t.Helper()
	goCmd := os.Getenv("GO")
	if goCmd == "" {
		goCmd = "go"
	}
	out, err := exec.Command(goCmd, "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", ".").Output()
	require.NoError(t, err)
	exports := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, file, ok := strings.Cut(l, "="); ok && file != "" {
			exports[path] = file
		}
	}
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
}
