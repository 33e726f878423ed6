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

// exports is the writer [Example.Execute] hands to Example.Describe: the
// output of -describe (nil without it) and the files of -workbench and
// -cloudformation. [Describe] finds it behind the io.Writer.
type exports struct {
	out            io.Writer // nil: print nothing
	workbench      string    // -workbench FILE, "" for none
	cloudformation string    // -cloudformation FILE, "" for none
	items          []map[string]types.AttributeValue
}

// Write prints p with -describe and discards it otherwise.
func (e *exports) Write(p []byte) (int, error) {
	if e.out == nil {
		return len(p), nil
	}
	return e.out.Write(p)
}

// Describe is what an example's Describe entry point calls with its model:
// it writes the model as Markdown (adjlist.Describe) followed by its
// Mermaid diagram (adjlist.Model.Mermaid) to w. When w is the writer
// Execute passes, it also writes the files -workbench and -cloudformation
// name: the NoSQL Workbench data model (with the items the run left in the
// table as sample data, after a run without -cleanup) and the
// CloudFormation template of the table. It makes no request.
func Describe(w io.Writer, t *adjlist.Table, handles ...adjlist.Describer) error {
	m, err := adjlist.DescribeModel(t, handles...)
	if err != nil {
		return err
	}
	e, _ := w.(*exports)
	if e == nil || e.out != nil {
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
	if e == nil {
		return nil
	}
	if e.workbench != "" {
		if err := writeFile(e.workbench, func(w io.Writer) error {
			return workbench.Write(w, m, func(o *workbench.Options) { o.Items = e.items })
		}); err != nil {
			return err
		}
	}
	if e.cloudformation != "" {
		return writeFile(e.cloudformation, func(w io.Writer) error { return cloudformation.Write(w, m) })
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

// export writes the files f asks for after a run on table: the model
// through ex.Describe, with the table's items as sample data unless the
// run deleted the table (-cleanup).
func (ex Example) export(ctx context.Context, db API, f *Flags) error {
	if f.Workbench == "" && f.CloudFormation == "" {
		return nil
	}
	e := &exports{workbench: f.Workbench, cloudformation: f.CloudFormation}
	if f.Workbench != "" && !f.Cleanup {
		items, err := scan(ctx, db, f.Table, 0)
		if err != nil {
			return err
		}
		e.items = items
	}
	return ex.Describe(e, nil, f.Table)
}
