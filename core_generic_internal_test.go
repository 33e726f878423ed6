package adjlist

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOneCoreNotGeneric: the work of the single-item verbs (handle), of
// a query's run (querySpec, paging.Run) and of a read's decode is not
// generic, so it is compiled once, not once per item type (generic code
// is compiled per GC shape, and every struct type is its own shape).
// querySpec declares no methods: Query[T] embeds it, and every method of
// an embedded type gets a promoted wrapper compiled for each Query[T].
// Each handle embeds a non-generic core (nodeCore, ...) that declares
// the handle and implements the unexported interfaces (Describer,
// Scannable, Endpoint, Incoming, ...): the generic handles keep only
// typed shims, and the free functions the handles call are not generic.
func TestOneCoreNotGeneric(t *testing.T) {
	t.Parallel()
	generic := map[string]bool{} // type or function name → declared with type parameters
	methods := map[string][]string{}
	for _, dir := range []string{".", "internal/paging", "internal/walks"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		fset := token.NewFileSet()
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
			require.NoError(t, err)
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.GenDecl:
					for _, s := range d.Specs {
						if ts, ok := s.(*ast.TypeSpec); ok {
							generic[f.Name.Name+"."+ts.Name.Name] = ts.TypeParams != nil
						}
					}
				case *ast.FuncDecl:
					if d.Recv == nil {
						generic[f.Name.Name+"."+d.Name.Name] = d.Type.TypeParams != nil
						continue
					}
					recv := d.Recv.List[0].Type
					if star, ok := recv.(*ast.StarExpr); ok {
						recv = star.X
					}
					if ix, ok := recv.(*ast.IndexExpr); ok {
						recv = ix.X
					}
					if ix, ok := recv.(*ast.IndexListExpr); ok {
						recv = ix.X
					}
					if id, ok := recv.(*ast.Ident); ok {
						methods[f.Name.Name+"."+id.Name] = append(methods[f.Name.Name+"."+id.Name], d.Name.Name)
					}
				}
			}
		}
	}
	for _, name := range []string{"adjlist.handle", "adjlist.querySpec", "paging.Run",
		"adjlist.nodeCore", "adjlist.edgeCore", "adjlist.collectionCore", "adjlist.entityCore",
		"adjlist.headSpec", "adjlist.patternOnly", "adjlist.parentOf",
		"adjlist.queryPattern", "adjlist.indexSpec", "adjlist.partitionSpec", "adjlist.bulk",
		"adjlist.deleteChild", "adjlist.migrate", "adjlist.twoHop", "walks.DataCheck"} {
		g, ok := generic[name]
		require.True(t, ok, "%s not found", name)
		assert.False(t, g, "%s is generic: it is compiled once per item type", name)
	}
	assert.Empty(t, methods["adjlist.querySpec"], "methods of querySpec, which Query[T] embeds, are compiled once per Query[T]")
	// The work behind the unexported interfaces and the constructors is
	// the cores': a generic handle declaring one of these compiles it per
	// item type again.
	cored := []string{"init", "describe", "scanSpec", "head", "endpoint", "incoming", "children", "ends",
		"recorded", "record", "recordID", "refs", "keyed", "keyedData", "keyCtx", "handle", "keyType",
		"key", "keys", "list", "from", "to", "waitIndexed", "reverseKeys", "split", "splitKeys",
		"checkNumberIDs", "parseKeys", "check", "ids", "id", "hasKeys", "parentKey", "parentEnd",
		"scan", "outgoing", "sortKey", "sourceKey", "indexKeys", "refOf", "parseRef"}
	for handle, core := range map[string]string{"Node": "nodeCore", "Edge": "edgeCore", "Collection": "collectionCore", "Entity": "entityCore"} {
		require.NotEmpty(t, methods["adjlist."+core], "%s declares no methods", core)
		for _, m := range methods["adjlist."+handle] {
			assert.NotContains(t, cored, m, "%s[...].%s is generic: declare it on %s", handle, m, core)
		}
	}
}
