package readmecheck

import (
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The markers of a README block in a test file of this package, each a
// line of its own: the block's code, copied from README.md, runs between
// begin and end. A block whose test must act between two of its lines
// (declare what the next line reads, check an error a later line
// overwrites) ends there and goes on after a continue marker; its parts
// are joined in order.
const (
	beginMarker    = "// readme:begin"
	continueMarker = "// readme:continue"
	endMarker      = "// readme:end"
)

// region is a README block as a test runs it.
type region struct {
	pos  string // file:line of its begin marker
	text string
}

// testRegions returns the README blocks the test files of this package
// and of the packages in its subdirectories (the quick start's, which
// declares its own types) run, in file order.
func testRegions(t *testing.T) []region {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	require.NoError(t, err)
	sub, err := filepath.Glob("*/*_test.go")
	require.NoError(t, err)
	files = append(files, sub...)
	var out []region
	for _, file := range files {
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		rs, err := regions(file, string(b))
		require.NoError(t, err)
		out = append(out, rs...)
	}
	return out
}

// regions reads the marked regions of one file's text.
func regions(file, src string) ([]region, error) {
	var (
		out  []region
		open bool // between a begin or continue marker and its end
	)
	for i, line := range strings.Split(src, "\n") {
		pos := fmt.Sprintf("%s:%d", file, i+1)
		switch strings.TrimSpace(line) {
		case beginMarker, continueMarker:
			if open {
				return nil, fmt.Errorf("%s: %s inside a block", pos, strings.TrimSpace(line))
			}
			if strings.TrimSpace(line) == beginMarker {
				out = append(out, region{pos: pos})
			} else if len(out) == 0 {
				return nil, fmt.Errorf("%s: %s before any %s", pos, continueMarker, beginMarker)
			}
			open = true
		case endMarker:
			if !open {
				return nil, fmt.Errorf("%s: %s without a block", pos, endMarker)
			}
			open = false
		default:
			if open {
				out[len(out)-1].text += line + "\n"
			}
		}
	}
	if open {
		return nil, fmt.Errorf("%s: a README block is not ended (%s)", file, endMarker)
	}
	return out, nil
}

// tokens is Go source as the compiler reads it, comments included: two
// texts with the same tokens are the same code however gofmt laid them
// out (indentation, aligned comments, a one-line block split over three).
func tokens(src string) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", fset.Base(), len(src)), []byte(src), nil, scanner.ScanComments)
	var out []string
	for {
		_, tok, lit := s.Scan()
		switch {
		case tok == token.EOF:
			return out
		case tok == token.SEMICOLON && lit == "\n": // inserted at a line's end
		case tok == token.COMMENT:
			out = append(out, strings.TrimRight(lit, " \t\r"))
		case lit != "":
			out = append(out, lit)
		default:
			out = append(out, tok.String())
		}
	}
}

// TestEveryReadmeBlockRuns holds the Go blocks of README.md and of the
// guides under docs/ and the tests that run them together: every block is
// the code of a region of a test of this package (token for token, so
// only layout may differ), and every region is a block of a document. So
// a new block fails until a test runs it, and an edited block fails until
// its test runs the new code and asserts what the new prose says.
func TestEveryReadmeBlockRuns(t *testing.T) {
	for _, e := range unmatched(docGoBlocks(t), testRegions(t)) {
		t.Error(e)
	}
}

// unmatched lists the blocks no region runs and the regions that are no
// document's block.
func unmatched(blocks []docBlock, regs []region) []string {
	var out []string
	run := make([]bool, len(regs))
	for _, b := range blocks {
		want := tokens(b.Text)
		found := false
		for i, r := range regs {
			if slices.Equal(tokens(r.text), want) {
				found, run[i] = true, true
			}
		}
		if !found {
			out = append(out, fmt.Sprintf("%s:%d: no test runs this Go block; copy it into a test of internal/readmecheck between %q and %q, with assertions of what its prose promises%s",
				b.Doc, b.Line, beginMarker, endMarker, closest(want, regs)))
		}
	}
	for i, r := range regs {
		if !run[i] {
			out = append(out, fmt.Sprintf("%s: this block is no longer in README.md or a guide under docs/; run the document's new text instead, and check the assertions against its prose", r.pos))
		}
	}
	return out
}

// A guide's block that no test runs fails, and so does a test's region
// whose block left the documents.
func TestUnmatched(t *testing.T) {
	regs := []region{{pos: "run_x_test.go:3", text: "x := f(1)\n"}, {pos: "run_y_test.go:9", text: "gone()\n"}}
	blocks := []docBlock{{"docs/reads.md", Block{Lang: "go", Text: "x := f(1)\n", Line: 4}}, {"docs/writes.md", Block{Lang: "go", Text: "y := f(2)\n", Line: 7}}}
	got := unmatched(blocks, regs)
	require.Len(t, got, 2)
	assert.Contains(t, got[0], "docs/writes.md:7: no test runs this Go block")
	assert.Contains(t, got[1], "run_y_test.go:9: this block is no longer in README.md or a guide")
	assert.Empty(t, unmatched(blocks[:1], regs[:1]))
}

// closest names the region that shares the longest start with the
// tokens of a block, and where they part, to point at a test whose block
// was edited.
func closest(want []string, regs []region) string {
	best, n := -1, 0
	for i, r := range regs {
		got := tokens(r.text)
		k := 0
		for k < len(got) && k < len(want) && got[k] == want[k] {
			k++
		}
		if k > n {
			best, n = i, k
		}
	}
	if best < 0 {
		return ""
	}
	got := tokens(regs[best].text)
	at := func(ts []string) string {
		if n < len(ts) {
			return fmt.Sprintf("%q", ts[n])
		}
		return "the end"
	}
	return fmt.Sprintf(" (closest: the block of %s, which has %s where the README has %s)", regs[best].pos, at(got), at(want))
}

// regions joins a block's parts in order and refuses markers that do not
// pair.
func TestRegions(t *testing.T) {
	src := "a\n\t// readme:begin\n\tx := 1\n\t// readme:end\n\tcheck(x)\n\t// readme:continue\n\ty := x\n\t// readme:end\n" +
		"// readme:begin\nfunc F() {}\n// readme:end\n"
	got, err := regions("f_test.go", src)
	require.NoError(t, err)
	assert.Equal(t, []region{{pos: "f_test.go:2", text: "\tx := 1\n\ty := x\n"}, {pos: "f_test.go:9", text: "func F() {}\n"}}, got)
	for name, src := range map[string]string{
		"begin inside a block":    "// readme:begin\n// readme:begin\n// readme:end\n",
		"continue before a begin": "// readme:continue\n// readme:end\n",
		"end without a block":     "// readme:end\n",
		"not ended":               "// readme:begin\nx\n",
	} {
		_, err := regions("f_test.go", src)
		assert.Error(t, err, name)
	}
}

// tokens sees code, not layout: gofmt's indentation, aligned comments and
// a one-line block split over lines compare equal; a changed value or
// comment does not.
func TestTokens(t *testing.T) {
	readme := "if err != nil { return err }\nx := f(1)   // one\n"
	assert.Equal(t, tokens(readme), tokens("\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\tx := f(1) // one\n"))
	assert.NotEqual(t, tokens(readme), tokens("if err != nil { return err }\nx := f(\"1\") // one\n"))
	assert.NotEqual(t, tokens(readme), tokens("if err != nil { return err }\nx := f(1) // two\n"))
}
