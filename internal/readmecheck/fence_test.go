package readmecheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Blocks reads fences as CommonMark does: only a fence line of its own
// closes a block, so a fence inside the code (a Go comment, a string) is
// text of the block.
func TestBlocks(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []Block
	}{
		{"one block", "text\n```go\nx := 1\n```\nmore\n",
			[]Block{{Lang: "go", Text: "x := 1\n", Line: 2}}},
		{"a fence in a Go comment is code", "```go\nerr = m.Mermaid(w) // ```mermaid flowchart\nerr = workbench.Write(f, m)\n```\n",
			[]Block{{Lang: "go", Text: "err = m.Mermaid(w) // ```mermaid flowchart\nerr = workbench.Write(f, m)\n", Line: 1}}},
		{"a fence in a string is code", "```go\ns := \"```\"\n```\n",
			[]Block{{Lang: "go", Text: "s := \"```\"\n", Line: 1}}},
		{"a longer fence holds a shorter one", "````markdown\n```go\nx\n```\n````\n```go\ny\n```\n",
			[]Block{{Lang: "markdown", Text: "```go\nx\n```\n", Line: 1}, {Lang: "go", Text: "y\n", Line: 6}}},
		{"tildes, and backticks inside them", "~~~go\na := \"`\"\n```\n~~~\n",
			[]Block{{Lang: "go", Text: "a := \"`\"\n```\n", Line: 1}}},
		{"an indented fence, its indentation removed", "- item\n\n  ```go\n  x := 1\n    y := 2\n  ```\n",
			[]Block{{Lang: "go", Text: "x := 1\n  y := 2\n", Line: 3}}},
		{"the info string's first word", "```go title=x\nz\n```\n",
			[]Block{{Lang: "go", Text: "z\n", Line: 1}}},
		{"no language", "```\n$ make\n```\n",
			[]Block{{Lang: "", Text: "$ make\n", Line: 1}}},
		{"four spaces are not a fence", "    ```go\n    x\n    ```\n", nil},
		{"inline code is not a fence", "use ``` ``go`` ``` here\n", nil},
		{"a closing fence takes no info string", "```go\nx\n```go\ny\n```\n",
			[]Block{{Lang: "go", Text: "x\n```go\ny\n", Line: 1}}},
		{"CRLF line ends", "```go\r\nx\r\n```\r\n",
			[]Block{{Lang: "go", Text: "x\n", Line: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Blocks(tc.doc)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestBlocksUnclosed(t *testing.T) {
	_, err := Blocks("```go\nx\n```\ntext\n```go\ny\n")
	require.EqualError(t, err, "the code block opened at line 5 is never closed")
}
