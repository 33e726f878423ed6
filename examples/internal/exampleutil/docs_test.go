package exampleutil

import (
	"flag"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExampleDocsNameEveryFlag holds each example's package doc to the
// flags it takes: every flag exampleutil registers, and -trace where the
// example is Traced, each named in the doc comment.
func TestExampleDocsNameEveryFlag(t *testing.T) {
	fs := flag.NewFlagSet("example", flag.ContinueOnError)
	RegisterFlags(fs, "example")
	var flags []string
	fs.VisitAll(func(f *flag.Flag) { flags = append(flags, "-"+f.Name) })
	require.Contains(t, flags, "-verify")
	mains, err := filepath.Glob(filepath.Join("..", "..", "*", "main.go"))
	require.NoError(t, err)
	require.Len(t, mains, 10)
	for _, main := range mains {
		src, err := os.ReadFile(main)
		require.NoError(t, err)
		f, err := parser.ParseFile(token.NewFileSet(), main, src, parser.ParseComments|parser.PackageClauseOnly)
		require.NoError(t, err)
		require.NotNil(t, f.Doc, "%s has no package doc", main)
		doc := f.Doc.Text()
		want := slices.Clone(flags)
		if regexp.MustCompile(`Traced:\s*true`).Match(src) {
			want = append(want, "-trace")
		}
		for _, flag := range want {
			named := regexp.MustCompile(`(^|[\s\[(])` + regexp.QuoteMeta(flag) + `\b`).MatchString(doc)
			assert.True(t, named, "%s's package doc does not name %s", main, flag)
		}
	}
}
