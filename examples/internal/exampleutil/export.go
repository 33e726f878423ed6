package exampleutil

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/cloudformation"
	"github.com/adjlist/adjlist/workbench"
)

// describe renders ex.Model for -describe: the Markdown (adjlist.Describe)
// and the Mermaid diagram to w, then the files f names. It makes no
// request.
func (ex Example) describe(w io.Writer, f *Flags, items []map[string]types.AttributeValue) error {
	t, handles := ex.Model(nil, f.Table)
	m, err := adjlist.DescribeModel(t, handles...)
	if err != nil {
		return err
	}
	if w != nil {
		if err := adjlist.Describe(w, t, handles...); err != nil {
			return err
		}
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
		if err := m.Mermaid(w); err != nil {
			return err
		}
	}
	if f.Workbench != "" {
		if err := writeFile(f.Workbench, func(w io.Writer) error {
			return workbench.Write(w, m, func(o *workbench.Options) { o.Items = items })
		}); err != nil {
			return err
		}
	}
	if f.CloudFormation != "" {
		return writeFile(f.CloudFormation, func(w io.Writer) error { return cloudformation.Write(w, m) })
	}
	return nil
}

// writeFile creates path and fills it with write.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// export writes the files f asks for after a run on table, from ex.Model,
// with the table's items as sample data unless the run deleted the table
// (-cleanup).
func (ex Example) export(ctx context.Context, db API, f *Flags) error {
	if f.Workbench == "" && f.CloudFormation == "" {
		return nil
	}
	var items []map[string]types.AttributeValue
	if f.Workbench != "" && !f.Cleanup {
		var err error
		if items, err = scan(ctx, db, f.Table, 0); err != nil {
			return err
		}
	}
	return ex.describe(nil, f, items)
}
