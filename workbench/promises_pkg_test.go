package workbench_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/workbench"
)

// failingWriter fails every write with its error.
type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }

// TestWorkbenchDateAndWriteError: Options.Date is "written as "Jan 2,
// 2006, 03:04 PM"", default time.Now(); Write "returns New's error or the
// write error".
func TestWorkbenchDateAndWriteError(t *testing.T) {
	m := newSchool(adjlist.NewTable(nil, "school", schoolOptions)).model(t)
	f, err := workbench.New(m, func(o *workbench.Options) { o.Date = time.Date(2026, 3, 4, 5, 6, 0, 0, time.UTC) })
	require.NoError(t, err)
	assert.Equal(t, "Mar 4, 2026, 05:06 AM", f.ModelMetadata.DateCreated)
	assert.Equal(t, f.ModelMetadata.DateCreated, f.ModelMetadata.DateLastModified)

	before := time.Now().Truncate(time.Minute)
	f, err = workbench.New(m)
	after := time.Now()
	require.NoError(t, err)
	made, err := time.ParseInLocation("Jan 2, 2006, 03:04 PM", f.ModelMetadata.DateCreated, time.Local)
	require.NoError(t, err)
	assert.False(t, made.Before(before) || made.After(after), "default date %s is now", f.ModelMetadata.DateCreated)

	errDisk := errors.New("disk full")
	require.ErrorIs(t, workbench.Write(failingWriter{errDisk}, m), errDisk)
}

// TestValueNull: Value's "zero value marshals as JSON null", and JSON null
// reads back as the zero value.
func TestValueNull(t *testing.T) {
	b, err := json.Marshal(workbench.Value{})
	require.NoError(t, err)
	assert.Equal(t, "null", string(b))
	v := workbench.Value{AttributeValue: nil}
	require.NoError(t, json.Unmarshal([]byte(`{"S": "a"}`), &v))
	require.NotNil(t, v.AttributeValue)
	require.NoError(t, json.Unmarshal([]byte(` null `), &v))
	assert.Nil(t, v.AttributeValue)
}

// TestWorkbenchRefusesBadOptions: Options.Projection is "ALL (default),
// KEYS_ONLY or INCLUDE with NonKeyAttributes", and a sample item needs
// the table's key attributes; anything else is an error wrapping
// adjlist.ErrInvalidOption from New and Write, with nothing written, as
// CreateTable and cloudformation.NewTemplate refuse the same projections.
func TestWorkbenchRefusesBadOptions(t *testing.T) {
	m := newSchool(adjlist.NewTable(nil, "school", schoolOptions)).model(t)
	for name, fn := range map[string]func(*workbench.Options){
		"unknown projection":         func(o *workbench.Options) { o.Projection = "EVERYTHING" },
		"include without attributes": func(o *workbench.Options) { o.Projection = types.ProjectionTypeInclude },
		"sample item without SK": func(o *workbench.Options) {
			o.Items = []map[string]types.AttributeValue{{"PK": &types.AttributeValueMemberS{Value: "STU#a"}}}
		},
		"sample item with a number PK": func(o *workbench.Options) {
			o.Items = []map[string]types.AttributeValue{{"PK": &types.AttributeValueMemberN{Value: "1"}, "SK": &types.AttributeValueMemberS{Value: "PROFILE"}}}
		},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := workbench.New(m, fn)
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
			var buf bytes.Buffer
			require.ErrorIs(t, workbench.Write(&buf, m, fn), adjlist.ErrInvalidOption)
			assert.Zero(t, buf.Len(), "nothing written")
		})
	}
	for _, p := range []types.ProjectionType{types.ProjectionTypeAll, types.ProjectionTypeKeysOnly} {
		_, err := workbench.New(m, func(o *workbench.Options) { o.Projection = p })
		require.NoError(t, err, "projection %s", p)
	}
}
