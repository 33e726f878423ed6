// Package readmecheck holds the README and the guides under docs/ to the
// module: its tests type-check every Go block of README.md and docs/*.md,
// run each one against DynamoDB Local with assertions of what its prose
// promises (a test per block, kept equal to the block's text), check that
// every relative link resolves and that the README's Layout table lists
// every file.
// Only its tests do anything; this file is the Markdown reading they share.
package readmecheck

import (
	"fmt"
	"strings"
)

// Block is one fenced code block of a Markdown document.
type Block struct {
	Lang string // the first word of the info string: "go", "sh", "" for none
	Text string // the lines between the fences, each ending in "\n"
	Line int    // the document's line (1-based) of the opening fence
}

// Blocks returns the fenced code blocks of a Markdown document in order,
// read as CommonMark reads them: a fence is a line of at least three
// backticks (or tildes) indented by at most three spaces, and only a line
// of at least as many of the same character, with nothing after them but
// spaces, closes it. So a fence inside the code, such as "// ```mermaid"
// in a Go comment or "```" in a string, is text of the block, not its end.
// Content lines lose up to as many leading spaces as the opening fence was
// indented by. A block left open at the end of the document is an error
// (CommonMark would run it to the end, hiding everything after it).
func Blocks(doc string) ([]Block, error) {
	var (
		out   []Block
		open  *Block
		char  byte
		n     int // the opening fence's length
		ind   int // the opening fence's indentation
		lines = strings.SplitAfter(doc, "\n")
	)
	for i, line := range lines {
		text := strings.TrimRight(line, "\r\n")
		if open == nil {
			c, l, indent, info, ok := fenceLine(text)
			if !ok || (c == '`' && strings.Contains(info, "`")) {
				continue
			}
			lang, _, _ := strings.Cut(info, " ")
			open, char, n, ind = &Block{Lang: lang, Line: i + 1}, c, l, indent
			continue
		}
		if c, l, _, info, ok := fenceLine(text); ok && c == char && l >= n && info == "" {
			out = append(out, *open)
			open = nil
			continue
		}
		open.Text += dedent(text, ind) + "\n"
	}
	if open != nil {
		return out, fmt.Errorf("the code block opened at line %d is never closed", open.Line)
	}
	return out, nil
}

// fenceLine reports whether line is a code fence: at most three spaces,
// then at least three backticks or tildes (char, count), then the info
// string (trimmed).
func fenceLine(line string) (char byte, count, indent int, info string, ok bool) {
	for indent < len(line) && line[indent] == ' ' {
		indent++
	}
	if indent > 3 || indent == len(line) || (line[indent] != '`' && line[indent] != '~') {
		return 0, 0, 0, "", false
	}
	char = line[indent]
	rest := line[indent:]
	for count < len(rest) && rest[count] == char {
		count++
	}
	if count < 3 {
		return 0, 0, 0, "", false
	}
	return char, count, indent, strings.TrimSpace(rest[count:]), true
}

// dedent removes up to n leading spaces from line.
func dedent(line string, n int) string {
	for i := 0; i < n && strings.HasPrefix(line, " "); i++ {
		line = line[1:]
	}
	return line
}
