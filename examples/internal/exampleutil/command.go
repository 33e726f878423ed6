package exampleutil

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"

	"github.com/adjlist/adjlist"
)

// Flags are the flags every example takes.
type Flags struct {
	Table    string // -table: the DynamoDB table, created if missing
	Cleanup  bool   // -cleanup: delete the table at the end
	AWS      bool   // -aws: real DynamoDB instead of DynamoDB Local
	Describe bool   // -describe: print the model and exit
	Verify   bool   // -verify: check the table against the model after the run

	Workbench      string // -workbench FILE: write the NoSQL Workbench data model
	CloudFormation string // -cloudformation FILE: write the CloudFormation template
}

// RegisterFlags defines -table (default "adjlist-" + name), -cleanup, -aws,
// -describe, -verify, -workbench and -cloudformation on fs.
func RegisterFlags(fs *flag.FlagSet, name string) *Flags {
	f := new(Flags)
	fs.StringVar(&f.Table, "table", "adjlist-"+name, "DynamoDB table `name`; created if missing")
	fs.BoolVar(&f.Cleanup, "cleanup", false, "delete the table at the end")
	fs.BoolVar(&f.AWS, "aws", false, "use your AWS configuration (real DynamoDB, billed) instead of DynamoDB Local")
	fs.BoolVar(&f.Describe, "describe", false, "print the single-table design (adjlist.Describe) and its Mermaid diagram and exit, without DynamoDB")
	fs.BoolVar(&f.Verify, "verify", false, "after the run, check every item of the table against the model (adjlist.Verify), print the findings and fail if there are any")
	fs.StringVar(&f.Workbench, "workbench", "", "write the model as a NoSQL Workbench data model to `FILE` (with the table's items as sample data after a run without -cleanup)")
	fs.StringVar(&f.CloudFormation, "cloudformation", "", "write the table as a CloudFormation AWS::DynamoDB::Table template to `FILE`")
	return f
}

// Example is one runnable example: its name, its model and its run. The
// flags, -describe and the exports are [Example.Execute]'s, from Model, so
// no example can take a flag it ignores.
type Example struct {
	// Name names the command and its default table, "adjlist-" + Name.
	Name string
	// Model returns the example's model on db and table: the table handle
	// and what -describe and the exports render (its handles and access
	// patterns, see adjlist.DescribeModel). db is nil for -describe: a
	// table without a client sends nothing, so -describe needs no
	// DynamoDB.
	Model func(db adjlist.Client, table string) (*adjlist.Table, []adjlist.Describer)
	// Run writes the example's items to table and shows its access
	// patterns, then deletes the table if cleanup is set.
	Run func(ctx context.Context, db API, table string, cleanup bool, w io.Writer) error
	// Traced gives the example -trace: Run's context then carries an
	// OpenTelemetry TracerProvider ([TracerProvider]) that prints each
	// span to the output as it ends. Run must pass it to its table's
	// Options. Examples without it take no -trace.
	Traced bool
}

// connect is Connect, replaced in tests.
var connect = Connect

// Main runs ex as a command: flags from os.Args, output to os.Stdout,
// errors to stderr with a non-zero exit. Ctrl-C cancels the run, so a
// DynamoDB Local started for it is stopped.
func Main(ex Example) {
	log.SetFlags(0)
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	err := ex.Execute(ctx, os.Args[1:], os.Stdout)
	cancel()
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case errors.As(err, new(usageError)):
		os.Exit(2) // the flag package has printed the problem and the usage
	case err != nil:
		log.Fatal(err)
	}
}

// usageError is a command-line error the flag package has already reported.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// Execute parses args (without the command name). With -describe it
// renders ex.Model and returns, making no connection: it prints the model
// as Markdown (adjlist.Describe) and its Mermaid diagram, and writes the
// -workbench and -cloudformation files, the data model without sample
// items; -cleanup, -aws, -verify or -trace with -describe is a usage
// error. Otherwise it connects (see [Connect]) and calls ex.Run, with
// -trace (ex.Traced) on a context carrying a TracerProvider that prints
// each span to w as it ends, shut down before Execute returns; with
// -verify it then
// walks the table with adjlist.Verify against ex.Model, prints the items
// scanned and each finding (or "no findings"), and fails with
// [ErrFindings] if there are any: -verify -cleanup runs ex.Run without
// cleanup and deletes the table after the check, whatever it found. Then
// it writes the -workbench file (with the items the run left in the table,
// unless -cleanup deleted it) and the -cloudformation file, and releases
// the connection.
func (ex Example) Execute(ctx context.Context, args []string, w io.Writer) (err error) {
	fs := flag.NewFlagSet(ex.Name, flag.ContinueOnError)
	f := RegisterFlags(fs, ex.Name)
	tracing := ex.traceFlag(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: go run ./examples/%s [-table NAME] [-cleanup] [-aws] [-describe] [-verify] [-workbench FILE] [-cloudformation FILE]%s\n", ex.Name, ex.traceUsage())
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		err := fmt.Errorf("unexpected arguments: %q", fs.Args())
		fmt.Fprintln(fs.Output(), err)
		fs.Usage()
		return usageError{err}
	}
	if f.Describe {
		// -describe makes no connection, so these would do nothing.
		for name, set := range map[string]bool{"-cleanup": f.Cleanup, "-aws": f.AWS, "-verify": f.Verify, "-trace": *tracing} {
			if set {
				err := fmt.Errorf("%s has no effect with -describe, which does not touch DynamoDB", name)
				fmt.Fprintln(fs.Output(), err)
				fs.Usage()
				return usageError{err}
			}
		}
		return ex.describe(w, f, nil)
	}
	db, stop, err := connect(ctx, f.AWS)
	if err != nil {
		return err
	}
	defer func() {
		if stopErr := stop(); err == nil {
			err = stopErr
		}
	}()
	if *tracing {
		var stopTracing func(context.Context) error
		if ctx, stopTracing, err = startTracing(ctx, w); err != nil {
			return err
		}
		defer func() {
			if stopErr := stopTracing(context.Background()); err == nil {
				err = stopErr
			}
		}()
	}
	if err := ex.Run(ctx, db, f.Table, f.Cleanup && !f.Verify, w); err != nil {
		return err
	}
	if f.Verify {
		err := ex.verify(ctx, db, f.Table, w)
		if f.Cleanup {
			err = errors.Join(err, DeleteTable(ctx, db, f.Table))
		}
		if err != nil {
			return err
		}
	}
	return ex.export(ctx, db, f)
}
