package ddbtest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	public "github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/internal/ddbtest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// The old import path is the same harness: one server, one client.
func TestForwardsToPublicHarness(t *testing.T) {
	assert.Same(t, public.Client(t), ddbtest.Client(t))
	assert.NotEqual(t, public.TableName(t), ddbtest.TableName(t))
}
