package adjlist_test

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// secretForms are the spellings of key a formatted value may hold it in:
// raw, the decimal list %v prints of a []byte (with and without the
// brackets), hex (either case) and base64 (standard and URL, padded or not).
func secretForms(key []byte) []string {
	dec := fmt.Sprint(key)
	return []string{
		string(key), dec, strings.Trim(dec, "[]"), fmt.Sprintf("%#v", key),
		hex.EncodeToString(key), strings.ToUpper(hex.EncodeToString(key)),
		base64.StdEncoding.EncodeToString(key), base64.RawStdEncoding.EncodeToString(key),
		base64.URLEncoding.EncodeToString(key), base64.RawURLEncoding.EncodeToString(key),
	}
}

// No error and no span of any call holds the table's CursorKey, in any
// spelling: Check of a table whose options are refused, the calls of
// such a table, failing calls of a traced table, and a cursor refused.
func TestCursorKeyNeverPrinted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	key := []byte("super-secret-cursor-key-0123456789")
	forms := secretForms(key)
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { require.NoError(t, tp.Shutdown(ctx)) })
	withKey := func(o *adjlist.Options) { o.CursorKey, o.TracerProvider = key, tp }

	db := ddbtest.Client(t)
	good := adjlist.NewTable(db, ddbtest.TableName(t), withKey)
	require.NoError(t, adjlist.CreateTable(ctx, db, good))
	dropOnCleanup(t, db, good.Name())
	students := adjlist.NewNode[Student](good, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](good, "CRS", "METADATA")
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
	require.NoError(t, enrolled.Put(ctx, "a91", "math204", math204))
	require.NoError(t, enrolled.Put(ctx, "a91", "cs101", math204))
	first, err := enrolled.From("a91").Limit(1).Page(ctx, "")
	require.NoError(t, err)
	require.NotEmpty(t, first.Cursor)

	bad := func(fn func(*adjlist.Options)) *adjlist.Table {
		return adjlist.NewTable(db, ddbtest.TableName(t)+"-bad", withKey, fn)
	}
	badIndex := bad(func(o *adjlist.Options) { o.IndexPartitionKey = "SK" })
	badIndexes := bad(func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "PK"}}
	})
	badName := adjlist.NewTable(db, "", withKey)

	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"Check of a shared index key", badIndex.Check},
		{"Check of a bad index declaration", badIndexes.Check},
		{"Check of an empty name", badName.Check},
		{"a call of a refused table", func() error {
			return adjlist.NewNode[Student](badIndex, "STU", "PROFILE").Put(ctx, "a91", Student{})
		}},
		{"CreateTable of a refused table", func() error { return adjlist.CreateTable(ctx, db, badIndex) }},
		{"Get not found", func() error {
			_, err := students.Get(ctx, "nobody")
			return err
		}},
		{"a conditional write refused", func() error {
			return enrolled.Put(ctx, "a91", "math204", math204, func(o *adjlist.WriteOptions) {
				o.Condition = expression.AttributeNotExists(expression.Name("PK"))
			})
		}},
		{"a cursor edited", func() error {
			_, err := enrolled.From("a91").Limit(1).Page(ctx, first.Cursor[:len(first.Cursor)-2]+"AA")
			return err
		}},
		{"a cursor of another query", func() error {
			_, err := enrolled.From("b30").Limit(1).Page(ctx, first.Cursor)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			require.Error(t, err)
			for _, f := range forms {
				assert.NotContains(t, err.Error(), f)
				assert.NotContains(t, fmt.Sprintf("%+v", err), f)
			}
		})
	}
	spans := rec.Ended()
	require.NotEmpty(t, spans)
	for _, sp := range spans {
		texts := []string{sp.Name(), sp.Status().Description}
		for _, kv := range sp.Attributes() {
			texts = append(texts, kv.Value.Emit())
		}
		for _, ev := range sp.Events() {
			texts = append(texts, ev.Name)
			for _, kv := range ev.Attributes {
				texts = append(texts, kv.Value.Emit())
			}
		}
		for _, s := range texts {
			for _, f := range forms {
				assert.NotContains(t, s, f, "span %s", sp.Name())
			}
		}
	}
}

// scribble overwrites every string, number, bool and byte v holds,
// through slices and structs, so that whatever v shares with another
// value shows there.
func scribble(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "-changed")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Slice:
		for i := range v.Len() {
			scribble(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			scribble(v.Field(i))
		}
	}
}

// Table.Options returns a deep copy: changing every slice and field it
// returns, nested ones included, changes neither the table's options
// nor its indexes; and the slices NewTable was given stay the caller's.
func TestOptionsReturnsACopy(t *testing.T) {
	t.Parallel()
	key := []byte("0123456789abcdef0123456789abcdef")
	indexes := []adjlist.Index{
		{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK", Projection: types.ProjectionTypeInclude, NonKeyAttributes: []string{"name"}},
		{Name: "ByStatus", PartitionAttributes: []adjlist.KeyAttribute{{Name: "status"}}, SortAttributes: []adjlist.KeyAttribute{{Name: "at", Type: types.ScalarAttributeTypeN}}},
	}
	table := adjlist.NewTable(nil, "t", func(o *adjlist.Options) { o.CursorKey, o.Indexes = key, indexes })
	require.NoError(t, table.Check())
	want, wantIndexes := table.Options(), indexesOf(t, table)
	require.Equal(t, key, want.CursorKey)

	for _, mutate := range []func(){
		func() {
			got := table.Options()
			scribble(reflect.ValueOf(&got).Elem())
		},
		func() { scribble(reflect.ValueOf(key)); scribble(reflect.ValueOf(indexes)) },
	} {
		mutate()
		assert.Equal(t, want, table.Options())
		assert.Equal(t, wantIndexes, indexesOf(t, table))
	}
	assert.Equal(t, "GSI2", table.Options().Indexes[0].Name)
	assert.Equal(t, []byte("0123456789abcdef0123456789abcdef"), table.Options().CursorKey)
}
