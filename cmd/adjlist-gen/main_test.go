package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHelp: -h prints the usage, which documents every flag, and exits
// with status 0.
func TestHelp(t *testing.T) {
	var stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"-h"}, nil, &stderr))
	assert.Equal(t, usage, stderr.String())
	var f flags
	newFlagSet(&f, &stderr).VisitAll(func(fl *flag.Flag) {
		assert.Contains(t, usage, "\t-"+fl.Name+" ", "-h documents -%s", fl.Name)
	})
	assert.Contains(t, usage, "\t-h ")
}

// tinyModel is a small valid data model, which the bad inputs below break
// one way each.
const tinyModel = `{
  "ModelName": "tiny",
  "DataModel": [{
    "TableName": "tiny",
    "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
    "NonKeyAttributes": [{"AttributeName": "name", "AttributeType": "S"}],
    "TableData": [
      {"PK": {"S": "u#1"}, "SK": {"S": "info"}, "name": {"S": "Ada"}},
      {"PK": {"S": "u#2"}, "SK": {"S": "info"}, "name": {"S": "Bob"}}
    ]
  }]
}`

// TestBadInput: a model the command cannot make a package of, or a folder
// it cannot write, is an error naming what is wrong, exit status 2, and
// nothing written.
func TestBadInput(t *testing.T) {
	item := func(s string) string {
		return strings.Replace(tinyModel, `{"PK": {"S": "u#2"}, "SK": {"S": "info"}, "name": {"S": "Bob"}}`, s, 1)
	}
	for name, c := range map[string]struct {
		model string
		args  []string
		want  string // in the message
	}{
		"not JSON":                     {model: `{"DataModel": [`, want: "not a NoSQL Workbench data model"},
		"not one JSON value":           {model: tinyModel + tinyModel, want: "more than one JSON value"},
		"no DataModel":                 {model: `{"ModelName": "x"}`, want: "no DataModel"},
		"empty DataModel":              {model: `{"DataModel": []}`, want: "no DataModel"},
		"no sort key":                  {model: strings.Replace(tinyModel, `, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}`, "", 1), want: "no sort key"},
		"binary partition key":         {model: strings.Replace(tinyModel, `"PK", "AttributeType": "S"`, `"PK", "AttributeType": "B"`, 1), want: `partition key PK is of type "B": adjlist models string and number table keys only`},
		"binary sort key":              {model: strings.Replace(tinyModel, `"SK", "AttributeType": "S"`, `"SK", "AttributeType": "B"`, 1), want: `sort key SK is of type "B"`},
		"string value of a number key": {model: strings.Replace(tinyModel, `"PK", "AttributeType": "S"`, `"PK", "AttributeType": "N"`, 1), want: "PK is S: the table declares it a number (N)"},
		"binary index key":             {model: strings.Replace(tinyModel, `"TableData"`, `"GlobalSecondaryIndexes": [{"IndexName": "GSI1", "KeyAttributes": {"PartitionKey": {"AttributeName": "img", "AttributeType": "B"}}}], "TableData"`, 1), want: `index GSI1's key img is of type "B"`},
		"item without its sort key":    {model: item(`{"PK": {"S": "u#2"}, "name": {"S": "Bob"}}`), want: "TableData[1]: no SK"},
		"number key value":             {model: item(`{"PK": {"N": "2"}, "SK": {"S": "info"}}`), want: "TableData[1]: PK is N"},
		"empty key":                    {model: item(`{"PK": {"S": ""}, "SK": {"S": "info"}}`), want: "TableData[1]: PK is empty"},
		"control character":            {model: item(`{"PK": {"S": "u#2\t"}, "SK": {"S": "info"}}`), want: "control character"},
		"not DynamoDB JSON":            {model: item(`{"PK": {"S": "u#2"}, "SK": {"S": "info"}, "on": {"M": {"x": true}}}`), want: "TableData[1]: not an item in DynamoDB JSON"},
		"not a number":                 {model: item(`{"PK": {"S": "u#2"}, "SK": {"S": "info"}, "n": {"N": "1x"}}`), want: `attribute n: "1x" is not a number`},
		"empty set":                    {model: item(`{"PK": {"S": "u#2"}, "SK": {"S": "info"}, "tags": {"SS": []}}`), want: "attribute tags: empty set"},
		"a set member twice":           {model: item(`{"PK": {"S": "u#2"}, "SK": {"S": "info"}, "tags": {"SS": ["a", "a"]}}`), want: `TableData[1]: attribute tags: set holds "a" twice`},
		"a number set member twice":    {model: item(`{"PK": {"S": "u#2"}, "SK": {"S": "info"}, "ns": {"NS": ["1", "1.0"]}}`), want: `TableData[1]: attribute ns: set holds "1" twice`},
		"a number over the range":      {model: item(`{"PK": {"S": "u#2"}, "SK": {"S": "info"}, "n": {"N": "1e400"}}`), want: `TableData[1]: attribute n: "1e400" is out of DynamoDB's range`},
		"a number at 1E+126":           {model: item(`{"PK": {"S": "u#2"}, "SK": {"S": "info"}, "n": {"N": "-1E+126"}}`), want: `TableData[1]: attribute n: "-1E+126" is out of DynamoDB's range`},
		"a number under the range":     {model: item(`{"PK": {"S": "u#2"}, "SK": {"S": "info"}, "m": {"M": {"x": {"N": "1e-131"}}}}`), want: `TableData[1]: attribute m: x: "1e-131" is out of DynamoDB's range`},
		"a number of 39 digits":        {model: item(`{"PK": {"S": "u#2"}, "SK": {"S": "info"}, "n": {"N": "1.23456789012345678901234567890123456789"}}`), want: `TableData[1]: attribute n: "1.23456789012345678901234567890123456789" has more than 38 significant digits`},
		"maps nested 32 deep":          {model: item(`{"PK": {"S": "u#2"}, "SK": {"S": "info"}, "deep": ` + nested(32, `{"S": "x"}`, `{"M": {"a": %s}}`) + `}`), want: "TableData[1]: attribute deep: a: a: a:"},
		"lists nested 32 deep":         {model: item(`{"PK": {"S": "u#2"}, "SK": {"S": "info"}, "deep": ` + nested(32, `{"S": "x"}`, `{"L": [%s]}`) + `}`), want: "TableData[1]: attribute deep: element 0: element 0:"},
		"NULL false":                   {model: item(`{"PK": {"S": "u#2"}, "SK": {"S": "info"}, "gone": {"L": [{"NULL": false}]}}`), want: `TableData[1]: attribute gone holds {"NULL": false}: DynamoDB takes NULL only as true`},
		"a map key empty":              {model: item(`{"PK": {"S": "u#2"}, "SK": {"S": "info"}, "m": {"M": {"": {"S": "x"}}}}`), want: "TableData[1]: attribute m: a map holds an empty attribute name"},
		"an item over 400 KB":          {model: item(`{"PK": {"S": "u#2"}, "SK": {"S": "info"}, "a": {"S": "x"}, "big": {"S": "` + strings.Repeat("x", 400*1024) + `"}}`), want: "TableData[1]: 409616 bytes (the largest attribute: big), DynamoDB allows 409600 (400 KB) in an item"},
		"an index key too long":        {model: strings.Replace(item(`{"PK": {"S": "u#2"}, "SK": {"S": "info"}, "name": {"S": "`+strings.Repeat("n", 2049)+`"}}`), `"TableData"`, `"GlobalSecondaryIndexes": [{"IndexName": "byName", "KeyAttributes": {"PartitionKey": {"AttributeName": "name", "AttributeType": "S"}}}], "TableData"`, 1), want: "TableData[1]: name, a key of index byName, is 2049 bytes, DynamoDB allows 2048"},
		"same keys, other item":        {model: item(`{"PK": {"S": "u#1"}, "SK": {"S": "info"}, "name": {"S": "Eve"}}`), want: "have the same keys"},
		"an attribute no tag can name": {model: item(`{"PK": {"S": "u#2"}, "SK": {"S": "info"}, "a,b": {"S": "x"}}`), want: `attribute "a,b" cannot be named in a dynamodbav tag`},
		"an id holding a raw %":        {model: strings.Replace(strings.Replace(tinyModel, "u#1", "u#1%zz", 1), "u#2", "u#2%yy", 1), want: `its part "1%zz" varies from item to item and cannot be an adjlist id`},
		"package not a Go name":        {model: tinyModel, args: []string{"-package", "my-model"}, want: `package name "my-model" is not a Go identifier`},
		"package main":                 {model: tinyModel, args: []string{"-package", "main"}, want: "package name main: the generated package is imported"},
		"a table name too short":       {model: strings.Replace(tinyModel, `"TableName": "tiny"`, `"TableName": "t"`, 1), want: `table name "t": DynamoDB table names are 3-255 letters, digits, '_', '-' or '.'`},
		"a table name with a space":    {model: strings.Replace(tinyModel, `"TableName": "tiny"`, `"TableName": "my table"`, 1), want: `table name "my table": DynamoDB table names`},
		"a local index on another partition key": {model: strings.Replace(tinyModel, `"TableData"`, `"LocalSecondaryIndexes": [{"IndexName": "LSI1", "KeyAttributes": {"PartitionKey": {"AttributeName": "name", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK2", "AttributeType": "S"}}}], "TableData"`, 1),
			want: "local index LSI1 has the partition key name: a local secondary index has the table's, PK"},
		"a local index without a sort key": {model: strings.Replace(tinyModel, `"TableData"`, `"LocalSecondaryIndexes": [{"IndexName": "LSI1", "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}}}], "TableData"`, 1),
			want: "local index LSI1 has no sort key"},
		"six local indexes": {model: strings.Replace(tinyModel, `"TableData"`, `"LocalSecondaryIndexes": [`+strings.Repeat(`{"IndexName": "LSI1", "KeyAttributes": {"SortKey": {"AttributeName": "name", "AttributeType": "S"}}},`, 5)+`{"IndexName": "LSI6", "KeyAttributes": {"SortKey": {"AttributeName": "name", "AttributeType": "S"}}}], "TableData"`, 1),
			want: "table tiny: 6 local secondary indexes, DynamoDB allows 5"},
		"no -workbench": {args: []string{}, want: "-workbench or -table is required"},
		"arguments":     {model: tinyModel, args: []string{"extra"}, want: "unexpected arguments"},
		"published, not DynamoDB JSON (connected vehicles)": {model: readFile(t, "testdata/bad/connected-vehicles/ConnectedVehiclesSchema.json"),
			want: "facet Vehicle TableData[1]: not an item in DynamoDB JSON: attribute autonomous_driving"},
		"published, not DynamoDB JSON (game player profiles)": {model: readFile(t, "testdata/bad/game-player-profiles/GamePlayerProfilesSchema.json"),
			want: "facet Items TableData[0]: not an item in DynamoDB JSON: attribute ItemAttributes"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			args := []string{"-o", out}
			if c.model != "" {
				path := filepath.Join(dir, "model.json")
				require.NoError(t, os.WriteFile(path, []byte(c.model), 0o644))
				args = append(args, "-workbench", path)
			}
			var stderr bytes.Buffer
			assert.Equal(t, 2, run(append(args, c.args...), nil, &stderr))
			assert.Contains(t, stderr.String(), c.want)
			assert.NoDirExists(t, out, "nothing written")
		})
	}
}

// TestBadInputTyped: generate's error for a model it refuses is
// errBadInput.
func TestBadInputTyped(t *testing.T) {
	_, _, err := generate([]byte(`{"DataModel": []}`), "tiny", "tiny.json")
	require.ErrorIs(t, err, errBadInput)
	_, _, err = generate([]byte(tinyModel), "func", "tiny.json")
	require.ErrorIs(t, err, errBadInput)
	_, _, err = generate([]byte(tinyModel), "tiny", "tiny.json")
	require.NoError(t, err)
}

// TestByteOrderMark: a model file starting with a UTF-8 byte-order mark,
// as some editors write it, is read as without one.
func TestByteOrderMark(t *testing.T) {
	want, _, err := generate([]byte(tinyModel), "tiny", "tiny.json")
	require.NoError(t, err)
	got, _, err := generate([]byte("\ufeff"+tinyModel), "tiny", "tiny.json")
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

// TestUnwritableFolder: a folder the command cannot write is an error
// with status 2, and leaves the file system as it was.
func TestUnwritableFolder(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.json")
	require.NoError(t, os.WriteFile(path, []byte(tinyModel), 0o644))
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	for name, out := range map[string]string{
		"a file":              file,
		"a folder in a file":  filepath.Join(file, "sub", "tiny"),
		"a name too long":     filepath.Join(dir, strings.Repeat("x", 300), "tiny"),
		"a folder in a file2": filepath.Join(file, "tiny"),
	} {
		t.Run(name, func(t *testing.T) {
			var stderr bytes.Buffer
			assert.Equal(t, 2, run([]string{"-workbench", path, "-o", out}, nil, &stderr))
			assert.Contains(t, stderr.String(), "adjlist-gen: output folder: ")
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			assert.Len(t, entries, 2, "nothing written")
			b, err := os.ReadFile(file)
			require.NoError(t, err)
			assert.Equal(t, "x", string(b))
		})
	}
}

// TestFailedWriteLeavesFolderAsItWas: a run replacing model.go and
// model_test.go that fails part way (a target that is a folder, the
// second rename failing) leaves both files, and nothing else, as they
// were. Not parallel: it swaps the package's rename.
func TestFailedWriteLeavesFolderAsItWas(t *testing.T) {
	for _, tt := range []struct {
		name  string
		spoil func(t *testing.T, out string)
	}{
		{"model_test.go is a folder", func(t *testing.T, out string) {
			test := filepath.Join(out, "model_test.go")
			require.NoError(t, os.Remove(test))
			require.NoError(t, os.MkdirAll(filepath.Join(test, "sub"), 0o755))
		}},
		{"the second rename fails", func(t *testing.T, out string) {
			t.Cleanup(func() { rename = os.Rename })
			rename = func(from, to string) error {
				if filepath.Base(to) == "model_test.go" {
					return &os.LinkError{Op: "rename", Old: from, New: to, Err: os.ErrPermission}
				}
				return os.Rename(from, to)
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "model.json")
			require.NoError(t, os.WriteFile(path, []byte(tinyModel), 0o644))
			out := filepath.Join(dir, "tiny")
			var stderr bytes.Buffer
			require.Equal(t, 0, run([]string{"-workbench", path, "-o", out}, nil, &stderr), stderr.String())
			tt.spoil(t, out)
			before := folder(t, out)

			assert.Equal(t, 2, run([]string{"-workbench", path, "-package", "other", "-o", out}, nil, &stderr))
			assert.Contains(t, stderr.String(), "adjlist-gen: output folder: ")
			assert.Equal(t, before, folder(t, out))
		})
	}
}

// folder is every file under dir (folders as "<dir>"), by path.
func folder(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || path == dir {
			return err
		}
		b := []byte("<dir>")
		if !d.IsDir() {
			b, err = os.ReadFile(path)
		}
		files[path] = string(b)
		return err
	}))
	return files
}

// TestWrites: the command writes model.go and model_test.go into the
// folder, made if missing, replaces them when run again, leaves other
// files alone, and names the package for the folder unless told.
func TestWrites(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.json")
	require.NoError(t, os.WriteFile(path, []byte(tinyModel), 0o644))
	out := filepath.Join(dir, "a", "my-shop")
	var stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"-workbench", path, "-o", out}, nil, &stderr), stderr.String())
	require.NoError(t, os.WriteFile(filepath.Join(out, "extra.go"), []byte("package myshop\n"), 0o644))
	require.Equal(t, 0, run([]string{"-workbench", path, "-o", out}, nil, &stderr), stderr.String())
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{"extra.go", "model.go", "model_test.go"}, names)
	b, err := os.ReadFile(filepath.Join(out, "model.go"))
	require.NoError(t, err)
	assert.Contains(t, string(b), "\npackage myshop\n")

	// Standard input, and a package name given.
	out2 := filepath.Join(dir, "b")
	require.Equal(t, 0, run([]string{"-workbench", "-", "-package", "tiny", "-o", out2}, strings.NewReader(tinyModel), &stderr), stderr.String())
	b, err = os.ReadFile(filepath.Join(out2, "model.go"))
	require.NoError(t, err)
	assert.Contains(t, string(b), "\npackage tiny\n")
	assert.Contains(t, string(b), "from standard input")
}

// TestPackageName: the default package name is -o's last element made a
// Go identifier.
func TestPackageName(t *testing.T) {
	for dir, want := range map[string]string{
		"./shop":        "shop",
		"a/My-Model":    "mymodel",
		"x/2024":        "model",
		"x/type":        "model",
		"x/shop_v2":     "shop_v2",
		"x/9lives_shop": "lives_shop",
		"cmd/main":      "model",
	} {
		assert.Equal(t, want, packageName(dir), dir)
	}
}

// TestReadmeExcerpt: docs/existing-tables.md's complaint management package is the
// command's output for that model, from its types to NewModel.
func TestReadmeExcerpt(t *testing.T) {
	readme := readFile(t, "../../docs/existing-tables.md")
	const begin = "<!-- generated by adjlist-gen from cmd/adjlist-gen/testdata/complaint-management -->\n```golang\n"
	start := strings.Index(readme, begin)
	require.GreaterOrEqual(t, start, 0, "docs/existing-tables.md has no generated excerpt")
	rest := readme[start+len(begin):]
	excerpt := rest[:strings.Index(rest, "```\n<!-- end of generated -->")]

	files, _, err := generate([]byte(readFile(t, "testdata/complaint-management/ComplaintManagementSchema.json")), "complaints", "ComplaintManagementSchema.json")
	require.NoError(t, err)
	code := string(files[0].text)
	constant := strings.Index(code, "const TableName =")
	from := strings.Index(code[constant:], "\n\n") + constant + 2
	newModel := strings.Index(code, "\nfunc NewModel(")
	to := strings.Index(code[newModel:], "\n}\n") + newModel + 3
	assert.Equal(t, code[from:to], excerpt)
}

// nested is inner wrapped depth times in wrap, a format with one %s.
func nested(depth int, inner, wrap string) string {
	for range depth {
		inner = fmt.Sprintf(wrap, inner)
	}
	return inner
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}
