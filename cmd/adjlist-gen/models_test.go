package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/internal/testsize"
)

// quick are the models whose generated tests `make test` runs, each
// feature of the generated code once (a package costs about 0.8 CPU-s to
// compile per item type): five of AWS's published models, among them the
// online shop (derived index keys, values kept only in index keys, an
// index key on some items only), the session store (a native index on the
// table's own keys, values kept only in keys), the complaints (a string
// set, optional attributes), the device log (key attribute names with #)
// and the payments (facets, a map, INCLUDE projections); adjlist's exports
// of a one-to-many (workspaces, access patterns newest first) and a
// many-to-many design (enrollment, with a native index on a derived key)
// and a sharded index over 1,005 items (social), with their access
// patterns; and the local secondary indexes of variants/lsi.json and the
// number table keys of variants/numkeys.json. The chat system (a native
// index, values kept only in keys) runs synthesized (quickSynth).
var quick = map[string]bool{
	"complaint-management": true, "device-state-log": true, "online-shop": true,
	"recurring-payments": true, "session-management": true,
	"adjlist-enrollment": true, "adjlist-social": true, "adjlist-workspaces": true,
	"variant-lsi": true, "variant-numkeys": true,
}

// quickSynth are the models `make test` also generates with synthesize
// (every model in `make stress`): the enrollment export (access
// patterns, derived index keys, a native index on a derived key) and the
// chat system (a native index, values kept only in keys).
var quickSynth = map[string]bool{"adjlist-enrollment": true, "chat-system": true}

// modelFile is one data model the command is tested on.
type modelFile struct {
	name string // "chat-system", "adjlist-blog"
	path string
	pkg  string // the package generated from it
}

// models lists the data models in testdata: AWS's published ones
// (testdata/<name>/, each with its LICENSE and SOURCE), adjlist's own
// exports (testdata/adjlist/<example>.json) and small variants of
// community models that once made a package that failed (testdata/variants).
func models(t testing.TB) []modelFile {
	t.Helper()
	var out []modelFile
	dirs, err := os.ReadDir("testdata")
	require.NoError(t, err)
	for _, d := range dirs {
		if !d.IsDir() || d.Name() == "bad" || d.Name() == "adjlist" || d.Name() == "variants" || d.Name() == "fluidattacks" || strings.HasPrefix(d.Name(), "out-") {
			continue
		}
		files, err := filepath.Glob(filepath.Join("testdata", d.Name(), "*.json"))
		require.NoError(t, err)
		require.Len(t, files, 1, d.Name())
		require.FileExists(t, filepath.Join("testdata", d.Name(), "LICENSE"))
		require.FileExists(t, filepath.Join("testdata", d.Name(), "SOURCE"))
		out = append(out, modelFile{d.Name(), files[0], strings.ReplaceAll(d.Name(), "-", "")})
	}
	exports, err := filepath.Glob("testdata/adjlist/*.json")
	require.NoError(t, err)
	for _, f := range exports {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		out = append(out, modelFile{"adjlist-" + name, f, "adjlist" + name})
	}
	variants, err := filepath.Glob("testdata/variants/*.json")
	require.NoError(t, err)
	for _, f := range variants {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		out = append(out, modelFile{"variant-" + name, f, "variant" + strings.ReplaceAll(name, "-", "")})
	}
	return out
}

// TestGeneratedPackages generates a package from every data model in
// testdata, inside this module so that it imports adjlist: gofmt leaves
// them as they are and go vet finds nothing. It then runs every
// package's generated test, on DynamoDB Local (AWS_ENDPOINT_URL_DYNAMODB,
// or one ddbtest starts): each writes the model's sample items through
// the entities and finds them stored byte for byte as the model has them;
// written with PutItem, each is of exactly one entity and decodes without
// loss; Table.Check is nil; Get then Replace of an unchanged item changes
// nothing; each access pattern's method finds what it reads. For adjlist's
// own exports that is the round trip: the model imported writes the items
// it exported.
//
// Compiling a generated package costs about 0.8 s of CPU per entity (the
// generic code of Entity[T] and Query[EntityItem[T]] made for each T),
// and linking a test binary some seconds more. So the tests run in one
// binary: each package is copied with its model_test.go as a plain file
// (its TestMain left out), and one package's test calls them all; and
// `make test` runs the tests of the models in quick, every feature
// between them, while `make stress` (ADJLIST_STRESS=1, which CI runs
// too) runs every model's. Every package is vetted in both.
//
// The models of quickSynth (every model in `make stress`) are also
// generated with synthesize: their files hold no sample value
// (assertNoSampleValues) and their tests pass on items made from the Go
// types. And the models of inferenceErrors, each reproducing an error of
// inference, make packages whose TestNewItems fails naming the item
// type and the key (checkInferenceError).
func TestGeneratedPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests a package per model")
	}
	out, err := os.MkdirTemp("testdata", "out-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(out) })
	ms := models(t)
	require.GreaterOrEqual(t, len(ms), 6+9)
	var pkgs []string
	tests := map[string][]string{} // package → its test functions
	for _, m := range ms {
		var stderr bytes.Buffer
		dir := filepath.Join(out, m.pkg)
		require.Equal(t, 0, run([]string{"-workbench", m.path, "-package", m.pkg, "-o", dir}, nil, &stderr), "%s: %s", m.name, &stderr)
		pkgs = append(pkgs, "./"+filepath.ToSlash(dir))
	}
	var runs []modelFile
	for _, m := range ms {
		if testsize.Stress() || quick[m.name] {
			runs = append(runs, m)
			tests[m.pkg] = asPlainFile(t, filepath.Join(out, m.pkg), filepath.Join(out, "all", m.pkg))
		}
	}
	// The same models generated with synthesize: no sample value in the
	// files, and a test of items made from the Go types.
	vocabulary := generatedWords(t)
	var synth []modelFile
	for _, m := range ms {
		if !testsize.Stress() && !quickSynth[m.name] {
			continue
		}
		src, err := os.ReadFile(m.path)
		require.NoError(t, err)
		g, err := build(src, m.pkg+"synth", filepath.Base(m.path))
		require.NoError(t, err, m.name)
		g.synthesize = true
		files, err := g.render()
		require.NoError(t, err, m.name)
		dir := filepath.Join(out, g.pkg)
		writePackage(t, dir, files)
		assertNoSampleValues(t, g, files, vocabulary)
		pkgs = append(pkgs, "./"+filepath.ToSlash(dir))
		s := modelFile{name: m.name, path: m.path, pkg: g.pkg}
		synth = append(synth, s)
		tests[s.pkg] = asPlainFile(t, dir, filepath.Join(out, "all", s.pkg))
	}
	errs, wantFail := generateInferenceErrors(t, out)
	for _, m := range errs {
		pkgs = append(pkgs, "./"+filepath.ToSlash(filepath.Join(out, m.pkg)))
		tests[m.pkg] = asPlainFile(t, filepath.Join(out, m.pkg), filepath.Join(out, "all", m.pkg))
	}
	gofmt, err := exec.Command("gofmt", "-l", out).CombinedOutput()
	require.NoError(t, err, "%s", gofmt)
	assert.Empty(t, string(gofmt), "gofmt would change these files")
	vet, err := exec.Command("go", append([]string{"vet"}, pkgs...)...).CombinedOutput()
	require.NoError(t, err, "go vet: %s", vet)

	results := runAll(t, out, slices.Concat(runs, synth, errs), tests)
	for _, m := range runs {
		t.Run(m.name, func(t *testing.T) {
			r := results[m.pkg]
			assert.Equal(t, "pass", r.result, "Test_%s:\n%s", m.pkg, r.output)
		})
	}
	for _, m := range synth {
		t.Run("synthesized/"+m.name, func(t *testing.T) {
			r := results[m.pkg]
			assert.Equal(t, "pass", r.result, "Test_%s:\n%s", m.pkg, r.output)
		})
	}
	for _, m := range errs {
		t.Run("inference error/"+m.name, func(t *testing.T) {
			checkInferenceError(t, m, wantFail[m.pkg], results[m.pkg])
		})
	}
}

// outcome is how one generated package's tests ended: "pass", "fail"
// or "" (never run: the build failed), and what they printed.
type outcome struct{ result, output string }

// runAll runs, in one test binary built in out/all, the tests of every
// package of runs (copied there by asPlainFile, their names in tests),
// on DynamoDB Local, the packages in parallel (each test on tables of its
// own): each package's outcome, by package name.
func runAll(t *testing.T, out string, runs []modelFile, tests map[string][]string) map[string]outcome {
	t.Helper()
	module := path.Join("github.com/adjlist/adjlist/cmd/adjlist-gen", filepath.ToSlash(out), "all")
	var all strings.Builder
	all.WriteString("package all\n\nimport (\n\t\"testing\"\n\n\t\"github.com/adjlist/adjlist/ddblocal/ddbtest\"\n")
	for _, m := range runs {
		fmt.Fprintf(&all, "\t%q\n", path.Join(module, m.pkg))
	}
	all.WriteString(")\n\nfunc TestMain(m *testing.M) { ddbtest.Main(m) }\n")
	for _, m := range runs {
		fmt.Fprintf(&all, "\nfunc Test_%s(t *testing.T) {\n\tt.Parallel()\n", m.pkg)
		for _, fn := range tests[m.pkg] {
			fmt.Fprintf(&all, "\tt.Run(%q, %s.%s)\n", fn, m.pkg, fn)
		}
		all.WriteString("}\n")
	}
	require.NoError(t, os.WriteFile(filepath.Join(out, "all", "all_test.go"), []byte(all.String()), 0o644))

	// Vetted above; no DWARF, which no test reads.
	cmd := exec.Command("go", "test", "-count=1", "-json", "-vet=off", "-ldflags=-w", "./"+filepath.ToSlash(filepath.Join(out, "all")))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, _ := cmd.Output() // a failing test makes it exit 1: the events say which
	type event struct {
		Action, Test, Output string
	}
	result, output := map[string]string{}, map[string]*strings.Builder{}
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		top, _, _ := strings.Cut(e.Test, "/")
		if output[top] == nil {
			output[top] = &strings.Builder{}
		}
		output[top].WriteString(e.Output)
		if e.Test == top && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip") {
			result[top] = e.Action
		}
	}
	out2 := map[string]outcome{}
	for _, m := range runs {
		name := "Test_" + m.pkg
		var o string
		if b := output[name]; b != nil {
			o = b.String()
		}
		out2[m.pkg] = outcome{result[name], o + stderr.String()}
	}
	return out2
}

// asPlainFile copies the generated package in dir to to, its
// model_test.go as a plain file without TestMain, so that another
// package's test can call its tests, and returns their names.
func asPlainFile(t *testing.T, dir, to string) []string {
	t.Helper()
	require.NoError(t, os.MkdirAll(to, 0o755))
	model, err := os.ReadFile(filepath.Join(dir, "model.go"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(to, "model.go"), model, 0o644))
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(dir, "model_test.go"), nil, parser.ParseComments)
	require.NoError(t, err)
	var names []string
	f.Decls = slices.DeleteFunc(f.Decls, func(d ast.Decl) bool {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") {
			return false
		}
		if fn.Name.Name == "TestMain" {
			return true
		}
		names = append(names, fn.Name.Name)
		return false
	})
	var b bytes.Buffer
	require.NoError(t, format.Node(&b, fset, f))
	require.NoError(t, os.WriteFile(filepath.Join(to, "tests.go"), b.Bytes(), 0o644))
	require.NotEmpty(t, names)
	return names
}
