package adjlist

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adjlist/adjlist/internal/walks"
)

// Every Finding kind constant is the walks.Kind that Verify inspects,
// formats and repairs by: the two spell the same strings.
func TestFindingKindsAreVerifyKinds(t *testing.T) {
	for kind, want := range map[string]walks.Kind{
		FindingUnknownItem: walks.UnknownItem, FindingUndecodable: walks.Undecodable,
		FindingIndexKeyMissing: walks.IndexKeyMissing, FindingIndexKeyStale: walks.IndexKeyStale,
		FindingIndexKeyExtra: walks.IndexKeyExtra, FindingDanglingEdge: walks.DanglingEdge,
		FindingOrphan: walks.Orphan, FindingCounterMismatch: walks.CounterMismatch,
		FindingBadVersion: walks.BadVersion, FindingKeyMismatch: walks.KeyMismatch,
		FindingUndeclaredAttribute: walks.UndeclaredAttribute, FindingBadExpiry: walks.BadExpiry,
		FindingMisplaced: walks.Misplaced,
	} {
		assert.Equal(t, string(want), string(kind))
	}
}
