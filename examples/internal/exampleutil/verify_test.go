package exampleutil

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// follows is a two-user model with a FOLLOWS edge between users, whose
// items carry the inverted index keys (GSI1PK, GSI1SK).
func follows(db adjlist.Client, table string) (*adjlist.Table, *adjlist.Node[profile], *adjlist.Edge[struct{}]) {
	t := adjlist.NewTable(db, table)
	users := adjlist.NewNode[profile](t, "USER", "PROFILE")
	return t, users, adjlist.NewEdge[struct{}](users, "FOLLOWS", users)
}

// verifiable is an Example on the follows model: its run writes users ada
// and bob and the edge ada → bob, then calls spoil (if set) to damage the
// table behind the library's back. cleanups records the cleanup argument
// of each run.
func verifiable(spoil func(ctx context.Context, db API, table string) error) (ex Example, cleanups *[]bool) {
	cleanups = new([]bool)
	return Example{
		Name: "demo",
		Model: func(db adjlist.Client, table string) (*adjlist.Table, []adjlist.Describer) {
			t, users, edge := follows(db, table)
			return t, []adjlist.Describer{users, edge}
		},
		Run: func(ctx context.Context, db API, table string, cleanup bool, w io.Writer) error {
			*cleanups = append(*cleanups, cleanup)
			t, users, edge := follows(db, table)
			if err := adjlist.CreateTable(ctx, db, t); err != nil {
				return err
			}
			for _, id := range []string{"ada", "bob"} {
				if err := users.Put(ctx, id, profile{Name: id}); err != nil {
					return err
				}
			}
			if err := edge.Put(ctx, "ada", "bob", struct{}{}); err != nil {
				return err
			}
			if spoil != nil {
				if err := spoil(ctx, db, table); err != nil {
					return err
				}
			}
			if cleanup {
				return DeleteTable(ctx, db, table)
			}
			return nil
		},
	}, cleanups
}

// tableExists reports whether DynamoDB has table.
func tableExists(t *testing.T, db *dynamodb.Client, table string) bool {
	t.Helper()
	_, err := db.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	var nf *types.ResourceNotFoundException
	if err != nil {
		require.ErrorAs(t, err, &nf)
		return false
	}
	return true
}

// TestVerifyClean: -verify after a run that wrote only through the library
// reports the items scanned and no findings, and succeeds; with -cleanup the
// run itself keeps the table, which is deleted after the check.
func TestVerifyClean(t *testing.T) {
	db := ddbtest.Client(t)
	for _, cleanup := range []bool{false, true} {
		_, stopped := stubConnect(t, db, nil)
		table := ddbtest.TableName(t)
		args := []string{"-table", table, "-verify"}
		if cleanup {
			args = append(args, "-cleanup")
		}
		ex, cleanups := verifiable(nil)
		var out bytes.Buffer
		require.NoError(t, ex.Execute(context.Background(), args, &out), "cleanup %t", cleanup)
		assert.Equal(t, "\nverify "+table+": 3 items scanned, no findings\n", out.String())
		assert.Equal(t, []bool{false}, *cleanups, "the run never deletes the table before the check")
		assert.Equal(t, 1, *stopped)
		if assert.Equal(t, !cleanup, tableExists(t, db, table), "-cleanup deletes the table after the check") && !cleanup {
			require.NoError(t, DeleteTable(context.Background(), db, table))
		}
	}
}

// TestVerifyFindings: -verify after a run that damaged its table prints
// each finding on its line and fails with ErrFindings; with -cleanup the
// table is deleted all the same, and nothing is exported.
func TestVerifyFindings(t *testing.T) {
	db := ddbtest.Client(t)
	spoil := func(ctx context.Context, db API, table string) error {
		// The edge ada → bob listed under carol in the inverted index, and
		// an item of no declared type.
		if _, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                 aws.String(table),
			Key:                       map[string]types.AttributeValue{"PK": s("USER#ada"), "SK": s("FOLLOWS#USER#bob")},
			UpdateExpression:          aws.String("SET GSI1PK = :c"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":c": s("USER#carol")},
		}); err != nil {
			return err
		}
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table),
			Item: map[string]types.AttributeValue{"PK": s("JUNK#1"), "SK": s("X")}})
		return err
	}
	for _, cleanup := range []bool{false, true} {
		stubConnect(t, db, nil)
		table := ddbtest.TableName(t)
		wb := t.TempDir() + "/wb.json"
		args := []string{"-table", table, "-verify", "-workbench", wb}
		if cleanup {
			args = append(args, "-cleanup")
		} else {
			t.Cleanup(func() { require.NoError(t, DeleteTable(context.Background(), db, table)) })
		}
		ex, _ := verifiable(spoil)
		var out bytes.Buffer
		err := ex.Execute(context.Background(), args, &out)
		require.ErrorIs(t, err, ErrFindings, "cleanup %t", cleanup)
		assert.EqualError(t, err, "verify "+table+": 2 findings: the table does not verify clean")
		assert.Equal(t, "\nverify "+table+": 4 items scanned, 2 findings:\n"+
			"  unknown item: \"JUNK#1\" \"X\"\n"+
			"  index key stale: \"USER#ada\" \"FOLLOWS#USER#bob\" (edge FOLLOWS (USER → USER)): GSI1PK = \"USER#carol\", want \"USER#bob\"\n",
			out.String())
		assert.Equal(t, !cleanup, tableExists(t, db, table))
		assert.NoFileExists(t, wb, "a failed check exports nothing")
	}
}

// TestVerifyError: a Verify that cannot walk the table fails the command
// with its own error, not ErrFindings.
func TestVerifyError(t *testing.T) {
	db := ddbtest.Client(t)
	stubConnect(t, db, nil)
	table := ddbtest.TableName(t)
	t.Cleanup(func() { require.NoError(t, DeleteTable(context.Background(), db, table)) })
	ex, _ := verifiable(nil)
	model := ex.Model
	ex.Model = func(db adjlist.Client, _ string) (*adjlist.Table, []adjlist.Describer) {
		return model(db, table+"-missing") // the run's table under another name
	}
	var out bytes.Buffer
	err := ex.Execute(context.Background(), []string{"-table", table, "-verify"}, &out)
	var nf *types.ResourceNotFoundException
	require.ErrorAs(t, err, &nf)
	assert.NotErrorIs(t, err, ErrFindings)
	assert.Empty(t, out.String())
}
