package readmecheck

// This file is the README's example of a service's own tests ("The test
// harness"), as it is: its TestMain is this package's.

// readme:begin
import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// One DynamoDB Local for all tests of this package, stopped after them.
func TestMain(m *testing.M) { ddbtest.Main(m) }

func TestMembership(t *testing.T) {
	m := NewModel(ddbtest.Client(t), ddbtest.TableName(t))
	ddbtest.CreateTable(t, m.Table) // the table and every index; deleted when t ends

	require.NoError(t, m.Users.Put(t.Context(), "ada", User{Name: "Ada"}))
	// ...
}

// readme:end
