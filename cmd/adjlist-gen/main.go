// Command adjlist-gen turns a NoSQL Workbench data model, or a live
// DynamoDB table, into a Go package: the model's tables with their
// indexes, one adjlist entity per item type, keyed as the model's sample
// items are, and a test that writes those items through the entities on
// DynamoDB Local and checks that DynamoDB stores them byte for byte as the
// model has them, then writes an item of new values per item type and
// reads it back every way the model reads it (Get, each index, each access
// pattern).
//
//	go get -tool github.com/adjlist/adjlist/cmd/adjlist-gen   # Go 1.24+, once per module
//	go tool adjlist-gen -workbench model.json -package shop -o ./shop
//
// writes shop/model.go and shop/model_test.go (go get -t ./shop then adds
// what the test imports). It reads every DataModel
// entry of the file (each TableName, KeyAttributes, NonKeyAttributes,
// GlobalSecondaryIndexes and LocalSecondaryIndexes with their
// projections, TableData, and TableFacets with their key aliases and
// data).
//
//	go tool adjlist-gen -table orders [-sample 1000] -package shop -o ./shop
//
// reads a live table instead, with the AWS SDK's default configuration
// (AWS_REGION, AWS_PROFILE or AWS_ACCESS_KEY_ID, ...;
// AWS_ENDPOINT_URL_DYNAMODB for DynamoDB Local): its keys and indexes
// (DescribeTable) and at most -sample items (default 1,000: a Scan through
// the SDK's paginator, in pages of at most one item more, which tells
// whether the table holds more; progress on stderr), which it treats as
// a Workbench model of that table holding those items, without facets,
// the items sorted by their keys' text (a number key's too: "10" before
// "9"). It only reads. A table holding a model's items
// gives the package the model gives, but for what only a model's facets
// and attribute list say: the order of the Go fields and of the indexes
// (a table's follows its items' attributes, and its indexes' keys and
// names), the names of facets other than their items' key
// text (Subscription for SUB#...; adjlist's exports' node_USER) and of
// ids that key aliases name ({AccountId} where a table gives {accID}),
// and key text an alias spells that reads as a value (ACTION#all).
// Unless -embed-samples, the package holds no sampled item: of their
// values only the literal text of the key templates ("c#", "profile") and
// the values that tell item types apart ("order") are in it; its test
// makes its items from the inferred types, and its comments name items by
// their place in the sample ("item 3"), not by their keys.
// -dry-run prints the inferred model (tables with their key types,
// indexes, item types with
// their key templates and Go fields, the notes) on standard output and
// writes nothing.
//
// From the sample items it infers:
//
//   - the item types: the facets where the model has them; else an
//     attribute whose values tell the items' key shapes apart (EntityType,
//     Type, ...: found from the data; not a Version that users and
//     attendees share); else the shapes of the keys (their literal text,
//     with ids, dates and attribute values left out: a value after a kind's
//     name, as alice of USER#alice, is a value everywhere); two types whose
//     keys could be the same are reported and the later not declared;
//   - the key templates of the table and of every index whose key values
//     are composed ("p#99887"): each key split at '#', a part the same on
//     every item of the type is text, a part that varies (or holds a
//     digit, or follows a prefix that precedes several values) is a
//     {name}, but for text the facet's key alias spells (ACTION#all) and
//     a kind's name in capitals the items agree on (ZR of VULN#ZR#...);
//     a {name} is the item's own attribute holding the same value where
//     there is one (not where the facet's alias names another attribute
//     of the design: USER#email, not the modified_by of a user's own
//     change), else an attribute kept only in the keys (KeyOnly), named by
//     the facet's key alias (which names a part whole: pkg_name of
//     axis:axis), by the attribute holding those values on other items,
//     by the key attribute, as a date, or by the item type whose name's
//     first word its prefix abbreviates ("c#..." → customerID);
//   - a number (N) table key as one {field} (PartitionKeyType or
//     SortKeyType N in the table's options): the item's own number
//     attribute holding it, else a field kept only in the keys named for
//     the key attribute ("{idKey}" of id, for an order and its lines
//     alike; "{versionKey}" of version), int64 where every sample value is
//     an integer, else float64;
//   - native index declarations for indexes keyed on the items' own
//     attributes; a local secondary index is an adjlist local index
//     (Index.Local), its sort key derived where its values are composed;
//   - Go types with dynamodbav tags from the values: S string, N int64 or
//     float64 where every value reads back as written (else
//     attributevalue.Number), BOOL bool, B []byte, SS, NS and BS sets, L
//     slices, M structs (maps where the keys are no field names), optional
//     fields omitempty (pointers where an item holds the zero value); each
//     type is checked by decoding and encoding every sample item, and an
//     attribute that does not come back as it was is a Value, kept as
//     DynamoDB holds it;
//   - from a model adjlist exported (package workbench), one function per
//     access pattern its description lists, or a comment saying why none.
//
// Where inference has a choice, or the model may hold a mistake (an index
// keyed on an attribute no sample item has), it says so in a comment of
// the generated code and in a line on stderr naming the items; it drops
// no item type and no item, but for the items of a type it reports as not
// declared, which its test leaves out. A live table's index keyed on
// several attributes is left out, with such a line naming it. A UTF-8
// byte-order mark before the model is skipped. A model it cannot turn into
// a package that passes its test (not JSON, no DataModel, a table name
// DynamoDB refuses, -package main, a table without a sort key, table keys
// neither strings nor numbers, an item without its table keys or with a
// key value of another type than the key's, a local index on another partition key or without
// a sort key, a key adjlist cannot write as the model spells it, values
// DynamoDB refuses: a number out of its range or over 38 digits, maps and
// lists nested deeper than 32 levels, an item over 400 KB, an empty set or
// a set member twice), a table it cannot read (none of that name, no
// region or credentials in the configuration, no answer from the
// endpoint), flags it cannot use together (-workbench and -table, -sample
// under 1, -sample or -embed-samples without -table) or an output folder
// it cannot write is an error on stderr naming what is wrong (for a value,
// its item and attribute), and exit status 2, with nothing written. It
// writes the files only once all of them are made.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"
)

func main() { os.Exit(runIO(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// usage is -h's text.
const usage = `adjlist-gen turns a NoSQL Workbench data model, or a live DynamoDB table,
into a Go package: its tables and indexes, one adjlist entity per item type
keyed as its sample items are, and a test that writes items on DynamoDB
Local and checks DynamoDB stores them byte for byte, then writes and reads
back an item of new values per item type.

Usage:

	adjlist-gen -workbench model.json [-package name] [-o dir] [-dry-run]
	adjlist-gen -table name [-sample n] [-embed-samples] [-package name] [-o dir] [-dry-run]

Flags:

	-workbench file   the NoSQL Workbench data model to read (JSON, as
	                  Workbench's "Export data model" writes it); - reads
	                  standard input. This or -table is required.
	-table name       the live table to read instead: its definition
	                  (DescribeTable) and a sample of its items (Scan), with
	                  the AWS SDK's default configuration (AWS_REGION,
	                  AWS_PROFILE, ...; AWS_ENDPOINT_URL_DYNAMODB for
	                  DynamoDB Local). It only reads. Progress is on stderr.
	-sample n         how many of the table's items to read, 1 or more.
	                  Default: 1000. -table only.
	-embed-samples    write the sampled items into the package's test, which
	                  then writes them on DynamoDB Local; without it no
	                  sampled value is in the files written, and the test
	                  makes its items from the inferred types. -table only.
	-package name     the Go package name, not main. Default: the last
	                  element of -o, made a Go identifier, else "model".
	-o dir            the folder to write model.go and model_test.go into,
	                  made if missing; files of other names are left alone.
	                  Default: the current folder.
	-dry-run          write no file: print the inferred model (tables,
	                  indexes, item types with their key templates and Go
	                  types, and the notes) on standard output.
	-h                print this help and exit.

Choices inference made, and ambiguities, are lines on stderr and
comments in the code (with -dry-run, lines on standard output with the
model). A model that cannot be made into a package that passes its test,
a table that cannot be read, bad flags, or a folder that cannot be
written is an error: exit status 2, and nothing written. Run the
package's test with DynamoDB Local:

	go test ./dir   (ddbtest starts DynamoDB Local, or uses AWS_ENDPOINT_URL_DYNAMODB)
`

// flags are the command's flags.
type flags struct {
	workbench, table, pkg, out string
	sample                     int
	embed, dryRun              bool
}

// newFlagSet declares the flags into f, whose usage (-h) goes to stderr.
func newFlagSet(f *flags, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("adjlist-gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	fs.StringVar(&f.workbench, "workbench", "", "the NoSQL Workbench data model to read; - reads standard input")
	fs.StringVar(&f.table, "table", "", "the live DynamoDB table to read instead")
	fs.IntVar(&f.sample, "sample", defaultSample, "how many of the table's items to read")
	fs.BoolVar(&f.embed, "embed-samples", false, "write the sampled items into the package's test")
	fs.StringVar(&f.pkg, "package", "", "the Go package name (default: the last element of -o)")
	fs.StringVar(&f.out, "o", ".", "the folder to write model.go and model_test.go into")
	fs.BoolVar(&f.dryRun, "dry-run", false, "print the inferred model; write no file")
	return fs
}

// run is the command with its output on os.Stdout.
func run(args []string, stdin io.Reader, stderr io.Writer) int {
	return runIO(args, stdin, os.Stdout, stderr)
}

// runIO is the command, args its arguments; it returns the exit status.
func runIO(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var f flags
	fs := newFlagSet(&f, stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "adjlist-gen: %v\n", err)
		return 2
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	switch {
	case fs.NArg() > 0:
		return fail(fmt.Errorf("unexpected arguments %q; see -h", fs.Args()))
	case f.workbench != "" && f.table != "":
		return fail(errors.New("-workbench and -table are two sources: give one; see -h"))
	case f.workbench == "" && f.table == "":
		return fail(errors.New("-workbench or -table is required; see -h"))
	case f.table == "" && set["sample"]:
		return fail(errors.New("-sample is -table's: a Workbench model's items are all read; see -h"))
	case f.table == "" && set["embed-samples"]:
		return fail(errors.New("-embed-samples is -table's: a Workbench model's items are always in its test; see -h"))
	case f.sample < 1:
		return fail(fmt.Errorf("-sample %d: want how many items to read, 1 or more", f.sample))
	}
	name := f.pkg
	if name == "" {
		name = packageName(f.out)
	}
	if err := checkPackage(name); err != nil {
		return fail(err)
	}
	var g *generator
	var err error
	if f.table != "" {
		g, err = buildTable(context.Background(), f.table, f.sample, name, stderr)
		if g != nil {
			g.synthesize = !f.embed
		}
	} else {
		g, err = buildWorkbench(f.workbench, stdin, name)
	}
	if err != nil {
		return fail(err)
	}
	if !f.dryRun {
		for _, n := range g.notes() {
			fmt.Fprintln(stderr, n)
		}
	}
	files, err := g.render() // a dry run finds what a run would
	if err != nil {
		return fail(err)
	}
	if f.dryRun {
		fmt.Fprint(stdout, g.describe())
		return 0
	}
	if err := writeFiles(f.out, files); err != nil {
		return fail(err)
	}
	return 0
}

// buildWorkbench reads and infers the Workbench model in the file path,
// or on stdin for "-", into the package pkg.
func buildWorkbench(path string, stdin io.Reader, pkg string) (*generator, error) {
	var src []byte
	var err error
	source := filepath.Base(path)
	if path == "-" {
		src, err = io.ReadAll(stdin)
		source = "standard input"
	} else {
		src, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, err
	}
	return build(src, pkg, source)
}

// buildTable reads and infers the live table name, sampling at most
// sample items, into the package pkg, its progress on stderr.
func buildTable(ctx context.Context, name string, sample int, pkg string, stderr io.Writer) (*generator, error) {
	if err := checkPackage(pkg); err != nil {
		return nil, err // before any request
	}
	db, where, err := newLiveClient(ctx)
	if err != nil {
		return nil, err
	}
	f, err := readTable(ctx, db, where, name, sample, stderr)
	if err != nil {
		return nil, err
	}
	g, err := buildFile(f, pkg, "table "+name)
	if g != nil {
		g.live = true
	}
	return g, err
}

// packageName makes a Go package name of dir's last element: "./shop" →
// shop, "my-model" → mymodel; "model" if nothing is left.
func packageName(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	var b strings.Builder
	for _, r := range strings.ToLower(filepath.Base(abs)) {
		if r >= 'a' && r <= 'z' || r == '_' || r >= '0' && r <= '9' && b.Len() > 0 {
			b.WriteRune(r)
		}
	}
	if name := b.String(); token.IsIdentifier(name) && !token.IsKeyword(name) && name != "_" && name != "main" {
		return name
	}
	return "model"
}

// writeFiles writes files into dir, made if missing: each into a
// temporary file first, renamed once all are written, so that a failure
// leaves dir as it was. A file it replaces is moved aside first and put
// back should a later rename fail; a target that is a folder fails
// before any rename.
func writeFiles(dir string, files []source) (err error) {
	made, err := mkdirAll(dir)
	if err != nil {
		return fmt.Errorf("output folder: %w", err)
	}
	var temps []string
	type swap struct{ target, old string } // old: where the file replaced waits, "" if none
	var swaps []swap
	defer func() {
		if err == nil {
			for _, s := range swaps {
				if s.old != "" {
					os.Remove(s.old)
				}
			}
			return
		}
		for i := len(swaps) - 1; i >= 0; i-- { // the last may not be in place yet
			s := swaps[i]
			os.Remove(s.target)
			if s.old != "" {
				os.Rename(s.old, s.target)
			}
		}
		for _, t := range temps {
			os.Remove(t)
		}
		if made != "" {
			os.RemoveAll(made)
		}
	}()
	for _, f := range files {
		if fi, err := os.Lstat(filepath.Join(dir, f.name)); err == nil && fi.IsDir() {
			return fmt.Errorf("output folder: %s is a folder", filepath.Join(dir, f.name))
		}
	}
	for _, f := range files {
		tmp, err := os.CreateTemp(dir, ".adjlist-gen-*")
		if err != nil {
			return fmt.Errorf("output folder: %w", err)
		}
		temps = append(temps, tmp.Name())
		_, werr := tmp.Write(f.text)
		if cerr := tmp.Close(); werr == nil {
			werr = cerr
		}
		if werr == nil {
			werr = os.Chmod(tmp.Name(), 0o644)
		}
		if werr != nil {
			return fmt.Errorf("output folder: %w", werr)
		}
	}
	for i, f := range files {
		s := swap{target: filepath.Join(dir, f.name)}
		if _, err := os.Lstat(s.target); err == nil {
			s.old = temps[i] + ".old"
			if err := rename(s.target, s.old); err != nil {
				return fmt.Errorf("output folder: %w", err)
			}
		}
		swaps = append(swaps, s)
		if err := rename(temps[i], s.target); err != nil {
			return fmt.Errorf("output folder: %w", err)
		}
	}
	return nil
}

// rename is os.Rename; a test makes one fail.
var rename = os.Rename

// mkdirAll makes dir and its missing parents, and returns the first one
// it made ("" if dir existed), to be removed should writing fail.
func mkdirAll(dir string) (string, error) {
	if fi, err := os.Stat(dir); err == nil {
		if !fi.IsDir() {
			return "", fmt.Errorf("%s is not a folder", dir)
		}
		return "", nil
	}
	first := ""
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil || d == filepath.Dir(d) {
			break
		}
		first = d
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		if first != "" {
			os.RemoveAll(first)
		}
		return "", err
	}
	return first, nil
}
