package exampleutil

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/trace"
)

// tracedRecorder is recorder with Traced set, whose Run opens one span
// named "run" with the TracerProvider it is given, if any.
func tracedRecorder() (Example, *[]trace.TracerProvider) {
	ex, _, _ := recorder(nil)
	ex.Traced = true
	var got []trace.TracerProvider
	ex.Run = func(ctx context.Context, _ API, _ string, _ bool, w io.Writer) error {
		tp := TracerProvider(ctx)
		got = append(got, tp)
		if tp != nil {
			_, sp := tp.Tracer("test").Start(ctx, "run")
			sp.End()
		}
		_, err := io.WriteString(w, "ran\n")
		return err
	}
	return ex, &got
}

// -trace: Run's context carries a provider that prints each span as one
// line of JSON as it ends; without -trace it carries none.
func TestExecuteTrace(t *testing.T) {
	stubConnect(t, fakeAPI{}, nil)
	ex, got := tracedRecorder()
	var out bytes.Buffer
	require.NoError(t, ex.Execute(context.Background(), []string{"-trace"}, &out))
	require.Len(t, *got, 1)
	assert.NotNil(t, (*got)[0])
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 2, out.String())
	var span struct{ Name string }
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &span), lines[0])
	assert.Equal(t, "run", span.Name)
	assert.Equal(t, "ran", lines[1])

	out.Reset()
	require.NoError(t, ex.Execute(context.Background(), nil, &out))
	require.Len(t, *got, 2)
	assert.Nil(t, (*got)[1], "no provider without -trace")
	assert.Equal(t, "ran\n", out.String())
}

// Only an example with Traced takes -trace, and not with -describe.
func TestExecuteTraceRefused(t *testing.T) {
	untraced, runs, _ := recorder(nil)
	traced, got := tracedRecorder()
	for _, tc := range []struct {
		name string
		ex   Example
		args []string
	}{
		{"untraced", untraced, []string{"-trace"}},
		{"with -describe", traced, []string{"-describe", "-trace"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls, _ := stubConnect(t, fakeAPI{}, nil)
			err := tc.ex.Execute(context.Background(), tc.args, io.Discard)
			assert.ErrorAs(t, err, new(usageError))
			assert.Empty(t, *calls)
		})
	}
	assert.Empty(t, *runs)
	assert.Empty(t, *got)

	// The usage line names -trace where it is taken.
	assert.Equal(t, "", untraced.traceUsage())
	assert.Equal(t, " [-trace]", traced.traceUsage())
}
