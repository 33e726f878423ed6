package exampleutil

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// mainEnv makes the test binary run [Main] of the recorder example with
// its arguments instead of the tests: TestMainExitCodes runs a program as
// a user's shell would without building one.
const mainEnv = "EXAMPLEUTIL_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) == "1" {
		ex, _, _ := recorder(nil)
		Main(ex)
		os.Exit(0)
	}
	ddbtest.Main(m)
}

// TestMainExitCodes runs Main as a program: -describe prints the model and
// exits 0 without DynamoDB (any request would fail), -h exits 0, a flag
// -describe would ignore exits 2 with the reason.
func TestMainExitCodes(t *testing.T) {
	tests := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"-describe"}, 0, "### Table `adjlist-demo`"},
		{[]string{"-describe"}, 0, "```mermaid\nflowchart LR\n"},
		{[]string{"-h"}, 0, "-describe"},
		{[]string{"-describe", "-cleanup"}, 2, "-cleanup has no effect with -describe"},
		{[]string{"-no-such-flag"}, 2, "flag provided but not defined: -no-such-flag"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], tt.args...)
			cmd.Env = append(os.Environ(), mainEnv+"=1", ddblocal.EnvEndpoint+"=http://127.0.0.1:1")
			out, err := cmd.CombinedOutput()
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tt.code, code, "%s", out)
			assert.Contains(t, string(out), tt.out)
		})
	}
}

// stubConnect replaces connect for one test; calls records each useAWS.
func stubConnect(t *testing.T, db API, stopErr error) (calls *[]bool, stopped *int) {
	calls, stopped = new([]bool), new(int)
	orig := connect
	t.Cleanup(func() { connect = orig })
	connect = func(_ context.Context, useAWS bool) (API, func() error, error) {
		*calls = append(*calls, useAWS)
		return db, func() error { *stopped++; return stopErr }, nil
	}
	return calls, stopped
}

type runArgs struct {
	db      API
	table   string
	cleanup bool
}

// recorder is an Example whose entry points record their arguments.
func recorder(runErr error) (Example, *[]runArgs, *[]string) {
	var runs []runArgs
	var described []string
	return Example{
		Name: "demo",
		Model: func(db adjlist.Client, table string) (*adjlist.Table, []adjlist.Describer) {
			described = append(described, table)
			if db != nil {
				table = "" // an invalid name: describing fails
			}
			t := adjlist.NewTable(db, table)
			return t, []adjlist.Describer{adjlist.NewNode[profile](t, "USER", "PROFILE")}
		},
		Run: func(_ context.Context, db API, table string, cleanup bool, w io.Writer) error {
			runs = append(runs, runArgs{db, table, cleanup})
			return runErr
		},
	}, &runs, &described
}

// fakeAPI stands in for a connection; the recorder never calls it.
type fakeAPI struct{ API }

func TestExecute(t *testing.T) {
	db := fakeAPI{}
	tests := []struct {
		name    string
		args    []string
		wantAWS []bool // connect calls
		want    []runArgs
	}{
		{"defaults", nil, []bool{false}, []runArgs{{db, "adjlist-demo", false}}},
		{"table and cleanup", []string{"-table", "t1", "-cleanup"}, []bool{false}, []runArgs{{db, "t1", true}}},
		{"aws only when asked", []string{"-aws"}, []bool{true}, []runArgs{{db, "adjlist-demo", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls, stopped := stubConnect(t, db, nil)
			ex, runs, described := recorder(nil)
			var out bytes.Buffer
			require.NoError(t, ex.Execute(context.Background(), tt.args, &out))
			assert.Equal(t, tt.wantAWS, *calls)
			assert.Equal(t, tt.want, *runs)
			assert.Empty(t, *described)
			assert.Equal(t, 1, *stopped, "the connection is released")
		})
	}
}

func TestExecuteDescribeDoesNotConnect(t *testing.T) {
	calls, _ := stubConnect(t, fakeAPI{}, nil)
	ex, runs, described := recorder(nil)
	var out bytes.Buffer
	require.NoError(t, ex.Execute(context.Background(), []string{"-describe", "-table", "t2"}, &out))
	assert.Empty(t, *calls, "no connection")
	assert.Empty(t, *runs)
	assert.Equal(t, []string{"t2"}, *described)
	assert.Contains(t, out.String(), "### Table `t2`")
	assert.Contains(t, out.String(), "```mermaid\nflowchart LR\n")
}

func TestExecuteErrors(t *testing.T) {
	errRun, errStop := errors.New("run failed"), errors.New("stop failed")

	t.Run("run error wins over stop error", func(t *testing.T) {
		_, stopped := stubConnect(t, fakeAPI{}, errStop)
		ex, _, _ := recorder(errRun)
		require.ErrorIs(t, ex.Execute(context.Background(), nil, io.Discard), errRun)
		assert.Equal(t, 1, *stopped)
	})
	t.Run("stop error reported", func(t *testing.T) {
		stubConnect(t, fakeAPI{}, errStop)
		ex, _, _ := recorder(nil)
		require.ErrorIs(t, ex.Execute(context.Background(), nil, io.Discard), errStop)
	})
	// -cleanup, -aws and -verify would do nothing with -describe: refused, not ignored.
	for _, args := range [][]string{{"-nope"}, {"extra"}, {"-table"}, {"-describe", "-cleanup"}, {"-describe", "-aws"}, {"-describe", "-verify"}} {
		t.Run("usage "+strings.Join(args, " "), func(t *testing.T) {
			calls, _ := stubConnect(t, fakeAPI{}, nil)
			ex, runs, _ := recorder(nil)
			err := ex.Execute(context.Background(), args, io.Discard)
			require.Error(t, err)
			assert.ErrorAs(t, err, new(usageError))
			assert.Empty(t, *calls)
			assert.Empty(t, *runs)
		})
	}
	t.Run("help", func(t *testing.T) {
		stubConnect(t, fakeAPI{}, nil)
		ex, runs, _ := recorder(nil)
		require.ErrorIs(t, ex.Execute(context.Background(), []string{"-h"}, io.Discard), flag.ErrHelp)
		assert.Empty(t, *runs)
	})
}

func TestConnectNotInstalled(t *testing.T) {
	t.Setenv(ddblocal.EnvEndpoint, "")
	t.Setenv(ddblocal.EnvDir, t.TempDir())
	_, _, err := Connect(context.Background(), false)
	require.ErrorIs(t, err, ddblocal.ErrNotInstalled)
	assert.Contains(t, err.Error(), "To fix: "+ddblocal.InstallHint)
}

func row(pk, sk string) Row { return Row{Keys: []string{pk, sk}} }

func TestSeedOrder(t *testing.T) {
	rows := []Row{
		row("CRS#b", "METADATA"),
		row("STU#a", "ENROLL#CRS#a"),
		row("OTHER#x", "y"),
		row("STU#a", "PROFILE"),
		row("CRS#a", "METADATA"),
		row("STU#a", "ENROLL#CRS#b"),
		row("BILL#1", "BILL#1"),
		row("BILL#1", "AAA"),
	}
	tests := []struct {
		name  string
		order SeedOrder
		want  []Row
	}{
		{"types, heads, descending", SeedOrder{Types: []string{"STU", "CRS"}, Heads: []string{"PROFILE", "METADATA"}, Desc: true}, []Row{
			row("STU#a", "PROFILE"), row("STU#a", "ENROLL#CRS#b"), row("STU#a", "ENROLL#CRS#a"),
			row("CRS#a", "METADATA"), row("CRS#b", "METADATA"),
			row("BILL#1", "BILL#1"), row("BILL#1", "AAA"),
			row("OTHER#x", "y"),
		}},
		{"zero value: by key, self-keyed item first", SeedOrder{}, []Row{
			row("BILL#1", "BILL#1"), row("BILL#1", "AAA"),
			row("CRS#a", "METADATA"), row("CRS#b", "METADATA"),
			row("OTHER#x", "y"),
			row("STU#a", "ENROLL#CRS#a"), row("STU#a", "ENROLL#CRS#b"), row("STU#a", "PROFILE"),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := slices.Clone(rows)
			slices.SortFunc(got, tt.order.Compare)
			assert.Equal(t, tt.want, got)
		})
	}
}

// putRaw creates a table with keys PK/SK and writes items as given.
func putRaw(t *testing.T, items ...map[string]types.AttributeValue) (*dynamodb.Client, string) {
	t.Helper()
	db := ddbtest.Client(t)
	name := ddbtest.TableName(t)
	ctx := context.Background()
	require.NoError(t, adjlist.CreateTable(ctx, db, adjlist.NewTable(db, name, func(o *adjlist.Options) { o.NoIndex = true })))
	t.Cleanup(func() { require.NoError(t, DeleteTable(context.Background(), db, name)) })
	for _, item := range items {
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: item})
		require.NoError(t, err)
	}
	return db, name
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

func TestPrintTable(t *testing.T) {
	db, name := putRaw(t,
		map[string]types.AttributeValue{"PK": s("A#1"), "SK": s("META"), "title": s("one"), "n": n("4")},
		map[string]types.AttributeValue{"PK": s("A#1"), "SK": s("CHILD#2"), "GSI": s("X#9")},
		map[string]types.AttributeValue{"PK": s("B#1"), "SK": s("B#1")},
	)
	ctx := context.Background()

	var out bytes.Buffer
	require.NoError(t, PrintTable(ctx, db, name, &out, []string{"PK", "SK", "GSI"}, nil))
	assert.Equal(t, ""+
		"PK  |SK      |GSI |attributes\n"+
		"A#1 |CHILD#2 |X#9 |\n"+
		"A#1 |META    |    |n=4, title=one\n"+
		"B#1 |B#1     |    |\n", out.String())

	out.Reset()
	order := SeedOrder{Types: []string{"B", "A"}, Heads: []string{"META"}}
	require.NoError(t, PrintTable(ctx, db, name, &out, []string{"PK", "SK"}, order.Compare))
	assert.Equal(t, ""+
		"PK  |SK      |attributes\n"+
		"B#1 |B#1     |\n"+
		"A#1 |META    |n=4, title=one\n"+
		"A#1 |CHILD#2 |GSI=X#9\n", out.String())
}

// TestPrintTableNumbers: a number prints as DynamoDB stores it, as a key
// column and as an attribute, alone or in a set, list or map: never in
// exponent form (a float64 would print 1.798095538e+09 and 3e+09), never
// rounded (12345678901234567890123 has more digits than a float64 holds).
func TestPrintTableNumbers(t *testing.T) {
	db, name := putRaw(t, map[string]types.AttributeValue{
		"PK": s("A#1"), "SK": s("META"),
		"ttl":   n("1798095538"),
		"big":   n("3000000000"),
		"huge":  n("12345678901234567890123"),
		"small": n("0.000001"),
		"neg":   n("-2.5"),
		"ns":    &types.AttributeValueMemberNS{Value: []string{"3000000000"}},
		"l":     &types.AttributeValueMemberL{Value: []types.AttributeValue{n("3000000000"), s("x")}},
		"m":     &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"at": n("1798095538")}},
	})
	var out bytes.Buffer
	require.NoError(t, PrintTable(context.Background(), db, name, &out, []string{"PK", "SK", "ttl"}, nil))
	assert.Equal(t, ""+
		"PK  |SK   |ttl        |attributes\n"+
		"A#1 |META |1798095538 |big=3000000000, huge=12345678901234567890123, l=[3000000000 x], m=map[at:1798095538], "+
		"neg=-2.5, ns=[3000000000], small=0.000001\n", out.String())
}

func TestScanShapes(t *testing.T) {
	db, name := putRaw(t,
		map[string]types.AttributeValue{"PK": s("A#1"), "SK": s("META"), "title": s("one"), "n": n("4")},
		map[string]types.AttributeValue{"PK": s("A#1"), "SK": s("CHILD#2"), "GSI": s("X#9")},
		map[string]types.AttributeValue{"PK": s("B#1"), "SK": s("B#1")},
	)
	want := []Shape{
		{Keys: map[string]string{"PK": "A#1", "SK": "META"}, Attrs: []string{"n", "title"}},
		{Keys: map[string]string{"PK": "A#1", "SK": "CHILD#2", "GSI": "X#9"}, Attrs: []string{}},
		{Keys: map[string]string{"PK": "B#1", "SK": "B#1"}, Attrs: []string{}},
	}
	got, err := ScanShapes(context.Background(), db, name, "PK", "SK", "GSI")
	require.NoError(t, err)
	assert.ElementsMatch(t, want, got)

	// One item per page: every page is read.
	got, err = scanShapes(context.Background(), db, name, 1, []string{"PK", "SK", "GSI"})
	require.NoError(t, err)
	assert.ElementsMatch(t, want, got)

	_, err = ScanShapes(context.Background(), db, name, "PK", "SK", "n")
	require.ErrorContains(t, err, "key attribute n is a")
}

func TestPrintIndex(t *testing.T) {
	db := ddbtest.Client(t)
	name := ddbtest.TableName(t)
	ctx := context.Background()
	require.NoError(t, adjlist.CreateTable(ctx, db, adjlist.NewTable(db, name))) // GSI1 on GSI1PK, GSI1SK
	t.Cleanup(func() { require.NoError(t, DeleteTable(context.Background(), db, name)) })
	for _, item := range []map[string]types.AttributeValue{
		{"PK": s("A#1"), "SK": s("META"), "title": s("one")}, // not in the index
		{"PK": s("A#1"), "SK": s("E#B#2"), "GSI1PK": s("B#2"), "GSI1SK": s("A#1"), "n": n("4")},
		{"PK": s("A#0"), "SK": s("E#B#2"), "GSI1PK": s("B#2"), "GSI1SK": s("A#0")},
		{"PK": s("C#1"), "SK": s("E#B#1"), "GSI1PK": s("B#1"), "GSI1SK": s("C#1")},
	} {
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: item})
		require.NoError(t, err)
	}

	var out bytes.Buffer
	require.NoError(t, PrintIndex(ctx, db, name, "GSI1", &out, []string{"GSI1PK", "GSI1SK", "PK", "SK"}, nil))
	assert.Equal(t, ""+
		"GSI1PK |GSI1SK |PK  |SK    |attributes\n"+
		"B#1    |C#1    |C#1 |E#B#1 |\n"+
		"B#2    |A#0    |A#0 |E#B#2 |\n"+
		"B#2    |A#1    |A#1 |E#B#2 |n=4\n", out.String())

	require.Error(t, PrintIndex(ctx, db, name, "NOPE", &out, []string{"GSI1PK"}, nil))
}
