package adjlist

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/internal/errs"
)

// TestSentinelsAreErrs: each exported sentinel is internal/errs' value
// itself, so errors.Is matches what the internal packages return.
func TestSentinelsAreErrs(t *testing.T) {
	t.Parallel()
	for name, pair := range map[string][2]error{
		"ErrInvalidKey":          {ErrInvalidKey, errs.ErrInvalidKey},
		"ErrKeyAttribute":        {ErrKeyAttribute, errs.ErrKeyAttribute},
		"ErrItemTooLarge":        {ErrItemTooLarge, errs.ErrItemTooLarge},
		"ErrNotFound":            {ErrNotFound, errs.ErrNotFound},
		"ErrExists":              {ErrExists, errs.ErrExists},
		"ErrConditionFailed":     {ErrConditionFailed, errs.ErrConditionFailed},
		"ErrVersionConflict":     {ErrVersionConflict, errs.ErrVersionConflict},
		"ErrOutcomeUnknown":      {ErrOutcomeUnknown, errs.ErrOutcomeUnknown},
		"ErrInvalidCursor":       {ErrInvalidCursor, errs.ErrInvalidCursor},
		"ErrIndexConsistentRead": {ErrIndexConsistentRead, errs.ErrIndexConsistentRead},
		"ErrUnprocessed":         {ErrUnprocessed, errs.ErrUnprocessed},
		"ErrNotVisible":          {ErrNotVisible, errs.ErrNotVisible},
		"ErrNodeNotFound":        {ErrNodeNotFound, errs.ErrNodeNotFound},
		"ErrTxConflict":          {ErrTxConflict, errs.ErrTxConflict},
		"ErrTxLimit":             {ErrTxLimit, errs.ErrTxLimit},
		"ErrDuplicateKey":        {ErrDuplicateKey, errs.ErrDuplicateKey},
		"ErrInvalidOption":       {ErrInvalidOption, errs.ErrInvalidOption},
	} {
		assert.Same(t, pair[1], pair[0], name)
		assert.Contains(t, errs.Sentinels, pair[0], name)
	}
	assert.ErrorIs(t, errs.ErrEdgeExists, ErrExists)
	assert.ErrorIs(t, ErrNodeNotFound, ErrNotFound)
}

// lookalike has KeyError's fields, but is not it.
type lookalike struct{ Name, ID, Reason string }

func (*lookalike) Error() string { return "lookalike" }

// TestKeyErrorFromInternal: a key refused inside internal/ is a
// *KeyError (one type: the root aliases it), with its fields, and matches
// ErrInvalidKey.
func TestKeyErrorFromInternal(t *testing.T) {
	t.Parallel()
	err := fmt.Errorf("deep: %w", &errs.KeyError{Name: "STU", ID: "a\x00", Reason: "id contains a control character"})
	var ke *KeyError
	require.ErrorAs(t, err, &ke)
	assert.Equal(t, KeyError{Name: "STU", ID: "a\x00", Reason: "id contains a control character"}, *ke)
	assert.Equal(t, `adjlist: invalid key STU "a\x00": id contains a control character`, ke.Error())
	require.ErrorIs(t, err, ErrInvalidKey)
	var other *lookalike
	assert.False(t, errors.As(err, &other), "only adjlist.KeyError is filled")
	_, same := any(&errs.KeyError{}).(*KeyError)
	assert.True(t, same, "KeyError is declared once")
	assert.Equal(t, ke.Error(), (&errs.KeyError{Name: "STU", ID: "a\x00", Reason: "id contains a control character"}).Error())
}

// devTools are the internal packages that are tools of this repository,
// not part of the library.
var devTools = []string{"apidiff", "readmecheck", "cfnlint", "testsize"}

// libraryFiles are the library's non-test Go files: the root package's
// and its internal packages', dev tools aside.
func libraryFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	more, err := filepath.Glob("internal/*/*.go")
	require.NoError(t, err)
	var out []string
	for _, f := range append(files, more...) {
		if strings.HasSuffix(f, "_test.go") || slices.Contains(devTools, filepath.Base(filepath.Dir(f))) {
			continue
		}
		out = append(out, f)
	}
	require.Greater(t, len(out), 50)
	return out
}

// TestNoInit: no library package wires another with an init function;
// what the internal packages need they import (internal/errs) or are
// given.
func TestNoInit(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	for _, f := range libraryFiles(t) {
		af, err := parser.ParseFile(fset, f, nil, 0)
		require.NoError(t, err)
		for _, d := range af.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "init" {
				t.Errorf("%s: func init", fset.Position(fn.Pos()))
			}
		}
	}
}

// layers are the internal library packages by layer, lowest first: a
// package imports only packages of lower layers.
var layers = [][]string{
	{"errs", "ddbitem", "ddbjson", "telemetry"},
	{"keycodec", "schema"},
	{"ddbexpr"},
	{"send"},
	{"counting", "paging"},
	{"walks", "modeldoc"},
}

// TestImportsRunDown: every internal library package is in layers, and
// imports only internal packages of a lower layer.
func TestImportsRunDown(t *testing.T) {
	t.Parallel()
	layer := map[string]int{}
	for i, l := range layers {
		for _, p := range l {
			layer[p] = i
		}
	}
	const prefix = `"github.com/adjlist/adjlist/internal/`
	fset := token.NewFileSet()
	for _, f := range libraryFiles(t) {
		if filepath.Dir(f) == "." {
			continue
		}
		pkg := filepath.Base(filepath.Dir(f))
		own, ok := layer[pkg]
		if !assert.True(t, ok, "internal/%s is in no layer", pkg) {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		require.NoError(t, err)
		for _, imp := range af.Imports {
			if !strings.HasPrefix(imp.Path.Value, prefix) {
				continue
			}
			dep := strings.Trim(strings.TrimPrefix(imp.Path.Value, prefix), `"`)
			l, ok := layer[dep]
			assert.True(t, ok && l < own, "%s imports internal/%s, not of a lower layer", f, dep)
		}
	}
}
