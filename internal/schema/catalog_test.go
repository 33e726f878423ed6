package schema

import (
	"errors"
	"testing"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPutReplacesInPlace(t *testing.T) {
	list := Put([]string{"a1", "b1"}, "c1", func(s string) bool { return s[0] == 'c' })
	list = Put(list, "a2", func(s string) bool { return s[0] == 'a' })
	assert.Equal(t, []string{"a2", "b1", "c1"}, list)
}

type rec struct {
	name, key string
	err       error
}

func TestCheckJoins(t *testing.T) {
	own := errors.New("table")
	bad := errors.New("bad template")
	typ := func(r rec) Type { return Type{r.name, r.err} }
	same := func(a, b rec) bool { return a.key == b.key }
	require.NoError(t, Check(nil, []rec{{"a", "x", nil}, {"b", "y", nil}}, typ, same))
	err := Check(own, []rec{{"a", "x", nil}, {"b", "x", nil}, {"c", "", bad}, {"d", "", bad}}, typ, same)
	require.ErrorIs(t, err, own)
	require.ErrorIs(t, err, bad)
	require.ErrorIs(t, err, errs.ErrInvalidOption)
	assert.EqualError(t, err, "table\nadjlist: invalid option: a and b could have the same keys\nc: bad template")
}
