package exampletest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// recorder is a testing.TB that records failures instead of reporting them,
// so these tests can check that the helpers fail when they should. FailNow
// ends the calling goroutine, as testing.T's does; cleanups are collected
// and run by [failures].
type recorder struct {
	testing.TB // Name, Log, ...: the real test's

	mu       sync.Mutex
	errs     []string
	failed   bool
	cleanups []func()
}

func (r *recorder) Helper() {}

func (r *recorder) Fail() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
}

func (r *recorder) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recorder) Error(args ...any)                 { r.Errorf("%s", fmt.Sprint(args...)) }
func (r *recorder) FailNow()                          { r.Fail(); runtime.Goexit() }
func (r *recorder) Fatal(args ...any)                 { r.Error(args...); r.FailNow() }
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...); r.FailNow() }
func (r *recorder) Cleanup(f func())                  { r.cleanups = append(r.cleanups, f) }

// failures runs f, then the cleanups it registered, each in a goroutine of
// its own, and returns the failures they reported.
func failures(t *testing.T, f func(t testing.TB)) []string {
	rec := &recorder{TB: t}
	inGoroutine(func() { f(rec) })
	for i := len(rec.cleanups) - 1; i >= 0; i-- {
		inGoroutine(rec.cleanups[i])
	}
	return rec.errs
}

func inGoroutine(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

// createTable creates a table keyed on PK/SK, with GSI1 on GSI1PK/GSI1SK if
// index is set. A table that exists already is left as is.
func createTable(ctx context.Context, db exampleutil.API, table string, index bool) error {
	attr := func(name string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeTypeS}
	}
	in := &dynamodb.CreateTableInput{
		TableName:            aws.String(table),
		BillingMode:          types.BillingModePayPerRequest,
		KeySchema:            KeySchema("PK", "SK"),
		AttributeDefinitions: []types.AttributeDefinition{attr("PK"), attr("SK")},
	}
	if index {
		in.AttributeDefinitions = append(in.AttributeDefinitions, attr("GSI1PK"), attr("GSI1SK"))
		in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("GSI1"),
			KeySchema:  KeySchema("GSI1PK", "GSI1SK"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}}
	}
	_, err := db.CreateTable(ctx, in)
	if errors.As(err, new(*types.ResourceInUseException)) {
		err = nil
	}
	return err
}

func put(ctx context.Context, db exampleutil.API, table, pk, sk string) error {
	_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: pk},
		"SK": &types.AttributeValueMemberS{Value: sk},
		"n":  &types.AttributeValueMemberN{Value: "1"},
	}})
	return err
}

func TestItem(t *testing.T) {
	keys := map[string]string{"PK": "A#1", "SK": "META"}
	assert.Equal(t, exampleutil.Shape{Keys: keys, Attrs: []string{"a", "b", "c"}}, Item(keys, "c", "a", "b"))
	assert.Equal(t, exampleutil.Shape{Keys: keys, Attrs: []string{}}, Item(keys))
}

func TestRunTwice(t *testing.T) {
	ddbtest.Client(t) // skip or fail here, not in a recorder
	seed := Seed{KeyAttrs: []string{"PK", "SK"}, Items: []exampleutil.Shape{
		Item(map[string]string{"PK": "A#1", "SK": "META"}, "n"),
	}}
	// example writes seed's item, and on its second run extra items.
	example := func(extra ...string) exampleutil.Example {
		runs := 0
		return exampleutil.Example{Name: "demo", Run: func(ctx context.Context, db exampleutil.API, table string, cleanup bool, w io.Writer) error {
			if cleanup {
				return errors.New("cleanup set")
			}
			if err := createTable(ctx, db, table, false); err != nil {
				return err
			}
			if err := put(ctx, db, table, "A#1", "META"); err != nil {
				return err
			}
			if runs++; runs == 2 {
				for _, sk := range extra {
					if err := put(ctx, db, table, "A#1", sk); err != nil {
						return err
					}
				}
			}
			_, err := fmt.Fprintf(w, "run %d\n", runs)
			return err
		}}
	}

	t.Run("pass", func(t *testing.T) {
		var checked []string
		var db *dynamodb.Client
		var table string
		errs := failures(t, func(t testing.TB) {
			db, table = RunTwice(t, example(), seed, func(run int, out string) {
				checked = append(checked, fmt.Sprintf("%d:%s", run, out))
			})
		})
		assert.Empty(t, errs)
		assert.Equal(t, []string{"0:run 1\n", "1:run 2\n"}, checked)
		require.NotNil(t, db)
		_, err := db.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(table)})
		assert.ErrorAs(t, err, new(*types.ResourceNotFoundException), "the table is deleted at the end")
	})
	t.Run("second run changes the table", func(t *testing.T) {
		errs := failures(t, func(t testing.TB) {
			RunTwice(t, example("EXTRA"), seed, func(int, string) {})
		})
		require.Len(t, errs, 1)
		assert.Contains(t, errs[0], "run 1")
		assert.Contains(t, errs[0], "EXTRA")
	})
	t.Run("check fails", func(t *testing.T) {
		errs := failures(t, func(t testing.TB) {
			RunTwice(t, example(), seed, func(run int, out string) {
				assert.Contains(t, out, "run 3")
			})
		})
		assert.Len(t, errs, 2)
	})
	t.Run("run fails", func(t *testing.T) {
		checks := 0
		errs := failures(t, func(t testing.TB) {
			ex := exampleutil.Example{Run: func(ctx context.Context, db exampleutil.API, table string, _ bool, _ io.Writer) error {
				if err := createTable(ctx, db, table, false); err != nil {
					return err
				}
				return errors.New("boom")
			}}
			RunTwice(t, ex, seed, func(int, string) { checks++ })
		})
		require.Len(t, errs, 1)
		assert.Contains(t, errs[0], "boom")
		assert.Zero(t, checks, "a failed run stops the test")
	})
}

func TestCleanupDeletesTable(t *testing.T) {
	db := ddbtest.Client(t)
	example := func(deletes bool) (exampleutil.Example, *[]string) {
		tables := new([]string)
		return exampleutil.Example{Run: func(ctx context.Context, db exampleutil.API, table string, cleanup bool, w io.Writer) error {
			*tables = append(*tables, table)
			if !cleanup {
				return errors.New("cleanup not set")
			}
			if err := createTable(ctx, db, table, false); err != nil {
				return err
			}
			if deletes {
				return exampleutil.DeleteTable(ctx, db, table)
			}
			return nil
		}}, tables
	}

	ex, tables := example(true)
	assert.Empty(t, failures(t, func(t testing.TB) { CleanupDeletesTable(t, ex) }))
	assert.Len(t, *tables, 1)

	ex, tables = example(false)
	errs := failures(t, func(t testing.TB) { CleanupDeletesTable(t, ex) })
	require.Len(t, *tables, 1)
	require.NoError(t, exampleutil.DeleteTable(context.Background(), db, (*tables)[0]))
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0], "the table is gone")
}

func TestDescribe(t *testing.T) {
	ex := exampleutil.Example{Name: "demo", Model: func(db adjlist.Client, table string) (*adjlist.Table, []adjlist.Describer) {
		if table == "bad" {
			table = "" // no such model: an invalid table name
		}
		return adjlist.NewTable(db, table), nil
	}}
	var out string
	assert.Empty(t, failures(t, func(t testing.TB) { out = Describe(t, ex, "-table", "x") }))
	assert.Contains(t, out, "### Table `x`")
	assert.Empty(t, failures(t, func(t testing.TB) { out = Describe(t, ex) }))
	assert.Contains(t, out, "### Table `adjlist-demo`")

	errs := failures(t, func(t testing.TB) { Describe(t, ex, "-table", "bad") })
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0], "table name")
}

func TestContainsAll(t *testing.T) {
	var ok bool
	assert.Empty(t, failures(t, func(t testing.TB) { ok = ContainsAll(t, "alpha beta gamma", "alpha", "gamma") }))
	assert.True(t, ok)

	errs := failures(t, func(t testing.TB) { ok = ContainsAll(t, "alpha beta gamma", "delta", "beta", "omega") })
	assert.False(t, ok)
	require.Len(t, errs, 2, "each missing string is reported")
	assert.Contains(t, errs[0], "delta")
	assert.Contains(t, errs[1], "omega")
}

func TestOnlyIndex(t *testing.T) {
	db := ddbtest.Client(t)
	ctx := context.Background()
	table := func(index bool) string {
		name := ddbtest.TableName(t)
		require.NoError(t, createTable(ctx, db, name, index))
		t.Cleanup(func() { require.NoError(t, exampleutil.DeleteTable(context.Background(), db, name)) })
		return name
	}
	indexed, plain := table(true), table(false)

	desc := DescribeTable(t, db, plain)
	assert.Equal(t, KeySchema("PK", "SK"), desc.KeySchema)
	assert.Empty(t, desc.GlobalSecondaryIndexes)

	assert.Empty(t, failures(t, func(t testing.TB) { OnlyIndex(t, db, indexed, "GSI1", "GSI1PK", "GSI1SK") }))
	for _, tt := range []struct {
		name, table, index, partition, sort, want string
	}{
		{"wrong name", indexed, "GSI2", "GSI1PK", "GSI1SK", "GSI2"},
		{"keys swapped", indexed, "GSI1", "GSI1SK", "GSI1PK", "GSI1SK"},
		{"no index", plain, "GSI1", "GSI1PK", "GSI1SK", "should have 1 item"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			errs := failures(t, func(t testing.TB) { OnlyIndex(t, db, tt.table, tt.index, tt.partition, tt.sort) })
			require.Len(t, errs, 1)
			assert.Contains(t, errs[0], tt.want)
		})
	}

	errs := failures(t, func(t testing.TB) { DescribeTable(t, db, ddbtest.TableName(t)) })
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0], "ResourceNotFoundException")
}
