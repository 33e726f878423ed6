package exampleutil

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/adjlist/adjlist"
)

// ErrFindings is the error of a -verify run whose table does not verify
// clean: [adjlist.Verify] found at least one fault. The report printed
// before it lists each finding.
var ErrFindings = errors.New("the table does not verify clean")

// verify walks table with [adjlist.Verify] against ex.Model on db and
// prints a short report to w: the items scanned, then each finding on
// its own line, or "no findings". It returns an error wrapping
// [ErrFindings] when there are findings, or Verify's own error.
func (ex Example) verify(ctx context.Context, db API, table string, w io.Writer) error {
	t, _ := ex.Model(db, table)
	res, err := adjlist.Verify(ctx, db, t)
	if err != nil {
		return fmt.Errorf("verify %s: %w", table, err)
	}
	if len(res.Findings) == 0 {
		_, err := fmt.Fprintf(w, "\nverify %s: %d items scanned, no findings\n", table, res.Scanned)
		return err
	}
	n := findings(len(res.Findings))
	fmt.Fprintf(w, "\nverify %s: %d items scanned, %s:\n", table, res.Scanned, n)
	for _, f := range res.Findings {
		fmt.Fprintf(w, "  %s\n", f)
	}
	return fmt.Errorf("verify %s: %s: %w", table, n, ErrFindings)
}

// findings is "1 finding" or "n findings".
func findings(n int) string {
	if n == 1 {
		return "1 finding"
	}
	return fmt.Sprintf("%d findings", n)
}
