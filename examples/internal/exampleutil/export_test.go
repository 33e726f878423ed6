package exampleutil

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/cloudformation"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/workbench"
)

type profile struct {
	Name string `dynamodbav:"name"`
}

// modelled is an Example with a one-node model, described with
// [Describe]; its run writes one node.
func modelled() Example {
	model := func(db adjlist.Client, table string) (*adjlist.Table, *adjlist.Node[profile]) {
		t := adjlist.NewTable(db, table)
		return t, adjlist.NewNode[profile](t, "USER", "PROFILE")
	}
	return Example{
		Name: "demo",
		Model: func(db adjlist.Client, table string) (*adjlist.Table, []adjlist.Describer) {
			t, users := model(db, table)
			return t, []adjlist.Describer{users}
		},
		Run: func(ctx context.Context, db API, table string, cleanup bool, w io.Writer) error {
			t, users := model(db, table)
			if err := adjlist.CreateTable(ctx, db, t); err != nil {
				return err
			}
			if err := users.Put(ctx, "ada", profile{Name: "Ada"}); err != nil {
				return err
			}
			if cleanup {
				return DeleteTable(ctx, db, table)
			}
			return nil
		},
	}
}

func readJSON[T any](t *testing.T, path string) T {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var v T
	require.NoError(t, json.Unmarshal(b, &v))
	return v
}

// TestDescribeWritesExports: -describe prints the Markdown and the
// diagram, and writes both files without connecting.
func TestDescribeWritesExports(t *testing.T) {
	calls, _ := stubConnect(t, fakeAPI{}, nil)
	dir := t.TempDir()
	wb, cf := filepath.Join(dir, "wb.json"), filepath.Join(dir, "cf.json")
	var out bytes.Buffer
	require.NoError(t, modelled().Execute(context.Background(), []string{"-describe", "-table", "t1", "-workbench", wb, "-cloudformation", cf}, &out))
	assert.Empty(t, *calls)
	assert.Contains(t, out.String(), "### Table `t1`")
	assert.Contains(t, out.String(), "| node USER | `USER#<id>` | `PROFILE` |")
	assert.Contains(t, out.String(), "|\n\n```mermaid\nflowchart LR\n  n_USER[")
	f := readJSON[workbench.File](t, wb)
	assert.Equal(t, "t1", f.DataModel[0].TableName)
	assert.Empty(t, f.DataModel[0].TableData)
	tpl := readJSON[cloudformation.Template](t, cf)
	assert.Equal(t, "t1", tpl.Resources["Table"].Properties.TableName)

	// Without the files, -describe writes none.
	out.Reset()
	require.NoError(t, modelled().Execute(context.Background(), []string{"-describe"}, &out))
	assert.Contains(t, out.String(), "```mermaid")
}

// TestRunWritesExports: after a run, the Workbench file carries the
// table's items, unless -cleanup deleted the table; nothing is printed
// for the exports.
func TestRunWritesExports(t *testing.T) {
	db := ddbtest.Client(t)
	for _, cleanup := range []bool{false, true} {
		stubConnect(t, db, nil)
		dir := t.TempDir()
		wb, cf := filepath.Join(dir, "wb.json"), filepath.Join(dir, "cf.json")
		table := ddbtest.TableName(t)
		args := []string{"-table", table, "-workbench", wb, "-cloudformation", cf}
		if cleanup {
			args = append(args, "-cleanup")
		} else {
			t.Cleanup(func() { require.NoError(t, DeleteTable(context.Background(), db, table)) })
		}
		var out bytes.Buffer
		require.NoError(t, modelled().Execute(context.Background(), args, &out))
		assert.Empty(t, out.String())
		f := readJSON[workbench.File](t, wb)
		if cleanup {
			assert.Empty(t, f.DataModel[0].TableData)
		} else {
			require.Len(t, f.DataModel[0].TableData, 1)
			assert.Equal(t, &types.AttributeValueMemberS{Value: "USER#ada"}, f.DataModel[0].TableData[0]["PK"].AttributeValue)
		}
		assert.FileExists(t, cf)
	}
}

func TestExportErrors(t *testing.T) {
	stubConnect(t, fakeAPI{}, nil)
	missing := filepath.Join(t.TempDir(), "no", "such", "dir", "x.json")
	for _, flag := range []string{"-workbench", "-cloudformation"} {
		err := modelled().Execute(context.Background(), []string{"-describe", flag, missing}, io.Discard)
		require.ErrorIs(t, err, os.ErrNotExist, flag)
	}
	bad := Example{Name: "bad", Model: func(adjlist.Client, string) (*adjlist.Table, []adjlist.Describer) {
		return adjlist.NewTable(nil, ""), nil
	}}
	require.ErrorIs(t, bad.Execute(context.Background(), []string{"-describe"}, io.Discard), adjlist.ErrInvalidOption)
}
